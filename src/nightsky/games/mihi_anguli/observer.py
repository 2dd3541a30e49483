"""Mihi Anguli's observation tensor (``game.make_observer()``).

Seat ``p`` first then the others in seat order; per seat: 169 filled points, 144 filled
squares, one bit per sheet item, 29 acquired groups, week (one-hot 1..6), day (one-hot
Saturday*, Sunday..Saturday), phase (one-hot 6), pending choice (one-hot 7), remaining dice
counts per value (6, /3), lowest die (/6), 14 used-this-turn bits, positioned major (one-hot 36
+ none), experience (/20), stars and squares to spend (/10), claimed article points (5 bits),
RESEARCHER-new bit. Every sheet is public (MA-10.3), so every seat sees all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from nightsky.core.observer import Observer, update_bits
from nightsky.games.mihi_anguli import board as B

if TYPE_CHECKING:
    from nightsky.core.game import Game, State
    from nightsky.games.mihi_anguli.game import MihiAnguliGame
    from nightsky.games.mihi_anguli.state import MihiAnguliState, Seat

# Final: compiled, C constants (a name of another module is a dictionary lookup at each use).
NPTS: Final = B.NPTS
NSQ: Final = B.NSQ
NGROUPS: Final = B.NGROUPS



def _major_slots() -> list[int]:
    slots = [-1] * NPTS
    for i, m in enumerate(B.MAJORS):
        slots[m] = i
    return slots


# Where each major point sits in the seat's "positioned major" one-hot (-1: none), by point.
_MAJOR_SLOT: Final[list[int]] = _major_slots()


def per_seat(nitems: int) -> int:
    """Numbers per seat on a sheet of ``nitems`` items."""
    return NPTS + NSQ + nitems + NGROUPS + 6 + 8 + 6 + 7 + 6 + 1 + 14 + 37 + 1 + 2 + 5 + 1


class SeatMemo:
    """What one seat's block of a buffer holds: the bit masks as written, the index set in
    each one-hot (-1: none) and the scalars. A new one describes a block of zeros."""

    def __init__(self) -> None:
        self.pts = 0
        self.sq = 0
        self.items = 0
        self.acq = 0
        self.week = -1
        self.day = -1
        self.phase = -1
        self.sub = -1
        self.dice: tuple[int, ...] = ()
        self.low = 0
        self.used = 0
        self.pos = -1
        self.xp = 0
        self.pstar = 0
        self.psq = 0
        self.claimed = 0
        self.res_new = False


class MihiAnguliObserver(Observer):
    """Every seat's sheet and turn progress, the observing seat's first."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        g = cast("MihiAnguliGame", game)
        self._size = per_seat(g.compiled.nitems) * g.num_players

    @property
    def size(self) -> int:
        return self._size

    def observation(self, state: State, player: int) -> list[float]:
        out = [0.0] * self._size
        write(cast("MihiAnguliState", state), player, out)
        return out

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        write(cast("MihiAnguliState", state), player, buf)

    def update_into(self, state: State, player: int, buf: Any, memo: Any) -> Any:
        st = cast("MihiAnguliState", state)
        memos: list[SeatMemo] = (
            memo if memo is not None else [SeatMemo() for _ in range(len(st.seats))]
        )
        _write(st, player, buf, memos)
        return memos


def write(st: MihiAnguliState, player: int, buf: Any) -> None:
    """The non-zero numbers of ``player``'s observation into the zeroed ``buf`` (a list or a
    float32 buffer): the one encoding of this module's docstring."""
    _write(st, player, buf, [SeatMemo() for _ in range(len(st.seats))])


def _onehot(buf: Any, o: int, old: int, new: int) -> None:
    """Move a one-hot of the block at ``o`` from index ``old`` to ``new`` (-1: none set)."""
    if old != new:
        if old >= 0:
            zero: Any = 0.0
            buf[o + old] = zero
        if new >= 0:
            one: Any = 1.0
            buf[o + new] = one


def _write(st: MihiAnguliState, player: int, buf: Any, memos: list[SeatMemo]) -> None:
    """Bring ``buf``, which holds what ``memos`` describe (one per seat, the observing seat's
    first), to ``player``'s observation, writing only what differs; ``memos`` follow."""
    n = len(st.seats)
    nitems = st.c.nitems
    block = per_seat(nitems)
    for j in range(n):
        _seat(buf, j * block, st.seats[(player + j) % n], memos[j], nitems)


def _seat(buf: Any, o: int, s: Seat, m: SeatMemo, nitems: int) -> None:
    """One seat's block at ``o`` (the module docstring's order); a field that did not change
    costs one comparison."""
    if s.pts != m.pts:
        update_bits(buf, o, m.pts, s.pts, NPTS)
        m.pts = s.pts
    o += NPTS
    if s.sq != m.sq:
        update_bits(buf, o, m.sq, s.sq, NSQ)
        m.sq = s.sq
    o += NSQ
    if s.items != m.items:
        update_bits(buf, o, m.items, s.items, nitems)
        m.items = s.items
    o += nitems
    if s.acq != m.acq:
        update_bits(buf, o, m.acq, s.acq, NGROUPS)
        m.acq = s.acq
    o += NGROUPS
    k = s.week - 1 if 1 <= s.week <= 6 else -1
    _onehot(buf, o, m.week, k)
    m.week = k
    o += 6
    k = s.day + 1 if -1 <= s.day <= 6 else -1
    _onehot(buf, o, m.day, k)
    m.day = k
    o += 8
    k = s.phase if 0 <= s.phase < 6 else -1
    _onehot(buf, o, m.phase, k)
    m.phase = k
    o += 6
    k = s.sub if 0 <= s.sub < 7 else -1
    _onehot(buf, o, m.sub, k)
    m.sub = k
    o += 7
    if s.dice != m.dice:
        # Remaining dice per value 1..6 (index 0 unused), before and now.
        was = [0, 0, 0, 0, 0, 0, 0]
        for v in m.dice:
            was[v] += 1
        now = [0, 0, 0, 0, 0, 0, 0]
        for v in s.dice:
            now[v] += 1
        for v in range(1, 7):
            k = now[v]
            if k != was[v]:
                buf[o + v - 1] = k / 3
        m.dice = s.dice
    o += 6
    if s.low != m.low:
        buf[o] = s.low / 6
        m.low = s.low
    o += 1
    if s.used != m.used:
        update_bits(buf, o, m.used, s.used, 14)
        m.used = s.used
    o += 14
    k = 36 if s.pos < 0 else (_MAJOR_SLOT[s.pos] if s.pos < NPTS else -1)
    _onehot(buf, o, m.pos, k)
    m.pos = k
    o += 37
    if s.xp != m.xp:
        buf[o] = s.xp / 20
        m.xp = s.xp
    if s.pstar != m.pstar:
        buf[o + 1] = s.pstar / 10
        m.pstar = s.pstar
    if s.psq != m.psq:
        buf[o + 2] = s.psq / 10
        m.psq = s.psq
    o += 3
    if s.claimed != m.claimed:
        update_bits(buf, o, m.claimed, s.claimed, 5)
        m.claimed = s.claimed
    o += 5
    if s.res_new != m.res_new:
        buf[o] = 1.0 if s.res_new else 0.0
        m.res_new = s.res_new
