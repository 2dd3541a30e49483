"""Statistics of many games: quantiles and correlations from the stdlib."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from nightsky.sim.stats import correlation, percentile


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
