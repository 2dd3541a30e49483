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

from nightsky.core.observer import Observer, update_bits, update_members, update_onehot

if TYPE_CHECKING:
    from nightsky.core.game import Game, State

    from .game import StarlightGame
    from .state import StarlightState

MAX_SEATS: Final = 5  # Final: a C constant when compiled (not a dict lookup per use)


def _fifths(count: int) -> list[float]:
    """``0.2`` added ``k`` times, for ``k < count``: the ray pools' numbers (summed, as the
    whole observation always did, so the very same floats)."""
    out = [0.0]
    for _ in range(count - 1):
        out.append(out[-1] + 0.2)
    return out


_FIFTHS: Final[list[float]] = _fifths(128)

# A seat block's fields in ``StarlightMemo.seat`` (``k * NF + field``, k counted from p).
F_POS: Final = 0  # the rondel one-hot's index
F_NP: Final = 1
F_SAVED: Final = 2
F_STARS: Final = 3
F_CONSTS: Final = 4
F_PRIVS: Final = 5
F_MAGS: Final = 6
F_ASPECTS: Final = 7
F_CORES: Final = 8
F_FLARES: Final = 9
F_USED: Final = 10
NF: Final = 11
_SEAT0: Final[list[int]] = [-1 if f == F_POS else 0 for _ in range(MAX_SEATS) for f in range(NF)]

_NONE: Final[list[int]] = []
"""The memo's copy of a list never written: equal to an empty list only (never changed)."""


class StarlightMemo:
    """What a buffer holds (``StarlightObserver.update_into``): the state's values it was
    written from, for every part of the module's docstring; a new one, from
    ``StarlightObserver.memo()``, describes a buffer of zeros. Few objects (a whole write
    makes one): the per-seat numbers in one flat list, the one-hot indices and counts in
    another (laid out by the observer), and copies of the lists the state changes in place."""

    def __init__(self, codes: list[int]) -> None:
        self.fresh = True  # the fixed entries (present, Starbot, head start) not yet written
        self.seat = _SEAT0[:]
        self.codes = codes
        self.ap = 0
        self.phase = -1
        self.flags = 0  # first, last, moved, opened as written (bits 0-3)
        self.core = -1
        self.round = 0
        self.daybreak = False
        self.board = _NONE  # equal to no board: the first update writes every slot
        self.laurels = _NONE
        self.core_pool = _NONE
        self.long_pool = _NONE
        self.short_pool = _NONE


