"""Scale check (``make bench``): 10,000 Shooting Star games, 3 random players, 2 workers,
in under two minutes."""

from __future__ import annotations

import time

import pytest

from nightsky.sim.engines import run_games
from nightsky.sim.runner import MatchSpec
from nightsky.sim.stats import summarize


@pytest.mark.bench
def test_ten_thousand_shooting_star_games_in_two_minutes() -> None:
    spec = MatchSpec("shooting-star", {"players": 3}, ("random",) * 3, seed=0)
    start = time.perf_counter()
    results = list(run_games(spec, 10_000, workers=2))
    seconds = time.perf_counter() - start
    summary = summarize(results, game_id="shooting-star", players=3,
                        agents=["random"] * 3, seconds=seconds)
    assert summary["games"] == 10_000
    assert seconds < 120, f"{seconds:.1f} s"
