"""Plain-text drawing, action labels and targets, and the observation vector.

The sky is drawn as a 5x5 grid with columns ``a``..``e`` and rows ``1``..``5``; each cell shows
the visible face and, after a slash in lower case, the face on the back (the tile's corner shows
it, so it is public). Face codes: ``1``..``5`` stars, ``V`` void, ``Su`` sun, ``So`` solar
eclipse, ``Mo`` full moon, ``L`` lunar eclipse, ``Wn`` waning moon, ``Wx`` waxing moon, ``Sh``
shooting star, ``Me`` meteors.

Observation vector (``observation(p)``, length ``observation_size``), all in [0, 1], seats
counted from ``p`` (0 = p, 1 = next seat, ...):

| part | size |
|---|---|
| face shown at each sky position, one-hot | 25 x 14 |
| the cards in p's hand | N (number of cards, 75) |
| the creatures each seat controls | 4 x N |
| creatures whose power was used this turn | N |
| the discard pile | N |
| symbols left to spend P, S, F (count / 4, capped at 1) | 3 |
| phase one-hot (setup .. over) | 11 |
| VP of each seat / 10 | 4 |
| hand size of each seat / 6 | 4 |
| deck size / N | 1 |
| 1 if p is to act | 1 |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nightsky.core.game import Action

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
from .components import FACE_NAMES, FACES, SYMBOLS

if TYPE_CHECKING:
    from .game import StarsAreRightGame
    from .state import StarsAreRightState

KIND_SHORT = ("GOO", "Great", "Lesser", "Minion")


def card_line(state: StarsAreRightState, card: int) -> str:
    """One card in at most 76 columns: id, type, VP, invocation, constellations, bonus, power."""
    c = state.game.cards[card]
    bonus = f"*{FACES[c.bonus]}" if c.bonus >= 0 else ""
    return (f"{c.id:<15} {KIND_SHORT[c.kind]:<6} {c.vp}VP {c.invocation_text():<3} "
            f"{c.code_text.replace(' ', ''):<19} {bonus:<3} {c.power_text()}").rstrip()


def render(state: StarsAreRightState, viewer: int | None) -> str:
    from .state import PHASE_NAMES

    g = state.game
    v = state.view(viewer)
    lines = []
    head = f"The Stars Are Right - turn {state.turn + 1}"
    if state.phase == 10:
        head += f", game over ({state.end_reason})"
    else:
        head += f", seat {state.current} acts, step: {PHASE_NAMES[state.phase]}"
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
        who = " (you)" if q == viewer else ""
        lines.append(f"seat {q}{who}: {state.vp(q)} VP, hand {len(state.hands[q])} cards")
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
        lines.append(f"last summoning: seat {q} summoned {g.cards[c].id} at {where}")
    return "\n".join(lines)


def describe(state: StarsAreRightState, a: Action, player: int) -> str:
    g = state.game
    cards = g.cards
    if isinstance(a, Invoke):
        return f"invoke {cards[a.card].name} for {cards[a.card].invocation_text()}"
    if isinstance(a, Power):
        return f"use {cards[a.card].name}'s power {cards[a.card].power_text()}"
    if isinstance(a, Summon):
        s = f"summon {cards[a.card].name} ({cards[a.card].vp} VP)"
        if a.bonus:
            s += " with the bonus stars of " + ", ".join(cards[b].name for b in a.bonus)
        if a.tiles:
            s += " on " + "; ".join(",".join(cell_name(t) for t in cons) for cons in a.tiles)
        return s
    if isinstance(a, Discard):
        return f"discard {cards[a.card].name} from your hand"
    if isinstance(a, Release):
        return f"discard your {cards[a.card].name} (seventh creature)"
    if isinstance(a, Exchange):
        return (f"discard {cards[a.minion].name} to trade your {cards[a.give].id} for "
                f"{cards[a.take].id}")
    if isinstance(a, Take):
        return f"discard {cards[a.minion].name} to take the top card of the " + (
            "deck" if a.from_deck else "discard pile")
    if str(a) == "end":
        return "end the turn (draw up to your hand size)"
    return str(a)


def action_ui(state: StarsAreRightState, a: Action, player: int) -> dict[str, Any]:
    """Label plus the element ids a click on which takes ``a``."""
    targets: list[str] = []
    if isinstance(a, Push):
        from .svg import push_target

        # the arrow names the direction; the line's tiles follow
        targets = [push_target(a.column, a.index, a.delta)] + [tile_target(p) for p in a.path()]
    elif isinstance(a, Swap):
        targets = [tile_target(a.a), tile_target(a.b)]
    elif isinstance(a, Flip):
        targets = [tile_target(a.pos)]
    elif isinstance(a, Summon):
        targets = [f"card-{state.game.cards[a.card].id}"]
        tiles = a.tiles
        if not tiles:
            pl = state.summon_placement(a.card, a.bonus) or []
            from .matcher import cells_of

            tiles = tuple(tuple(cells_of(t)) for t in pl)
        targets += [tile_target(p) for cons in tiles for p in cons]
    elif isinstance(a, Invoke | Discard | Power | Release):
        targets = [f"card-{state.game.cards[a.card].id}"]
    elif isinstance(a, Exchange):
        cards = state.game.cards
        targets = [f"card-{cards[a.minion].id}", f"card-{cards[a.give].id}",
                   f"card-{cards[a.take].id}"]
    elif isinstance(a, Take):
        targets = [f"card-{state.game.cards[a.minion].id}",
                   "deck" if a.from_deck else "discard"]
    return {"label": describe(state, a, player), "targets": targets}


def observation_size(game: StarsAreRightGame) -> int:
    n = len(game.cards)
    return 25 * len(FACES) + n + 4 * n + n + n + 3 + 11 + 4 + 4 + 1 + 1


def observation(state: StarsAreRightState, p: int) -> list[float]:
    g = state.game
    n = len(g.cards)
    nf = len(FACES)
    seats = len(state.hands)
    out = [0.0] * observation_size(g)
    for pos, f in enumerate(state.faces()):
        if f >= 0:
            out[pos * nf + f] = 1.0
    o = 25 * nf
    for c in state.hands[p]:
        out[o + c] = 1.0
    o += n
    for k in range(seats):
        q = (p + k) % seats
        for c in state.creatures[q]:
            out[o + k * n + c] = 1.0
    o += 4 * n
    for c in state.used:
        out[o + c] = 1.0
    o += n
    for c in state.discard:
        out[o + c] = 1.0
    o += n
    for i in range(3):
        out[o + i] = min(1.0, state.symbols[i] / 4)
    o += 3
    out[o + state.phase] = 1.0
    o += 11
    for k in range(seats):
        q = (p + k) % seats
        out[o + k] = min(1.0, state.vp(q) / 10)
        out[o + 4 + k] = min(1.0, len(state.hands[q]) / 6)
    o += 8
    out[o] = len(state.deck) / n
    out[o + 1] = 1.0 if state.current_players() == (p,) else 0.0
    return out

