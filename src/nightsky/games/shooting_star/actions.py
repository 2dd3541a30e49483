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

from typing import NamedTuple

from nightsky.games.shooting_star.constants import CARD_KEYS, SHIELD

__all__ = [
    "CARD_KEYS",
    "SHIELD",
    "Build",
    "DeckOrder",
    "Discard",
    "GridDeal",
    "MissionDeal",
    "Place",
    "PlanetDeal",
]


class Place(NamedTuple):
    """Place Destruction card ``card`` (0..7 = Priority 1..8, 8 = Shield) on ``cell``."""

    card: int
    cell: int
    col: int  # 1-based, for the notation
    row: int

    def __str__(self) -> str:
        return f"{CARD_KEYS[self.card]}@{self.col},{self.row}"


class Build(NamedTuple):
    """Personalized variant: place planet ``planet`` with ``level`` up on ``cell``
    (level 5 marks a Dark Planet)."""

    planet: int
    level: int
    cell: int
    code: str
    col: int
    row: int

    def __str__(self) -> str:
        if self.level == 5:
            return f"{self.code}@{self.col},{self.row}"
        return f"{self.code}:{self.level}@{self.col},{self.row}"


class Discard(NamedTuple):
    """Personalized variant: return an unplaceable planet to the box (ruling SS-14.7)."""

    planet: int
    code: str

    def __str__(self) -> str:
        return f"{self.code}:out"


class GridDeal(NamedTuple):
    """The dealt Star Sector: per cell (planet index, level); level 5 = Dark Planet."""

    cells: tuple[tuple[int, int], ...]
    text: str

    def __str__(self) -> str:
        return self.text


class PlanetDeal(NamedTuple):
    """Personalized variant: the six planets dealt to each seat."""

    hands: tuple[tuple[int, ...], ...]
    text: str

    def __str__(self) -> str:
        return self.text


class DeckOrder(NamedTuple):
    """The replacement deck's order, top card first."""

    cards: tuple[int, ...]
    text: str

    def __str__(self) -> str:
        return self.text


class MissionDeal(NamedTuple):
    """Per seat the (1-point, 2-point, 3-point) mission indices."""

    seats: tuple[tuple[int, int, int], ...]
    text: str

    def __str__(self) -> str:
        return self.text
