"""Starlight's observation tensor for learning agents (``game.make_observer()``).

``observation(state, p)``: floats in this order, for the fixed maximum of 5 seats:
  seat block x5 (relative to p: p first): present, is-Starbot, rondel one-hot (8: -1..6),
    night points/100, saved AP/10, stars/10, constellations with stars/6, privileges (6 bits),
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

from typing import TYPE_CHECKING, cast

from nightsky.core.observer import Observer

if TYPE_CHECKING:
    from nightsky.core.game import Game, State

    from .game import StarlightGame
    from .state import StarlightState

MAX_SEATS = 5


def observation_size(game: StarlightGame) -> int:
    t = game.tables
    nc = len(t.colors)
    seat = 2 + 8 + 4 + 18 + 1 + 2 * nc + 2
    own = 1 + 11 + 4 + len(t.laurel_ids) + len(t.core_ids) + 2 * nc
    board = 3 * len(t.slots)
    pools = t.num_deck_cores + 2 * nc + game.tables.data.board.flare_pool * len(t.flare_ids)
    return MAX_SEATS * seat + own + board + pools + 5 * 6 + 2


def observation(s: StarlightState, p: int) -> list[float]:
    t = s.t
    g = s.g
    nc = len(t.colors)
    n = g.num_seats
    out: list[float] = []
    for k in range(MAX_SEATS):
        if k >= n:
            out.extend([0.0] * (2 + 8 + 4 + 18 + 1 + 2 * nc + 2))
            continue
        q = (p + k) % n
        out += [1.0, 1.0 if s.is_bot(q) else 0.0]
        r = [0.0] * 8
        r[s.pos[q] + 1] = 1.0
        out += r
        out += [s.np[q] / 100, s.saved[q] / 10, s.stars_of(q) / 10, s.constellations_of(q) / 6]
        out += [float(s.privs[q] >> i & 1) for i in range(6)]
        out += [float(s.mags[q] >> i & 1) for i in range(6)]
        out += [float(s.aspects[q] >> i & 1) for i in range(6)]
        out.append(len(s.cores[q]) / 5)
        out += [x / 10 for x in s.rays[q]]
        out += [len(s.flares[q]) / 10, len(s.used[q]) / 10]
    out.append(s.ap / 10 if s.turn == p else 0.0)
    ph = [0.0] * 11
    ph[s.phase] = 1.0
    out += ph
    mine = s.turn == p
    out += [float(mine and s.first), float(mine and s.last), float(mine and s.moved)]
    out.append(float(mine and s.opened))
    lau = [0.0] * len(t.laurel_ids)
    for x in s.laurels[p]:
        lau[x] = 1.0
    out += lau
    star = [0.0] * len(t.core_ids)
    if s.star_core >= 0 and mine:
        star[s.star_core] = 1.0
    out += star
    out += [x / 7 if mine else 0.0 for x in s.star_rays]
    for o in s.board:
        out += [1.0 if o < 0 else 0.0, 1.0 if o == p else 0.0, 1.0 if o >= 0 and o != p else 0.0]
    cp = [0.0] * t.num_deck_cores
    for c in s.core_pool:
        cp[c] += 1.0
    out += cp
    lp = [0.0] * (2 * nc)
    for c in s.long_pool:
        lp[c] += 0.2
    for c in s.short_pool:
        lp[nc + c] += 0.2
    out += lp
    for f in s.flare_pool:
        row = [0.0] * len(t.flare_ids)
        if f >= 0:
            row[f] = 1.0
        out += row
    for i in range(5):
        row = [0.0] * 6
        o = s.accolade[i]
        row[0 if o < 0 else 1 + (o - p) % n] = 1.0
        out += row
    out += [s.round / 50, 1.0 if s.daybreak_round else 0.0]
    return out


class StarlightObserver(Observer):
    """The tensor described in the module's docstring (its size is fixed per game)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._size = observation_size(cast("StarlightGame", game))

    @property
    def size(self) -> int:
        return self._size

    def observation(self, state: State, player: int) -> list[float]:
        return observation(cast("StarlightState", state), player)
