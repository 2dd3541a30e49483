"""How Star Fire judges a position (``StarFireEvaluator``, ``game.evaluator``): own score plus
the promise of held cards, minus the best rival's; ``greedy`` maximises it one ply ahead and the
search scores its cut-offs by it.

Compiled (``setup.py``); it reads the state and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from nightsky.core.evaluator import Evaluator
from nightsky.games.star_fire.constants import STAR, STARFIRE, WILD_EL

if TYPE_CHECKING:
    from nightsky.core.state import State
    from nightsky.games.star_fire.state import StarFireState


class StarFireEvaluator(Evaluator):
    """Own score plus the promise of held cards, minus the best rival's."""

    def evaluate(self, state: State, player: int) -> float:
        return self.evaluate_all(state)[player]

    def evaluate_all(self, state: State) -> list[float]:
        """``evaluate`` of every seat, each seat's value worked out once."""
        st = cast("StarFireState", state)
        vals = [seat_value(st, q) for q in range(st.n)]
        out: list[float] = []
        for p in range(st.n):
            rivals = [v for q, v in enumerate(vals) if q != p]
            out.append(vals[p] - (max(rivals) if rivals else 0.0))
        return out


def seat_value(st: StarFireState, seat: int) -> float:
    """``seat``'s built score (``quick_score``) plus what its hand and nursery promise."""
    C = st.C
    total = quick_score(st, seat)
    units = [0, 0, 0, 0, 0]
    for c in st.nursery[seat]:
        units[WILD_EL if st.wild >> c & 1 else C.element[c]] += C.units[c]
    for c in st.hands[seat]:
        k = C.cat[c]
        if k == STARFIRE:
            total += 0.9  # a Star Fire card is a point waiting to be played
        else:
            cost = C.cost[c]
            short = sum(max(0, cost[e] - units[e]) for e in range(4)) - units[WILD_EL]
            pts = C.points(c)
            if c == st.free_star[seat]:
                total += 0.8 * pts
            elif k == STAR or st.systems[seat]:
                total += pts * (0.45 if short <= 0 else 0.25 / (1 + max(0, short)))
    if st.eliminated[seat]:
        total -= 0.5
    return total


def quick_score(st: StarFireState, seat: int) -> float:
    """A fast estimate of ``seat``'s final score from what it has built so far."""
    C = st.C
    total = float(len(st.pile[seat]) + len(st.nursery[seat]))
    total += 0.25 * sum(C.units[c] for c in st.nursery[seat])
    for stars, planets, loose in st.systems[seat]:
        hosted = 0
        for pl in planets:
            m = len(st.moons_on[pl])
            hosted += m
            rm, pts = C.moon_bonus[pl]
            if rm and m >= rm:
                total += pts
            elif rm:
                total += 0.3 * pts * m / rm
        n_moons = hosted + len(loose)
        total += 5 * len(stars) + 3 * len(planets) + n_moons
        for s in stars:
            rp, rm, pts = C.star_bonus[s]
            if len(planets) >= rp and n_moons >= rm:
                total += pts
        if planets:
            total += 1.0  # towards Most Solar Systems
    return float(total)
