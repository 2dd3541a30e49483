"""Rewards with signal: ``reward="win" | "score" | "shaped"`` (and ``"auto"``) in the PettingZoo,
Gymnasium and OpenSpiel adapters, and solo games whose reward depends on the play. The shaping
potential is read through ``nightsky.rl._core.evaluations``, the one place rl/ reads a game's
evaluation."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

from nightsky.agents import make_agent
from nightsky.core.errors import OptionError
from nightsky.rl import gym_env, pettingzoo_env
from nightsky.rl import openspiel as nos
from nightsky.rl._core import evaluations
from nightsky.rl.pettingzoo import parallel_env
from tests.rl.conftest import config_id, final_reward, smallest_configs

SOLO = [
    ("mihi-anguli", {"players": 1}),
    ("starlight", {"players": 1, "starbots": 0, "max_rounds": 20}),
]


def _gym_episode(
    game_id: str, params: dict[str, Any], policy: str, seed: int, reward: str = "auto"
) -> tuple[list[float], Any]:
    """One episode of seat 0 played by a nightsky agent: the rewards of every step."""
    env = gym_env(game_id, reward=reward, **params)
    env.reset(seed=seed)
    agent, rng = make_agent(policy), random.Random(seed)
    rewards: list[float] = []
    done = False
    while not done:
        action = env.game.action_id(agent.choose(env.state, 0, rng))
        _, r, done, truncated, _ = env.step(action)
        assert not truncated
        rewards.append(float(r))
    return rewards, env


@pytest.mark.parametrize(("game_id", "params"), SOLO, ids=config_id)
def test_solo_reward_differs_between_random_and_greedy_play(
    game_id: str, params: dict[str, Any]
) -> None:
    """The issue's check: a solo game's reward is not a constant; better play earns more."""
    means = {}
    for policy in ("random", "greedy"):
        totals = [sum(_gym_episode(game_id, params, policy, seed)[0]) for seed in range(3)]
        means[policy] = float(np.mean(totals))
    assert means["greedy"] > means["random"]


@pytest.mark.parametrize(("game_id", "params"), SOLO, ids=config_id)
def test_win_is_refused_where_it_would_be_constant(game_id: str, params: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match="reward='win' is constant"):
        gym_env(game_id, reward="win", **params)
    with pytest.raises(OptionError, match="reward='win' is constant"):
        pettingzoo_env(game_id, reward="win", **params)
    with pytest.raises(pyspiel.SpielError, match="reward='win' is constant"):
        nos.load(game_id, reward="win", **params)


def test_an_unknown_reward_is_a_clear_error() -> None:
    game_id, params = "shooting-star", {"players": 2}
    for make in (gym_env, pettingzoo_env):
        with pytest.raises(OptionError, match="reward must be one of auto, win, score, shaped"):
            make(game_id, reward="points", **params)
    with pytest.raises(OptionError, match="reward must be one of"):
        parallel_env("mihi-anguli", players=2, reward="points")
    with pytest.raises(pyspiel.SpielError, match="reward must be one of"):
        nos.load(game_id, reward="points", **params)


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_gymnasium_score_and_shaped_rewards(game_id: str, params: dict[str, Any]) -> None:
    """``score`` pays the final score reward at the end only; ``shaped`` pays at the steps and
    its sum is that same final reward less the evaluation of the first position."""
    rewards, env = _gym_episode(game_id, params, "random", seed=3, reward="score")
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == pytest.approx(final_reward(env.state, 0, "score"))

    env = gym_env(game_id, reward="shaped", **params)
    env.reset(seed=3)
    start = evaluations(env.state, env.game.num_players)[0]
    shaped, env = _gym_episode(game_id, params, "random", seed=3, reward="shaped")
    assert sum(shaped) == pytest.approx(final_reward(env.state, 0, "score") - start)
    if len(shaped) > 2:
        assert any(r != 0.0 for r in shaped[:-1])  # a signal before the end


@pytest.mark.parametrize("reward", ["auto", "score", "shaped"])
@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_pettingzoo_rewards_add_up_for_every_seat(
    game_id: str, params: dict[str, Any], reward: str
) -> None:
    env = pettingzoo_env(game_id, reward=reward, **params)
    env.reset(seed=5)
    n = env.game.num_players
    start = evaluations(env.game_state, n)
    rng = np.random.default_rng(5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    paid_before_end = False
    for agent in env.agent_iter():
        obs, r, term, trunc, _ = env.last()
        total[agent] += r
        paid_before_end |= r != 0.0 and not term
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    kind = "score" if reward == "shaped" else reward
    expected = [final_reward(env.game_state, p, kind) for p in range(n)]
    if reward == "shaped":
        expected = [e - s for e, s in zip(expected, start, strict=True)]
        assert paid_before_end or len(env.game_state.history) < 4
    assert list(total.values()) == pytest.approx(expected)


def test_parallel_env_rewards_add_up() -> None:
    par = parallel_env("mihi-anguli", players=2, reward="shaped")
    obs, _ = par.reset(seed=4)
    start = evaluations(par.game_state, 2)
    rng = np.random.default_rng(4)
    total = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        acts = {
            a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"])))
            if obs[a]["action_mask"].any() else 0
            for a in par.agents
        }
        obs, rewards, *_ = par.step(acts)
        for a, r in rewards.items():
            total[a] += r
    expected = [final_reward(par.game_state, p, "score") - start[p] for p in range(2)]
    assert list(total.values()) == pytest.approx(expected)


@pytest.mark.parametrize("reward", ["auto", "score", "shaped"])
@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_openspiel_returns_follow_the_reward_parameter(
    game_id: str, params: dict[str, Any], reward: str
) -> None:
    text = ",".join(f"{k}={v}" for k, v in {**params, "reward": reward}.items())
    game = pyspiel.load_game(f"{nos.short_name(game_id)}({text})")
    shaped = reward == "shaped"
    model = pyspiel.GameType.RewardModel
    assert game.get_type().reward_model == (model.REWARDS if shaped else model.TERMINAL)
    state = game.new_initial_state()
    n = game.num_players()
    start = evaluations(state.ns_state, n)
    summed = [0.0] * n
    rng = random.Random(6)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        summed = [a + b for a, b in zip(summed, state.rewards(), strict=True)]
        if not state.is_terminal():
            assert state.returns() == pytest.approx(summed if shaped else [0.0] * n)
    kind = "score" if shaped else reward
    expected = [final_reward(state.ns_state, p, kind) for p in range(n)]
    if shaped:
        expected = [e - s for e, s in zip(expected, start, strict=True)]
    assert state.returns() == pytest.approx(expected)
    assert game.min_utility() <= min(expected) and max(expected) <= game.max_utility()


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_the_libraries_checkers_pass_with_shaped_rewards(
    game_id: str, params: dict[str, Any]
) -> None:
    """Rewards at every step still satisfy PettingZoo's api_test and Gymnasium's check_env."""
    import warnings

    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env(game_id, reward="shaped", **params), num_cycles=300)
        check_env(gym_env(game_id, reward="shaped", **params), skip_render_check=True)


def _finished(game_id: str, params: dict[str, Any], seed: int) -> Any:
    """A finished random game of ``game_id`` (ties are likely in short ones)."""
    from nightsky.core.game import CHANCE
    from nightsky.core.registry import load_game

    game = load_game(game_id, **params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        players = state.current_players()
        seat = min(players)
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
        else:
            state.step(rng.choice(state.legal_actions(seat)), seat)
    return state


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_a_finished_game_scored_once_gives_the_contracts_scores_winners_and_returns(
    game_id: str, params: dict[str, Any]
) -> None:
    """``final_result`` / ``win_shares`` (the vector env's one scoring of a finished game)
    equal ``State.scores``, ``winners`` and ``returns``."""
    from nightsky.rl._core import final_result, live_returns, win_shares

    for seed in range(3):
        state = _finished(game_id, params, seed)
        scores, winners = final_result(state)
        assert scores == state.scores() and winners == state.winners()
        n = state.game.num_players
        assert win_shares(state, winners, n) == live_returns(state, n)



def test_a_game_with_its_own_winners_is_asked_for_them() -> None:
    """``final_result`` applies the contract's winners rule only where the state's class keeps
    ``State.winners``; an override is asked (a subclass swapped in: pure engine only, since a
    compiled state's methods do not see an interpreted class put in its place)."""
    from nightsky._native import compiled
    from nightsky.rl._core import final_result, live_returns, win_shares

    if compiled():
        pytest.skip("swapping a compiled state's class needs the pure engine")
    state = _finished("shooting-star", {"players": 2}, 0)

    class OwnWinners(type(state)):  # type: ignore[misc]
        def winners(self) -> list[int]:
            return []  # never the contract's rule, which always finds a best seat

    state.__class__ = OwnWinners
    assert final_result(state) == (state.scores(), [])
    n = state.game.num_players
    assert win_shares(state, [], n) == live_returns(state, n) == [0.0] * n
