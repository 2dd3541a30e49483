"""Agent specs and the baseline agents."""

from __future__ import annotations

import random

import pytest

from nightsky.agents import make_agent, parse_spec
from nightsky.agents.base import LevelAgent, level_spec
from nightsky.core import OptionError, load_game
from nightsky.core.game import CHANCE
from nightsky.core.info import LEVEL_NAMES
from nightsky.core.registry import game_class, packaged_game_ids
from nightsky.sim import MatchSpec, run_matches, summarize


def test_spec_parsing() -> None:
    assert parse_spec("mcts:iterations=800,c=1.5,cheat=true") == (
        "mcts",
        {"iterations": 800, "c": 1.5, "cheat": True},
    )
    with pytest.raises(OptionError, match="key=value"):
        parse_spec("greedy:samples")
    with pytest.raises(OptionError, match="unknown agent"):
        make_agent("nobody")
    with pytest.raises(OptionError, match="greedy:colour=1"):
        make_agent("greedy:colour=1")


def test_agents_only_choose_legal_actions() -> None:
    game = load_game("toy-secret-sum", players=3)
    rng = random.Random(2)
    for spec in ("random", "greedy", "greedy:samples=3"):
        agent = make_agent(spec)
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_players()[0]
            if seat < 0:
                state.apply(state.sample_chance(rng), seat)
            else:
                action = agent.choose(state, seat, rng)
                assert action in state.legal_actions(seat)
                state.apply(action, seat)


def test_greedy_beats_random_on_the_toy_game() -> None:
    spec = MatchSpec("toy-secret-sum", {"players": 2}, ("greedy", "random"), seed=3)
    results = list(run_matches(spec, 300))
    summary = summarize(
        results, game_id="toy-secret-sum", players=2, agents=["greedy", "random"], seconds=1
    )
    assert summary["wins"][0] > 0.6


# --- difficulty levels -------------------------------------------------------------------------


@pytest.mark.parametrize("gid", packaged_game_ids())
def test_every_game_names_the_four_levels_weakest_first_with_a_line_each(gid: str) -> None:
    levels = game_class(gid).info.levels
    assert tuple(lvl.name for lvl in levels) == LEVEL_NAMES
    for lvl in levels:
        assert lvl.strength.strip() and parse_spec(lvl.spec)[0] not in LEVEL_NAMES


def _first_decision(gid: str):
    game = load_game(gid, players=2)
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.current_players() == (CHANCE,):
        state.step(state.sample_chance(rng), CHANCE)
    return game, state


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.parametrize("gid", packaged_game_ids())
def test_every_level_builds_an_agent_that_plays_a_legal_move(gid: str, level: str) -> None:
    game, state = _first_decision(gid)
    agent = make_agent(level, game)
    assert agent.name == level and not isinstance(agent, LevelAgent)
    seat = state.current_players()[0]
    assert agent.choose(state, seat, random.Random(1)) in state.legal_actions(seat)


def test_a_level_takes_the_games_spec_and_keys_given_with_it_win() -> None:
    spec = game_class("shooting-star").info.level("hard")
    assert spec is not None
    assert level_spec("hard", "shooting-star") == spec.spec
    assert level_spec("hard:iterations=5,cheat=true", "shooting-star") == (
        "ismcts:iterations=5,seconds=0.5,cheat=true"
    )
    assert level_spec("greedy:samples=2", "shooting-star") == "greedy:samples=2"  # not a level
    agent = make_agent("hard:iterations=5", "shooting-star")
    assert agent.name == "hard:iterations=5" and agent.iterations == 5  # type: ignore[attr-defined]


def test_an_unknown_level_is_refused_naming_the_game() -> None:
    with pytest.raises(OptionError, match="game 'toy-secret-sum' has no difficulty level 'hard'"):
        make_agent("hard", "toy-secret-sum")
    with pytest.raises(OptionError, match="greedy: epsilon must be"):
        make_agent("easy:epsilon=2", "starlight")


def test_a_level_built_without_its_game_resolves_on_the_first_move() -> None:
    agent = make_agent("medium")
    assert isinstance(agent, LevelAgent)
    game, state = _first_decision("shooting-star")
    seat = state.current_players()[0]
    assert agent.choose(state, seat, random.Random(1)) in state.legal_actions(seat)
    assert type(agent.resolved(game)).__name__ == "GreedyAgent"
    toy = load_game("toy-secret-sum", players=2)
    with pytest.raises(OptionError, match="toy-secret-sum"):
        agent.choose(toy.new_initial_state(), 0, random.Random(1))


def test_greedy_epsilon_plays_random_moves_at_one_and_none_at_zero() -> None:
    game, state = _first_decision("shooting-star")
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    noisy = make_agent("greedy:epsilon=1")
    picks = {noisy.choose(state, seat, random.Random(i)) for i in range(40)}
    assert len(picks) > 3 and picks <= set(legal)
    plain, zero = make_agent("greedy"), make_agent("greedy:epsilon=0")
    assert [plain.choose(state, seat, random.Random(i)) for i in range(5)] == [
        zero.choose(state, seat, random.Random(i)) for i in range(5)
    ]
