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

from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True, slots=True)
class GridDeal(ActionBase):
    """The dealt Star Sector: per cell (planet index, level); level 5 = Dark Planet."""

    cells: tuple[tuple[int, int], ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class PlanetDeal(ActionBase):
    """Personalized variant: the six planets dealt to each seat."""

    hands: tuple[tuple[int, ...], ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class DeckOrder(ActionBase):
    """The replacement deck's order, top card first."""

    cards: tuple[int, ...]
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class MissionDeal(ActionBase):
    """Per seat the (1-point, 2-point, 3-point) mission indices."""

    seats: tuple[tuple[int, int, int], ...]
    text: str

    def __str__(self) -> str:
        return self.text


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
