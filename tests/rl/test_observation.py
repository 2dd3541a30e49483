"""The observation tensor of every game (``Game.make_observer()``):
fixed length, finite values, and nothing a seat may not know (resampling the hidden parts
that seat cannot see leaves its observation unchanged)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from nightsky.core.game import CHANCE
from nightsky.core.registry import load_game
from tests.rl.conftest import all_configs, config_id


@pytest.mark.parametrize(("game_id", "params"), all_configs(), ids=config_id)
def test_observation_is_fixed_size_finite_and_private(game_id: str, params: dict[str, Any]) -> None:
    game = load_game(game_id, **params)
    observer = game.make_observer()
    size = observer.size
    assert size > 0
    rng = random.Random(9)
    state = game.new_initial_state()
    checked = 0
    differed = 0
    step = 0
    while True:
        step += 1
        if step % 7 == 1 or state.is_terminal():
            for seat in range(game.num_players):
                obs = observer.observation(state, seat)
                assert len(obs) == size, f"seat {seat}: {len(obs)} values, expected {size}"
                assert all(isinstance(v, float | int) and math.isfinite(v) for v in obs)
                if not state.is_terminal():
                    other = state.resample(seat, random.Random(step * 31 + seat))
                    assert observer.observation(other, seat) == obs, (
                        f"seat {seat}'s observation changed when hidden parts were resampled"
                    )
                    differed += other.view(None) != state.view(None) or any(
                        observer.observation(other, p) != observer.observation(state, p)
                        for p in range(game.num_players)
                        if p != seat
                    )
                checked += 1
        if state.is_terminal():
            break
        players = state.current_players()
        if players == (CHANCE,):
            state.step(state.sample_chance(rng), CHANCE)
        else:
            seat = min(players)
            state.step(rng.choice(state.legal_actions(seat)), seat)
    assert checked > game.num_players
    if game.info.hidden_information and game.num_players > 1:
        # the privacy check above was not vacuous: resampling did change hidden parts
        assert differed > 0


@pytest.mark.parametrize(
    ("game_id", "params"),
    [(g, c) for g, c in all_configs() if c.get("players", 1) >= 2],
    ids=config_id,
)
def test_observation_differs_between_seats_with_hidden_information(
    game_id: str, params: dict[str, Any]
) -> None:
    """The tensor is from the seat's point of view: two seats do not see the same vector."""
    game = load_game(game_id, **params)
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        players = state.current_players()
        if players == (CHANCE,):
            state.step(state.sample_chance(rng), CHANCE)
        else:
            state.step(rng.choice(state.legal_actions(min(players))), min(players))
    observer = game.make_observer()
    assert observer.observation(state, 0) != observer.observation(state, 1)
