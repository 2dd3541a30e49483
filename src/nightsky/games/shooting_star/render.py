"""Text drawing of a Shooting Star position for the terminal (rich markup)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from nightsky.core.ui import seat_label
from nightsky.games.shooting_star.constants import (
    BITS,
    CARD_KEYS,
    DARK_LEVEL,
    NCARDS,
    PH_BUILD,
    PH_OVER,
    PHASE_NAMES,
    decode_cover,
    decode_pile_card,
    is_pile_card,
)
from nightsky.games.shooting_star.events import (
    Capture,
    Destroy,
    Event,
    Flip,
    Isolated,
    Replace,
    Resolve,
    ShieldCapture,
)

if TYPE_CHECKING:
    from nightsky.games.shooting_star.state import ShootingStarState

STYLE = {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "purple": "magenta"}


def _cell(state: ShootingStarState, c: int, viewer: int | None) -> str:
    """Ten characters: level (or D, or .), moon mark, 3 letters of the name, the card."""
    g = state.g
    lv = state.lvl[c]
    p = state.pl[c]
    if lv == 0:
        body = " .     "
    else:
        mark = "D" if lv == DARK_LEVEL else str(lv)
        moon = "m" if g.p_moon[p] else " "
        name = (g.p_name[p] or "")[:3].ljust(3)
        body = f" {mark}{moon}{name} "
        body = f"[bold]{body}[/bold]" if lv == DARK_LEVEL else body
    v = state.cov[c]
    if v < 0:
        return body + "   "
    seat, card = decode_cover(v)
    colour = g.comp.colour[seat].name
    shown = CARD_KEYS[card] if seat == viewer else "?"
    return body + f"[{STYLE.get(colour, 'white')}]{shown:>3}[/]"


def render(
    state: ShootingStarState, viewer: int | None = None, names: Sequence[str] | None = None
) -> str:
    """The position for the terminal; ``names``: each seat's name (default ``Seat 1``...)."""
    g = state.g
    n = g.num_players

    def who(q: int) -> str:
        return seat_label(names or [], q)

    lines = []
    head = f"Shooting Star - turn {min(state.turn + 1, 7)}/7, phase {PHASE_NAMES[state.phase]}"
    lines.append(f"[bold]{head}[/bold]  Dark Invader: {who(state.invader)}")
    cols = range(g.width)
    rows = range(g.height)
    if g.personalized:  # the sector as built so far (any shape, ruling SS-14.6)
        built = state.alive or [g.centre]  # nothing yet: the middle, where the first goes
        xs = [g.cell_xy[c][0] for c in built]
        ys = [g.cell_xy[c][1] for c in built]
        pad = 1 if state.phase == PH_BUILD or not state.alive else 0
        cols = range(max(0, min(xs) - pad), min(g.width, max(xs) + 1 + pad))
        rows = range(max(0, min(ys) - pad), min(g.height, max(ys) + 1 + pad))
    lines.append("    " + "".join(f"{x + g.col0:^10} " for x in cols))
    for y in rows:
        lines.append(
            f"{y + g.row0:>3} " + "|".join(_cell(state, y * g.width + x, viewer) for x in cols)
        )
    lines.append("legend: level 1-4, D dark, m moon, Zer = Zero; ? = a face-down card")
    for s in range(n):
        col = g.comp.colour[s]
        style = STYLE.get(col.name, "white")
        you = " (you)" if s == viewer else ""
        tag = " [Dark Invader]" if s == state.invader and state.phase != PH_OVER else ""
        lines.append(f"[{style}]{who(s)}: {col.admiral} ({col.name}){you}{tag}[/]")
        if s == viewer or state.phase == PH_OVER:
            hand = " ".join(CARD_KEYS[k] for k in BITS[state.hands[s]])
            lines.append(f"   hand: {hand or '-'}")
            if len(state.missions) > s:
                ms = "; ".join(
                    f"({g.missions[m].value} pt) {g.missions[m].text}"
                    for m in state.missions[s]
                )
                lines.append(f"   missions: {ms}")
        else:
            unseen = " ".join(CARD_KEYS[k] for k in state.unrevealed(s))
            lines.append(f"   not yet revealed: {unseen}")
        if state.phands[s]:
            in_hand = ", ".join(g.planet_label(p) for p in state.phands[s])
            lines.append("   planets in hand: " + in_hand)
        conq = ", ".join(_pile_words(state, x, who) for x in state.conq[s]) or "-"
        lines.append(f"   conquest ({len(state.conq[s])}): {conq}")
        lines.append(f"   space debris: {len(state.debris[s])} cards")
    lines.append(f"replacement deck: {len(state.deck)} cards")
    if viewer is not None and state.phase != PH_OVER:
        lines.append("blasts: " + "; ".join(card_reach(state, k) for k in range(NCARDS)))
    if state.events:
        told = "; ".join(describe_event(state, e, who) for e in state.events)
        lines.append(f"last resolution: {told}")
    if state.phase == PH_OVER:
        sc = state.scores()
        lines.append("final scores: " + ", ".join(f"{who(s)}: {sc[s]:g}" for s in range(n)))
        lines.append("winners: " + ", ".join(who(s) for s in state.winners()))
    return "\n".join(lines)


def describe_event(
    state: ShootingStarState, e: Event, name: Callable[[int], str] | None = None
) -> str:
    """One resolution event in a few words (``name``: how to call a seat; default
    ``seat N``)."""
    g = state.g

    def who(q: int) -> str:
        return name(q) if name is not None else f"Seat {q + 1}"

    if type(e) is Resolve:
        return f"{who(e.seat)} fires {CARD_KEYS[e.card]} at {g.cell_name(e.cell)}"
    if type(e) is ShieldCapture:
        where = g.cell_name(e.cell)
        return f"{who(e.owner)}'s Shield at {where} captures {who(e.seat)}'s {CARD_KEYS[e.card]}"
    if type(e) is Destroy:
        return (
            f"{who(e.seat)} destroys {who(e.victim)}'s {CARD_KEYS[e.card]} at "
            f"{g.cell_name(e.cell)}"
        )
    if type(e) is Flip:
        return f"{g.cell_name(e.cell)} flips {e.before}->{e.after}"
    if type(e) is Capture:
        return f"{who(e.seat)} captures {g.planet_label(e.planet)} (Level {e.level})"
    if type(e) is Replace:
        return f"{g.planet_label(e.planet)} replaces it at {g.cell_name(e.cell)}"
    if type(e) is Isolated:
        return f"{who(e.seat)} takes isolated {g.planet_label(e.planet)}"
    return str(e)


def _direction(dc: int, dr: int) -> str:
    if dc == dr == 0:
        return "own"
    return "N" * -dr + "S" * dr + "W" * -dc + "E" * dc  # a negative count gives ""


def card_reach(state: ShootingStarState, card: int) -> str:
    """``P6 Twin Lance W E``: what a card blasts, as compass steps from its planet."""
    c = state.g.cards[card]
    if not c.blast:
        return f"{CARD_KEYS[card]} {c.title} (no weapon)"
    return f"{CARD_KEYS[card]} {c.title} " + " ".join(_direction(dc, dr) for dc, dr in c.blast)


def _pile_words(state: ShootingStarState, code: int, who: Callable[[int], str]) -> str:
    """A conquest pile entry as players call it: a planet, or a seat's Destruction card."""
    g = state.g
    if not is_pile_card(code):
        return g.planet_label(code)
    seat, card = decode_pile_card(code)
    return f"{who(seat)}'s {CARD_KEYS[card]}"
