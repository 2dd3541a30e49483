"""Geometry of the star map and the compiled sheet (bit masks the rules work on).

The map is a 13x13 lattice of points, indexed ``row * 13 + column`` (0..168). Majors sit at odd
column and odd row (sheet coordinates 1..6); every other point is minor or star. The 144 unit
squares of the lattice each have one major corner and three others, as the rulebook requires.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any, TypeVar

from nightsky.games.mihi_anguli.components import (
    BUYABLE_ABILITIES,
    SUPPORTERS,
    Item,
    Sheet,
    parse_point,
)

N = 13
NPTS = N * N
NSQ = 12 * 12

# Ability codes used for "once a turn" bits (POS1/PLOT1 are owned from the start).
POS1, POS2, POS3, POS4, PLOT1, PLOT2, PLOT3, PLOT4, PLOT5, REC, OPT, STUDY = range(12)
ABILITY_CODES = {
    "POSITIONING II": POS2, "POSITIONING III": POS3, "POSITIONING IV": POS4,
    "PLOTTING II": PLOT2, "PLOTTING III": PLOT3, "PLOTTING IV": PLOT4, "PLOTTING V": PLOT5,
    "RECORDING": REC, "OPTIMIZING": OPT, "STUDYING": STUDY,
}
SHORT = {
    "POSITIONING II": "POS2", "POSITIONING III": "POS3", "POSITIONING IV": "POS4",
    "PLOTTING II": "PLOT2", "PLOTTING III": "PLOT3", "PLOTTING IV": "PLOT4", "PLOTTING V": "PLOT5",
    "RECORDING": "REC", "OPTIMIZING": "OPT", "STUDYING": "STUDY",
    "PROMOTER": "PROMOTER", "MENTOR": "MENTOR", "RESEARCHER": "RESEARCHER",
    "MATHEMATICIAN": "MATH", "COORDINATOR": "COORD", "PUBLISHER": "PUBLISHER",
    "HEADHUNTER": "HEADHUNTER",
}
DAY_SHORT = ("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")

# Groups: 0-4 articles (weeks 1-5), 5-11 days (Sunday..Saturday), 12-21 abilities, 22-28
# supporters, each in the fixed order of components.BUYABLE_ABILITIES / SUPPORTERS.
G_DAY0 = 5
G_AB0 = 12
G_SUP0 = 22
NGROUPS = 29
G_OF_ABILITY = {ABILITY_CODES[n]: G_AB0 + i for i, n in enumerate(BUYABLE_ABILITIES)}
G_PROMOTER, G_MENTOR, G_RESEARCHER, G_MATH, G_COORD, G_PUBLISHER, G_HEADHUNTER = (
    G_SUP0 + i for i in range(7)
)
assert SUPPORTERS[0] == "PROMOTER" and SUPPORTERS[6] == "HEADHUNTER"


def pidx(col: int, row: int) -> int:
    return row * N + col


def major(x: int, y: int) -> int:
    """Point index of the major point at sheet coordinates (x, y), 1..6."""
    return pidx(2 * x - 1, 2 * y - 1)


def _coord(i: int) -> str:
    return str((i + 1) // 2) if i % 2 == 1 else f"{i // 2}.5"


def point_name(p: int) -> str:
    """Sheet coordinates "x,y" of point ``p`` (majors whole, others on halves)."""
    return f"{_coord(p % N)},{_coord(p // N)}"


def is_major(p: int) -> bool:
    return (p % N) % 2 == 1 and (p // N) % 2 == 1


MAJORS = [major(x, y) for y in range(1, 7) for x in range(1, 7)]
MAJOR_MASK = sum(1 << p for p in MAJORS)

# Ring order around a major: TL, T, TR, R, BR, B, BL, L (a 45-degree turn shifts by one).
RING = ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def ring_points(m: int) -> list[int]:
    c, r = m % N, m // N
    return [pidx(c + dc, r + dr) for dc, dr in RING]


BLOCK = {m: (1 << m) | sum(1 << q for q in ring_points(m)) for m in MAJORS}
RINGMASK = {m: sum(1 << q for q in ring_points(m)) for m in MAJORS}

# Squares: cell (c, r) with corners (c..c+1, r..r+1).
SQ_CORNERS = [
    (1 << pidx(c, r)) | (1 << pidx(c + 1, r)) | (1 << pidx(c, r + 1)) | (1 << pidx(c + 1, r + 1))
    for r in range(12)
    for c in range(12)
]
SQ_OF_POINT: list[list[int]] = [[] for _ in range(NPTS)]
for _s, _mask in enumerate(SQ_CORNERS):
    for _p in range(NPTS):
        if _mask >> _p & 1:
            SQ_OF_POINT[_p].append(_s)
SQ_NEIGH = []
for _s in range(NSQ):
    _c, _r = _s % 12, _s // 12
    _m = 0
    for _dc in (-1, 0, 1):
        for _dr in (-1, 0, 1):
            if (_dc or _dr) and 0 <= _c + _dc < 12 and 0 <= _r + _dr < 12:
                _m |= 1 << ((_r + _dr) * 12 + _c + _dc)
    SQ_NEIGH.append(_m)

# Die pip layouts on the ring (plus whether the centre pip is set).
_BASE = {1: ((), True), 2: ((0, 4), False), 3: ((0, 4), True), 4: ((0, 2, 4, 6), False),
         5: ((0, 2, 4, 6), True), 6: ((0, 7, 6, 2, 3, 4), False)}


def _layouts() -> dict[int, list[tuple[int, frozenset[int], bool]]]:
    """Per die value: distinct (rotation step k in 45-degree units, ring set, centre pip).

    Odd k are the 45-degree turns MATHEMATICIAN opens (dice 2-5 only)."""
    out: dict[int, list[tuple[int, frozenset[int], bool]]] = {}
    for d, (ring, centre) in _BASE.items():
        seen: list[frozenset[int]] = []
        lst = []
        for k in range(8):
            if k % 2 == 1 and d not in (2, 3, 4, 5):
                continue
            s = frozenset((i + k) % 8 for i in ring)
            if s in seen:
                continue
            seen.append(s)
            lst.append((k, s, centre))
        out[d] = lst
    return out


LAYOUTS = _layouts()


@functools.cache
def layout_mask(m: int, ring: frozenset[int], centre: bool) -> int:
    pts = ring_points(m)
    mask = (1 << m) if centre else 0
    for i in ring:
        mask |= 1 << pts[i]
    return mask


# The rules' hot path reads these lists by index (no dict look-up, no call per check).
BLOCK_OF = [BLOCK.get(p, 0) for p in range(NPTS)]
"""Point -> the 3x3 block around it when it is a major point (else 0)."""
RING_OF = [RINGMASK.get(p, 0) for p in range(NPTS)]
RING_POINTS = [ring_points(p) if p in BLOCK else [] for p in range(NPTS)]
ABILITY_GROUP = [G_OF_ABILITY.get(code, -1) for code in range(12)]
"""Ability code -> the group that buys it; -1 for POSITIONING I and PLOTTING I (owned)."""
POS3_MAJORS = [
    [m for m in MAJORS if (m % N + 1) // 2 == d or (m // N + 1) // 2 == d] for d in range(7)
]
"""Die value -> the major points in its column or row (POSITIONING III), in MAJORS order."""


def _plot_tables() -> tuple[list[list[list[tuple[int, int, bool]]]], list[list[int]]]:
    """Per major point and die value: PLOTTING I's layouts as (rotation k, ring points mask,
    centre pip), and PLOTTING II's mask (the k = 0 and k = 2 layouts together)."""
    plot1: list[list[list[tuple[int, int, bool]]]] = [[] for _ in range(NPTS)]
    plot2: list[list[int]] = [[] for _ in range(NPTS)]
    for m in MAJORS:
        plot1[m] = [[(k, layout_mask(m, ring, False), centre) for k, ring, centre in
                     LAYOUTS.get(d, [])] for d in range(7)]
        masks = []
        for d in range(7):
            mask = 0
            for k, ring, centre in LAYOUTS.get(d, []):
                if k in (0, 2):
                    mask |= layout_mask(m, ring, centre)
            masks.append(mask)
        plot2[m] = masks
    return plot1, plot2


