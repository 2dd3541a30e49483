"""Engines give the same results for the same seed: one process, worker processes, Ray."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nightsky.cli import _load_commands, app
from nightsky.core import OptionError
from nightsky.sim.engines import run_games
from nightsky.sim.runner import MatchSpec

_load_commands()
runner = CliRunner()
STABLE = ("wins", "win_ci95", "mean_scores", "score_stdev", "mean_actions", "games")


def test_unknown_engine_is_refused() -> None:
    spec = MatchSpec("toy-secret-sum", {"players": 2}, ("random", "random"), 0)
    with pytest.raises(OptionError, match="unknown engine"):
        list(run_games(spec, 1, engine="spark"))


@pytest.mark.slow
def test_ray_local_mode_matches_the_local_engine() -> None:
    pytest.importorskip("ray")
    # A real game (Ray workers are fresh processes: the test-only toy game is not registered).
    args = ["simulate", "shooting-star", "--players", "2", "--agents", "random,greedy",
            "--games", "16", "--seed", "3", "--json"]
    local = json.loads(runner.invoke(app, args).stdout)
    out = runner.invoke(app, [*args, "--engine", "ray", "--workers", "2"])
    assert out.exit_code == 0, out.output
    ray_summary = json.loads(out.stdout.strip().splitlines()[-1])
    for key in STABLE:
        assert ray_summary[key] == local[key], key
    import ray

    assert not ray.is_initialized()  # the engine shut down the Ray it started
