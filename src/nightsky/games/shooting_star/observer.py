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

from typing import TYPE_CHECKING, Any, Final, cast

from nightsky.core.observer import Observer
from nightsky.games.shooting_star.constants import DARK_LEVEL, MAJOR, decode_cover

if TYPE_CHECKING:
    from nightsky.core.game import Game, State
    from nightsky.games.shooting_star.game import ShootingStarGame
    from nightsky.games.shooting_star.state import ShootingStarState

# Final: compiled, they are C constants (a plain module name is a dict lookup at each use).
CELL: Final = 22
SEAT: Final = 14
SEATS: Final = 5


def observation_size(game: ShootingStarGame) -> int:
    return game.ncells * CELL + SEATS * SEAT + 15 + 10


def blank(game: ShootingStarGame) -> list[float]:
    """The observation of an empty table: every cell's "no planet" set, all else zero."""
    return ([1.0] + [0.0] * (CELL - 1)) * game.ncells + [0.0] * (SEATS * SEAT + 15 + 10)


def observation(state: ShootingStarState, player: int) -> list[float]:
    """``player``'s observation as a new list (blocks as in the module's docstring)."""
    return ShootingStarObserver(state.g).observation(state, player)


def write(state: ShootingStarState, player: int, buf: Any) -> None:
    """The non-zero numbers of ``player``'s observation into the zeroed ``buf`` (a list or a
    float32 buffer): the one encoding of this module (``ShootingStarObserver``'s)."""
    ShootingStarObserver(state.g).observation_into(state, player, buf)


class ShootingStarObserver(Observer):
    """The observation tensor of a seat (``game.make_observer()``); blocks as above."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        g = self.g = cast("ShootingStarGame", game)  # typed apart: a subclass may not narrow game
        # The game's tables read once, typed (the game object is interpreted).
        self._n: int = g.num_players
        self._ncells: int = g.ncells
        self._moon: list[bool] = [bool(x) for x in g.p_moon]
        self._major: list[bool] = [k == MAJOR for k in g.p_kind]
        self._zero: frozenset[int] = frozenset(g.zero)
        # Per mission card: the majors a "named" mission names (None: not a named mission).
        self._named: list[frozenset[int] | None] = [
            frozenset(p for p in g.majors if g.p_name[p] == ms.planet)
            if ms.kind == "named" else None
            for ms in g.missions
        ]
        self._grid_planets: int = g.grid_planets

    @property
    def size(self) -> int:
        return observation_size(self.g)

    def observation(self, state: State, player: int) -> list[float]:
        out = [0.0] * observation_size(self.g)
        self._write(cast("ShootingStarState", state), player, out)
        return out

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        self._write(cast("ShootingStarState", state), player, buf)

    def _write(self, state: ShootingStarState, player: int, buf: Any) -> None:
        """The non-zero numbers of ``player``'s observation into the zeroed ``buf``."""
        one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
        n = self._n
        targets = self._zero
        if len(state.missions) > player:
            for m in state.missions[player]:
                named = self._named[m]
                if named is not None:
                    targets = targets | named
        lvl, pl, cov = state.lvl, state.pl, state.cov
        moon, major = self._moon, self._major
        for c in range(self._ncells):
            base = c * CELL
            lv = lvl[c]
            buf[base + (5 if lv == DARK_LEVEL else lv)] = one
            p = pl[c]
            if p >= 0:
                if moon[p]:
                    buf[base + 6] = one
                if major[p] and p in targets:
                    buf[base + 7] = one
            v = cov[c]
            if v >= 0:
                seat, card = decode_cover(v)
                buf[base + 8 + (seat - player) % n] = one
                if seat == player:
                    buf[base + 13 + card] = one
        base = self._ncells * CELL
        acting = state.current_players()
        for r in range(n):
            s = (player + r) % n
            b = base + r * SEAT
            for k in state.unrevealed(s):
                buf[b + k] = one
            if state.conq[s]:
                buf[b + 9] = len(state.conq[s]) / 10
            moons = state.moons(s)
            if moons:
                buf[b + 10] = moons / 5
            if state.debris[s]:
                buf[b + 11] = len(state.debris[s]) / 10
            if state.invader == s:
                buf[b + 12] = one
            if s in acting:
                buf[b + 13] = one
        base += SEATS * SEAT
        if len(state.missions) > player:
            for m in state.missions[player]:
                buf[base + m] = one
        base += 15
        if state.turn:
            buf[base] = state.turn / 7
        if state.deck:
            buf[base + 1] = len(state.deck) / 30
        if state.alive:
            buf[base + 2] = len(state.alive) / self._grid_planets
        buf[base + 3 + state.phase] = one
