"""Issue 55's speed targets and training recipe, measured (``make bench``, never ``make test``).

* The vector env: game actions per CPU-second inside ``step`` (the learner's, the other seats'
  and chance, the same count as the native bench) at least 0.5x the native random playout's.
* PettingZoo: the wrapped ``env()`` at least 0.5x ``raw_env()`` in steps per CPU-second.
* The recipe (``examples/rl_maskable_ppo.py``, needs the ``train`` extra): MaskablePPO beats
  ``random`` in at least 90% of 500 fresh games of Shooting Star, under 10 CPU-minutes of
  training.
"""

from __future__ import annotations

from typing import Any

import pytest

from nightsky.cli.commands import bench_random_playouts
from nightsky.core.registry import game_ids, load_game
from nightsky.rl.bench import steps_per_cpu_second, vector_rate
from nightsky.rl.pettingzoo import env as wrapped_env
from nightsky.rl.pettingzoo import raw_env
from tests.rl.conftest import load_example

GAMES = game_ids()
SECONDS = 3.0


@pytest.mark.bench
@pytest.mark.parametrize("game_id", GAMES)
def test_vector_env_runs_at_half_the_native_speed(game_id: str) -> None:
    native = bench_random_playouts(load_game(game_id), SECONDS)["actions_per_cpu_second"]
    vec = vector_rate(game_id, SECONDS)
    ratio = vec["actions"] / native
    print(f"{game_id}: native {native:.0f} actions/cpu-s, vector {vec['actions']:.0f} actions "
          f"({vec['steps']:.0f} learner steps)/cpu-s, ratio {ratio:.2f}")
    assert ratio >= 0.5, f"{game_id}: vector env at {ratio:.2f}x the native playout"


@pytest.mark.bench
@pytest.mark.parametrize("game_id", GAMES)
def test_wrapped_pettingzoo_env_runs_at_half_the_raw_speed(game_id: str) -> None:
    rates = {
        name: steps_per_cpu_second(lambda make=make: make(game_id), SECONDS)  # type: ignore[misc]
        for name, make in (("raw", raw_env), ("env", wrapped_env))
    }
    ratio = rates["env"] / rates["raw"]
    print(f"{game_id}: raw_env {rates['raw']:.0f}, env {rates['env']:.0f} steps/cpu-s, "
          f"ratio {ratio:.2f}")
    assert ratio >= 0.5


def _recipe() -> Any:
    return load_example("rl_maskable_ppo")


@pytest.mark.bench
def test_recipe_maskable_ppo_beats_random() -> None:
    pytest.importorskip("sb3_contrib", reason="the recipe needs the train extra")
    out = _recipe().main(["--game", "shooting-star", "--players", "2", "--eval-games", "500"])
    assert out["train_cpu_seconds"] < 600
    assert out["win_rate"] >= 0.9, out


def test_recipe_interval_helper() -> None:
    """The recipe's Wilson interval (plain test: no training)."""
    wilson = _recipe().wilson
    low, high = wilson(450, 500)
    assert low < 0.9 < high and low > 0.87 and high < 0.93
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
