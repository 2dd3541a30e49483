"""Statistics of many games: quantiles, intervals and the seat verdict's false-alarm rate."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from nightsky.sim.stats import (
    correlation,
    exact_interval,
    judge_seats,
    mean_interval,
    percentile,
    wilson_interval,
)


def test_percentile_interpolates_like_numpy() -> None:
    xs = [7.0, 1.0, 4.0, 4.0, 10.0, 2.0, 9.0]
    for q in (0.0, 0.1, 0.25, 0.5, 0.9, 0.99, 1.0):
        assert percentile(xs, q) == pytest.approx(float(np.percentile(xs, q * 100)))
    assert percentile([], 0.5) == 0.0 and percentile([3.0], 0.9) == 3.0
    with pytest.raises(ValueError):
        percentile(xs, 0.125)


def test_correlation_needs_three_points_and_spread() -> None:
    assert correlation([1, 2, 3], [2, 4, 7]) == pytest.approx(statistics.correlation(
        [1, 2, 3], [2, 4, 7]))
    assert correlation([1, 2], [1, 2]) is None
    assert correlation([1, 1, 1], [0, 1, 0]) is None


def test_exact_interval_known_values() -> None:
    # Clopper-Pearson: 0 of 10 gives [0, 1 - 0.025 ** (1/10)]; 5 of 10 is symmetric.
    assert exact_interval(0, 10) == (0.0, pytest.approx(1 - 0.025 ** 0.1))
    lo, hi = exact_interval(5, 10)
    assert lo == pytest.approx(0.187086, abs=1e-6) and hi == pytest.approx(1 - lo)
    assert exact_interval(10, 10)[1] == 1.0
    a, b = exact_interval(2.5, 10)  # a split shared victory lies between its neighbours
    assert exact_interval(2, 10)[0] < a < exact_interval(3, 10)[0]
    assert exact_interval(2, 10)[1] < b < exact_interval(3, 10)[1]


def test_mean_interval_is_student_t() -> None:
    lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])  # type: ignore[misc]
    # mean 2.5, s = 1.291, t(0.975, 3) = 3.182
    assert (lo + hi) / 2 == pytest.approx(2.5)
    assert hi - 2.5 == pytest.approx(3.182446 * 1.290994 / 2, rel=1e-5)
    assert mean_interval([5.0]) is None


def test_seat_verdicts() -> None:
    # Two seats are one test: their intervals mirror each other about 1/2.
    a, b = judge_seats([130, 70], 200)
    assert a.verdict == "above fair" and b.verdict == "below fair"
    assert a.interval[0] == pytest.approx(1 - b.interval[1])
    assert not judge_seats([105, 95], 200)[0].flagged
    # One seat has nothing to compare with.
    assert not judge_seats([150], 200)[0].flagged
    # More seats widen each interval (Bonferroni): 0.30 of 300 at 4 seats.
    four = judge_seats([90, 70, 70, 70], 300)
    assert four[0].interval[0] < exact_interval(90, 300)[0]


def _fair_runs(
    seats: int, games: int, runs: int, rng: np.random.Generator, ties: float = 0.0
) -> np.ndarray:
    """Win counts of ``runs`` simulated runs of fair games: each game's winner drawn
    uniformly; with ``ties``, that share of games is a victory shared with another seat."""
    winner = rng.integers(0, seats, size=(runs, games))
    counts = np.stack([(winner == s).sum(axis=1) for s in range(seats)], axis=1).astype(float)
    if ties:
        shared = rng.random((runs, games)) < ties
        other = (winner + rng.integers(1, seats, size=(runs, games))) % seats
        for s in range(seats):
            counts[:, s] += 0.5 * ((other == s) & shared).sum(axis=1)
            counts[:, s] -= 0.5 * ((winner == s) & shared).sum(axis=1)
    return counts


def test_fair_games_flag_a_seat_at_most_5_percent_of_the_time() -> None:
    """The verdict holds for all seats together: on perfectly fair games some seat is flagged
    in at most 5% of runs at every seat count (per-seat 95% intervals: 26% at 6 seats)."""
    rng = np.random.default_rng(2705)
    games, runs = 200, 2000
    rates = {}
    for seats in range(2, 7):
        counts = _fair_runs(seats, games, runs, rng)
        flagged = sum(any(v.flagged for v in judge_seats(list(row), games)) for row in counts)
        rates[seats] = flagged / runs
    # The old verdict: each seat's own 95% Wilson interval against the fair share.
    old = sum(
        any(not lo <= 1 / 6 <= hi for lo, hi in (wilson_interval(w, games) for w in row))
        for row in _fair_runs(6, games, runs, rng)
    ) / runs
    print(f"\nfalse alarms over {runs} runs of {games} fair games: "
          + ", ".join(f"{s} seats {r:.1%}" for s, r in rates.items())
          + f"; at 6 seats {rates[6]:.1%} (per-seat Wilson intervals: {old:.1%})")
    assert all(r <= 0.05 for r in rates.values()), rates
    assert old > 0.15  # what the adjustment fixes


def test_shared_victories_keep_the_verdict_on_the_safe_side() -> None:
    rng = np.random.default_rng(19)
    for seats in (2, 4, 6):
        counts = _fair_runs(seats, 100, 600, rng, ties=0.3)
        assert np.allclose(counts.sum(axis=1), 100)
        flagged = sum(any(v.flagged for v in judge_seats(list(row), 100)) for row in counts)
        assert flagged / 600 <= 0.05
