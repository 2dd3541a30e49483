"""Each research library finds every game its own standard way: Gymnasium's registry (on
import, and by ``module:id``), OpenSpiel's ``load_game`` strings with parameters, PettingZoo
modules with ``env`` / ``raw_env`` / ``parallel_env`` made from the game registry."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
import warnings
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test
from pettingzoo.utils import wrappers

import nightsky.rl  # noqa: F401  registers the Gymnasium ids
import nightsky.rl.openspiel  # noqa: F401  registers the OpenSpiel games
from nightsky.core.errors import IllegalActionError, OptionError
from nightsky.core.game import Game, GameInfo
from nightsky.core.registry import game_class, game_ids, register, unregister
from nightsky.rl import pettingzoo as nzoo
from nightsky.rl import pettingzoo_env
from tests.conftest import ROOT
from tests.rl.conftest import all_configs, config_id, smallest_configs
from tests.support.toygame import ToyGame


def _simultaneous() -> list[str]:
    return [g for g in game_ids() if game_class(g).info.simultaneous]


# ---------------------------------------------------------------------------- Gymnasium
@pytest.mark.parametrize("game_id", game_ids())
def test_gymnasium_ids_are_registered_by_importing_nightsky_rl(game_id: str) -> None:
    env = gymnasium.make(f"nightsky/{game_id}-v0")
    obs, info = env.reset(seed=0)
    assert obs["action_mask"].any() or env.unwrapped.game_state.is_terminal()
    env.close()


def test_gymnasium_module_colon_id_imports_the_module_that_registers() -> None:
    """In a fresh interpreter that never imported nightsky.rl, ``gymnasium.make`` imports it
    from the ``module:id`` form and finds the id it registered."""
    code = (
        "import sys, gymnasium\n"
        "assert 'nightsky.rl' not in sys.modules\n"
        "env = gymnasium.make('nightsky.rl:nightsky/star-fire-v0', players=3, seat=2)\n"
        "obs, _ = env.reset(seed=1)\n"
        "print(env.unwrapped.game.num_players, env.unwrapped.seat, obs['observation'].shape)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["3", "2", "(733,)"]


# ---------------------------------------------------------------------------- OpenSpiel
@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_openspiel_load_game_strings_with_parameters(game_id: str, params: dict[str, Any]) -> None:
    """``pyspiel.load_game("nightsky_<id>(players=N)")`` and its dict form, after import."""
    name = "nightsky_" + game_id.replace("-", "_")
    assert name in pyspiel.registered_names()
    players = params.get("players", game_class(game_id).info.min_players)
    by_string = pyspiel.load_game(f"{name}(players={players})")
    by_dict = pyspiel.load_game(name, {"players": players})
    assert by_string.num_players() == by_dict.num_players() == players
    assert by_string.get_parameters()["players"] == players
    state = by_string.new_initial_state()
    assert not state.is_terminal()


def test_openspiel_game_options_pass_through_the_string_form() -> None:
    game = pyspiel.load_game("nightsky_star_fire(players=4,max_rounds=12)")
    assert game.ns_game.num_players == 4
    assert game.ns_game.options["max_rounds"] == 12
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'nonsense'"):
        pyspiel.load_game("nightsky_star_fire(nonsense=1)")


# ---------------------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize("game_id", game_ids())
def test_pettingzoo_module_per_game(game_id: str) -> None:
    name = nzoo.module_name(game_id)
    mod = getattr(nzoo, name)
    assert mod is importlib.import_module(f"nightsky.rl.pettingzoo.{name}")
    assert game_id == mod.GAME_ID
    assert hasattr(mod, "env") and hasattr(mod, "raw_env")
    assert hasattr(mod, "parallel_env") == game_class(game_id).info.simultaneous
    assert pickle.loads(pickle.dumps(mod.env)) is mod.env  # makers travel to worker processes
    env = mod.env()
    # The wrappers of PettingZoo's own classic environments, outermost first.
    assert isinstance(env, wrappers.OrderEnforcingWrapper)
    assert isinstance(env.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(env.env.env, wrappers.TerminateIllegalWrapper)
    assert type(env.unwrapped) is type(mod.raw_env())


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_pettingzoo_wrapped_env_passes_the_api_test(game_id: str, params: dict[str, Any]) -> None:
    mod = getattr(nzoo, nzoo.module_name(game_id))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations "are not a NumPy array"
        api_test(mod.env(**params), num_cycles=300)


def test_pettingzoo_wrapped_env_reads_the_raw_env_and_enforces_the_order() -> None:
    """``env()``'s wrappers read the learner's hot attributes straight from the raw env (the
    same objects), and still refuse them before ``reset`` as PettingZoo's wrapper does."""
    env = nzoo.star_fire_v0.env(players=2)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        _ = env.agent_selection
    env.reset(seed=1)
    raw = env.unwrapped
    for layer in (env, env.env, env.env.env):
        assert layer.agent_selection == raw.agent_selection
        assert layer.rewards is raw.rewards and layer.terminations is raw.terminations
        assert layer.infos is raw.infos and layer.agents is raw.agents
        assert layer._cumulative_rewards is raw._cumulative_rewards


def test_pettingzoo_wrapped_env_ends_the_game_on_an_illegal_id() -> None:
    env = nzoo.star_fire_v0.env(players=2)
    env.reset(seed=4)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns about the illegal move
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == nzoo.ILLEGAL_REWARD


