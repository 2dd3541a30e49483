"""Plain-text drawing of The Stars Are Right, and the label and click targets of each action.

The sky is drawn as a 5x5 grid with columns ``a``..``e`` and rows ``1``..``5``; each cell shows
the visible face and, after a slash in lower case, the face on the back (the tile's corner shows
it, so it is public). Face codes: ``1``..``5`` stars, ``V`` void, ``Su`` sun, ``So`` solar
eclipse, ``Mo`` full moon, ``L`` lunar eclipse, ``Wn`` waning moon, ``Wx`` waxing moon, ``Sh``
shooting star, ``Me`` meteors.

Presentation only: the game's ``GameUI`` (``ui.py``) calls these; the rules never do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from nightsky.core.game import Action
from nightsky.core.ui import seat_label

from .actions import (
    Discard,
    Exchange,
    Flip,
    Invoke,
    Power,
    Push,
    Release,
    Summon,
    Swap,
    Take,
    cell_name,
    tile_target,
)
from .constants import FACE_NAMES, FACES, OVER, PHASE_NAMES, SYMBOLS
from .matcher import cells_of
from .svg import push_target
from .words import power_words, symbols_words

if TYPE_CHECKING:
    from .components import Card
    from .state import StarsAreRightState

KIND_SHORT = ("GOO", "Great", "Lesser", "Minion")


def card_line(state: StarsAreRightState, card: int) -> str:
    """One card in at most 76 columns: id, type, VP, invocation, constellations, bonus, power."""
    c = state.g.cards[card]
    bonus = f"*{FACES[c.bonus]}" if c.bonus >= 0 else ""
    return (f"{c.id:<15} {KIND_SHORT[c.kind]:<6} {c.vp}VP {c.invocation_text():<3} "
            f"{c.code_text.replace(' ', ''):<19} {bonus:<3} {c.power_text()}").rstrip()


def render(
    state: StarsAreRightState, viewer: int | None, names: Sequence[str] | None = None
) -> str:
    """The text board: sky, symbols to spend, the seats' creatures, the viewer's own hand;
    ``names``: each seat's name (default ``Seat 1``...)."""
    g = state.g

    def who(q: int) -> str:
        return seat_label(names or [], q)

    v = state.view(viewer)
    lines = []
    head = f"The Stars Are Right - turn {state.turn + 1}"
    if state.phase == OVER:
        head += f", game over ({state.end_reason})"
    else:
        head += f", {who(state.current)} acts, step: {PHASE_NAMES[state.phase]}"
    lines.append(head)
    if any(state.symbols):
        inv = f" (invoked {g.cards[state.invoked].id})" if state.invoked >= 0 else ""
        lines.append("symbols to spend: " + " ".join(
            f"{SYMBOLS[i]}x{n}" for i, n in enumerate(state.symbols) if n) + inv)
    lines.append("")
    lines.append("     " + "".join(f"{c:^8}" for c in "abcde"))
    for r in range(5):
        cells = []
        for c in range(5):
            face, back = v["sky"][r][c], v["sky_backs"][r][c]
            cells.append(f"{face}/{back.lower()}" if face is not None else "  .  ")
        lines.append(f"  {r + 1}  " + "".join(f"{x:^8}" for x in cells))
    lines.append("")
    legend = [f"{f}={n}" for f, n in zip(FACES, FACE_NAMES, strict=True)]
    for k in range(0, len(legend), 5):
        lines.append(("faces: " if k == 0 else "       ") + ", ".join(legend[k:k + 5]))
    lines.append("cards: id, type, VP, invocation, constellations (& between them, b dark), "
                 "*bonus")
    lines.append("       star, power (P push, S swap, F flip)")
    lines.append("")
    for q in range(len(state.hands)):
        you = " (you)" if q == viewer else ""
        lines.append(f"{who(q)}{you}: {state.vp(q)} VP, hand {len(state.hands[q])} cards")
        for c in state.creatures[q]:
            used = " [power used]" if c in state.used and q == state.current else ""
            lines.append("  play " + card_line(state, c) + used)
        if q == viewer:
            for c in state.hands[q]:
                lines.append("  hand " + card_line(state, c))
        elif state.known[q]:
            lines.append("   known in hand: " + ", ".join(g.cards[c].id for c in state.known[q]))
    top = g.cards[state.discard[-1]].id if state.discard else "-"
    lines.append(f"deck {len(state.deck)} cards, discard pile {len(state.discard)} (top: {top}), "
                 f"reshuffles {state.reshuffles}")
    if state.last_summon is not None:
        q, c, bonus, tiles = state.last_summon
        where = "; ".join(",".join(cell_name(t) for t in cons) for cons in tiles)
        lines.append(f"last summoning: {who(q)} summoned {g.cards[c].id} at {where}")
    return "\n".join(lines)


