"""The fixed-size observation vector of a seat (documented in ``rules.md``, "Observation").

Seats are listed relative to the observer (slot 0 = the observer), padded to 6 slots, so the
vector has the same length for every player count. It holds only what the seat may know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

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
        s = cast("StarFireState", state)
        C = s.C
        el_index, body_index = self._el_index, self._body_index
        ne, nb = len(C.elements), len(C.bodies)
        out: list[float] = []
        scores = s.scores()
        for i in range(MAX_SEATS):
            if i >= s.n:
                out += [0.0] * (SEAT_SCALARS + 2 * ne + nb)
                continue
            q = (player + i) % s.n
            out += self._seat_part(s, q, scores[q])
        own = [0.0] * nb
        for c in s.hands[player]:
            if c in body_index:
                own[body_index[c]] = 1.0
        kinds = [0.0] * 5
        for c in s.hands[player]:
            if C.cat[c] == STARFIRE:
                kinds[C.sf_kind[c]] += 0.25
        dealt = [float(s.free_star[player] == st) for st in C.stars]
        out += own + kinds + dealt
        counts = [(len(s.pool[d]) + len(s.bottom[d])) / 30.0 for d in range(3)]
        bottom = [0.0] * C.n
        for d in range(3):
            for c in s.bottom[d]:
                bottom[c] = 1.0
        out += counts + bottom
        spent = [0.0] * ne
        for c in s.spent:
            spent[el_index[c]] = 1.0
        events = [0.0] * 5
        for c in s.events_used:
            events[C.event_kind[c]] = 1.0
        out += spent + [float(s.reshuffled)] + events
        phase = [0.0] * 4
        phase[s.phase] = 1.0
        out += [
            s.actions_left / 3.0, s.actions_taken / 3.0, float(s.last_turn), float(s.fusion_now),
            s.fusion_left / 6.0, float(s.sub == SUB_WORMHOLE), float(s.sub == SUB_TRANSMUTE),
            s.sub_units / 3.0,
            *[x / 2.0 for x in s.credit], *phase, s.round / s.game.options["max_rounds"],
            float(bool(s.queue)), len(s.queue) / 12.0,
        ]
        return out

    def _seat_part(self, s: StarFireState, q: int, score: float) -> list[float]:
        """Seat ``q``'s public part: status, score, card backs, nursery, wild cards, bodies."""
        C = s.C
        el_index, body_index = self._el_index, self._body_index
        ne, nb = len(C.elements), len(C.bodies)
        hand = s.hands[q]
        out = [
            1.0, float(s.eliminated[q]), float(q == s.cur and s.phase == PH_PLAY),
            float(s.fission[q]), score / 50.0, len(s.pile[q]) / 20.0,
            sum(1 for c in hand if C.cat[c] == STAR) / 8.0,
            sum(1 for c in hand if C.cat[c] == PLANET) / 11.0,
            sum(1 for c in hand if C.cat[c] == MOON) / 7.0,
            sum(1 for c in hand if C.cat[c] == STARFIRE) / 20.0,
            float(s.free_star[q] >= 0),
        ]
        nur = [0.0] * ne
        wild = [0.0] * ne
        for c in s.nursery[q]:
            nur[el_index[c]] = 1.0
            if s.wild >> c & 1:
                wild[el_index[c]] = 1.0
        built = [0.0] * nb
        for stars, planets, loose in s.systems[q]:
            for c in stars + planets + loose:
                built[body_index[c]] = 1.0
            for pl in planets:
                for m in s.moons_on[pl]:
                    built[body_index[m]] = 1.0
        return out + nur + wild + built
