"""Which named components a Stars Are Right action summons (the design lab's attribution).

``nightsky balance`` and ``nightsky compare`` credit each seat with the Creature cards it
summoned or invoked, by the card's id ("cthulhu-P"): one creature has a card per face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.game import Action, State

from .actions import Invoke, Summon

if TYPE_CHECKING:
    from .game import StarsAreRightGame


def component_events(
    game: StarsAreRightGame, state: State, action: Action, seat: int
) -> tuple[tuple[int, str, str], ...]:
    """``(seat, verb, card id)`` for a summon or an invocation; () for other actions."""
    if seat < 0:
        return ()
    if type(action) is Summon:
        return ((seat, "summoned", game.cards[action.card].id),)
    if type(action) is Invoke:
        return ((seat, "invoked", game.cards[action.card].id),)
    return ()
