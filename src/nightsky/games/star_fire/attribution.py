"""Which named components a Star Fire action builds (the design lab's attribution).

``nightsky balance`` and ``nightsky compare`` credit each seat with the Stars, Planets and
Moons it built or had built by Divine Intervention, by the card's name ("Polaris", "Ferrum").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.game import Action, State
from nightsky.games.star_fire.actions import Act
from nightsky.games.star_fire.constants import BUILD, DIVINE

if TYPE_CHECKING:
    from nightsky.games.star_fire.game import StarFireGame


def component_events(
    game: StarFireGame, state: State, action: Action, seat: int
) -> tuple[tuple[int, str, str], ...]:
    """``(seat, "built", name)`` for a build or a Divine Intervention; () for other actions."""
    if seat < 0 or type(action) is not Act or action.kind not in (BUILD, DIVINE):
        return ()
    return ((seat, "built", game.cards.title[action.a]),)
