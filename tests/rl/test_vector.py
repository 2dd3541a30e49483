"""The vector environment (``nightsky.rl.vector``): Gymnasium's VectorEnv API, the batches
written in place, masks, same-step autoreset, opponents played inside, rewards, errors."""

from __future__ import annotations

import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import nightsky.rl  # noqa: F401  registers the Gymnasium ids (with their vector entry point)
from nightsky.core.errors import IllegalActionError, OptionError
from nightsky.rl.vector import NightskyVectorEnv
from tests.rl.conftest import config_id, smallest_configs

N = 6


def _masked(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([int(rng.choice(np.flatnonzero(row))) for row in masks])


def _check_rows(env: NightskyVectorEnv, obs: dict[str, np.ndarray]) -> None:
    """Every row is its game's observation and mask, for the learner's seat."""
    for i, state in enumerate(env.states):
        expected = np.float32(env.observer.observation(state, env.seat))
        assert np.array_equal(obs["observation"][i], expected)
        legal = {env.game.action_id(a) for a in state.legal_actions(env.seat)}
        assert set(np.flatnonzero(obs["action_mask"][i]).tolist()) == legal
        assert legal  # same-step autoreset: the learner always has a move


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_vector_env_batches_autoreset_and_final_infos(game_id: str, params: dict[str, Any]) -> None:
    seat = params.get("players", 1) - 1
    env = NightskyVectorEnv(game_id, num_envs=N, seat=seat, **params)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert obs["observation"].shape == (N, env.observer.size)
    assert obs["action_mask"].shape == (N, env.game.num_distinct_actions)
    _check_rows(env, obs)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(400):
        lengths = [len(s.history) for s in env.states]
        masks = env.action_masks()
        assert masks.dtype == bool and np.array_equal(masks, obs["action_mask"].astype(bool))
        obs, rewards, terms, truncs, infos = env.step(_masked(rng, masks))
        assert rewards.shape == terms.shape == truncs.shape == (N,) and not truncs.any()
        _check_rows(env, obs)
        if terms.any():
            assert np.array_equal(infos["_final_obs"], terms)
            for i in np.flatnonzero(terms):
                final = infos["final_info"][i]
                assert not final["illegal_action"] and final["winners"]
                assert infos["final_obs"][i]["observation"].shape == (env.observer.size,)
                assert not infos["final_obs"][i]["action_mask"].any()
                # reset in the same step: a new game, shorter than the one that ended
                assert len(env.states[i].history) < lengths[i]
                assert not env.states[i].is_terminal()
            finished += int(terms.sum())
        if finished >= N:
            break
    assert finished > 0


def test_vector_env_seeds_reproduce_and_games_differ() -> None:
    def run(seed: int) -> list[Any]:
        env = NightskyVectorEnv("shooting-star", num_envs=4, players=3)
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = []
        for _ in range(10):
            obs, rewards, terms, _, _ = env.step(_masked(rng, obs["action_mask"]))
            out.append((obs["observation"].copy(), rewards.copy(), terms.copy()))
        return out

    a, b = run(5), run(5)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])
    first = a[0][0]
    assert not all(np.array_equal(first[0], first[i]) for i in range(1, 4))


def test_vector_env_rewards_follow_the_reward_parameter() -> None:
    env = NightskyVectorEnv("mihi-anguli", num_envs=3, reward="score", players=1)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    paid: list[float] = []
    while len(paid) < 3:
        obs, rewards, terms, _, infos = env.step(_masked(rng, obs["action_mask"]))
        assert not rewards[~terms].any()  # score: paid at the end only
        for i in np.flatnonzero(terms):
            assert rewards[i] == pytest.approx(float(infos["final_info"][i]["scores"][0]))
            paid.append(float(rewards[i]))
    shaped = NightskyVectorEnv("mihi-anguli", num_envs=3, reward="shaped", players=1)
    obs, _ = shaped.reset(seed=1)
    obs, rewards, *_ = shaped.step(_masked(rng, obs["action_mask"]))
    obs, rewards2, *_ = shaped.step(_masked(rng, obs["action_mask"]))
    assert np.concatenate([rewards, rewards2]).any()  # a signal before the end
    with pytest.raises(OptionError, match="reward='win' is constant"):
        NightskyVectorEnv("mihi-anguli", num_envs=2, reward="win", players=1)


