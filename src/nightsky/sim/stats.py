"""Summaries of many games: win shares, mean scores, lengths, confidence intervals.

Means, deviations, quantiles and correlations come from the standard library's ``statistics``
module; this module adds what it lacks: interval estimates and the seat-advantage verdict that
every command judging seats shares (``judge_seats``, described by ``SEAT_METHOD``).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nightsky.sim.runner import GameResult

CONFIDENCE = 0.95
"""The confidence of every interval and verdict we print."""

SEAT_METHOD = (
    "seat verdicts: Clopper-Pearson (exact binomial) intervals of each seat's win share, "
    "Bonferroni-adjusted over the N seats of a table (each at 1 - 0.05/N; one test at 2 seats, "
    "whose shares mirror each other), so that all seats' intervals hold together with at least "
    "95% confidence; a seat is flagged when its interval excludes the fair share 1/N"
)
"""How ``judge_seats`` decides, in words (reports and ``nightsky balance`` print it)."""


def win_shares(results: Sequence[GameResult], seats: int) -> list[float]:
    """Each seat's share of wins, a shared victory split evenly."""
    wins = [0.0] * seats
    for r in results:
        if r.winners:
            for w in r.winners:
                wins[w] += 1.0 / len(r.winners)
    n = max(1, len(results))
    return [w / n for w in wins]


def seat_share(r: GameResult, p: int) -> float:
    """Seat ``p``'s share of game ``r``'s victory: 1 / winners if it won, else 0."""
    return 1.0 / len(r.winners) if p in r.winners else 0.0


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


def correlation_interval(
    r: float, n: int, confidence: float = CONFIDENCE
) -> tuple[float, float] | None:
    """Interval of Pearson's ``r`` over ``n`` pairs by Fisher's z transform (None below four
    pairs)."""
    if n < 4:
        return None
    from scipy.stats import norm

    z = math.atanh(max(-0.999999, min(0.999999, r)))
    half = float(norm.ppf(0.5 + confidence / 2)) / math.sqrt(n - 3)
    return (math.tanh(z - half), math.tanh(z + half))


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of one proportion (fractional successes from ties welcome).

    For a single rate (``simulate``'s per-seat interval, a tournament's win rates); seat
    verdicts use ``judge_seats``, which holds for all seats at once."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def exact_intervals(
    successes: Sequence[float], n: int, confidence: float = CONFIDENCE
) -> list[tuple[float, float]]:
    """Clopper-Pearson interval of each proportion ``successes[i] / n``: the ``p`` whose
    binomial tails leave at least ``(1 - confidence) / 2`` on either side, from Beta quantiles.
    Its coverage is never below ``confidence`` for whole counts (a shared victory split into
    fractions varies less than a whole one, so it stays on the safe side)."""
    if n <= 0:
        return [(0.0, 1.0) for _ in successes]
    import numpy as np
    from scipy.stats import beta

    x = np.clip(np.asarray(successes, dtype=float), 0.0, float(n))
    tail = (1 - confidence) / 2
    with np.errstate(all="ignore"):  # x = 0 or x = n: the bound is 0 or 1, set below
        lo = np.where(x <= 0, 0.0, beta.ppf(tail, x, n - x + 1))
        hi = np.where(x >= n, 1.0, beta.ppf(1 - tail, x + 1, n - x))
    return [(float(a), float(b)) for a, b in zip(lo, hi, strict=True)]


def exact_interval(
    successes: float, n: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """Clopper-Pearson interval of one proportion (see ``exact_intervals``)."""
    return exact_intervals([successes], n, confidence)[0]


def mean_interval(
    xs: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[float, float] | None:
    """Student t interval of the mean of ``xs`` (None below two values)."""
    if len(xs) < 2:
        return None
    from scipy.stats import t

    m = statistics.fmean(xs)
    half = float(t.ppf(0.5 + confidence / 2, len(xs) - 1)) * statistics.stdev(xs) / math.sqrt(
        len(xs)
    )
    return (m - half, m + half)


@dataclass(frozen=True)
class SeatVerdict:
    """One seat's win share, its multiplicity-adjusted interval and what it says."""

    seat: int
    win_share: float
    interval: tuple[float, float]
    verdict: str  # "above fair", "below fair" or "fair"

    @property
    def flagged(self) -> bool:
        return self.verdict != "fair"


def judge_seats(
    wins: Sequence[float], games: int, confidence: float = CONFIDENCE
) -> list[SeatVerdict]:
    """Is any seat favoured? ``wins[p]`` is seat ``p``'s (split) win count over ``games``.

    Each interval is a Clopper-Pearson interval at ``1 - (1 - confidence) / m`` for ``m`` seat
    tests (Bonferroni), so the chance that fair play flags any seat at all is at most
    ``1 - confidence`` whatever the number of seats. Two seats whose wins add up to the games
    are one test: their intervals mirror each other about 1/2. One seat has nothing to compare
    with and is never flagged. See ``SEAT_METHOD``.
    """
    seats = len(wins)
    if seats == 0:
        return []
    fair = 1.0 / seats
    mirrored = seats == 2 and abs(wins[0] + wins[1] - games) < 1e-9
    tests = 1 if mirrored else seats
    bounds = exact_intervals(wins, games, 1 - (1 - confidence) / tests)
    out = []
    for p, (w, (lo, hi)) in enumerate(zip(wins, bounds, strict=True)):
        verdict = "fair"
        if seats > 1 and lo > fair:
            verdict = "above fair"
        elif seats > 1 and hi < fair:
            verdict = "below fair"
        out.append(SeatVerdict(p, w / games if games else 0.0, (lo, hi), verdict))
    return out


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
    out: dict[str, Any] = {
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
    ends = end_conditions(results)
    if ends:
        out["end_conditions"] = ends
    return out


def end_conditions(results: Sequence[GameResult]) -> dict[str, int]:
    """How many games ended by each end condition the game names (``Evaluator.end_condition``),
    in order of first appearance; empty when the game names none."""
    counts: dict[str, int] = {}
    for r in results:
        if r.end is not None:
            counts[r.end] = counts.get(r.end, 0) + 1
    return counts
