"""Mihi Anguli's observation tensor (``game.make_observer()``).

Seat ``p`` first then the others in seat order; per seat: 169 filled points, 144 filled
squares, one bit per sheet item, 29 acquired groups, week (one-hot 1..6), day (one-hot
Saturday*, Sunday..Saturday), phase (one-hot 6), pending choice (one-hot 7), remaining dice
counts per value (6, /3), lowest die (/6), 14 used-this-turn bits, positioned major (one-hot 36
+ none), experience (/20), stars and squares to spend (/10), claimed article points (5 bits),
RESEARCHER-new bit. Every sheet is public (MA-10.3), so every seat sees all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from nightsky.core.observer import Observer, write_bits
from nightsky.games.mihi_anguli import board as B

if TYPE_CHECKING:
    from nightsky.core.game import Game, State
    from nightsky.games.mihi_anguli.game import MihiAnguliGame
    from nightsky.games.mihi_anguli.state import MihiAnguliState

# Where each major point sits in the seat's "positioned major" one-hot.
_MAJOR_SLOT = {m: i for i, m in enumerate(B.MAJORS)}


def per_seat(nitems: int) -> int:
    """Numbers per seat on a sheet of ``nitems`` items."""
    return (B.NPTS + B.NSQ + nitems + B.NGROUPS + 6 + 8 + 6 + 7 + 6 + 1 + 14
            + 37 + 1 + 2 + 5 + 1)


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


def write(st: MihiAnguliState, player: int, buf: Any) -> None:
    """The non-zero numbers of ``player``'s observation into the zeroed ``buf`` (a list or a
    float32 buffer): the one encoding of this module's docstring."""
    one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
    n = len(st.seats)
    nitems = st.c.nitems
    o = 0
    for j in range(n):
        s = st.seats[(player + j) % n]
        write_bits(buf, o, s.pts, B.NPTS)
        o += B.NPTS
        write_bits(buf, o, s.sq, B.NSQ)
        o += B.NSQ
        write_bits(buf, o, s.items, nitems)
        o += nitems
        write_bits(buf, o, s.acq, B.NGROUPS)
        o += B.NGROUPS
        if 1 <= s.week <= 6:
            buf[o + s.week - 1] = one
        o += 6
        if -1 <= s.day <= 6:
            buf[o + s.day + 1] = one
        o += 8
        if 0 <= s.phase < 6:
            buf[o + s.phase] = one
        o += 6
        if 0 <= s.sub < 7:
            buf[o + s.sub] = one
        o += 7
        counts = [0, 0, 0, 0, 0, 0, 0]  # remaining dice per value 1..6 (index 0 unused)
        for v in s.dice:
            counts[v] += 1
        for v in range(1, 7):
            k = counts[v]
            if k:
                buf[o + v - 1] = k / 3
        o += 6
        if s.low:
            buf[o] = s.low / 6
        o += 1
        write_bits(buf, o, s.used, 14)
        o += 14
        if s.pos < 0:
            buf[o + 36] = one
        else:
            slot = _MAJOR_SLOT.get(s.pos, -1)
            if slot >= 0:
                buf[o + slot] = one
        o += 37
        if s.xp:
            buf[o] = s.xp / 20
        if s.pstar:
            buf[o + 1] = s.pstar / 10
        if s.psq:
            buf[o + 2] = s.psq / 10
        o += 3
        write_bits(buf, o, s.claimed, 5)
        o += 5
        if s.res_new:
            buf[o] = one
        o += 1
