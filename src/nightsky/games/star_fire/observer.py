"""The fixed-size observation vector of a seat (documented in ``rules.md``, "Observation").

Seats are listed relative to the observer (slot 0 = the observer), padded to 6 slots, so the
vector has the same length for every player count. It holds only what the seat may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

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

# Final: compiled, they are C constants (a plain module name is a dict lookup at each use).
MAX_SEATS: Final = 6
# present, eliminated, to act, fission, score, pile, 4 hand backs, dealt star
SEAT_SCALARS: Final = 11


class StarFireObserver(Observer):
    """The observation tensor of a Star Fire game (its layout: ``rules.md``, "Observation")."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        C = cast("StarFireGame", game).cards
        ne, nb, n = len(C.elements), len(C.bodies), C.n
        # The card tables as typed lists read once here (the rules' ``Cards`` is interpreted):
        # position of each card id in the element, body and Star lists (-1: not one).
        self._el_pos = _positions(C.elements, n)
        self._body_pos = _positions(C.bodies, n)
        self._star_pos = _positions(C.stars, n)
        self._cat: list[int] = list(C.cat)
        self._sf_kind: list[int] = list(C.sf_kind)
        self._event_kind: list[int] = list(C.event_kind)
        self._ne, self._nb, self._n = ne, nb, n
        self._nstars = len(C.stars)
        self._kinds: tuple[int, int, int, int] = (STAR, PLANET, MOON, STARFIRE)
        self._starfire: int = STARFIRE
        self._max_rounds: Any = cast("StarFireGame", game).options["max_rounds"]
        self._per_seat = SEAT_SCALARS + 2 * ne + nb
        self._size = (
            MAX_SEATS * self._per_seat + (nb + 5 + len(C.stars)) + (3 + n) + (ne + 1 + 5) + 20
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
        a float32 buffer): the one encoding (``rules.md``, "Observation"). Only non-zero
        entries are written, straight from the state (no list of values per block)."""
        one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
        body_pos, cat = self._body_pos, self._cat
        starfire = self._starfire
        ne, nb = self._ne, self._nb
        per_seat = self._per_seat
        scores = s.scores()
        n = s.n
        for i in range(min(n, MAX_SEATS)):
            q = (player + i) % n
            self._write_seat(s, q, scores[q], buf, i * per_seat)
        o = MAX_SEATS * per_seat
        hand = s.hands[player]
        kinds = [0.0, 0.0, 0.0, 0.0, 0.0]
        for c in hand:
            j = body_pos[c]
            if j >= 0:
                buf[o + j] = one
            if cat[c] == starfire:
                kinds[self._sf_kind[c]] += 0.25
        o += nb
        for x in kinds:
            if x:
                buf[o] = x
            o += 1
        free = s.free_star[player]
        if free >= 0 and self._star_pos[free] >= 0:
            buf[o + self._star_pos[free]] = one
        o += self._nstars
        for d in range(3):
            k = len(s.pool[d]) + len(s.bottom[d])
            if k:
                buf[o + d] = k / 30.0
        o += 3
        for d in range(3):
            for c in s.bottom[d]:
                buf[o + c] = one
        o += self._n
        el_pos = self._el_pos
        for c in s.spent:
            buf[o + el_pos[c]] = one
        o += ne
        if s.reshuffled:
            buf[o] = one
        o += 1
        for c in s.events_used:
            buf[o + self._event_kind[c]] = one
        o += 5
        # actions left and taken, last turn, fusion now, fusion rounds left, the pending
        # sub-action (wormhole, transmute, units), then the credit per element kind
        if s.actions_left:
            buf[o] = s.actions_left / 3.0
        if s.actions_taken:
            buf[o + 1] = s.actions_taken / 3.0
        if s.last_turn:
            buf[o + 2] = one
        if s.fusion_now:
            buf[o + 3] = one
        if s.fusion_left:
            buf[o + 4] = s.fusion_left / 6.0
        if s.sub == SUB_WORMHOLE:
            buf[o + 5] = one
        if s.sub == SUB_TRANSMUTE:
            buf[o + 6] = one
        if s.sub_units:
            buf[o + 7] = s.sub_units / 3.0
        o += 8
        for units in s.credit:
            if units:
                buf[o] = units / 2.0
            o += 1
        buf[o + s.phase] = one
        o += 4
        if s.round:
            buf[o] = s.round / self._max_rounds
        if s.queue:
            buf[o + 1] = one
            buf[o + 2] = len(s.queue) / 12.0

    def _write_seat(self, s: StarFireState, q: int, score: float, buf: Any, o: int) -> None:
        """Seat ``q``'s public part from ``buf[o]``: status, score, card backs, nursery, wild
        cards, bodies."""
        one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
        cat = self._cat
        # The categories as locals: the rules' constants are module names (a dict lookup
        # each, compiled) where the observer's own are C constants.
        k_star, k_planet, k_moon, k_starfire = self._kinds
        stars = planets = moons = starfire = 0  # the card backs of the hand, by category
        for c in s.hands[q]:
            k = cat[c]
            if k == k_star:
                stars += 1
            elif k == k_planet:
                planets += 1
            elif k == k_moon:
                moons += 1
            elif k == k_starfire:
                starfire += 1
        # present, eliminated, to act, fission, score, pile, the four backs, dealt Star
        buf[o] = one
        if s.eliminated[q]:
            buf[o + 1] = one
        if q == s.cur and s.phase == PH_PLAY:
            buf[o + 2] = one
        if s.fission[q]:
            buf[o + 3] = float(s.fission[q])
        if score:
            buf[o + 4] = score / 50.0
        if s.pile[q]:
            buf[o + 5] = len(s.pile[q]) / 20.0
        if stars:
            buf[o + 6] = stars / 8.0
        if planets:
            buf[o + 7] = planets / 11.0
        if moons:
            buf[o + 8] = moons / 7.0
        if starfire:
            buf[o + 9] = starfire / 20.0
        if s.free_star[q] >= 0:
            buf[o + 10] = one
        o += SEAT_SCALARS
        ne = self._ne
        el_pos, body_pos = self._el_pos, self._body_pos
        wild = s.wild
        for c in s.nursery[q]:
            buf[o + el_pos[c]] = one
            if wild >> c & 1:
                buf[o + ne + el_pos[c]] = one
        o += 2 * ne
        moons_on = s.moons_on
        for sys in s.systems[q]:
            for c in sys[0]:
                buf[o + body_pos[c]] = one
            for c in sys[1]:
                buf[o + body_pos[c]] = one
            for c in sys[2]:
                buf[o + body_pos[c]] = one
            for pl in sys[1]:
                for m in moons_on[pl]:
                    buf[o + body_pos[m]] = one


def _positions(ids: Sequence[int], n: int) -> list[int]:
    """For each card id below ``n``, its position in ``ids`` (-1 where it is not there)."""
    out = [-1] * n
    for i, c in enumerate(ids):
        out[c] = i
    return out
