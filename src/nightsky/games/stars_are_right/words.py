"""The Stars Are Right in players' words: invocation symbols and creature powers as sentences
(the labels, the log and the board's hover boxes share them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .components import Card

_SYMBOL_WORDS = ("push", "swap", "flip")  # SYMBOLS = "PSF"
_MINION_WORDS = {
    "exchange-lesser": "trade a Lesser Servitor of yours for an opponent's (discard it)",
    "exchange-greater": "trade a Greater Servitor of yours for an opponent's (discard it)",
    "take-card": "take the top card of the deck or the discard pile (discard it)",
    "hand-six": "your hand limit is six",
    "discard-two": "you may discard two cards at the end of your turn",
}


def symbols_words(counts: Sequence[int]) -> str:
    """Invocation symbols as players say them: ``a flip``, ``3 pushes``, ``a push and a swap``."""
    parts = [
        (f"a {_SYMBOL_WORDS[i]}" if n == 1 else f"{n} {_SYMBOL_WORDS[i]}es")
        for i, n in enumerate(counts) if n > 0
    ]
    return " and ".join(parts) or "nothing"


def power_words(card: Card) -> str:
    """A creature's power in words: ``turns a flip into 2 pushes`` (a Minion's: what it lets
    you do)."""
    if card.power_from < 0:
        return _MINION_WORDS.get(card.minion, card.minion.replace("-", " "))
    src = symbols_words(tuple(int(i == card.power_from) for i in range(len(_SYMBOL_WORDS))))
    return f"turns {src} into {symbols_words(card.power_to)}"
