"""Small helpers for the Shooting Star rule tests."""

from __future__ import annotations

import random

from nightsky.core import CHANCE, load_game
from nightsky.games.shooting_star.positions import build_position
from nightsky.games.shooting_star.state import ShootingStarState

__all__ = ["build_position", "cell", "codes", "play", "planet_at", "setup", "walk"]


def play(state: ShootingStarState, *moves: tuple[int, str]) -> ShootingStarState:
    """Apply ``(seat, notation)`` moves through the validating ``apply``."""
    for seat, text in moves:
        state.apply(state.game.parse_action(text), seat)
    return state


def cell(state: ShootingStarState, col: int, row: int) -> int:
    return state.g.cell_of(col, row)


def planet_at(state: ShootingStarState, col: int, row: int) -> tuple[str | None, int]:
    """(planet code or None, level) at 1-based col,row (level 5 = Dark)."""
    c = cell(state, col, row)
    p = state.pl[c]
    return (state.g.p_code[p] if p >= 0 else None), state.lvl[c]


def codes(state: ShootingStarState, pile: list[int]) -> list[str]:
    from nightsky.games.shooting_star.views import pile_item

    return [pile_item(state, x) for x in pile]


def setup(players: int = 3, seed: int = 0, **params: object) -> ShootingStarState:
    """A fresh game with its set-up chance events drawn from ``seed``."""
    game = load_game("shooting-star", players=players, **params)
    state: ShootingStarState = game.new_initial_state()  # type: ignore[assignment]
    rng = random.Random(seed)
    while state.current_players() == (CHANCE,):
        state.apply(state.sample_chance(rng), CHANCE)
    return state


def walk(state: ShootingStarState, seed: int, *, until_over: bool = True) -> ShootingStarState:
    """Random legal actions to the end."""
    rng = random.Random(seed)
    while not state.is_terminal():
        p = state.current_players()[0]
        a = state.sample_chance(rng) if p == CHANCE else rng.choice(state.legal_actions(p))
        state.apply(a, p)
    return state
