"""Mihi Anguli's observation tensor (``game.make_observer()``).

Seat ``p`` first then the others in seat order; per seat: 169 filled points, 144 filled
squares, one bit per sheet item, 29 acquired groups, week (one-hot 1..6), day (one-hot
Saturday*, Sunday..Saturday), phase (one-hot 6), pending choice (one-hot 7), remaining dice
counts per value (6, /3), lowest die (/6), 14 used-this-turn bits, positioned major (one-hot 36
+ none), experience (/20), stars and squares to spend (/10), claimed article points (5 bits),
RESEARCHER-new bit. Every sheet is public (MA-10.3), so every seat sees all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from nightsky.core.observer import Observer
from nightsky.games.mihi_anguli import board as B

if TYPE_CHECKING:
    from nightsky.core.game import Game, State
    from nightsky.games.mihi_anguli.game import MihiAnguliGame
    from nightsky.games.mihi_anguli.state import MihiAnguliState


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
        st = cast("MihiAnguliState", state)
        out: list[float] = []
        n = len(st.seats)
        nitems = st.c.nitems
        for i in [(player + j) % n for j in range(n)]:
            s = st.seats[i]
            out += [float(s.pts >> q & 1) for q in range(B.NPTS)]
            out += [float(s.sq >> q & 1) for q in range(B.NSQ)]
            out += [float(s.items >> q & 1) for q in range(nitems)]
            out += [float(s.acq >> g & 1) for g in range(B.NGROUPS)]
            out += [float(s.week == w) for w in range(1, 7)]
            out += [float(s.day == d) for d in range(-1, 7)]
            out += [float(s.phase == p) for p in range(6)]
            out += [float(s.sub == p) for p in range(7)]
            out += [s.dice.count(v) / 3 for v in range(1, 7)]
            out.append(s.low / 6)
            out += [float(s.used >> b & 1) for b in range(14)]
            out += [float(s.pos == m) for m in B.MAJORS] + [float(s.pos < 0)]
            out.append(s.xp / 20)
            out += [s.pstar / 10, s.psq / 10]
            out += [float(s.claimed >> w & 1) for w in range(5)]
            out.append(float(s.res_new))
        return out
