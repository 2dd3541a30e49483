"""Shooting Star actions and chance outcomes, with their notation.

Player actions (all built once per Game and reused):

* ``Place``: put a Destruction card face down: ``P3@2,1`` (Priority 3 at column 2, row 1) or
  ``S@2,1`` (the Space Shield). Columns and rows count from 1, left to right, top to bottom; on
  a built (Personalized) sector from the first planet at 8,8, so they may be 0 or negative.
* ``Build``: Personalized Star Sector variant, put a planet from your hand on the table with a
  side up: ``n03:4@8,8`` (planet n03, Level 4 up), ``d2@8,7`` (a Dark Planet has one side).
* ``Discard``: Personalized variant only, when none of your planets fits anywhere: ``d2:out``.

Chance outcomes (sampled, never enumerated):

* ``GridDeal``: the Star Sector: ``grid n03:4 p12:1 d2 ...`` one entry per cell, row by row.
* ``PlanetDeal``: Personalized variant: ``deal p01,n03,.../p07,...`` six planets per seat.
* ``DeckOrder``: the replacement deck, top card first: ``deck p04 p19 ...``.
* ``MissionDeal``: ``missions 1a-2c-3e/1b-2d-3a`` one 1-, 2- and 3-point mission per seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from nightsky.core.game import ActionBase
from nightsky.games.shooting_star.constants import CARD_KEYS, DARK_LEVEL

__all__ = [
    "Build",
    "DeckOrder",
    "Discard",
    "GridDeal",
    "MissionDeal",
    "Place",
    "PlanetDeal",
]

# The player actions that search trees hash by the thousand (``Place``, ``Build``) spell out
# a cheap equality (identity first, then the fields, the class included) and an integer hash
# that differs for every card and cell, instead of the dataclass's tuple of every field: the
# same in compiled and pure code, and pickling builds equal objects.


@dataclass(frozen=True, slots=True, eq=False)
class Place(ActionBase):
    """Place Destruction card ``card`` (0..7 = Priority 1..8, 8 = Shield) on ``cell``."""

    card: int
    cell: int
    col: int  # 1-based, for the notation
    row: int

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Place
            and other.cell == self.cell
            and other.card == self.card
            and other.col == self.col
            and other.row == self.row
        )

    def __hash__(self) -> int:
        return self.cell * 16 + self.card

    def __reduce__(self) -> tuple[Any, ...]:
        return (Place, (self.card, self.cell, self.col, self.row))

    def __str__(self) -> str:
        return f"{CARD_KEYS[self.card]}@{self.col},{self.row}"


@dataclass(frozen=True, slots=True, eq=False)
class Build(ActionBase):
    """Personalized variant: place planet ``planet`` with ``level`` up on ``cell``
    (level 5 marks a Dark Planet)."""

    planet: int
    level: int
    cell: int
    code: str
    col: int
    row: int

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Build
            and other.cell == self.cell
            and other.planet == self.planet
            and other.level == self.level
            and other.code == self.code
            and other.col == self.col
            and other.row == self.row
        )

    def __hash__(self) -> int:
        return (self.cell * 64 + self.planet) * 8 + self.level

    def __reduce__(self) -> tuple[Any, ...]:
        return (Build, (self.planet, self.level, self.cell, self.code, self.col, self.row))

    def __str__(self) -> str:
        if self.level == DARK_LEVEL:
            return f"{self.code}@{self.col},{self.row}"
        return f"{self.code}:{self.level}@{self.col},{self.row}"


@dataclass(frozen=True, slots=True)
class Discard(ActionBase):
    """Personalized variant: return an unplaceable planet to the box (ruling SS-14.7)."""

    planet: int
    code: str

    def __str__(self) -> str:
        return f"{self.code}:out"


# The chance outcomes are plain classes, not dataclasses: a dataclass's generated ``__init__``
# runs as interpreted Python even in a compiled module (docs/performance.md, mypyc trap 12), and
# three of them are built in every game. Their notation is spelled when it is first read
# (``str``), not when they are dealt: a random playout or a search never reads it.


class _Dealt(ActionBase):
    """A set-up outcome: its fields (``value``, read under the name ``_field``) and its
    notation, spelled on first read from the game's ``codes`` (immutable by convention:
    nothing assigns its fields after ``__init__``)."""

    __slots__ = ("_value", "_codes", "_text")
    _field: ClassVar[str] = "value"

    def __init__(self, value: Any, codes: Any, text: str | None = None) -> None:
        self._value = value
        self._codes = codes
        self._text = text

    def _spell(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        text = self._text
        if text is None:
            text = self._spell()
            self._text = text
        return text

    def __eq__(self, other: object) -> bool:
        # as the dataclasses compared them: same class, same fields, same notation
        if self is other:
            return True
        if type(other) is not type(self) or not isinstance(other, _Dealt):
            return False
        return other._value == self._value and (
            other._codes is self._codes or str(other) == str(self)
        )

    def __hash__(self) -> int:
        return hash(self._value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._field}={self._value!r}, text={str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # the text goes along, so the copy never needs the game's codes
        return (type(self), (self._value, (), str(self)))


class GridDeal(_Dealt):
    """The dealt Star Sector: per cell (planet index, level); level 5 = Dark Planet.
    ``codes``: the game's ``(grid_tokens, p_code)`` (``grid_text``)."""

    __slots__ = ()
    _field = "cells"

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        cells: tuple[tuple[int, int], ...] = self._value
        return cells

    def _spell(self) -> str:
        tokens, codes = self._codes
        return grid_text(tokens, codes, self._value)


