"""The heuristic ``greedy`` maximises: points now plus the promise of what a seat holds."""

from __future__ import annotations

from typing import Any


def potential(s: Any, p: int) -> float:
    """Points a seat can expect from what it holds and where it stands (no secrets of others)."""
    if s.is_bot(p):
        # A Starbot's future is its deck: about 3 points a turn; its stars score per level.
        return s.np[p] + s.game.per_star_points * s.stars_of(p)
    t = s.t
    b = t.data.board
    val = float(s.np[p])
    val += b.alpha_day_points * s.alpha_of(p)
    acc_dp = {a.index - 1: a.dp for a in t.data.accolades}
    val += sum(acc_dp[i] for i in range(5) if s.accolade[i] == p)
    for li in s.laurels[p]:
        lr = t.data.laurels[li]
        if s.goal_met(p, lr):
            val += lr.dp
    # Holdings: a Core that can already be launched is most of a star's worth.
    mask = s.all_mask()
    ready = 0
    for c in s.cores[p]:
        if s.core_can_launch(p, c, mask, False):
            ready += 1
            val += 4.0
        else:
            val += 1.2
    nrays = sum(s.rays[p])
    val += min(nrays, 4 * max(1, len(s.cores[p]))) * 0.6 + max(0, nrays - 12) * 0.05
    val += 1.5 * len(s.flares[p])
    val += 0.9 * bin(s.privs[p]).count("1")
    # Unspent action points keep some value (they can be saved), a little less than spent well.
    ap = s.ap if s.turn == p else 0
    val += 0.45 * min(ap, 5) + 0.45 * s.saved[p]
    # Standing on or before a Launch space with a ready star is worth a little.
    if ready and s.pos[p] >= 0:
        nxt = t.rondel[(s.pos[p] + 1) % 7]
        if nxt.startswith("launch") or (s.space(p).startswith("launch") and not s.launched_here):
            val += 0.8
    return val


def evaluate(s: Any, p: int) -> float:
    """Own potential minus the best opponent's (so the greedy agent also races)."""
    mine = potential(s, p)
    others = [potential(s, q) for q in range(s.game.num_seats) if q != p]
    return mine - (max(others) if others else 0.0) * 0.5
