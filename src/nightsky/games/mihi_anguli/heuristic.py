"""``evaluate(p)``: the heuristic the greedy agent maximises one action ahead.

The value of a sheet, in score points: the score itself, plus what the sheet is worth for the
rest of the game. That is partial squares (more when they touch the main region), progress on
costs (an ability or supporter is worth more the earlier it is bought, an article only if it can
still be finished), day items (more experience on later visits), all scaled by the turns left.
A seat in the middle of a choice (positioned, picking points or items) is valued by resolving
the choice greedily, so that ``POS1 2 3`` is worth the best plot it opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.constants import FINISHED, REWARD, S_NONE, S_PLOT3, WAIT

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.state import MihiAnguliState, Seat

# Worth of owning each ability/supporter for a whole game (score points), by group name.
WORTH = {
    "POSITIONING II": 4.0, "POSITIONING III": 6.0, "POSITIONING IV": 5.0,
    "PLOTTING II": 7.0, "PLOTTING III": 8.0, "PLOTTING IV": 10.0, "PLOTTING V": 3.0,
    "RECORDING": 5.0, "OPTIMIZING": 4.0, "STUDYING": 4.0,
    "PROMOTER": 3.0, "MENTOR": 5.0, "RESEARCHER": 6.0, "MATHEMATICIAN": 3.0,
    "COORDINATOR": 7.0, "PUBLISHER": 6.0, "HEADHUNTER": 6.0,
}
PARTIAL = (0.0, 0.12, 0.3, 0.55)  # a square with 0-3 corners filled
TURNS = 17.0  # about how many turns a game lasts (lowest of three dice is 2.04 on average)
XP_WORTH = 0.35  # score points per experience point
FAR = (1.0, 0.3, 0.05)  # partial squares: next to the main region, one further, elsewhere
CORE = 2  # corners that put a square in the heart of the map
LINEAR = 0.5  # share of a cost's worth that grows linearly with its filled items


def _turns_left(s: Seat) -> float:
    if s.week >= 6:
        return 0.0
    days = (5 - s.week) * 7 + 7 - max(s.day, 0)
    return days / 2.04


def _largest_mask(sq: int) -> int:
    best, best_n, rest = 0, 0, sq
    while rest:
        comp = frontier = rest & -rest
        while frontier:
            b = frontier & -frontier
            frontier ^= b
            nb = B.SQ_NEIGH[b.bit_length() - 1] & rest & ~comp
            comp |= nb
            frontier |= nb
        rest &= ~comp
        n = comp.bit_count()
        if n > best_n:
            best, best_n = comp, n
    return best


_SQ_OF_PT = [sum(1 << q for q in B.SQ_OF_POINT[p]) for p in range(B.NPTS)]


_ALL = (1 << B.NSQ) - 1
_COL0 = sum(1 << (r * 12) for r in range(12))
_COL11 = _COL0 << 11


def _dilate(sq: int) -> int:
    """The squares ``sq`` plus every square touching one of them (side or corner)."""
    h = (sq | ((sq << 1) & ~_COL0) | ((sq >> 1) & ~_COL11)) & _ALL
    return (h | (h << 12) | (h >> 12)) & _ALL


def static_value(st: MihiAnguliState, player: int) -> float:
    """The sheet's worth without looking into pending choices."""
    total, on_map, on_items = static_parts(st, player)
    return total + on_map + on_items


def static_parts(st: MihiAnguliState, player: int) -> tuple[float, float, float]:
    """``static_value`` in its three parts: the score now, the map's squares on their way and
    the progress on costs (the learned value, ``value.py``, weighs them again)."""
    s = st.seats[player]
    left = _turns_left(s)
    total = float(st._total(player))
    on_map = 0.0
    if left > 0:
        key = (s.pts, s.sq, left)
        v = _MAP_CACHE.get(key)
        if v is None:
            v = B.remember(_MAP_CACHE, key, _map_value(s, left))
        on_map = v
    # Item values depend on the sheet: one cache per compiled sheet.
    cache = st.c.items_value_cache
    key2 = (s.items, s.acq, s.week, s.day, s.phase, s.aux, left)
    v = cache.get(key2)
    if v is None:
        v = B.remember(cache, key2, _items_value(st, s, left))
    return total, on_map, v


_MAP_CACHE: dict[tuple[int, int, float], float] = {}  # geometry only: shared by all sheets


