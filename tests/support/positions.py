"""Positions of a seeded ``greedy`` game, for tests of a game's judges (values, features)."""

from __future__ import annotations

import random
from typing import Any

from nightsky.agents.base import make_agent
from nightsky.core.game import CHANCE, State
from nightsky.core.registry import load_game


def greedy_positions(
    game_id: str, seed: int, count: int, every: int, **options: Any
) -> list[State]:
    """Up to ``count`` copies of the positions of one ``greedy`` game (``options`` for the game,
    2 players unless ``players=`` says otherwise), one every ``every`` decisions from the first;
    chance and the agent draw from ``random.Random(seed)``."""
    game = load_game(game_id, **{"players": 2, **options})
    rng, agent = random.Random(seed), make_agent("greedy")
    state = game.new_initial_state()
    out: list[State] = []
    decision = 0
    while not state.is_terminal() and len(out) < count:
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
            continue
        if decision % every == 0:
            out.append(state.clone())
        state.step(agent.choose(state, seat, rng), seat)
        decision += 1
    return out