def test_a_game_registered_later_gets_its_module_too() -> None:
    """No game-specific code in rl/: a new game appears as a module with no change there."""

    class LateToy(ToyGame):
        info = GameInfo(**{**ToyGame.info.__dict__, "id": "late-toy", "title": "Late toy"})

    register(LateToy)
    try:
        from nightsky.rl.pettingzoo import late_toy_v0  # type: ignore[attr-defined]

        env = late_toy_v0.raw_env(players=3)
        env.reset(seed=0)
        assert env.possible_agents == ["seat_0", "seat_1", "seat_2"]
        assert isinstance(env.game, Game)
    finally:
        unregister("late-toy")
    with pytest.raises(AttributeError):
        nzoo.no_such_game_v0  # noqa: B018


def test_simultaneous_games_exist_and_others_refuse_the_parallel_env() -> None:
    assert _simultaneous(), "no registered game has simultaneous turns"
    with pytest.raises(OptionError, match="no simultaneous turns"):
        nzoo.parallel_env("star-fire")


@pytest.mark.parametrize(
    ("game_id", "params"),
    [(g, c) for g, c in all_configs() if game_class(g).info.simultaneous],
    ids=config_id,
)
def test_parallel_env_passes_the_parallel_api_and_seed_tests(
    game_id: str, params: dict[str, Any]
) -> None:
    mod = getattr(nzoo, nzoo.module_name(game_id))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(mod.parallel_env(**params), num_cycles=1000)
        parallel_seed_test(lambda: mod.parallel_env(**params), num_cycles=100)


def _masked_choice(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def test_parallel_env_plays_the_game_the_aec_env_plays() -> None:
    """Same seed and the same choices per seat: the parallel env (one action of every acting
    seat per step) and the AEC env (acting seats asked lowest first) play the same game."""
    game_id = _simultaneous()[0]
    params = {"players": 3}
    par = nzoo.parallel_env(game_id, **params)
    obs, _ = par.reset(seed=11)
    rngs = {a: np.random.default_rng(i) for i, a in enumerate(par.possible_agents)}
    total = dict.fromkeys(par.possible_agents, 0.0)
    steps = several = 0
    while par.agents:
        acting = par.game_state.current_players()
        several += len(acting) > 1
        actions = {
            a: _masked_choice(rngs[a], obs[a]["action_mask"]) if obs[a]["action_mask"].any() else 0
            for a in par.agents
        }
        obs, rewards, _, _, _ = par.step(actions)
        for a, r in rewards.items():
            total[a] += r
        steps += 1
    assert several > 0  # rounds where seats really acted at once

    aec = pettingzoo_env(game_id, **params)
    aec.reset(seed=11)
    rngs = {a: np.random.default_rng(i) for i, a in enumerate(aec.possible_agents)}
    for agent in aec.agent_iter():
        ob, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else _masked_choice(rngs[agent], ob["action_mask"]))

    def by_seat(history: list[tuple[int, Any]]) -> dict[int, list[str]]:
        out: dict[int, list[str]] = {}
        for seat, action in history:
            out.setdefault(seat, []).append(str(action))
        return out

    # The interleaving within a round differs (one action per acting seat per step against
    # each seat's whole turn in a row), but every seat, chance included (-1), did the same.
    assert by_seat(aec.game_state.history) == by_seat(par.game_state.history)
    assert aec.game_state.returns() == par.game_state.returns()
    assert list(total.values()) == pytest.approx(par.game_state.returns()[: par.game.num_players])


@pytest.mark.parametrize("illegal", ["raise", "lose"])
def test_parallel_env_step_is_all_or_nothing(illegal: str) -> None:
    par = nzoo.parallel_env(_simultaneous()[0], players=2, illegal=illegal)
    obs, _ = par.reset(seed=2)
    while len(par.game_state.current_players()) < 2:  # reach a round where both seats act
        acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) if obs[a]["action_mask"].any()
                else 0 for a in par.agents}
        obs, *_ = par.step(acts)
    before = len(par.game_state.history)
    good = int(np.flatnonzero(obs["seat_0"]["action_mask"])[0])
    bad = int(np.flatnonzero(obs["seat_1"]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="no action for seat_1"):
        par.step({"seat_0": good})
    if illegal == "raise":
        with pytest.raises(IllegalActionError):
            par.step({"seat_0": good, "seat_1": bad})
        assert par.agents  # the game goes on
    else:
        _, rewards, terms, _, infos = par.step({"seat_0": good, "seat_1": bad})
        assert rewards == {"seat_0": 0.0, "seat_1": -1.0}
        assert all(terms.values()) and not par.agents
        assert infos["seat_1"]["illegal_action"] and not infos["seat_0"]["illegal_action"]
    assert len(par.game_state.history) == before  # seat 0's legal action was not kept either


def test_parallel_env_max_cycles_truncates() -> None:
    par = nzoo.parallel_env(_simultaneous()[0], players=2, max_cycles=3)
    obs, _ = par.reset(seed=0)
    for step in range(3):
        acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) if obs[a]["action_mask"].any()
                else 0 for a in par.agents}
        obs, _, terms, truncs, _ = par.step(acts)
        assert not any(terms.values())
        assert all(truncs.values()) == (step == 2)
    assert par.agents == []
    par.reset(seed=0)
    assert par.agents and par.cycles == 0
    with pytest.raises(OptionError, match="max_cycles"):
        nzoo.parallel_env(_simultaneous()[0], players=2, max_cycles=0)
