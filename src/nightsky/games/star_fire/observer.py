"""The fixed-size observation vector of a seat (documented in ``rules.md``, "Observation").

Seats are listed relative to the observer (slot 0 = the observer), padded to 6 slots, so the
vector has the same length for every player count. It holds only what the seat may know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from nightsky.core.observer import Observer
from nightsky.games.star_fire.constants import (
    MOON,
    PH_PLAY,
    PLANET,
    STAR,
    STARFIRE,
    SUB_TRANSMUTE,
    SUB_WORMHOLE,
)

if TYPE_CHECKING:
    from nightsky.core.game import Game, State
    from nightsky.games.star_fire.game import StarFireGame
    from nightsky.games.star_fire.state import StarFireState

MAX_SEATS = 6
SEAT_SCALARS = 11  # present, eliminated, to act, fission, score, pile, 4 hand backs, dealt star


class StarFireObserver(Observer):
    """The observation tensor of a Star Fire game (its layout: ``rules.md``, "Observation")."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        C = cast("StarFireGame", game).cards
        self._el_index = {c: i for i, c in enumerate(C.elements)}
        self._body_index = {c: i for i, c in enumerate(C.bodies)}
        ne, nb, n = len(C.elements), len(C.bodies), C.n
        per_seat = SEAT_SCALARS + 2 * ne + nb
        self._size = (
            MAX_SEATS * per_seat + (nb + 5 + len(C.stars)) + (3 + n) + (ne + 1 + 5) + 20
        )

    @property
    def size(self) -> int:
        return self._size

    def observation(self, state: State, player: int) -> list[float]:
        out = [0.0] * self._size
        self._write(cast("StarFireState", state), player, out)
        return out

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        self._write(cast("StarFireState", state), player, buf)

    def _write(self, s: StarFireState, player: int, buf: Any) -> None:
        """The non-zero numbers of ``player``'s observation into the zeroed ``buf`` (a list or
        a float32 buffer): the one encoding (``rules.md``, "Observation")."""
        C = s.C
        el_index, body_index = self._el_index, self._body_index
        ne, nb = len(C.elements), len(C.bodies)
        per_seat = SEAT_SCALARS + 2 * ne + nb
        scores = s.scores()
        for i in range(min(s.n, MAX_SEATS)):
            q = (player + i) % s.n
            self._write_seat(s, q, scores[q], buf, i * per_seat)
        o = MAX_SEATS * per_seat
        hand = s.hands[player]
        for c in hand:
            if c in body_index:
                buf[o + body_index[c]] = 1.0
        o += nb
        kinds = [0.0] * 5
        for c in hand:
            if C.cat[c] == STARFIRE:
                kinds[C.sf_kind[c]] += 0.25
        for x in kinds:
            if x:
                buf[o] = x
            o += 1
        free = s.free_star[player]
        for st in C.stars:
            if free == st:
                buf[o] = 1.0
            o += 1
        for d in range(3):
            k = len(s.pool[d]) + len(s.bottom[d])
            if k:
                buf[o + d] = k / 30.0
        o += 3
        for d in range(3):
            for c in s.bottom[d]:
                buf[o + c] = 1.0
        o += C.n
        for c in s.spent:
            buf[o + el_index[c]] = 1.0
        o += ne
        if s.reshuffled:
            buf[o] = 1.0
        o += 1
        for c in s.events_used:
            buf[o + C.event_kind[c]] = 1.0
        o += 5
        values = [
            s.actions_left / 3.0, s.actions_taken / 3.0, float(s.last_turn), float(s.fusion_now),
            s.fusion_left / 6.0, float(s.sub == SUB_WORMHOLE), float(s.sub == SUB_TRANSMUTE),
            s.sub_units / 3.0,
        ]
        values += [x / 2.0 for x in s.credit]
        for x in values:
            if x:
                buf[o] = x
            o += 1
        buf[o + s.phase] = 1.0
        o += 4
        if s.round:
            buf[o] = s.round / s.game.options["max_rounds"]
        if s.queue:
            buf[o + 1] = 1.0
            buf[o + 2] = len(s.queue) / 12.0

    def _write_seat(self, s: StarFireState, q: int, score: float, buf: Any, o: int) -> None:
        """Seat ``q``'s public part from ``buf[o]``: status, score, card backs, nursery, wild
        cards, bodies."""
        C = s.C
        el_index, body_index = self._el_index, self._body_index
        ne = len(C.elements)
        hand = s.hands[q]
        cat = C.cat
        kinds = [0, 0, 0, 0]  # STAR, PLANET, MOON, STARFIRE cards in the hand
        for c in hand:
            k = cat[c]
            if k == STAR:
                kinds[0] += 1
            elif k == PLANET:
                kinds[1] += 1
            elif k == MOON:
                kinds[2] += 1
            elif k == STARFIRE:
                kinds[3] += 1
        values = [
            1.0, float(s.eliminated[q]), float(q == s.cur and s.phase == PH_PLAY),
            float(s.fission[q]), score / 50.0, len(s.pile[q]) / 20.0,
            kinds[0] / 8.0, kinds[1] / 11.0, kinds[2] / 7.0, kinds[3] / 20.0,
            float(s.free_star[q] >= 0),
        ]
        for x in values:
            if x:
                buf[o] = x
            o += 1
        wild = s.wild
        for c in s.nursery[q]:
            buf[o + el_index[c]] = 1.0
            if wild >> c & 1:
                buf[o + ne + el_index[c]] = 1.0
        o += 2 * ne
        for stars, planets, loose in s.systems[q]:
            for c in stars + planets + loose:
                buf[o + body_index[c]] = 1.0
            for pl in planets:
                for m in s.moons_on[pl]:
                    buf[o + body_index[m]] = 1.0
