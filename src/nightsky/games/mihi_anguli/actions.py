"""Mihi Anguli actions: one small frozen value per choice, with a short notation.

A turn is a run of these: ``advance`` (after PROMOTER/MENTOR), ``fill <item>`` while spending
experience, stars or squares, ability uses such as ``POS1 2 3`` or ``PLOT1 5 r0``, point picks
``at x,y`` (sheet coordinates: majors 1-6, other points on the halves), and ``end turn``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nightsky.core.game import ActionBase


@dataclass(frozen=True, slots=True)
class Move(ActionBase):
    """A player action. ``kind`` names it, ``a``/``b`` are its small integer arguments and
    ``text`` its notation (fixed when the game builds its action list)."""

    kind: str
    a: int = 0
    b: int = 0
    text: str = ""
    # Search trees hash actions millions of times: computed once.
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.a, self.b)))

    def __reduce__(self) -> tuple[Any, ...]:
        # String hashes differ between processes: rebuild, never copy ``_hash``.
        return (Move, (self.kind, self.a, self.b, self.text))

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Move)
            and self.kind == other.kind
            and self.a == other.a
            and self.b == other.b
        )


@dataclass(frozen=True, slots=True)
class Roll(ActionBase):
    """A chance outcome: the three ability dice of every seat still playing (None: finished).

    Notation ``roll 235/114/-`` (each seat's dice sorted, ``-`` for a seat that has finished).
    """

    dice: tuple[tuple[int, int, int] | None, ...]

    def __str__(self) -> str:
        return "roll " + "/".join("-" if d is None else "".join(map(str, d)) for d in self.dice)


def parse_roll(text: str, seats: int) -> Roll | None:
    """Read a ``Roll`` notation back (None if ``text`` is not one)."""
    if not text.startswith("roll "):
        return None
    parts = text[5:].strip().split("/")
    if len(parts) != seats:
        return None
    out: list[tuple[int, int, int] | None] = []
    for p in parts:
        if p == "-":
            out.append(None)
            continue
        if len(p) != 3 or any(c not in "123456" for c in p):
            return None
        out.append(tuple(sorted(int(c) for c in p)))  # type: ignore[arg-type]
    return Roll(tuple(out))
