"""Environments pickle and deep-copy (what vectorising libraries and checkpointing do), and a
copy plays on exactly as the original does."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from nightsky.rl import gym_env, pettingzoo_env, vector_env
from nightsky.rl.pettingzoo import parallel_env

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "deepcopy": copy.deepcopy,
}


def _first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("how", list(COPIES))
def test_gymnasium_and_vector_envs_copy(how: str) -> None:
    env = gym_env("star-fire", players=2, reward="shaped")
    obs, _ = env.reset(seed=0)
    env.step(_first_legal(obs["action_mask"]))
    twin = COPIES[how](env)
    a = env.step(_first_legal(env.action_masks()))
    b = twin.step(_first_legal(twin.action_masks()))
    assert np.array_equal(a[0]["observation"], b[0]["observation"]) and a[1] == b[1]

    vec = vector_env("shooting-star", num_envs=3, players=2)
    obs, _ = vec.reset(seed=1)
    vtwin = COPIES[how](vec)
    acts = [_first_legal(m) for m in obs["action_mask"]]
    va, vb = vec.step(acts), vtwin.step(acts)
    assert np.array_equal(va[0]["observation"], vb[0]["observation"])
    assert np.array_equal(va[0]["action_mask"], vb[0]["action_mask"])


@pytest.mark.parametrize("how", list(COPIES))
def test_pettingzoo_envs_copy(how: str) -> None:
    env = pettingzoo_env("shooting-star", players=2)
    env.reset(seed=2)
    twin = COPIES[how](env)
    for e in (env, twin):
        e.step(_first_legal(e.observe(e.agent_selection)["action_mask"]))
    assert twin.agent_selection == env.agent_selection
    assert np.array_equal(twin.state(), env.state())

    par = parallel_env("mihi-anguli", players=2)
    obs, _ = par.reset(seed=3)
    ptwin = COPIES[how](par)
    acts = {a: _first_legal(o["action_mask"]) if o["action_mask"].any() else 0
            for a, o in obs.items()}
    pa, pb = par.step(acts), ptwin.step(acts)
    for agent in par.possible_agents:
        assert np.array_equal(pa[0][agent]["observation"], pb[0][agent]["observation"])
