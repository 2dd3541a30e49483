"""The Stars Are Right's constants: faces, symbols, card kinds, turn steps and the rulebook's
numbers.

A leaf module: it imports nothing from the game package, so every other module (rules,
components, bots, presentation) can import it without forming a cycle.
"""

from __future__ import annotations

from typing import Final

FACES: tuple[str, ...] = (
    "1", "2", "3", "4", "5", "V", "Su", "So", "Mo", "L", "Wn", "Wx", "Sh", "Me",
)
"""Face codes of the star tiles (index = face number used everywhere in the rules)."""
FACE_INDEX = {f: i for i, f in enumerate(FACES)}
FACE_NAMES: tuple[str, ...] = (
    "one star", "two stars", "three stars", "four stars", "five stars", "void", "sun",
    "solar eclipse", "full moon", "lunar eclipse", "waning moon", "waxing moon",
    "shooting star", "meteors",
)
SYMBOLS = "PSF"
"""Invocation symbols: push, swap, flip (index 0, 1, 2)."""

KINDS = ("great-old-one", "greater-servitor", "lesser-servitor", "minion")
# Final: the compiled modules read these as constants, not from a module's dictionary.
GOO: Final = 0
GREATER: Final = 1
LESSER: Final = 2
MINION: Final = 3
MINION_POWERS = ("exchange-lesser", "exchange-greater", "take-card", "hand-six", "discard-two")

COLS = "abcde"
"""Column letters of the sky's cells (``a1`` .. ``e5``)."""

# ---------------------------------------------------------------- the steps of a turn
SETUP: Final = 0
DEAL: Final = 1
INVOKE: Final = 2
POWERS: Final = 3
MOVE: Final = 4
SUMMON: Final = 5
DISCARD: Final = 6
OVERFLOW: Final = 7
DRAW: Final = 8
TAKE: Final = 9
OVER: Final = 10
PHASE_NAMES = (
    "setup", "deal", "invoke", "powers", "move", "summon", "discard", "overflow", "draw",
    "take", "over",
)
MINION_PHASES: Final = (INVOKE, POWERS, MOVE, SUMMON, DISCARD)
"""Phases in which a discard-Minion may be used (TSAR-9.7)."""

# ---------------------------------------------------------------- the rulebook's numbers
HAND_SIZE: Final = 5
MAX_CREATURES: Final = 6
GOAL: Final = 10
MAX_BONUS: Final = 3
