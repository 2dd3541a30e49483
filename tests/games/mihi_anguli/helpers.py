"""Shared helpers for the Mihi Anguli rule tests."""

from __future__ import annotations

from typing import Any

from nightsky import load_game
from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.game import MihiAnguliGame
from nightsky.games.mihi_anguli.state import MihiAnguliState
from nightsky.games.mihi_anguli.tutorials import group, item, point, position

__all__ = ["B", "game", "group", "item", "legal", "play", "point", "pos", "position"]


def game(players: int = 1, **kw: Any) -> MihiAnguliGame:
    g = load_game("mihi-anguli", players=players, **kw)
    assert isinstance(g, MihiAnguliGame)
    return g


def pos(**kw: Any) -> MihiAnguliState:
    """A one-player position (see ``tutorials.position``)."""
    return position(game(), **kw)


def legal(st: MihiAnguliState, seat: int = 0) -> list[str]:
    return [str(a) for a in st.legal_actions(seat)]


def play(st: MihiAnguliState, *notations: str, seat: int = 0) -> MihiAnguliState:
    for n in notations:
        st.apply(st.game.parse_action(n), seat)
    return st


def filled(st: MihiAnguliState, *points: str, seat: int = 0) -> list[bool]:
    return [bool(st.seats[seat].pts >> point(p) & 1) for p in points]
