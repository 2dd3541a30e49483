"""The RL example runs through every adapter and shows what the mask is for."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.rl.conftest import config_id, load_example, smallest_configs


def _example() -> ModuleType:
    return load_example("rl_random_vs_masked")


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