def _scalar(buf: Any, i: int, old: list[int], k: int, new: int, scale: int) -> None:
    """``buf[i] = new / scale`` where ``old[k]`` (what ``buf[i]`` was written from) differs."""
    if new != old[k]:
        buf[i] = new / scale
        old[k] = new


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
        nslots = len(t.slots)
        npool: int = t.data.board.flare_pool
        # Where each part sits in StarlightMemo.codes, and its values for a buffer of zeros.
        self._c_star_rays: int = MAX_SEATS * 2 * self._nc
        self._c_slots: int = self._c_star_rays + 2 * self._nc
        self._c_core_counts: int = self._c_slots + nslots
        self._c_ray_counts: int = self._c_core_counts + self._ndeck
        self._c_flares: int = self._c_ray_counts + 2 * self._nc
        self._c_accolades: int = self._c_flares + npool
        zero_codes = [0] * (self._c_accolades + 5)
        for i in range(self._c_slots, self._c_core_counts):
            zero_codes[i] = -1  # no slot's one-hot written
        for i in range(self._c_flares, self._c_accolades + 5):
            zero_codes[i] = -1  # nor a Flare position's, nor an Accolade's
        self._zero_codes = zero_codes

    @property
    def size(self) -> int:
        return self._size

    def memo(self) -> StarlightMemo:
        """The memo of a buffer of zeros (``update_into``)."""
        return StarlightMemo(self._zero_codes[:])

    def observation(self, state: State, player: int) -> list[float]:
        out = [0.0] * self._size
        self._update(cast("StarlightState", state), player, out, self.memo())
        return out

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        self._update(cast("StarlightState", state), player, buf, self.memo())

    def update_into(self, state: State, player: int, buf: Any, memo: Any) -> Any:
        m: StarlightMemo = memo if memo is not None else self.memo()
        self._update(cast("StarlightState", state), player, buf, m)
        return m

    def _update(self, s: StarlightState, p: int, buf: Any, m: StarlightMemo) -> None:
        """Bring ``buf``, which holds what ``m`` describes, to ``p``'s observation (the
        module's docstring), writing only the entries that differ; ``m`` follows. A part that
        did not change costs one comparison."""
        one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
        zero: Any = 0.0
        nc = self._nc
        n = self._n
        board = s.board
        moved = board != m.board
        stars: list[int] = _NONE
        consts: list[int] = _NONE
        if moved:
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
        fresh = m.fresh
        ms = m.seat
        codes = m.codes
        for k in range(min(n, MAX_SEATS)):
            q = (p + k) % n
            o = k * per_seat
            f = k * NF
            if fresh:
                buf[o] = one
                if q >= self._players:  # a Starbot (StarlightState.is_bot)
                    buf[o + 1] = one
                head = self._head[q]
                if head:
                    buf[o + 14] = head / 10
            x = s.pos[q] + 1
            if x != ms[f + F_POS]:
                update_onehot(buf, o + 2, ms[f + F_POS], x, one, zero)
                ms[f + F_POS] = x
            o += 10
            _scalar(buf, o, ms, f + F_NP, s.np[q], 100)
            _scalar(buf, o + 1, ms, f + F_SAVED, s.saved[q], 10)
            if moved:
                _scalar(buf, o + 2, ms, f + F_STARS, stars[q], 10)
                _scalar(buf, o + 3, ms, f + F_CONSTS, consts[q], 6)
            o += 5
            x = s.privs[q]
            if x != ms[f + F_PRIVS]:
                update_bits(buf, o, ms[f + F_PRIVS], x, 6)
                ms[f + F_PRIVS] = x
            x = s.mags[q]
            if x != ms[f + F_MAGS]:
                update_bits(buf, o + 6, ms[f + F_MAGS], x, 6)
                ms[f + F_MAGS] = x
            x = s.aspects[q]
            if x != ms[f + F_ASPECTS]:
                update_bits(buf, o + 12, ms[f + F_ASPECTS], x, 6)
                ms[f + F_ASPECTS] = x
            o += 18
            _scalar(buf, o, ms, f + F_CORES, len(s.cores[q]), 5)
            o += 1
            rays = s.rays[q]
            c = k * 2 * nc
            for i in range(2 * nc):
                x = rays[i]
                if x != codes[c + i]:
                    buf[o + i] = x / 10
                    codes[c + i] = x
            o += 2 * nc
            _scalar(buf, o, ms, f + F_FLARES, len(s.flares[q]), 10)
            _scalar(buf, o + 1, ms, f + F_USED, len(s.used[q]), 10)
        m.fresh = False
        o = MAX_SEATS * per_seat
        mine = s.turn == p
        x = s.ap if mine else 0
        if x != m.ap:
            buf[o] = x / 10
            m.ap = x
        update_onehot(buf, o + 1, m.phase, s.phase, one, zero)
        m.phase = s.phase
        o += 12
        x = 0
        if mine:
            x = (1 if s.first else 0) | (2 if s.last else 0) | (4 if s.moved else 0) | (
                8 if s.opened else 0)
        if x != m.flags:
            update_bits(buf, o, m.flags, x, 4)
            m.flags = x
        o += 4
        laurels = s.laurels[p]
        if laurels != m.laurels:
            update_members(buf, o, m.laurels, laurels)
            m.laurels = laurels[:]
        o += self._nlaurels
        x = s.star_core if mine and s.star_core >= 0 else -1
        update_onehot(buf, o, m.core, x, one, zero)
        m.core = x
        o += self._ncores
        rays = s.star_rays
        c = self._c_star_rays
        for i in range(2 * nc):
            x = rays[i] if mine else 0
            if x != codes[c + i]:
                buf[o + i] = x / 7
                codes[c + i] = x
        o += 2 * nc
        if moved:
            c = self._c_slots
            for i in range(len(board)):
                owner = board[i]
                x = 0 if owner < 0 else (1 if owner == p else 2)
                was_x = codes[c + i]
                if x != was_x:
                    # update_onehot, inlined: a call per slot is a tenth of a whole write.
                    if was_x >= 0:
                        buf[o + 3 * i + was_x] = zero
                    buf[o + 3 * i + x] = one
                    codes[c + i] = x
            m.board = board[:]
        o += 3 * len(board)
        ndeck = self._ndeck
        if s.core_pool != m.core_pool:
            counts = [0] * ndeck
            for x in s.core_pool:
                counts[x] += 1
            c = self._c_core_counts
            for i in range(ndeck):
                x = counts[i]
                if x != codes[c + i]:
                    buf[o + i] = float(x)
                    codes[c + i] = x
            m.core_pool = s.core_pool[:]
        o += ndeck
        if s.long_pool != m.long_pool or s.short_pool != m.short_pool:
            counts = [0] * (2 * nc)
            for x in s.long_pool:
                counts[x] += 1
            for x in s.short_pool:
                counts[nc + x] += 1
            c = self._c_ray_counts
            for i in range(2 * nc):
                x = counts[i]
                if x != codes[c + i]:
                    buf[o + i] = _FIFTHS[x] if x < len(_FIFTHS) else _fifths(x + 1)[x]
                    codes[c + i] = x
            m.long_pool = s.long_pool[:]
            m.short_pool = s.short_pool[:]
        o += 2 * nc
        nf = self._nflares
        pool = s.flare_pool
        c = self._c_flares
        for i in range(len(pool)):
            x = pool[i]
            if x != codes[c + i]:
                update_onehot(buf, o + i * nf, codes[c + i], x, one, zero)
                codes[c + i] = x
        o += nf * len(pool)
        c = self._c_accolades
        for i in range(5):
            owner = s.accolade[i]
            x = 0 if owner < 0 else 1 + (owner - p) % n
            if x != codes[c + i]:
                update_onehot(buf, o + 6 * i, codes[c + i], x, one, zero)
                codes[c + i] = x
        o += 30
        x = s.round
        if x != m.round:
            buf[o] = x / 50
            m.round = x
        day = s.daybreak_round != 0
        if day != m.daybreak:
            buf[o + 1] = one if day else zero
            m.daybreak = day