_TITLES: dict[int, tuple[object, tuple[str, ...]]] = {}



def card_titles(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """Each card's name in a label, told apart from the other cards of that name: by its
    invocation and bonus star (``Formless (P, bonus full moon)``), else by its id. Two
    different cards never share one title."""
    hit = _TITLES.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    by_name: dict[str, list[Card]] = {}
    for c in cards:
        by_name.setdefault(c.name, []).append(c)

    def detail(c: Card) -> str:
        bonus = f", bonus {FACE_NAMES[c.bonus].lower()}" if c.bonus >= 0 else ""
        return f"{symbols_words(c.invocation)}{bonus}"

    out = []
    for c in cards:
        same = by_name[c.name]
        if len(same) == 1:
            out.append(c.name)
        elif sum(detail(o) == detail(c) for o in same) == 1:
            out.append(f"{c.name} ({detail(c)})")
        else:
            out.append(f"{c.name} ({c.id})")
    titles = tuple(out)
    _TITLES[id(cards)] = (cards, titles)
    return titles


def describe(state: StarsAreRightState, a: Action, player: int) -> str:
    """A sentence for ``a`` (menus and the label of a choice)."""
    g = state.g
    cards = g.cards
    name = card_titles(cards)
    if isinstance(a, Invoke):
        return f"invoke {name[a.card]} for {symbols_words(cards[a.card].invocation)}"
    if isinstance(a, Power):
        return f"use {name[a.card]}'s power: {power_words(cards[a.card])}"
    if isinstance(a, Summon):
        s = f"summon {name[a.card]} ({cards[a.card].vp} VP)"
        if a.bonus:
            s += " with the bonus stars of " + ", ".join(name[b] for b in a.bonus)
        if a.tiles:
            s += " on " + "; ".join(",".join(cell_name(t) for t in cons) for cons in a.tiles)
        return s
    if isinstance(a, Discard):
        return f"discard {name[a.card]} from your hand"
    if isinstance(a, Release):
        return f"discard your {name[a.card]} (seventh creature)"
    if isinstance(a, Exchange):
        return (f"discard {name[a.minion]} to trade your {name[a.give]} for "
                f"{name[a.take]}")
    if isinstance(a, Take):
        return f"discard {name[a.minion]} to take the top card of the " + (
            "deck" if a.from_deck else "discard pile")
    if str(a) == "end":
        return "end the turn (draw up to your hand size)"
    return str(a)


def action_targets(state: StarsAreRightState, a: Action, player: int) -> list[str]:
    """The board element ids (``svg.board_svg``) a click on which takes ``a``."""
    targets: list[str] = []
    if isinstance(a, Push):
        # the arrow names the direction; the line's tiles follow
        targets = [push_target(a.column, a.index, a.delta)] + [tile_target(p) for p in a.path()]
    elif isinstance(a, Swap):
        targets = [tile_target(a.a), tile_target(a.b)]
    elif isinstance(a, Flip):
        targets = [tile_target(a.pos)]
    elif isinstance(a, Summon):
        targets = [f"card-{state.g.cards[a.card].id}"]
        tiles = a.tiles
        if not tiles:
            pl = state.summon_placement(a.card, a.bonus) or []
            tiles = tuple(tuple(cells_of(t)) for t in pl)
        targets += [tile_target(p) for cons in tiles for p in cons]
    elif isinstance(a, Invoke | Discard | Power | Release):
        targets = [f"card-{state.g.cards[a.card].id}"]
    elif isinstance(a, Exchange):
        cards = state.g.cards
        targets = [f"card-{cards[a.minion].id}", f"card-{cards[a.give].id}",
                   f"card-{cards[a.take].id}"]
    elif isinstance(a, Take):
        targets = [f"card-{state.g.cards[a.minion].id}",
                   "deck" if a.from_deck else "discard"]
    return targets
