"""Shared helpers for the Star Fire rule tests."""

from __future__ import annotations

import random
from typing import Any

import pytest

from nightsky.core import CHANCE, IllegalActionError, load_game
from nightsky.games.star_fire.state import StarFireState
from nightsky.games.star_fire.tutorials import position

__all__ = ["CHANCE", "act", "deal", "game", "illegal", "names", "play_random", "position"]


def game(players: int = 2, **opts: Any) -> Any:
    return load_game("star-fire", players=players, **opts)


def act(s: StarFireState, text: str, seat: int | None = None) -> None:
    """Apply a notation for the seat to act (or ``seat``)."""
    s.apply(s.game.parse_action(text), s.current_players()[0] if seat is None else seat)


def deal(s: StarFireState, name: str) -> None:
    """Resolve the pending chance draw with the named card."""
    assert s.current_players() == (CHANCE,), "no draw pending"
    s.apply(s.game.parse_action(f"card {name}"), CHANCE)


def illegal(s: StarFireState, text: str, rule: str, seat: int | None = None) -> None:
    """The action is refused naming ``rule`` and the state does not change."""
    before = [s.view(p) for p in [None, *range(s.n)]]
    n = len(s.history)
    with pytest.raises(IllegalActionError) as err:
        act(s, text, seat)
    assert rule in str(err.value), str(err.value)
    assert [s.view(p) for p in [None, *range(s.n)]] == before and len(s.history) == n


def names(s: StarFireState, cards: list[int]) -> list[str]:
    return [s.C.name[c] for c in cards]


def play_random(g: Any, seed: int, agents: Any = None) -> StarFireState:
    rng = random.Random(seed)
    s = g.new_initial_state()
    while not s.is_terminal():
        p = s.current_players()[0]
        if p == CHANCE:
            s.step(s.sample_chance(rng), CHANCE)
        elif agents is None:
            s.step(rng.choice(s.legal_actions(p)), p)
        else:
            s.step(agents[p].choose(s, p, rng), p)
    return s
