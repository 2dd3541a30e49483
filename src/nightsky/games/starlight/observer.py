"""Starlight's observation tensor for learning agents (``game.make_observer()``).

``observation(state, p)``: floats in this order, for the fixed maximum of 5 seats:
  seat block x5 (relative to p: p first): present, is-Starbot, rondel one-hot (8: -1..6),
    night points/100, saved AP/10, stars/10, constellations with stars/6, head-start day
    points/10 (Ruling SL-1.5), privileges (6 bits),
    magnitudes (6 bits),
    aspects (6 bits), cores held/5, rays held (2 x colours, /10), face-up Flares/10,
    used Flares/10;
  own: AP/10, phase one-hot (11), first/last/moved/opened flags (4), own Laurels
    (one-hot per Laurel card), the star being built: core one-hot (all cores), its rays (2 x
    colours)/7;
  board: per slot 3 values (empty, mine, other's);
  pools: core pool counts per core, long and short pool counts per colour/5, Flare pool
    one-hot per position and Flare card;
  Accolades: per index, owner relative one-hot (6: open + 5 seats);
  round/50, daybreak triggered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from nightsky.core.observer import Observer, write_bits

if TYPE_CHECKING:
    from nightsky.core.game import Game, State

    from .game import StarlightGame
    from .state import StarlightState

MAX_SEATS: Final = 5  # Final: a C constant when compiled (not a dict lookup per use)


def observation_size(game: StarlightGame) -> int:
    t = game.tables
    nc = len(t.colors)
    seat = 2 + 8 + 5 + 18 + 1 + 2 * nc + 2
    own = 1 + 11 + 4 + len(t.laurel_ids) + len(t.core_ids) + 2 * nc
    board = 3 * len(t.slots)
    pools = t.num_deck_cores + 2 * nc + game.tables.data.board.flare_pool * len(t.flare_ids)
    return MAX_SEATS * seat + own + board + pools + 5 * 6 + 2


def observation(s: StarlightState, p: int) -> list[float]:
    """``p``'s observation as a new list (order as in the module's docstring)."""
    return StarlightObserver(s.g).observation(s, p)


def write(s: StarlightState, p: int, buf: Any) -> None:
    """The non-zero numbers of ``p``'s observation into the zeroed ``buf`` (a list or a
    float32 buffer): the one encoding of this module (``StarlightObserver``'s)."""
    StarlightObserver(s.g).observation_into(s, p, buf)


class StarlightObserver(Observer):
    """The tensor described in the module's docstring (its size is fixed per game)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        g = cast("StarlightGame", game)
        t = g.tables
        self._size = observation_size(g)
        # The game's tables read once, typed (the game and its tables are interpreted).
        self._nc: int = len(t.colors)
        self._n: int = g.num_seats
        self._players: int = g.num_players
        self._head: list[Any] = list(g.head_start)
        self._nlaurels: int = len(t.laurel_ids)
        self._ncores: int = len(t.core_ids)
        self._ndeck: int = t.num_deck_cores
        self._nflares: int = len(t.flare_ids)
        self._constellations: list[list[int]] = [list(sl) for sl in t.slots_of]

    @property
    def size(self) -> int:
        return self._size

    def observation(self, state: State, player: int) -> list[float]:
        out = [0.0] * self._size
        self._write(cast("StarlightState", state), player, out)
        return out

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        self._write(cast("StarlightState", state), player, buf)

    def _write(self, s: StarlightState, p: int, buf: Any) -> None:
        """The non-zero numbers of ``p``'s observation into the zeroed ``buf``."""
        one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
        nc = self._nc
        n = self._n
        board = s.board
        # stars_of / constellations_of of every seat, in one pass over the board.
        stars = [0] * n
        for owner in board:
            if owner >= 0:
                stars[owner] += 1
        consts = [0] * n
        for sl in self._constellations:
            seen = 0
            for i in sl:
                owner = board[i]
                if owner >= 0:
                    seen |= 1 << owner
            q = 0
            while seen:
                if seen & 1:
                    consts[q] += 1
                seen >>= 1
                q += 1
        per_seat = 2 + 8 + 5 + 18 + 1 + 2 * nc + 2
        o = 0
        for k in range(min(n, MAX_SEATS)):
            q = (p + k) % n
            o = k * per_seat
            buf[o] = one
            if q >= self._players:  # a Starbot (StarlightState.is_bot)
                buf[o + 1] = one
            buf[o + 2 + s.pos[q] + 1] = one
            o += 10
            if s.np[q]:
                buf[o] = s.np[q] / 100
            if s.saved[q]:
                buf[o + 1] = s.saved[q] / 10
            if stars[q]:
                buf[o + 2] = stars[q] / 10
            if consts[q]:
                buf[o + 3] = consts[q] / 6
            head = self._head[q]
            if head:
                buf[o + 4] = head / 10
            o += 5
            write_bits(buf, o, s.privs[q], 6)
            write_bits(buf, o + 6, s.mags[q], 6)
            write_bits(buf, o + 12, s.aspects[q], 6)
            o += 18
            if s.cores[q]:
                buf[o] = len(s.cores[q]) / 5
            o += 1
            for x in s.rays[q]:
                if x:
                    buf[o] = x / 10
                o += 1
            if s.flares[q]:
                buf[o] = len(s.flares[q]) / 10
            if s.used[q]:
                buf[o + 1] = len(s.used[q]) / 10
        o = MAX_SEATS * per_seat
        mine = s.turn == p
        if mine and s.ap:
            buf[o] = s.ap / 10
        buf[o + 1 + s.phase] = one
        o += 12
        if mine:
            if s.first:
                buf[o] = one
            if s.last:
                buf[o + 1] = one
            if s.moved:
                buf[o + 2] = one
            if s.opened:
                buf[o + 3] = one
        o += 4
        for x in s.laurels[p]:
            buf[o + x] = one
        o += self._nlaurels
        if s.star_core >= 0 and mine:
            buf[o + s.star_core] = one
        o += self._ncores
        for x in s.star_rays:
            if mine and x:
                buf[o] = x / 7
            o += 1
        for owner in board:
            buf[o if owner < 0 else (o + 1 if owner == p else o + 2)] = one
            o += 3
        # Counts are summed apart and written once: the same floats as the list's sums.
        cp = [0.0] * self._ndeck
        for c in s.core_pool:
            cp[c] += 1.0
        for count in cp:
            if count:
                buf[o] = count
            o += 1
        lp = [0.0] * (2 * nc)
        for c in s.long_pool:
            lp[c] += 0.2
        for c in s.short_pool:
            lp[nc + c] += 0.2
        for count in lp:
            if count:
                buf[o] = count
            o += 1
        nf = self._nflares
        for f in s.flare_pool:
            if f >= 0:
                buf[o + f] = one
            o += nf
        for i in range(5):
            owner = s.accolade[i]
            buf[o + (0 if owner < 0 else 1 + (owner - p) % n)] = one
            o += 6
        if s.round:
            buf[o] = s.round / 50
        if s.daybreak_round:
            buf[o + 1] = one
