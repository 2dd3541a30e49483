"""Helpers for The Stars Are Right tests."""

from __future__ import annotations

import random

from nightsky import load_game
from nightsky.core.game import CHANCE
from nightsky.games.stars_are_right.game import StarsAreRightGame
from nightsky.games.stars_are_right.state import StarsAreRightState
from nightsky.games.stars_are_right.tutorials import build_position


def game(players: int = 2, **opts: object) -> StarsAreRightGame:
    g = load_game("stars-are-right", players=players, **opts)
    assert isinstance(g, StarsAreRightGame)
    return g


def pos(
    g: StarsAreRightGame, cells=None, hands=None, creatures=None, current=0, discard=None
) -> StarsAreRightState:
    return build_position(
        g, cells or {}, hands or [[] for _ in range(g.num_players)], creatures, current, discard
    )


def cid(g: StarsAreRightGame, name: str) -> int:
    c = g.comps.card_by_id(name)
    assert c is not None, name
    return c.idx


def play(s: StarsAreRightState, *notations: str, seat: int | None = None) -> None:
    for n in notations:
        s.apply(s.game.parse_action(n), s.current if seat is None else seat)


def names(s: StarsAreRightState, cards: list[int]) -> list[str]:
    return [s.game.cards[c].id for c in cards]


def setup(g: StarsAreRightGame, seed: int = 0) -> StarsAreRightState:
    """A freshly dealt game (chance sampled)."""
    rng = random.Random(seed)
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply(s.sample_chance(rng), CHANCE)
    return s


def sky_faces(s: StarsAreRightState) -> list[str]:
    from nightsky.games.stars_are_right.constants import FACES

    return [FACES[f] for f in s.faces()]
