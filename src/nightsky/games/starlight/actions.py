"""Starlight's actions and chance outcomes, with their notation.

A live turn is a sequence of small actions (``step``, ``take long red``, ``launch``,
``star C12``, ``attach long red``, ``to hydrus 2``, ``end`` ...). Every action object is built
once per game (see ``build_actions``) and reused, so a legality check (``action in legal``)
mostly meets the very same object and stops at the identity test; equality and hashing are
written by hand so the misses and dict look-ups stay cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nightsky.core.game import ActionBase

from .constants import (
    ATTACH,
    BOON,
    BUY,
    CORE,
    D_CORE,
    D_FLARE,
    D_GOD,
    D_LAUREL,
    D_LONG,
    D_SB,
    D_SHORT,
    DONE,
    END,
    FINAL,
    FLARE,
    FLUSH,
    FREE,
    KEEP,
    LAUNCH,
    PLACE,
    SIZE_NAMES,
    SKIP,
    SLOT,
    SLOTLESS,
    STAR,
    STEP,
    TAKE,
    USE,
)

if TYPE_CHECKING:
    from .components import Tables


@dataclass(frozen=True, slots=True, eq=False)
class Act(ActionBase):
    """A player action: ``kind`` plus up to two integer arguments; ``text`` is the notation."""

    kind: int
    a: int
    b: int
    text: str
    _hash: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.a, self.b)))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not Act:
            return NotImplemented
        return (
            self.kind == other.kind
            and self.a == other.a
            and self.b == other.b
            and self.text == other.text
        )

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, eq=False)
class Draw(ActionBase):
    """A chance outcome: which source was drawn from and what came out."""

    kind: int
    value: int
    text: str
    _hash: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.kind, self.value)))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not Draw:
            return NotImplemented
        return self.kind == other.kind and self.value == other.value and self.text == other.text

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text


def build_actions(t: Tables) -> tuple[list[Act], dict[tuple[int, int, int], Act]]:
    """Every player action of a game with tables ``t``, plus lookup dicts by (kind, a, b)."""
    acts: list[Act] = []
    for i, sp in enumerate(t.rondel):
        acts.append(Act(PLACE, i, 0, f"place {sp}"))
    acts.append(Act(STEP, 0, 0, "step"))
    acts.append(Act(END, 0, 0, "end"))
    for ci in range(t.num_deck_cores):
        acts.append(Act(CORE, ci, 0, f"core {t.core_ids[ci]}"))
    nc = len(t.colors)
    for size in (0, 1):
        for c in range(nc):
            acts.append(Act(TAKE, size, c, f"take {SIZE_NAMES[size]} {t.colors[c]}"))
    for pos in range(t.data.board.flare_pool):
        acts.append(Act(FLARE, pos, 0, f"flare {pos + 1}"))
    acts.append(Act(FLUSH, 0, 0, "flush"))
    acts.append(Act(LAUNCH, 0, 0, "launch"))
    acts.append(Act(FINAL, 0, 0, "final launch"))
    for ci in range(len(t.core_ids)):
        acts.append(Act(STAR, ci, 0, f"star {t.core_ids[ci]}"))
    for size in (0, 1):
        for c in range(nc):
            acts.append(Act(ATTACH, size, c, f"attach {SIZE_NAMES[size]} {t.colors[c]}"))
    for fi, fid in enumerate(t.flare_ids):
        acts.append(Act(USE, fi, 0, f"use {fid}"))
    for s in t.slots:
        acts.append(Act(SLOT, s.index, 0, f"to {t.constellations[s.constellation]} {s.n}"))
    acts.append(Act(SLOTLESS, 0, 0, "to nowhere"))
    acts.append(Act(BUY, 0, 0, "buy"))
    acts.append(Act(DONE, 0, 0, "done"))
    for size in (0, 1):
        for c in range(nc):
            acts.append(Act(FREE, size, c, f"free {SIZE_NAMES[size]} {t.colors[c]}"))
    acts.append(Act(SKIP, 0, 0, "skip"))
    for fi, fid in enumerate(t.flare_ids):
        acts.append(Act(BOON, fi, 0, f"boon {fid}"))
    for gi, gid in enumerate(t.god_ids):
        acts.append(Act(KEEP, gi, 0, f"keep {gid}"))
    index = {(x.kind, x.a, x.b): x for x in acts}
    return acts, index


def build_draws(t: Tables) -> tuple[dict[tuple[int, int], Draw], dict[str, Draw]]:
    """Every chance outcome, by (kind, value) and by notation."""
    draws: dict[tuple[int, int], Draw] = {}
    for ci in range(t.num_deck_cores):
        draws[(D_CORE, ci)] = Draw(D_CORE, ci, f"draw {t.core_ids[ci]}")
    for c, name in enumerate(t.colors):
        draws[(D_LONG, c)] = Draw(D_LONG, c, f"draw long {name}")
        draws[(D_SHORT, c)] = Draw(D_SHORT, c, f"draw short {name}")
    for fi, fid in enumerate(t.flare_ids):
        draws[(D_FLARE, fi)] = Draw(D_FLARE, fi, f"draw {fid}")
    for li, lid in enumerate(t.laurel_ids):
        draws[(D_LAUREL, li)] = Draw(D_LAUREL, li, f"deal {lid}")
    for gi, gid in enumerate(t.god_ids):
        draws[(D_GOD, gi)] = Draw(D_GOD, gi, f"deal {gid}")
    for si, sid in enumerate(t.starbot_ids):
        draws[(D_SB, si)] = Draw(D_SB, si, f"flip {sid}")
    return draws, {d.text: d for d in draws.values()}
