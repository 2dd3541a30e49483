"""Summaries of many games: win shares, mean scores, lengths, confidence intervals.

Means, deviations, quantiles and correlations come from the standard library's ``statistics``
module; this module adds the interval estimates it lacks.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from nightsky.sim.runner import GameResult


def win_shares(results: Sequence[GameResult], seats: int) -> list[float]:
    """Each seat's share of wins, a shared victory split evenly."""
    wins = [0.0] * seats
    for r in results:
        if r.winners:
            for w in r.winners:
                wins[w] += 1.0 / len(r.winners)
    n = max(1, len(results))
    return [w / n for w in wins]


def fmean(xs: Sequence[float]) -> float:
    """``statistics.fmean``, with 0.0 for no data (an empty run summarises to zeros)."""
    return statistics.fmean(xs) if xs else 0.0


def percentile(xs: Sequence[float], q: float) -> float:
    """The ``q`` quantile (``0 <= q <= 1``, in hundredths) of ``xs``, interpolated between data
    points (``statistics.quantiles``' inclusive method, numpy's default); 0.0 for no data."""
    if not 0 <= q <= 1 or abs(q * 100 - round(q * 100)) > 1e-9:
        raise ValueError(f"percentile wants q in 0, 0.01, ..., 1; got {q}")
    if not xs:
        return 0.0
    k = round(q * 100)
    if len(xs) == 1 or k == 0:
        return float(min(xs))
    if k == 100:
        return float(max(xs))
    return statistics.quantiles(xs, n=100, method="inclusive")[k - 1]


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's r (``statistics.correlation``); None below three points or when either side
    is constant."""
    if len(xs) < 3:
        return None
    try:
        return statistics.correlation(xs, ys)
    except statistics.StatisticsError:
        return None


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (works for fractional successes from ties)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarize(
    results: Sequence[GameResult],
    *,
    game_id: str,
    players: int,
    agents: Sequence[str],
    seconds: float,
) -> dict[str, Any]:
    """The summary object printed by ``nightsky simulate --json`` (stable keys)."""
    seats = len(agents)
    results = sorted(results, key=lambda r: r.index)
    shares = win_shares(results, seats)
    n = len(results)
    scores = [[r.scores[p] for r in results] for p in range(seats)]
    return {
        "game": game_id,
        "players": players,
        "games": n,
        "agents": list(agents),
        "wins": [round(x, 6) for x in shares],
        "win_ci95": [
            [round(v, 6) for v in wilson_interval(shares[p] * n, n)] for p in range(seats)
        ],
        "mean_scores": [round(fmean(sc), 6) for sc in scores],
        "score_stdev": [round(statistics.stdev(sc), 6) if n > 1 else 0.0 for sc in scores],
        "mean_actions": round(fmean([r.actions for r in results]), 3),
        "games_per_second": round(n / seconds, 3) if seconds > 0 else None,
    }