PLOT1_LAYOUTS, PLOT2_MASK = _plot_tables()


class DiceInfo:
    """What the legal moves need of a sorted tuple of ability dice, computed once per tuple."""

    def __init__(self, dice: tuple[int, ...]) -> None:
        self.n = len(dice)
        self.uniq: list[int] = sorted(set(dice))
        self.pairs: list[tuple[int, int]] = sorted(
            {(dice[i], dice[j]) for i in range(len(dice)) for j in range(i + 1, len(dice))}
        )
        self.pair_codes: list[int] = [a * 7 + b for a, b in self.pairs]
        # POSITIONING I tries (a, b) and (b, a) in the order of this set (as it always did).
        self.pos1: list[list[tuple[int, int]]] = [
            [(major(x, y), x * 7 + y) for x, y in {(a, b), (b, a)}] for a, b in self.pairs
        ]


def _dice_info() -> dict[tuple[int, ...], DiceInfo]:
    out: dict[tuple[int, ...], DiceInfo] = {}
    for n in range(4):
        for dice in combinations_with_replacement(range(1, 7), n):
            out[dice] = DiceInfo(dice)
    return out


DICE_INFO = _dice_info()
"""Every sorted tuple of 0-3 ability dice -> its ``DiceInfo``."""


def popcount(x: int) -> int:
    return x.bit_count()


def largest_region(sq: int) -> int:
    """Squares in the largest 8-connected group of filled squares."""
    best = 0
    rest = sq
    while rest:
        low = rest & -rest
        comp = low
        frontier = low
        while frontier:
            b = frontier & -frontier
            frontier ^= b
            nb = SQ_NEIGH[b.bit_length() - 1] & rest & ~comp
            comp |= nb
            frontier |= nb
        rest &= ~comp
        n = comp.bit_count()
        if n > best:
            best = n
    return best


