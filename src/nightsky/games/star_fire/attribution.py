"""Which named components a Star Fire action builds (the design lab's attribution).

``nightsky balance`` and ``nightsky compare`` credit each seat with the Star it was dealt at
set-up (placed or kept, SF-2.3) and the Stars, Planets and Moons it built or had built by
Divine Intervention, by the card's name ("Polaris", "Ferrum").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.game import Action, State
from nightsky.games.star_fire.actions import Act
from nightsky.games.star_fire.constants import BUILD, DIVINE, SETUP

if TYPE_CHECKING:
    from nightsky.games.star_fire.game import StarFireGame


def component_events(
    game: StarFireGame, state: State, action: Action, seat: int
) -> tuple[tuple[int, str, str], ...]:
    """``(seat, "built", name)`` for a build or a Divine Intervention, ``(seat, "was dealt",
    name)`` for the set-up choice on the dealt Star; () for other actions."""
    if seat < 0 or type(action) is not Act:
        return ()
    if action.kind == SETUP:
        hand = getattr(state, "hands", None)  # the dealt Star is the first card in hand
        return ((seat, "was dealt", game.cards.title[hand[seat][0]]),) if hand else ()
    if action.kind not in (BUILD, DIVINE):
        return ()
    return ((seat, "built", game.cards.title[action.a]),)
