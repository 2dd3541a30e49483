"""Which named components a Shooting Star action plays or deals (the design lab's attribution).

``nightsky balance`` and ``nightsky compare`` credit each seat with the Destruction cards it
played (by their title) and the Secret Missions it was dealt ("Mission 3b").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.game import Action, State
from nightsky.games.shooting_star.actions import MissionDeal, Place

if TYPE_CHECKING:
    from nightsky.games.shooting_star.game import ShootingStarGame


def component_events(
    game: ShootingStarGame, state: State, action: Action, seat: int
) -> tuple[tuple[int, str, str], ...]:
    """``(seat, verb, name)`` for a played card or each seat's dealt missions; () else."""
    if type(action) is Place and seat >= 0:
        return ((seat, "played", game.cards[action.card].title),)
    if type(action) is MissionDeal:
        missions = game.missions
        return tuple(
            (p, "was dealt", f"Mission {missions[m].code}")
            for p, dealt in enumerate(action.seats)
            for m in dealt
        )
    return ()
