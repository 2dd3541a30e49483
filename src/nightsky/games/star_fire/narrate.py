"""Star Fire's log in words (``StarFireUI.describe_log_entry``): each draw told with its
drawer (an Element or a Cosmic Event face up, SF-4.1 and SF-14.1; a hand card face down), and
what a move changed besides itself: a seat eliminated (SF-16), the end of the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from nightsky.core.game import CHANCE
from nightsky.core.ui import seat_label
from nightsky.games.star_fire.actions import Card
from nightsky.games.star_fire.constants import DECKS, ELEMENT, EVENT, EVENT_KINDS, MODE_SETUP
from nightsky.games.star_fire.words import card_words

if TYPE_CHECKING:
    from nightsky.games.star_fire.state import StarFireState


EVENT_EFFECTS = {
    "fusion": "For one round each player has a third action (SF-14.3).",
    "bloom": "Every player still in the game draws 2 elements (SF-14.4).",
    "crunch": "Every nursery's elements go back into the element deck (SF-14.5).",
    "rip": "Every hand's bodies go back into the bodies deck (SF-14.6).",
    "freeze": "Every hand's Star Fire cards go back into the Star Fire deck (SF-14.7).",
}


def describe_entry(
    before: StarFireState,
    after: StarFireState,
    index: int,
    viewer: int | None,
    names: Sequence[str],
    move: Callable[[], list[str]],
) -> list[str]:
    """Entry ``index`` for ``viewer``; ``move`` tells a player's move (the default wording)."""
    seat, action = after.history[index]
    out = _draw(before, after, index, viewer, names, action) if seat == CHANCE else move()
    for q in range(after.n):
        if after.eliminated[q] and not before.eliminated[q]:
            out.append(f"{seat_label(names, q)} is eliminated: two actions are no longer "
                       "possible (SF-16).")
    if after.is_terminal() and not before.is_terminal():
        out.append("The game is over.")
    return out


def _draw(
    before: StarFireState,
    after: StarFireState,
    index: int,
    viewer: int | None,
    names: Sequence[str],
    action: object,
) -> list[str]:
    if not isinstance(action, Card) or not before.queue:
        seen = after.log_text(index, viewer)
        return [] if seen == "chance" else [seen]
    C = after.C
    q, deck, mode = before.queue[0]
    who = seat_label(names, q)
    card = action.card
    if after.log_text(index, viewer) != str(action):  # a hand card: face down
        # (the draw itself was told with the move that asked for it)
        return [f"{who} is dealt a Star face down."] if mode == MODE_SETUP else []
    asked = bool(before.history) and before.history[-1][0] == q  # right after its draw move
    drew = "It is" if asked else f"{who} drew"
    if C.cat[card] == ELEMENT:
        return [f"{drew} the element card {card_words(C, card)}."]
    if C.cat[card] == EVENT:
        effect = EVENT_EFFECTS.get(EVENT_KINDS[C.event_kind[card]], "")
        return [f"{drew} a Cosmic Event: {C.title[card]}! {effect}".rstrip()]
    return [f"{drew} {card_words(C, card)}, from the {DECKS[deck]} deck."]
