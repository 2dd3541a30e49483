"""OpenSpiel adapter: pyspiel's random simulation test, a full random game through the pyspiel
API for every configuration, and OpenSpiel's MCTS and IS-MCTS bots finishing a game."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from nightsky.core.game import CHANCE
from nightsky.rl import openspiel as nos
from tests.conftest import ROOT
from tests.rl.conftest import all_configs, config_id, final_reward, smallest_configs


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_openspiel_random_sim_test(game_id: str, params: dict[str, Any]) -> None:
    """OpenSpiel's C++ random simulation test, serialisation included, on one finite
    configuration per game (The Stars Are Right with no reshuffle: the book's unlimited
    reshuffles make games of about 12k actions)."""
    game = nos.load(game_id, **params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("game_id", "params"), all_configs(), ids=config_id)
def test_openspiel_games_sim_test_sim_game(game_id: str, params: dict[str, Any]) -> None:
    """OpenSpiel's own ``games_sim_test.sim_game``: pickling of the game, its type and states,
    pyspiel serialisation, clones, and returns within the utility bounds (its 1000-action cap
    stops long games before their end)."""
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    GamesSimTest("test_pig").sim_game(nos.load(game_id, **params))


@pytest.mark.parametrize("reward", ["score", "shaped"])
@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_openspiel_sim_game_with_other_rewards(
    game_id: str, params: dict[str, Any], reward: str
) -> None:
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    GamesSimTest("test_pig").sim_game(nos.load(game_id, reward=reward, **params))


def test_openspiel_games_and_states_pickle_and_keep_their_rewards() -> None:
    game = nos.load("star-fire", players=3, reward="shaped")
    assert type(game) is getattr(nos, nos.class_name("star-fire"))
    state = game.new_initial_state()
    rng = random.Random(8)
    for _ in range(80):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history()
    assert again.ns_state.history == state.ns_state.history
    assert again.returns() == pytest.approx(state.returns())
    assert any(r != 0.0 for r in state.returns())
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    # A fresh interpreter finds the class by its module-level name (multiprocessing's case).
    code = "import pickle, sys; print(pickle.loads(sys.stdin.buffer.read()).num_players())"
    run = subprocess.run(
        [sys.executable, "-c", code], input=pickle.dumps(game), capture_output=True,
        cwd=ROOT, timeout=120, check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == b"3"


def test_openspiel_information_state_tensor_is_declared_absent() -> None:
    game = nos.load("shooting-star", players=2)
    assert not game.get_type().provides_information_state_tensor
    assert game.get_type().provides_observation_tensor
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        state.information_state_tensor(state.current_player())
    assert state.information_state_string(state.current_player())


@pytest.mark.parametrize(("game_id", "params"), all_configs(), ids=config_id)
def test_openspiel_random_game_through_the_pyspiel_api(
    game_id: str, params: dict[str, Any]
) -> None:
    game = nos.load(game_id, **params)
    ns_game = game.ns_game
    assert game.num_players() == ns_game.num_players
    assert game.num_distinct_actions() == ns_game.num_distinct_actions
    assert game.observation_tensor_size() == ns_game.make_observer().size
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert len(state.history()) <= game.max_game_length()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert 0 < len(outcomes) <= game.max_chance_outcomes()
            actions, probs = zip(*outcomes, strict=True)
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        assert player in state.ns_state.current_players()
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal[0] >= 0 and legal[-1] < game.num_distinct_actions()
        tensor = state.observation_tensor(player)
        assert len(tensor) == game.observation_tensor_size()
        json.loads(state.information_state_string(player))
        state.apply_action(int(rng.choice(legal)))
    finals = [final_reward(state.ns_state, p) for p in range(game.num_players())]
    assert state.returns() == pytest.approx(finals)


def _chance_state(game_id: str, params: dict[str, Any], explicit: bool) -> Any:
    """The first chance node of a random game whose outcomes are listed (or only sampled)."""
    game = nos.load(game_id, **params)
    rng = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            if (state.ns_state.chance_outcomes() is not None) == explicit:
                return state
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return None


def test_openspiel_explicit_chance_keeps_the_game_probabilities() -> None:
    """Where a game lists its chance outcomes, pyspiel sees that very list, in order."""
    found = [
        s for g, c in smallest_configs() if (s := _chance_state(g, c, explicit=True)) is not None
    ]
    assert found, "no registered game lists chance outcomes"
    for state in found:
        listed = state.ns_state.chance_outcomes()
        spiel = state.chance_outcomes()
        assert [p for _, p in spiel] == pytest.approx([p for _, p in listed])
        for i, (outcome, _) in enumerate(listed[:8]):
            child = state.child(i)
            assert child.ns_state.history[-1] == (CHANCE, outcome)


def test_openspiel_sampled_chance_is_reproducible() -> None:
    """Where a game only samples, chance action k is one fixed draw from that state."""
    found = [
        s
        for g, c in all_configs()
        if c.get("players", 1) == 2 and (s := _chance_state(g, c, explicit=False)) is not None
    ][:2]
    assert found, "no registered game has a sampled-only chance node"
    for state in found:
        outs = state.chance_outcomes()
        assert len(outs) == nos.SAMPLED_OUTCOMES
        assert sum(p for _, p in outs) == pytest.approx(1.0)
        for k in (0, nos.SAMPLED_OUTCOMES - 1):
            a, b = state.child(k), state.clone().child(k)
            assert a.ns_state.history[-1] == b.ns_state.history[-1]
            assert str(a) == str(b)


def test_openspiel_resample_keeps_the_information_state() -> None:
    hidden = [
        (g, c) for g, c in smallest_configs() if nos.load(g, **c).ns_game.info.hidden_information
    ]
    assert hidden
    for game_id, params in hidden:
        game = nos.load(game_id, **params)
        rng = random.Random(4)
        state = game.new_initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            player = state.current_player()
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 1))
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.legal_actions() == state.legal_actions()
            assert other.history() == state.history()
            state.apply_action(rng.choice(state.legal_actions()))


def _bot_game(game_id: str, params: dict[str, Any], make_bot: Any) -> list[float]:
    game = nos.load(game_id, **params)
    rs = np.random.RandomState(0)
    bot = make_bot(game, rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
    finals = [final_reward(state.ns_state, p) for p in range(game.num_players())]
    assert state.returns() == pytest.approx(finals)
    return list(state.returns())


def _mcts(game: Any, rs: np.random.RandomState) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=rs)


def _ismcts(game: Any, rs: np.random.RandomState) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    return ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=2,
        random_state=rs,
        allow_inconsistent_action_sets=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
@pytest.mark.parametrize("bot", ["mcts", "ismcts"])
def test_openspiel_search_bots_play_a_whole_game(
    game_id: str, params: dict[str, Any], bot: str
) -> None:
    returns = _bot_game(game_id, params, _mcts if bot == "mcts" else _ismcts)
    assert len(returns) == params.get("players", 1)
