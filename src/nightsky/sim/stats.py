"""Summaries of many games: win shares, mean scores, lengths, confidence intervals."""

from __future__ import annotations

import math
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


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (works for fractional successes from ties)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def stdev(xs: Sequence[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


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
    return {
        "game": game_id,
        "players": players,
        "games": n,
        "agents": list(agents),
        "wins": [round(x, 6) for x in shares],
        "win_ci95": [
            [round(v, 6) for v in wilson_interval(shares[p] * n, n)] for p in range(seats)
        ],
        "mean_scores": [round(mean([r.scores[p] for r in results]), 6) for p in range(seats)],
        "score_stdev": [round(stdev([r.scores[p] for r in results]), 6) for p in range(seats)],
        "mean_actions": round(mean([r.actions for r in results]), 3),
        "games_per_second": round(n / seconds, 3) if seconds > 0 else None,
    }