def _map_value(s: Seat, left: float) -> float:
    """Squares on their way, more when next to the heart of the map."""
    value = 0.0
    main = _largest_mask(s.sq)
    pts = s.pts
    touched = 0
    m = pts
    while m:
        b = m & -m
        m ^= b
        touched |= _SQ_OF_PT[b.bit_length() - 1]
    touched &= ~s.sq
    corners: dict[int, int] = {}
    half = 0
    m = touched
    while m:
        b = m & -m
        m ^= b
        q = b.bit_length() - 1
        k = corners[q] = (B.SQ_CORNERS[q] & pts).bit_count()
        if k >= CORE:
            half |= b
    # The heart of the map: the biggest cluster of squares half done or better.
    core = _largest_mask(half | s.sq)
    near = _dilate(core)
    near2 = _dilate(near)
    soon = min(1.0, left / 3.0)
    outside = (s.sq & ~main).bit_count()
    value += 0.3 * soon * outside
    for q, k in corners.items():
        far = FAR[0] if not core or near >> q & 1 else FAR[1] if near2 >> q & 1 else FAR[2]
        value += PARTIAL[k] * soon * far
    return value


def _items_value(st: MihiAnguliState, s: Seat, left: float) -> float:
    """Progress on costs: abilities and supporters, open articles, day items."""
    c = st.c
    t = min(1.0, left / TURNS)
    value = 0.0
    items = s.items
    for g in range(B.NGROUPS):
        gm = c.group_mask[g]
        n = gm.bit_count()
        f = (gm & items).bit_count()
        if g < 5:  # articles
            w = g + 1
            if f == n:
                if w >= s.week or (s.phase == REWARD and s.aux == w):
                    value += c.article_points[g]  # earned, the reward is still to circle
                continue
            if w < s.week or not f:
                continue
            # Only worth much if it can be finished before its week ends.
            weeks = w - s.week + 1
            value += c.article_points[g] * (f / n) ** 2 * min(1.0, 0.5 + 0.25 * weeks)
        elif g < B.G_AB0:  # days: each filled item is one more experience per visit
            visits = left / 7.0
            value += f * visits * XP_WORTH
            if st._has(s, B.G_PUBLISHER) and f < n:
                value += 3.0 * (f / n) ** 2 * min(1.0, left / 4)
        elif not s.acq >> g & 1:
            worth = WORTH.get(c.group_names[g], 3.0)
            if c.group_names[g] == "HEADHUNTER":
                worth = 1.0 + (s.acq >> B.G_AB0).bit_count() + 4.0 * t
            elif c.group_names[g] == "PUBLISHER":
                worth = sum(1 for a in range(5) if st._completed(s, a)) + 6.0 * t
            else:
                worth *= t
            value += worth * (LINEAR * f / n + (1 - LINEAR) * (f / n) ** 2)
        else:
            name = c.group_names[g]
            if name not in ("HEADHUNTER", "PUBLISHER"):
                value += WORTH.get(name, 3.0) * t
    return value


def _pending(s: Seat) -> bool:
    return s.pos >= 0 or s.sub != S_NONE


def evaluate(st: MihiAnguliState, player: int, depth: int = 3) -> float:
    """Value of ``player``'s sheet; a pending choice is resolved by a short greedy search."""
    s = st.seats[player]
    if depth <= 0 or not _pending(s) or s.phase in (WAIT, FINISHED):
        return static_value(st, player)
    # Searches ask for the same pending sheet again and again: remember the answer. Other
    # sheets count only through their completed groups (MA-10.4's bonus).
    memo = st.c.pending_cache
    key = (s.key(), depth, tuple(t.items for t in st.seats))
    v = memo.get(key)
    if v is None:
        v = B.remember(memo, key, _resolve(st, player, depth))
    return v


def _resolve(st: MihiAnguliState, player: int, depth: int) -> float:
    s = st.seats[player]
    best = static_value(st, player) - 0.5  # giving up the choice wastes the die
    kids = []
    for a in st.legal_actions(player):
        if a.kind in ("end", "done"):  # type: ignore[attr-defined]
            continue
        child = st.scratch()
        child.step(a, player)
        kids.append((static_value(child, player), child))
    if not kids:
        return best
    if s.sub == S_PLOT3:  # picking points one at a time: greedy
        kids.sort(key=lambda x: -x[0])
        kids = kids[:1]
    for v, child in kids:
        cs = child.seats[player]
        if _pending(cs) and cs.phase not in (WAIT, FINISHED):
            v = evaluate(child, player, depth - 1 if s.sub != S_PLOT3 else depth)
        best = max(best, v)
    return best
