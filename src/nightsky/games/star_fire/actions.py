"""Star Fire actions and their notation.

Every player action is one ``Act`` (pre-built once per game, see ``build_actions``); a chance
outcome is a ``Card`` (the card that comes off a deck). Notation examples::

    place / keep                 set-up: place the dealt Star now, or keep it in hand (SF-2.3)
    draw elements|bodies|starfire
    build S3 new | build S3 link S1 | build P2 at S1 | build M4 on P2 | build M6 at S1
    divine P2 at S1              Divine Intervention: the same build without paying (SF-11)
    wormhole / steal H5 / stop   Worm Hole, then up to 3 units stolen one card at a time (SF-8)
    fission 2                    Nuclear Fission on seat 2 (SF-9)
    gamma M4                     Gamma Ray Burst on a built body (SF-10)
    transmute / wild C2 / stop   Transmutation, then up to 2 own cards made wild (SF-12)
    discard P7 | discard H3 | discard gamma    (SF-13)
    end                          stop where stopping early is allowed (SF-3.3)
    join S1 S3                   join two of your systems, named by their first Stars (SF-6.2)
    card H5                      chance: the card drawn
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nightsky.core.game import ActionBase
from nightsky.games.star_fire.constants import (
    BUILD,
    DECK_B,
    DECK_E,
    DECK_S,
    DECK_SETUP,
    DECKS,
    DISCARD,
    DISCARD_SF,
    DIVINE,
    DRAW,
    ELEMENT,
    END,
    FISSION,
    GAMMA,
    JOIN,
    MOON,
    NEW,
    PLANET,
    SETUP,
    SF_KINDS,
    STAR,
    STEAL,
    STOP,
    TRANSMUTE,
    WILD,
    WORMHOLE,
)

if TYPE_CHECKING:
    from nightsky.games.star_fire.components import Cards


@dataclass(frozen=True, slots=True)
class Act(ActionBase):
    """A player action: ``kind`` plus up to two card/seat arguments (see module doc)."""

    kind: int
    a: int = -1
    b: int = -1
    text: str = field(default="", compare=False, hash=False)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Card(ActionBase):
    """A chance outcome: the card drawn off the pending deck."""

    card: int
    text: str = field(default="", compare=False, hash=False)

    def __str__(self) -> str:
        return self.text


def build_actions(cards: Cards, players: int) -> list[Act]:
    """Every distinct player action in a fixed order (the id space for RL masks)."""
    nm = cards.name
    out: list[Act] = [Act(SETUP, 1, text="place"), Act(SETUP, 0, text="keep")]
    out += [Act(DRAW, d, text=f"draw {DECKS[d]}") for d in range(3)]
    for kind, word in ((BUILD, "build"), (DIVINE, "divine")):
        for s in cards.stars:
            out.append(Act(kind, s, NEW, text=f"{word} {nm[s]} new"))
            out += [Act(kind, s, t, text=f"{word} {nm[s]} link {nm[t]}")
                    for t in cards.stars if t != s]
        for p in cards.planets:
            out += [Act(kind, p, t, text=f"{word} {nm[p]} at {nm[t]}") for t in cards.stars]
        for m in cards.moons:
            out += [Act(kind, m, t, text=f"{word} {nm[m]} on {nm[t]}") for t in cards.planets]
            # Every moon gets "at <star>" so a hosted moon's attempt is refused by name (SF-6.5).
            out += [Act(kind, m, t, text=f"{word} {nm[m]} at {nm[t]}") for t in cards.stars]
    out.append(Act(WORMHOLE, text="wormhole"))
    out += [Act(STEAL, e, text=f"steal {nm[e]}") for e in cards.elements]
    out.append(Act(STOP, text="stop"))
    out += [Act(FISSION, s, text=f"fission {s}") for s in range(players)]
    out += [Act(GAMMA, b, text=f"gamma {nm[b]}") for b in cards.bodies]
    out.append(Act(TRANSMUTE, text="transmute"))
    out += [Act(WILD, e, text=f"wild {nm[e]}") for e in cards.elements]
    out += [Act(DISCARD, c, text=f"discard {nm[c]}")
            for c in (*cards.bodies, *cards.elements)]
    out += [Act(DISCARD_SF, k, text=f"discard {SF_KINDS[k]}") for k in range(len(SF_KINDS))]
    out.append(Act(END, text="end"))
    # Joins come last so the ids of every older action stay put. One per pair of Stars, the
    # lower card first: the joined system keeps that Star's name (SF-6.2).
    out += [Act(JOIN, s, t, text=f"join {nm[s]} {nm[t]}")
            for s in cards.stars for t in cards.stars if s < t]
    return out


def is_body_cat(cat: int) -> bool:
    return cat in (STAR, PLANET, MOON)


__all__ = [
    "BUILD", "DECKS", "DECK_B", "DECK_E", "DECK_S", "DECK_SETUP", "DISCARD", "DISCARD_SF",
    "DIVINE", "DRAW", "ELEMENT", "END", "FISSION", "GAMMA", "JOIN", "NEW", "SETUP", "STEAL", "STOP",
    "TRANSMUTE", "WILD", "WORMHOLE", "Act", "Card", "build_actions", "is_body_cat",
]
