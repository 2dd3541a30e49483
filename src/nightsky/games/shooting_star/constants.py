"""Shooting Star's constants: table sizes, planet kinds, phases, Destruction card keys.

A leaf module: it imports nothing from the game package, so every other module of the package
(rules, notation, views, presentation, observation) can import it without a cycle.
"""

from __future__ import annotations

# ---------------------------------------------------------------- the table
#: Star Sector grid (columns, rows) per player count (SS-2.3).
GRIDS = {2: (4, 3), 3: (6, 3), 4: (6, 4), 5: (6, 5)}
#: The table of the Personalized Star Sector (ruling SS-14.6): 15 x 15 positions.
TABLE = 15
CENTRE = (TABLE // 2) * TABLE + TABLE // 2  # the first planet goes at column 8, row 8
PLANETS_PER_PLAYER = 6  # 12/18/24/30 planets = 6 per player (SS-2.2, SS-14.2)
MAX_TURNS = 7  # SS-11.2

# ---------------------------------------------------------------- planets
MINOR, MAJOR, DARK = 0, 1, 2  # planet kinds: 1/2, named 3/4, Dark
DARK_LEVEL = 5  # a Dark Planet's "level" in the state's level list

# ---------------------------------------------------------------- Destruction cards
#: Card keys by card index: 0..7 = Priority 1..8, 8 = the Space Shield.
CARD_KEYS = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "S")
SHIELD = 8
FULL_HAND = (1 << 9) - 1  # a hand is a bit mask over the nine card indices
#: BITS[mask]: the card indices of a hand mask, ascending.
BITS = tuple(tuple(k for k in range(9) if m >> k & 1) for m in range(1 << 9))
CARD_BASE = 100  # pile code of a Destruction card: CARD_BASE + seat * 9 + card

# ---------------------------------------------------------------- phases
PH_GRID, PH_DEAL, PH_DECK, PH_MISSIONS, PH_BUILD, PH_PLACE, PH_OVER = range(7)
PHASE_NAMES = ("grid", "deal", "deck", "missions", "build", "place", "over")
