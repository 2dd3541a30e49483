"""How Shooting Star judges a position (``ShootingStarEvaluator``, ``game.evaluator``): the
heuristic ``greedy`` maximises one ply ahead and the search scores its cut-offs by.

Compiled (``setup.py``); it reads the state, never changes it (a position with cards still face
down is resolved on a copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from nightsky.core.evaluator import Evaluator
from nightsky.games.shooting_star.constants import PH_PLACE

if TYPE_CHECKING:
    from nightsky.core.state import State
    from nightsky.games.shooting_star.state import ShootingStarState


class ShootingStarEvaluator(Evaluator):
    """Own prospects minus the best rival's, after resolving what is on the table now."""

    def evaluate(self, state: State, player: int) -> float:
        """Placed cards that are still face down are resolved on a copy (as if the turn ended
        now), so a one-ply search sees what its own card would do."""
        return self.evaluate_all(state)[player]

    def evaluate_all(self, state: State) -> list[float]:
        """``evaluate`` of every seat, the table resolved and each seat's worth counted once."""
        st = cast("ShootingStarState", state)
        if st.placed and st.phase == PH_PLACE:
            st = st.clone()
            st._resolve()
        vals = [worth(st, s) for s in range(st.g.num_players)]
        out: list[float] = []
        for p in range(len(vals)):
            rest = vals[:p] + vals[p + 1 :]
            out.append(vals[p] - max(rest))
        return out


def worth(st: ShootingStarState, seat: int) -> float:
    """What ``seat`` holds towards the final score: cards, Moons, Missions, Space Debris."""
    cards = len(st.conq[seat])
    moons = st.moons(seat)
    missions = st.missions_points(seat)
    # every Space Debris card is a step toward the 3-point bonus of SS-12.4
    return cards + moons + missions + 0.25 * len(st.debris[seat])
