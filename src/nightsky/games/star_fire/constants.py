"""Star Fire's fixed numbers: card categories, kinds, decks, action kinds and turn phases.

The leaf of the package: it imports nothing from it, and every other module of the game may
import it (the rules, the component loader, the actions, the presentation, the observer).
"""

from __future__ import annotations

# ------------------------------------------------------------------ cards (SF-1)
ELEMENTS = ("hydrogen", "helium", "carbon", "metal")
"""The four elements, in the order used by costs and credit vectors (index 4 = wild)."""
ELEMENT_SHORT = ("H", "He", "C", "HM")
WILD_EL = 4
"""Index of transmuted (wild) units in a credit vector (SF-12)."""

EVENT_KINDS = ("fusion", "bloom", "crunch", "rip", "freeze")
SF_KINDS = ("wormhole", "fission", "gamma", "divine", "transmute")
SF_COUNTS = {"wormhole": 5, "fission": 3, "gamma": 4, "divine": 4, "transmute": 4}

STAR_POINTS, PLANET_POINTS, MOON_POINTS = 5, 3, 1  # SF-1.3

# Card categories (the back of a card shows its category, SF-19.1).
ELEMENT, EVENT, STAR, PLANET, MOON, STARFIRE = range(6)

# Star Fire card kinds (indices of SF_KINDS) and Cosmic Event kinds (of EVENT_KINDS).
SF_WORMHOLE, SF_FISSION, SF_GAMMA, SF_DIVINE, SF_TRANSMUTE = range(5)
EV_FUSION, EV_BLOOM, EV_CRUNCH, EV_RIP, EV_FREEZE = range(5)

# ------------------------------------------------------------------ decks
DECKS = ("elements", "bodies", "starfire")
DECK_E, DECK_B, DECK_S, DECK_SETUP = 0, 1, 2, 3

# ------------------------------------------------------------------ action kinds
SETUP, DRAW, BUILD, DIVINE, WORMHOLE, STEAL, STOP, FISSION, GAMMA, TRANSMUTE, WILD = range(11)
DISCARD, DISCARD_SF, END = 11, 12, 13
JOIN = 14  # join two of one's own systems, free, during one's turn (SF-6.2)

NEW = -1  # target of a Star that founds a new system

# ------------------------------------------------------------------ turn flow
PH_DEAL, PH_SETUP, PH_PLAY, PH_OVER = range(4)
PHASES = ("deal", "setup", "play", "over")
MODE_NORMAL, MODE_BLOOM, MODE_SETUP = range(3)
SUB_NONE, SUB_WORMHOLE, SUB_TRANSMUTE = range(3)
SUBSTEPS = ("", "wormhole", "transmute")
