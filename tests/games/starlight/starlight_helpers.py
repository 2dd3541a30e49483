"""Helpers for Starlight rule tests: build positions directly and act by notation."""

from __future__ import annotations

import random

from nightsky import load_game
from nightsky.core.game import CHANCE
from nightsky.games.starlight.constants import MAIN
from nightsky.games.starlight.state import StarlightState


def settle(s: StarlightState, seed: int = 0) -> StarlightState:
    """Resolve chance events until a player must act (or the game ends)."""
    rng = random.Random(seed)
    while s.current_players() == (CHANCE,):
        s.apply(s.sample_chance(rng), CHANCE)
    return s


def new(players: int = 2, seed: int = 0, **opts) -> StarlightState:
    g = load_game("starlight", players=players, **opts)
    return settle(g.new_initial_state(), seed)


def turn(s: StarlightState, p: int, space: str | None, ap: int | None = None) -> StarlightState:
    """Make it seat ``p``'s ordinary turn with its marker on ``space``."""
    s.turn = p
    s.round = max(s.round, 2)
    if space is not None:
        s.pos[p] = s.t.rondel.index(space)
    s._start_live_turn(p)
    if ap is not None:
        s.ap = ap
    assert s.phase == MAIN
    return s


def do(s: StarlightState, *texts: str, seed: int = 0) -> StarlightState:
    """Apply actions by notation for the seat to act, resolving chance in between."""
    for text in texts:
        settle(s, seed)
        s.apply(s.game.parse_action(text), s.turn)
    return s


def give_rays(s: StarlightState, p: int, **counts: int) -> None:
    """give_rays(s, 0, long_red=2, short_blue=1): move rays from the bags to seat p."""
    nc = len(s.t.colors)
    for key, n in counts.items():
        size, color = key.split("_")
        si = 0 if size == "long" else 1
        ci = s.t.colors.index(color)
        bag = s.long_bag if si == 0 else s.short_bag
        bag[ci] -= n
        s.rays[p][si * nc + ci] += n


def core(s: StarlightState, cid: str) -> int:
    return s.t.core_ids.index(cid)


def give_core(s: StarlightState, p: int, cid: str) -> int:
    c = core(s, cid)
    for place in (s.core_deck, s.core_pool, s.core_discard):
        if c in place:
            place.remove(c)
    s.cores[p].append(c)
    return c


def texts(s: StarlightState) -> list[str]:
    return [str(a) for a in s.legal_actions()]
