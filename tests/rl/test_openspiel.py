"""OpenSpiel adapter: pyspiel's random simulation test, a full random game through the pyspiel
API for every configuration, and OpenSpiel's MCTS and IS-MCTS bots finishing a game."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from nightsky.core.game import CHANCE
from nightsky.rl import openspiel as nos
from tests.rl.conftest import all_configs, config_id, smallest_configs


@pytest.mark.parametrize(("game_id", "params"), smallest_configs(), ids=config_id)
def test_openspiel_random_sim_test(game_id: str, params: dict[str, Any]) -> None:
    game = nos.load(game_id, **params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


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
    assert state.returns() == pytest.approx(state.ns_state.returns()[: game.num_players()])


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
    assert all(0.0 <= r <= 1.0 for r in returns)
