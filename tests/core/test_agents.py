"""Agent specs and the baseline agents."""

from __future__ import annotations

import random

import pytest

from nightsky.agents import make_agent, parse_spec
from nightsky.core import OptionError, load_game
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
