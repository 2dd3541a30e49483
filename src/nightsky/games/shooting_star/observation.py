"""The fixed-size observation vector of a seat (documented in ``docs/games/shooting-star.md``).

Blocks, in order (``ncells`` = width x height of the sector or of the Personalized table):

1. per cell, 22 numbers: level one-hot [no planet, 1, 2, 3, 4, Dark] (6); Moon (1); the planet is
   named by the viewer's 3-point mission or is Zero (1); a card lies there, by relative seat
   (viewer = 0, then clockwise) one-hot (5); the viewer's own card there, one-hot P1..P8, S (9);
2. per relative seat (always 5 slots, empty ones zero), 14 numbers: cards not yet revealed
   one-hot P1..P8, S (9); Conquest pile size / 10; Moons / 5; Space Debris size / 10;
   holds the Dark Invader; is the seat to act;
3. the viewer's Secret Missions, one-hot over the 15 mission cards (15);
4. globals (10): turns played / 7; deck size / 30; planets left / planets in the sector at the
   start (6 per player; on a dealt sector that is ``ncells``); phase one-hot (7).

The Personalized table (ruling SS-14.6) is a square of side 12 x players - 1, row by row, so the
per-cell blocks reshape to (side, side, 22); the first planet's cell is ``game.centre``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from nightsky.core.observer import Observer
from nightsky.games.shooting_star.constants import DARK_LEVEL, MAJOR, decode_cover

if TYPE_CHECKING:
    from nightsky.core.game import Game, State
    from nightsky.games.shooting_star.game import ShootingStarGame
    from nightsky.games.shooting_star.state import ShootingStarState

CELL = 22
SEAT = 14
SEATS = 5


def observation_size(game: ShootingStarGame) -> int:
    return game.ncells * CELL + SEATS * SEAT + 15 + 10


def blank(game: ShootingStarGame) -> list[float]:
    """The observation of an empty table: every cell's "no planet" set, all else zero."""
    return ([1.0] + [0.0] * (CELL - 1)) * game.ncells + [0.0] * (SEATS * SEAT + 15 + 10)


def observation(state: ShootingStarState, player: int) -> list[float]:
    g = state.g
    n = g.num_players
    out = blank(g)
    targets = set(g.zero)
    if len(state.missions) > player:
        for m in state.missions[player]:
            ms = g.missions[m]
            if ms.kind == "named":
                targets |= {p for p in g.majors if g.p_name[p] == ms.planet}
    # Only planets and cards change a cell's block from the blank one: planets lie on the
    # ``alive`` cells, Destruction cards on cells of this turn's ``placed`` cards.
    lvl, pl, cov = state.lvl, state.pl, state.cov
    moon, kind = g.p_moon, g.p_kind
    for c in state.alive:
        base = c * CELL
        lv = lvl[c]
        out[base] = 0.0
        out[base + (5 if lv == DARK_LEVEL else lv)] = 1.0
        p = pl[c]
        if p >= 0:
            out[base + 6] = 1.0 if moon[p] else 0.0
            out[base + 7] = 1.0 if (kind[p] == MAJOR and p in targets) else 0.0
    for _, _, c in state.placed:
        v = cov[c]
        if v >= 0:
            base = c * CELL
            seat, card = decode_cover(v)
            out[base + 8 + (seat - player) % n] = 1.0
            if seat == player:
                out[base + 13 + card] = 1.0
    base = g.ncells * CELL
    for r in range(n):
        s = (player + r) % n
        b = base + r * SEAT
        for k in state.unrevealed(s):
            out[b + k] = 1.0
        out[b + 9] = len(state.conq[s]) / 10
        out[b + 10] = state.moons(s) / 5
        out[b + 11] = len(state.debris[s]) / 10
        out[b + 12] = 1.0 if state.invader == s else 0.0
        out[b + 13] = 1.0 if s in state.current_players() else 0.0
    base += SEATS * SEAT
    if len(state.missions) > player:
        for m in state.missions[player]:
            out[base + m] = 1.0
    base += 15
    out[base] = state.turn / 7
    out[base + 1] = len(state.deck) / 30
    out[base + 2] = len(state.alive) / g.grid_planets
    out[base + 3 + state.phase] = 1.0
    return out


class ShootingStarObserver(Observer):
    """The observation tensor of a seat (``game.make_observer()``); blocks as above."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.g = cast("ShootingStarGame", game)  # typed apart: a subclass may not narrow game

    @property
    def size(self) -> int:
        return observation_size(self.g)

    def observation(self, state: State, player: int) -> list[float]:
        return observation(cast("ShootingStarState", state), player)
