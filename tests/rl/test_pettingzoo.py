"""PettingZoo adapter: PettingZoo's own api_test and seed_test for every game and player count."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from nightsky.core.errors import IllegalActionError
from nightsky.rl import pettingzoo_env
from tests.rl.conftest import (
    all_configs,
    assert_terminal_text,
    config_id,
    final_reward,
    smallest_configs,
)


@pytest.mark.parametrize(("game_id", "params"), all_configs(), ids=config_id)
def test_pettingzoo_api_and_seed(game_id: str, params: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that dict observations are "not a NumPy array", as for its own
        # classic games with action masks.
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env(game_id, **params), num_cycles=1000)
        seed_test(lambda: pettingzoo_env(game_id, **params), num_cycles=100)


def _play(game_id: str, params: dict[str, Any], seed: int) -> tuple[list[Any], dict[str, float]]:
    env = pettingzoo_env(game_id, **params)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        action = int(rng.choice(legal))
        trace.append((agent, action))
        env.step(action)
    return trace, total


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_pettingzoo_full_game_pays_the_final_rewards(game_id: str, params: dict[str, Any]) -> None:
    trace, total = _play(game_id, params, seed=7)
    again, _ = _play(game_id, params, seed=7)
    assert trace == again  # the seed fixes every chance event
    env = pettingzoo_env(game_id, **params)
    env.reset(seed=7)
    for agent, action in trace:
        assert env.agent_selection == agent
        env.step(action)
    finals = [final_reward(env.game_state, p) for p in range(env.game.num_players)]
    assert list(total.values()) == pytest.approx(finals)
    assert env.game_state.is_terminal()


def test_pettingzoo_illegal_action_raises_and_changes_nothing() -> None:
    game_id, params = smallest_configs()[0]
    env = pettingzoo_env(game_id, **params)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = len(env.game_state.history)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert len(env.game_state.history) == before
    assert env.agent_selection == agent


def test_pettingzoo_simultaneous_turns_are_asked_in_seat_order() -> None:
    """A game with simultaneous turns: every acting seat is asked, lowest first."""
    from nightsky.core.registry import game_class, game_ids

    sim = [g for g in game_ids() if game_class(g).info.simultaneous]
    assert sim, "no registered game has simultaneous turns"
    game_id = sim[0]
    cls = game_class(game_id)
    env = pettingzoo_env(game_id, players=max(2, cls.info.min_players))
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    saw_several = False
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        players = env.game_state.current_players()
        if len(players) > 1:
            saw_several = True
            assert env.agent_selection == f"seat_{min(players)}"
            for p in players:  # every acting seat has a non-empty mask of its own
                assert env.observe(f"seat_{p}")["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert saw_several


@given(seed=st.integers(0, 2**31 - 1), which=st.integers(0, 10_000))
def test_pettingzoo_mask_and_observation_follow_the_contract(seed: int, which: int) -> None:
    """Property: at every step of any seeded game, the selected agent's mask marks exactly the
    ids of its legal actions and its observation is ``State.observation`` of its seat."""
    configs = all_configs()
    game_id, params = configs[which % len(configs)]
    env = pettingzoo_env(game_id, **params)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(60):
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        seat = int(agent.split("_")[1])
        assert seat == min(env.game_state.current_players())
        legal = {env.game.action_id(a) for a in env.game_state.legal_actions(seat)}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
        expected = np.float32(env.observer.observation(env.game_state, seat))
        assert np.array_equal(obs["observation"], expected)
        env.step(int(rng.choice(sorted(legal))))


@pytest.mark.parametrize(("game_id", "params"), all_configs(), ids=config_id)
def test_pettingzoo_state_check(game_id: str, params: dict[str, Any]) -> None:
    """PettingZoo's own ``state_test`` checks: ``state_space`` and ``state()`` along a game
    of the wrapped ``env()`` (its actions are sampled blindly: an illegal one ends the game),
    and the Parallel env's where the game has one."""
    from pettingzoo.test.state_test import test_parallel_env, test_state, test_state_space

    from nightsky.rl.pettingzoo import env as wrapped_env
    from nightsky.rl.pettingzoo import parallel_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box, as for the observations
        wrapped = wrapped_env(game_id, **params)
        test_state_space(wrapped)
        test_state(wrapped, num_cycles=10)
        if wrapped.unwrapped.game.info.simultaneous:
            test_parallel_env(parallel_env(game_id, **params))
    env = pettingzoo_env(game_id, **params)
    env.reset(seed=1)
    state = env.state()
    n, size = env.game.num_players, env.observer.size
    assert state.shape == (n * size,) and state.dtype == np.float32
    for p in range(n):  # each live seat's observation, in seat order
        expected = np.float32(env.observer.observation(env.game_state, p))
        assert np.array_equal(state[p * size : (p + 1) * size], expected)


def test_pettingzoo_ansi_render_is_terminal_text() -> None:
    env = pettingzoo_env("shooting-star", players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    styled = env.game.ui.render(env.game_state, 0)  # rich style tags
    assert_terminal_text(text, styled)
    from pettingzoo.test import render_test

    from nightsky.rl.pettingzoo import env as wrapped_env

    # PettingZoo's own render_test: every declared mode, along a game (human mode prints).
    render_test(lambda render_mode=None: wrapped_env("mihi-anguli", players=2,
                                                     render_mode=render_mode))
