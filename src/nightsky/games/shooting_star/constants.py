"""Shooting Star's constants: table sizes, planet kinds, phases, Destruction card keys.

A leaf module: it imports nothing from the game package, so every other module of the package
(rules, notation, views, presentation, observation) can import it without a cycle.
"""

from __future__ import annotations

from typing import Final

# ---------------------------------------------------------------- the table
#: Star Sector grid (columns, rows) per player count (SS-2.3).
GRIDS = {2: (4, 3), 3: (6, 3), 4: (6, 4), 5: (6, 5)}
#: Personalized Star Sector (ruling SS-14.3): the first planet lies at column 8, row 8, and the
#: others are numbered from there, so columns and rows may be 0 or negative (ruling SS-14.6).
FIRST_COL: Final = 8
FIRST_ROW: Final = 8
PLANETS_PER_PLAYER: Final = 6  # 12/18/24/30 planets = 6 per player (SS-2.2, SS-14.2)
MAX_TURNS: Final = 7  # SS-11.2

# ---------------------------------------------------------------- planets
# Final: the compiled modules read these as constants, not from a module's dictionary.
MINOR: Final = 0  # planet kinds: 1/2, named 3/4, Dark
MAJOR: Final = 1
DARK: Final = 2
DARK_LEVEL: Final = 5  # a Dark Planet's "level" in the state's level list

# ---------------------------------------------------------------- Destruction cards
#: Card keys by card index: 0..7 = Priority 1..8, 8 = the Space Shield.
CARD_KEYS: Final = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "S")
NCARDS: Final = 9  # the cards of one colour: len(CARD_KEYS)
SHIELD: Final = 8

# ---------------------------------------------------------------- packed ints
# For speed the rules keep cards and piles as plain ints; these helpers are the only place
# that packs and unpacks them:
#
# * a *hand* is a bit mask over the card indices (bit k set: card k is still in hand);
# * a *cover* code is the Destruction card lying on a cell: ``seat * NCARDS + card`` (the
#   state's ``cov`` list holds -1 where no card lies);
# * a *pile* code is an entry of a Conquest or Space Debris pile: a planet's index (below
#   ``CARD_BASE``) or ``CARD_BASE`` + the cover code of a Destruction card.

FULL_HAND: Final = (1 << NCARDS) - 1
#: BITS[hand]: the card indices of a hand, ascending.
BITS: Final = tuple(tuple(k for k in range(NCARDS) if m >> k & 1) for m in range(1 << NCARDS))
CARD_BASE: Final = 100  # planets are 0..48


def hand_has(hand: int, card: int) -> bool:
    return hand >> card & 1 == 1


def hand_without(hand: int, card: int) -> int:
    return hand & ~(1 << card)


def hand_with(hand: int, card: int) -> int:
    return hand | 1 << card


def encode_cover(seat: int, card: int) -> int:
    return seat * NCARDS + card


def decode_cover(code: int) -> tuple[int, int]:
    """(seat, card) of a cover code."""
    return divmod(code, NCARDS)


def cover_seat(code: int) -> int:
    return code // NCARDS


def cover_card(code: int) -> int:
    return code % NCARDS


def pile_card(seat: int, card: int) -> int:
    """The pile code of ``seat``'s Destruction card ``card``."""
    return CARD_BASE + seat * NCARDS + card


def pile_of_cover(code: int) -> int:
    """The pile code of the Destruction card with cover code ``code``."""
    return CARD_BASE + code


def is_pile_card(code: int) -> bool:
    """Whether a pile code is a Destruction card (else it is a planet's index)."""
    return code >= CARD_BASE


def decode_pile_card(code: int) -> tuple[int, int]:
    """(seat, card) of a Destruction card's pile code."""
    return divmod(code - CARD_BASE, NCARDS)


def pile_planets(pile: list[int]) -> list[int]:
    """The planets of a pile, in order (its Destruction cards left out)."""
    return [code for code in pile if code < CARD_BASE]


def pile_cards(pile: list[int]) -> list[tuple[int, int]]:
    """(seat, card) of each Destruction card of a pile, in order."""
    return [divmod(code - CARD_BASE, NCARDS) for code in pile if code >= CARD_BASE]

# ---------------------------------------------------------------- phases
PH_GRID: Final = 0
PH_DEAL: Final = 1
PH_DECK: Final = 2
PH_MISSIONS: Final = 3
PH_BUILD: Final = 4
PH_PLACE: Final = 5
PH_OVER: Final = 6
PHASE_NAMES = ("grid", "deal", "deck", "missions", "build", "place", "over")
