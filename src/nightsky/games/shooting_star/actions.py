"""Shooting Star actions and chance outcomes, with their notation.

Player actions (all built once per Game and reused):

* ``Place``: put a Destruction card face down: ``P3@2,1`` (Priority 3 at column 2, row 1) or
  ``S@2,1`` (the Space Shield). Columns and rows count from 1, left to right, top to bottom.
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

# Player actions are built once per Game (``place_rows``, ``build_rows``, ``discards``) and
# compared and hashed on the hot path (legality checks, search trees keyed by action), so
# they define a cheap ``__eq__`` (identity first) and ``__hash__`` instead of the generated
# ones; equality still compares the class and every field, as a dataclass's would.


@dataclass(frozen=True, slots=True, eq=False)
class Place(ActionBase):
    """Place Destruction card ``card`` (0..7 = Priority 1..8, 8 = Shield) on ``cell``."""

    card: int
    cell: int
    col: int  # 1-based, for the notation
    row: int

    def __str__(self) -> str:
        return f"{CARD_KEYS[self.card]}@{self.col},{self.row}"

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if type(other) is not Place:
            return NotImplemented
        return (
            self.cell == other.cell
            and self.card == other.card
            and self.col == other.col
            and self.row == other.row
        )

    def __hash__(self) -> int:
        return self.cell * 9 + self.card


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

    def __str__(self) -> str:
        if self.level == DARK_LEVEL:
            return f"{self.code}@{self.col},{self.row}"
        return f"{self.code}:{self.level}@{self.col},{self.row}"

    def __eq__(self, other: object) -> bool:
        if other is self:
            return True
        if type(other) is not Build:
            return NotImplemented
        return (
            self.cell == other.cell
            and self.planet == other.planet
            and self.level == other.level
            and self.code == other.code
            and self.col == other.col
            and self.row == other.row
        )

    def __hash__(self) -> int:
        return (self.cell * 64 + self.planet) * 8 + self.level


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
