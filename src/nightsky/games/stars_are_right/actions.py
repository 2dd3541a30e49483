"""The actions of The Stars Are Right and their notation.

A turn is a sequence of these small actions in the rulebook's order (TSAR-2.1). Cells are named
like a chess board: columns ``a``..``e`` left to right, rows ``1``..``5`` top to bottom, so
``c2`` is row 2, column 3 (position ``(2-1)*5 + 2 = 7``). Every action carries its notation as
``text`` (built once per game), and compares by its meaningful fields only (and its class:
every action is a frozen dataclass subclassing ``ActionBase``).

Each action spells out its ``__eq__`` and ``__hash__`` (``eq=False``): the methods ``@dataclass``
generates stay interpreted Python even in this compiled module, and search trees and legal-move
checks hash and compare these actions by the thousand. They mean what the generated ones meant:
equal when the class and the compared fields are; the hash is that of the compared fields'
tuple, the very value the dataclass gave.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from nightsky.core.game import ActionBase

from .constants import COLS

__all__ = [
    "COLS", "END", "Discard", "Draw", "End", "Exchange", "Flip", "Invoke", "PlaceTile", "Power",
    "Push", "Release", "Summon", "Swap", "Take", "cell_name", "cell_pos", "tile_target",
]


_set: Final = object.__setattr__


def cell_name(pos: int) -> str:
    """Position 0..24 -> ``a1``..``e5``."""
    return f"{COLS[pos % 5]}{pos // 5 + 1}"


def cell_pos(name: str) -> int:
    """``a1``..``e5`` -> position 0..24 (ValueError otherwise)."""
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in COLS or name[1] not in "12345":
        raise ValueError(f"not a cell: {name!r}")
    return (int(name[1]) - 1) * 5 + COLS.index(name[0])


def tile_target(pos: int) -> str:
    """The board element id of a sky position for clients: ``tile-<row>-<col>`` (0-based)."""
    return f"tile-{pos // 5}-{pos % 5}"


@dataclass(frozen=True, slots=True, eq=False)
class Invoke(ActionBase):
    """Step 1: discard a hand card to gain its invocation symbols."""

    card: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Invoke
            and other.card == self.card
        )

    def __hash__(self) -> int:
        return hash((self.card,))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Power(ActionBase):
    """Step 2: use the power of a summoned creature on one of the gained symbols."""

    card: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Power
            and other.card == self.card
        )

    def __hash__(self) -> int:
        return hash((self.card,))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Push(ActionBase):
    """Push symbol: move row/column ``index`` by one step ``delta`` (+1 right/down, -1 left/up)."""

    column: bool
    index: int
    delta: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Push
            and other.column == self.column
            and other.index == self.index
            and other.delta == self.delta
        )

    def __hash__(self) -> int:
        return hash((self.column, self.index, self.delta))

    def __str__(self) -> str:
        return self.text

    def path(self) -> list[int]:
        """Positions of the line, in the order the tiles move along."""
        if self.column:
            line = [r * 5 + self.index for r in range(5)]
        else:
            line = [self.index * 5 + c for c in range(5)]
        return line


@dataclass(frozen=True, slots=True, eq=False)
class Swap(ActionBase):
    """Swap symbol: exchange two orthogonally adjacent tiles (a < b)."""

    a: int
    b: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Swap
            and other.a == self.a
            and other.b == self.b
        )

    def __hash__(self) -> int:
        return hash((self.a, self.b))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Flip(ActionBase):
    """Flip symbol: turn the tile at ``pos`` over."""

    pos: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Flip
            and other.pos == self.pos
        )

    def __hash__(self) -> int:
        return hash((self.pos,))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Summon(ActionBase):
    """Step 4: summon ``card`` from the hand, ignoring the bonus stars of ``bonus`` servitors.

    ``tiles`` (one tuple of positions per constellation) says where the constellations are. It
    does not change what the summoning does, so it is not part of the action's identity: the
    legal list offers one placement per choice, a player may name any other valid one, and an
    action without tiles lets the rules pick the first placement (TSAR-6.7).
    """

    card: int
    bonus: tuple[int, ...]
    text: str = field(compare=False)
    tiles: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    def __init__(self, card: int, bonus: tuple[int, ...], text: str,
                 tiles: tuple[tuple[int, ...], ...] = ()) -> None:
        # Spelled out: the generated ``__init__`` runs as interpreted Python even compiled
        # (trap 12), and a legal-action list builds a summoning per card a new sky shows.
        # ``object.__setattr__`` as the generated one does: the class is frozen.
        _set(self, "card", card)
        _set(self, "bonus", bonus)
        _set(self, "text", text)
        _set(self, "tiles", tiles)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Summon
            and other.card == self.card
            and other.bonus == self.bonus
        )

    def __hash__(self) -> int:
        return hash((self.card, self.bonus))

    def __str__(self) -> str:
        if not self.tiles:
            return self.text
        return self.text + " @ " + "; ".join(",".join(map(cell_name, t)) for t in self.tiles)


@dataclass(frozen=True, slots=True, eq=False)
class Discard(ActionBase):
    """Step 5: discard a card from the hand."""

    card: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Discard
            and other.card == self.card
        )

    def __hash__(self) -> int:
        return hash((self.card,))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Release(ActionBase):
    """Discard one of your creatures after gaining a seventh (TSAR-6.8)."""

    card: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Release
            and other.card == self.card
        )

    def __hash__(self) -> int:
        return hash((self.card,))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Exchange(ActionBase):
    """Gug/Tindaloo: discard ``minion`` to trade your ``give`` for an opponent's ``take``."""

    minion: int
    give: int
    take: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Exchange
            and other.minion == self.minion
            and other.give == self.give
            and other.take == self.take
        )

    def __hash__(self) -> int:
        return hash((self.minion, self.give, self.take))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Take(ActionBase):
    """Dhole: discard ``minion`` to take the top card of the deck (``from_deck``) or discards."""

    minion: int
    from_deck: bool
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Take
            and other.minion == self.minion
            and other.from_deck == self.from_deck
        )

    def __hash__(self) -> int:
        return hash((self.minion, self.from_deck))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class End(ActionBase):
    """Stop acting: go on to the draw (step 6) that ends the turn."""

    def __eq__(self, other: object) -> bool:
        return self is other or type(other) is End

    def __hash__(self) -> int:
        return hash(())

    def __str__(self) -> str:
        return "end"


# ---------------------------------------------------------------- chance outcomes
@dataclass(frozen=True, slots=True, eq=False)
class PlaceTile(ActionBase):
    """Set-up chance: the next sky position gets a tile of kind ``kind`` showing ``side``."""

    kind: int
    side: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is PlaceTile
            and other.kind == self.kind
            and other.side == self.side
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.side))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Draw(ActionBase):
    """Chance: the card drawn from the (shuffled) deck."""

    card: int
    text: str = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is Draw
            and other.card == self.card
        )

    def __hash__(self) -> int:
        return hash((self.card,))

    def __str__(self) -> str:
        return self.text


END = End()
