"""The RL example runs through every adapter and shows what the mask is for."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.rl.conftest import config_id, smallest_configs

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rl_random_vs_masked.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rl_random_vs_masked", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("game_id", "params"),
    [(g, c) for g, c in smallest_configs() if g == "shooting-star"] or smallest_configs()[:1],
    ids=config_id,
)
@pytest.mark.parametrize("adapter", ["run_pettingzoo", "run_gymnasium", "run_openspiel"])
def test_example_masked_policy_never_forfeits(
    game_id: str, params: dict[str, object], adapter: str
) -> None:
    ex = _example()
    tally = getattr(ex, adapter)(game_id, params, 6, 0)
    assert tally.games["masked"] > 0 and tally.forfeits["masked"] == 0
    assert tally.games["random"] > 0
    # an unmasked random pick over thousands of ids is nearly always illegal
    assert tally.forfeits["random"] >= 1
