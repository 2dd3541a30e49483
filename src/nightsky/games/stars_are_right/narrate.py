"""The Stars Are Right's log in words (``StarsAreRightUI.describe_log_entry``): the sky laid
out and the hands dealt told once (TSAR-1.3, TSAR-1.5), the cards drawn at a turn's end counted
(face down: which cards only their owner's hand shows), and the end of the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from nightsky.core.game import CHANCE
from nightsky.core.ui import seat_label

from .actions import Draw, PlaceTile
from .constants import DEAL, DRAW, SETUP

if TYPE_CHECKING:
    from .state import StarsAreRightState


END_WORDS = {
    "goal": "a player reached the goal (TSAR-10.2)",
    "deck": "the deck ran out once too often (TSAR-8.4)",
    "rounds": "the last round is played (TSAR-10.3)",
}


def describe_entry(
    before: StarsAreRightState,
    after: StarsAreRightState,
    index: int,
    viewer: int | None,
    names: Sequence[str],
    move: Callable[[], list[str]],
) -> list[str]:
    """Entry ``index`` for ``viewer``; ``move`` tells a player's move (the default wording)."""
    seat, action = after.history[index]
    out: list[str] = []
    if seat != CHANCE:
        out = move()
    elif isinstance(action, PlaceTile):
        if before.phase == SETUP and after.phase != SETUP:
            out = [f"The sky is laid out: {after.placed} star tiles."]
    elif isinstance(action, Draw):
        if before.phase == DEAL and after.phase != DEAL:
            each = len(after.hands[0])
            out = [f"The cards are dealt: {each} to each player."]
        elif before.phase == DRAW and after.phase != DRAW:
            drawn = 0
            i = index
            while i >= 0 and after.history[i][0] == CHANCE:
                drawn += 1
                i -= 1
            who = seat_label(names, before.current)
            out = [f"{who} drew {drawn} card{'s' if drawn > 1 else ''} face down."]
    if after.is_terminal() and not before.is_terminal():
        why = END_WORDS.get(after.end_reason, after.end_reason)
        out.append(f"The game is over: {why}.")
    return out
