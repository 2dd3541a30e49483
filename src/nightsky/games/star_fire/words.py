"""Star Fire's cards as players call them (labels, the log and the board's hover boxes).

Bodies go by their printed name and the code the board draws on them (``Aldebaran (S7)``);
element cards, whose codes the board does not draw, by their element and units, numbered
among the cards of that element where two would read alike (``Carbon card 3, 1 unit``).
"""

from __future__ import annotations

from typing import Any

from nightsky.games.star_fire.constants import ELEMENT, ELEMENT_SHORT, STARFIRE

EL_WORDS = ("Hydrogen", "Helium", "Carbon", "Heavy Metal")


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 unit``, ``2 units``: a count with its noun."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def card_words(C: Any, c: int) -> str:
    """Card ``c`` of the components ``C`` in players' words."""
    cat = C.cat[c]
    if cat == ELEMENT:
        number = "".join(ch for ch in C.name[c] if ch.isdigit())
        return f"{EL_WORDS[C.element[c]]} card {number} ({plural(C.units[c], 'unit')})"
    if cat == STARFIRE:
        return str(C.title[c])
    return f"{C.title[c]} ({C.name[c]})"


def short_words(C: Any, c: int) -> str:
    """Card ``c`` in a few letters, as the board draws it: a body's code, an element's symbol
    and units (``He\u00d72``), a Star Fire card's title."""
    cat = C.cat[c]
    if cat == ELEMENT:
        return f"{ELEMENT_SHORT[C.element[c]]}\u00d7{C.units[c]}"
    if cat == STARFIRE:
        return str(C.title[c])
    return str(C.name[c])
