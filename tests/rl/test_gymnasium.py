"""Gymnasium adapter: Gymnasium's own check_env for every game and player count."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from nightsky.core.errors import IllegalActionError, OptionError
from nightsky.rl import gym_env
from tests.rl.conftest import (
    all_configs,
    assert_terminal_text,
    config_id,
    final_reward,
    smallest_configs,
)


@pytest.mark.parametrize(("game_id", "params"), all_configs(), ids=config_id)
def test_gymnasium_check_env(game_id: str, params: dict[str, Any]) -> None:
    last_seat = params.get("players", 1) - 1
    with warnings.catch_warnings():
        # Observation bounds are unbounded (the contract does not bound observation values).
        warnings.simplefilter("ignore")
        check_env(gym_env(game_id, seat=last_seat, **params), skip_render_check=True)


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_gymnasium_masked_episode_pays_the_seat_final_reward(
    game_id: str, params: dict[str, Any]
) -> None:
    env = gym_env(game_id, seat=0, opponents="random", **params)
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    total = 0.0
    terminated = False
    steps = 0
    while not terminated:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        assert "illegal_action" not in info
        total += reward
        steps += 1
    assert total == pytest.approx(final_reward(env.state, 0))
    assert "winners" in info and "scores" in info
    assert steps > 0


def test_gymnasium_illegal_action_loses_by_default_and_raises_on_request() -> None:
    game_id, params = smallest_configs()[0]
    env = gym_env(game_id, **params)
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = len(env.state.history)
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert len(env.state.history) == before
    strict = gym_env(game_id, illegal="raise", **params)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_gymnasium_bad_seat_or_opponent_count_is_a_clear_error() -> None:
    from tests.rl.conftest import all_configs as configs

    game_id, params = next((g, c) for g, c in configs() if c.get("players", 1) >= 2)
    n = params["players"]
    with pytest.raises(OptionError, match="seat"):
        gym_env(game_id, seat=n, **params)
    with pytest.raises(OptionError, match="opponents"):
        gym_env(game_id, opponents=["random"] * n, **params)


def test_gymnasium_make_builds_registered_envs() -> None:
    import gymnasium

    from nightsky.core.registry import game_ids
    from nightsky.rl import register_gym_envs

    names = register_gym_envs()
    assert names == [f"nightsky/{g}-v0" for g in game_ids()]
    game_id, params = smallest_configs()[0]
    env = gymnasium.make(f"nightsky/{game_id}-v0", **params)
    obs, info = env.reset(seed=1)
    assert obs["action_mask"].any()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_gymnasium_action_masks_for_maskable_learners(
    game_id: str, params: dict[str, Any]
) -> None:
    """``action_masks()`` (sb3-contrib's convention): booleans equal to the observation's and
    ``info``'s mask at every step, all False once the episode is over."""
    env = gym_env(game_id, **params)
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        masks = env.action_masks()
        assert masks.dtype == bool and masks.shape == (env.action_space.n,)
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(masks))))
    assert not env.action_masks().any()


def test_gymnasium_ansi_render_is_terminal_text() -> None:
    env = gym_env("shooting-star", players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert_terminal_text(text, env.game.ui.render(env.state, 0))