def test_vector_env_illegal_ids_lose_or_raise_without_moving_any_game() -> None:
    env = NightskyVectorEnv("mihi-anguli", num_envs=3, players=2)
    strict = NightskyVectorEnv("mihi-anguli", num_envs=3, players=2, illegal="raise")
    obs, _ = env.reset(seed=0)
    strict.reset(seed=0)
    rng = np.random.default_rng(0)
    while obs["action_mask"][1].all():  # reach a position where seat 0 has an illegal id
        actions = _masked(rng, obs["action_mask"])
        obs, *_ = env.step(actions)
        strict.step(actions)
    actions = _masked(rng, obs["action_mask"])
    actions[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    before = [len(s.history) for s in strict.states]
    with pytest.raises(IllegalActionError):
        strict.step(actions)
    assert [len(s.history) for s in strict.states] == before
    with pytest.raises(ValueError, match="need 3 action ids"):
        env.step(actions[:2])
    _, rewards, terms, _, infos = env.step(actions)
    assert terms.tolist() == [False, True, False] and rewards[1] == -1.0
    assert infos["illegal_action"].tolist() == [False, True, False]
    assert infos["final_info"][1]["illegal_action"]
    with pytest.raises(OptionError, match="num_envs"):
        NightskyVectorEnv("shooting-star", num_envs=0)
    with pytest.raises(OptionError, match="seat"):
        NightskyVectorEnv("shooting-star", num_envs=2, seat=5, players=2)
    with pytest.raises(OptionError, match="illegal"):
        NightskyVectorEnv("shooting-star", num_envs=2, illegal="skip")


def test_vector_env_from_gymnasium_make_vec_with_other_seats_played_by_an_agent() -> None:
    env = gymnasium.make_vec(
        "nightsky/shooting-star-v0", num_envs=3, vectorization_mode="vector_entry_point",
        players=2, opponents="greedy",
    )
    assert isinstance(env, NightskyVectorEnv) and env.num_envs == 3
    obs, _ = env.reset(seed=2)
    assert env.observation_space.contains(obs)
    obs, *_ = env.step(_masked(np.random.default_rng(2), obs["action_mask"]))
    _check_rows(env, obs)
    assert env.opponent_steps > 0


def test_vector_env_without_copies_hands_out_its_batches() -> None:
    env = nightsky.rl.vector_env("shooting-star", num_envs=2, players=2, copy=False)
    assert isinstance(env, NightskyVectorEnv)
    obs, _ = env.reset(seed=0)
    again, *_ = env.step(_masked(np.random.default_rng(0), obs["action_mask"]))
    assert again["observation"] is obs["observation"]


class _PlainRandom:
    """A random agent that is not ``RandomAgent`` (the stepper's shortcut does not apply):
    the same draw through ``choose``."""

    name = "plain-random"

    def choose(self, state: Any, player: int, rng: Any) -> Any:
        return rng.choice(state.legal_actions(player))


@pytest.mark.parametrize("game_id", ["star-fire", "shooting-star"])
def test_vector_env_random_opponents_draw_as_the_random_agent(game_id: str) -> None:
    """The compiled loop picks a ``random`` opponent's move without calling the agent: the very
    moves ``RandomAgent.choose`` would draw from the same stream."""
    envs = [NightskyVectorEnv(game_id, num_envs=3, players=3) for _ in range(2)]
    for opponents in envs[1]._opponents:
        for seat in opponents:
            opponents[seat] = _PlainRandom()  # type: ignore[assignment]
    rng = np.random.default_rng(5)
    obs = [env.reset(seed=11)[0] for env in envs]
    for _ in range(60):
        actions = _masked(rng, obs[0]["action_mask"])
        obs = [env.step(actions)[0] for env in envs]
        assert [s.history for s in envs[0].states] == [s.history for s in envs[1].states]
        assert np.array_equal(obs[0]["observation"], obs[1]["observation"])
    assert envs[0].opponent_steps == envs[1].opponent_steps > 0


def test_vector_env_mask_ids_by_identity_by_action_id_or_by_the_state() -> None:
    """The mask writer finds an id by the action object's identity (``id()``) or by the
    object itself; an action that is not in the id table (an empty table here) gets its id
    from ``game.action_id``, or, behind a table keyed by ``id()``, from the table keyed by
    object (``alt``: a game asked nothing); without a table the state's
    ``legal_action_ids`` is asked. All give the same mask, and the env picks one of the two
    tables (keeping the object table behind an ``id()`` one)."""
    from nightsky.rl import _stepper

    env = NightskyVectorEnv("stars-are-right", num_envs=3, players=2)
    env.reset(seed=2)
    seat = env.seat
    assert env._ident is not None and len(env._ident) == env.game.num_distinct_actions
    expected = [sorted(s.legal_action_ids(seat)) for s in env.states]
    by_object = {a: i for i, a in enumerate(env._actions)}
    by_id = {id(a): i for i, a in enumerate(env._actions)}
    class NoIds:
        """A game that must not be asked: every action is in the object table."""

        def action_id(self, action: Any) -> int:
            raise AssertionError(f"game.action_id asked for {action!r}")

    ways: list[tuple[Any, bool, Any, Any]] = [
        (by_id, False, None, env.game), (by_object, True, None, env.game),
        ({}, False, None, env.game), ({}, True, None, env.game), (None, False, None, env.game),
        ({}, False, by_object, NoIds()),
    ]
    for ident, flag, alt, game in ways:
        obs = np.zeros((3, env.observer.size), dtype=np.float32)
        mask = np.zeros((3, env.game.num_distinct_actions), dtype=np.int8)
        _stepper.write_rows(
            env.states, seat, env.observer, [r.data for r in obs], [r.data for r in mask],
            ident, game, None, None, flag, alt,
        )
        assert [np.flatnonzero(r).tolist() for r in mask] == expected
        assert np.array_equal(obs, env._obs)
    assert env._ident == (by_object if env._by_object else by_id)
    assert env._alt == (None if env._by_object else by_object)
    copied = pickle.loads(pickle.dumps(env))
    assert copied._alt == env._alt and copied._ident is not None


def test_the_benchmarks_light_choice_draws_each_rows_legal_ids_uniformly() -> None:
    """``nightsky.rl.bench.light_choice`` (the ``--light-choice`` learner of
    ``scripts/rl_bench.py``): only set entries, every one of them, about equally often."""
    from nightsky.rl.bench import light_choice

    mask = np.zeros((4, 50), dtype=np.int8)
    legal = [[0], [3, 49], [7, 8, 9, 20, 31], list(range(50))]
    for i, ids in enumerate(legal):
        mask[i, ids] = 1
    rng = np.random.default_rng(0)
    draws = np.array([light_choice(rng, mask) for _ in range(4000)])
    for i, ids in enumerate(legal):
        seen, counts = np.unique(draws[:, i], return_counts=True)
        assert seen.tolist() == ids
        expected = 4000 / len(ids)
        assert np.all(np.abs(counts - expected) < 5 * np.sqrt(expected) + 1)
