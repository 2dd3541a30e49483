"""The agents play the same games: seeded search and greedy records match
``tests/golden/agents.json`` (see ``tests/support/agent_golden.py``)."""

from __future__ import annotations

import json

import pytest

from nightsky.core.registry import packaged_game_ids
from tests.support.agent_golden import PATH, record_digest


@pytest.mark.parametrize("game_id", packaged_game_ids())
def test_agents_play_the_golden_games(game_id: str) -> None:
    want = json.loads(PATH.read_text())
    if game_id not in want:
        pytest.skip(f"no record yet: python -m tests.support.agent_golden --write {game_id}")
    assert record_digest(game_id) == want[game_id], f"{game_id}: the agents now choose otherwise"