@dataclass
class Compiled:
    """A validated sheet turned into the masks and tables the rules use."""

    sheet: Sheet
    items: list[Item]
    group_names: list[str]
    group_short: list[str]
    group_mask: list[int]
    star_mask: int
    article_points: list[int]
    e_by_value: list[int]  # mask of experience items of value v (index v)
    q_by_value: list[int]
    e_upto: list[int]  # mask of experience items of value 1..v (index v, 0..9)
    q_upto: list[int]
    s_mask: int
    all_mask: int
    closed_before: list[int]  # closed_before[week]: mask of article items of weeks < week
    first_article_item: list[list[int]]  # article w (0-based): its item indices left to right
    # Filled-items mask -> mask of completed groups (scores read it for every seat, often).
    done_cache: dict[int, int] = field(default_factory=dict, repr=False, compare=False)
    # (seat, squares, points, claimed, acquired, every seat's items) -> that seat's score.
    total_cache: dict[tuple[Any, ...], int] = field(default_factory=dict, repr=False, compare=False)
    # The heuristic's item values and pending-choice values (heuristic.py).
    items_value_cache: dict[tuple[Any, ...], float] = field(
        default_factory=dict, repr=False, compare=False)
    pending_cache: dict[tuple[Any, ...], float] = field(
        default_factory=dict, repr=False, compare=False)

    @property
    def nitems(self) -> int:
        return len(self.items)


def compile_sheet(sheet: Sheet) -> Compiled:
    names: list[str] = []
    short: list[str] = []
    costs: list[list[str]] = []
    for a in sheet.articles:
        names.append(a.name)
        short.append(f"W{a.week}")
        costs.append(a.cost)
    for i, d in enumerate(sheet.days):
        names.append(d.name)
        short.append(DAY_SHORT[i])
        costs.append(d.items)
    by_name = {a.name: a for a in sheet.abilities}
    for n in BUYABLE_ABILITIES:
        names.append(n)
        short.append(SHORT[n])
        costs.append(by_name[n].cost)
    sup = {s.name: s for s in sheet.supporters}
    for n in SUPPORTERS:
        names.append(n)
        short.append(SHORT[n])
        costs.append(sup[n].cost)
    items: list[Item] = []
    gmask = [0] * NGROUPS
    for g, cost in enumerate(costs):
        for slot, code in enumerate(cost):
            kind = code[0]
            value = int(code[1:]) if len(code) > 1 else 1
            idx = len(items)
            items.append(Item(idx, g, slot, kind, value, f"{short[g]}.{slot + 1}"))
            gmask[g] |= 1 << idx
    e_by = [0] * 10
    q_by = [0] * 10
    s_mask = 0
    for it in items:
        if it.kind == "E":
            e_by[it.value] |= 1 << it.index
        elif it.kind == "Q":
            q_by[it.value] |= 1 << it.index
        else:
            s_mask |= 1 << it.index
    closed = [0] * 8
    for w in range(1, 8):
        closed[w] = sum(gmask[g] for g in range(min(w - 1, 5)))
    star = 0
    for s in sheet.map.stars:
        pt = parse_point(s)
        assert pt is not None
        star |= 1 << pidx(*pt)
    return Compiled(
        sheet=sheet,
        items=items,
        group_names=names,
        group_short=short,
        group_mask=gmask,
        star_mask=star,
        article_points=[a.points for a in sheet.articles],
        e_by_value=e_by,
        q_by_value=q_by,
        e_upto=_cumulative(e_by),
        q_upto=_cumulative(q_by),
        s_mask=s_mask,
        all_mask=(1 << len(items)) - 1,
        closed_before=closed,
        first_article_item=[
            [it.index for it in items if it.group == w] for w in range(5)
        ],
    )


def _cumulative(by_value: list[int]) -> list[int]:
    out = [0] * len(by_value)
    acc = 0
    for v in range(1, len(by_value)):
        acc |= by_value[v]
        out[v] = acc
    return out


K = TypeVar("K")
V = TypeVar("V")

CACHE_LIMIT = 50_000
"""Entries a speed cache keeps before it starts over (a search fills them fast)."""


def remember(cache: dict[K, V], key: K, value: V) -> V:
    """Store ``value`` under ``key`` in a bounded speed cache and return it."""
    if len(cache) > CACHE_LIMIT:
        cache.clear()
    cache[key] = value
    return value


def bits(x: int) -> list[int]:
    """The indices of the set bits of ``x``, lowest first (sheets are bitmasks)."""
    out: list[int] = []
    base = 0
    # 30-bit chunks: a sheet mask is a long integer, its chunks are small (unboxed, compiled).
    while x:
        chunk = x & 0x3FFFFFFF
        x >>= 30
        while chunk:
            b = chunk & -chunk
            out.append(base + b.bit_length() - 1)
            chunk ^= b
        base += 30
    return out