class PlanetDeal(_Dealt):
    """Personalized variant: the six planets dealt to each seat (``codes``: ``p_code``)."""

    __slots__ = ()
    _field = "hands"

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        hands: tuple[tuple[int, ...], ...] = self._value
        return hands

    def _spell(self) -> str:
        return deal_text(self._codes, self._value)


class DeckOrder(_Dealt):
    """The replacement deck's order, top card first (``codes``: ``p_code``)."""

    __slots__ = ()
    _field = "cards"

    @property
    def cards(self) -> tuple[int, ...]:
        cards: tuple[int, ...] = self._value
        return cards

    def _spell(self) -> str:
        return deck_text(self._codes, self._value)


class MissionDeal(_Dealt):
    """Per seat the (1-point, 2-point, 3-point) mission indices (``codes``: the game's
    ``mission_codes``)."""

    __slots__ = ()
    _field = "seats"

    @property
    def seats(self) -> tuple[tuple[int, int, int], ...]:
        seats: tuple[tuple[int, int, int], ...] = self._value
        return seats

    def private_lines(self) -> MissionLines:
        """Each seat's own log line of this deal (``LogSecret.private``), spelled on read."""
        return MissionLines(self._codes, self._value)

    def _spell(self) -> str:
        return missions_text(self._codes, self._value)


class MissionLines:
    """``{seat: "missions 1a-2c-3e (yours)"}`` of one deal, as a read-only mapping whose lines
    are spelled when read (the log of a random playout or a search is never read)."""

    def __init__(self, codes: tuple[str, ...], seats: tuple[tuple[int, int, int], ...]) -> None:
        self._codes = codes
        self._seats = seats

    def __getitem__(self, seat: int) -> str:
        if not 0 <= seat < len(self._seats):
            raise KeyError(seat)
        return f"missions {trio_text(self._codes, self._seats[seat])} (yours)"

    def get(self, seat: object, default: str) -> str:
        if type(seat) is int and 0 <= seat < len(self._seats):
            return self[seat]
        return default

    def keys(self) -> list[int]:
        return list(range(len(self._seats)))

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self._seats)))

    def __len__(self) -> int:
        return len(self._seats)

    def __contains__(self, seat: object) -> bool:
        return type(seat) is int and 0 <= seat < len(self._seats)

    def items(self) -> list[tuple[int, str]]:
        return [(seat, self[seat]) for seat in range(len(self._seats))]

    def __eq__(self, other: object) -> bool:
        try:
            return dict(self.items()) == dict(other)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return False

    def __repr__(self) -> str:
        return repr(dict(self.items()))


# ---------------------------------------------------------------- chance notation
# Written here, in a compiled module, because every set-up draw spells its outcome out. The
# outcome's fields are typed ``Any``: callers may hand in lists (a compiled ``tuple`` parameter
# would refuse them).


def grid_text(tokens: tuple[tuple[str, ...], ...], codes: tuple[str, ...], cells: Any) -> str:
    """``grid ...``: per cell ``.`` (no planet), ``code`` (a Dark Planet) or ``code:level``;
    ``tokens[planet][level]`` spells the usual ones."""
    parts: list[str] = []
    for p, lv in cells:
        if p < 0:
            parts.append(".")
        elif 0 <= lv <= DARK_LEVEL:
            parts.append(tokens[p][lv])
        else:
            parts.append(f"{codes[p]}:{lv}")
    return "grid " + " ".join(parts)


def deal_text(codes: tuple[str, ...], hands: Any) -> str:
    """``deal p01,n03,.../p07,...``: six planets per seat."""
    return "deal " + "/".join([",".join([codes[p] for p in h]) for h in hands])


def deck_text(codes: tuple[str, ...], cards: Any) -> str:
    """``deck p04 p19 ...``, top card first."""
    return "deck " + " ".join([codes[p] for p in cards]) if cards else "deck"


def trio_text(codes: tuple[str, ...], trio: Any) -> str:
    """One seat's three Secret Missions: ``1a-2c-3e``."""
    one, two, three = trio
    return f"{codes[one]}-{codes[two]}-{codes[three]}"


def missions_text(codes: tuple[str, ...], seats: Any) -> str:
    """``missions 1a-2c-3e/1b-2d-3a``."""
    return "missions " + "/".join([trio_text(codes, trio) for trio in seats])
