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


class MoveTable:
    """A game's moves by kind and small-integer arguments, for the rules' hot path (list
    look-ups instead of dictionary ones keyed by new tuples). Pairs of dice ``(a, b)`` sit at
    ``a * 7 + b``, ``(die, rotation)`` and ``(die, week)`` at ``die * 8 + k``."""

    def __init__(self, moves: list[Move], nitems: int, npts: int) -> None:
        self._args = (moves, nitems, npts)
        by = {(m.kind, m.a, m.b): m for m in moves}
        end = by[("end", 0, 0)]

        def row(kind: str, keys: list[tuple[int, int]], size: int, code: int) -> list[Move]:
            out = [end] * size  # unused slots: never read
            for a, b in keys:
                m = by.get((kind, a, b))
                if m is not None:
                    out[a * code + b if code else a] = m
            return out

        dice = range(7)
        die = [(d, 0) for d in dice]
        pairs = [(a, b) for a in dice for b in dice]
        self.go = by[("go", 0, 0)]
        self.mentor = by[("mentor", 0, 0)]
        self.done = by[("done", 0, 0)]
        self.end = end
        self.promote = row("promote", [(w, 0) for w in range(6)], 6, 0)
        self.claim = row("claim", [(0, 0), (1, 0)], 2, 0)
        self.fill = row("fill", [(i, 0) for i in range(nitems)], nitems, 0)
        self.at = row("at", [(q, 0) for q in range(npts)], npts, 0)
        self.pos1 = row("pos1", pairs, 49, 7)
        self.pos2 = row("pos2", die, 7, 0)
        self.pos3 = row("pos3", die, 7, 0)
        self.pos4 = row("pos4", pairs, 49, 7)
        self.plot1 = row("plot1", [(d, k) for d in dice for k in range(8)], 56, 8)
        self.plot2 = row("plot2", die, 7, 0)
        self.plot3 = row("plot3", die, 7, 0)
        self.plot4 = row("plot4", pairs, 49, 7)
        self.plot5 = row("plot5", pairs, 49, 7)
        self.rec = row("rec", [(d, w) for d in dice for w in range(8)], 56, 8)
        self.opt = row("opt", die, 7, 0)
        self.study = row("study", die, 7, 0)

    def __reduce__(self) -> tuple[Any, ...]:
        # States are pickled (the server's thinking processes): rebuild from the moves.
        return (MoveTable, self._args)


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
