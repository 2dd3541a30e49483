"""The Stars Are Right board as SVG for the web client (``game.ui.board_svg``).

Drawn from ``view(viewer)`` only, so it shows exactly what that seat may know: the 5x5 sky (each
tile's back face in its corner, as the physical tile shows it), push arrows at the ends of every
row and column, the symbols left to spend, the deck and discard pile, each seat's creatures, the
viewer's hand face up and other hands as card backs (cards everyone saw entering a hand face up).

Clickable ids follow ``render.action_targets``: ``tile-<row>-<col>``, ``push-<row|col>-<i>-<dir>``,
``card-<card id>``, ``deck`` and ``discard``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from nightsky.games.stars_are_right.words import power_words, symbols_words
from nightsky.games.svgkit import (
    DIM,
    EDGE,
    GOLD,
    INK,
    PANEL,
    el,
    esc,
    group,
    section,
    star_path,
    svg,
    text,
)

from .constants import COLS, FACE_INDEX, FACE_NAMES, FACES, GOO, GREATER, LESSER, MINION

if TYPE_CHECKING:
    from .components import Card
    from .state import StarsAreRightState

W, H = 1400, 1000
SKY_X, SKY_Y, TILE = 70, 120, 100
KIND_FILL = {GOO: "#4b1d6e", GREATER: "#15505a", LESSER: "#1d3f7a", MINION: "#3b3f52"}
KIND_EDGE = {GOO: "#c77dff", GREATER: "#4dd6c9", LESSER: "#7fb2ff", MINION: "#a0a6bd"}
KIND_NAME = {GOO: "Great Old One", GREATER: "Greater Servitor", LESSER: "Lesser Servitor",
             MINION: "Minion"}
SYM_GLYPH = {"P": "\u21e8", "S": "\u21c4", "F": "\u21bb"}  # push arrow, swap, flip
SYM_NAME = {"P": "Push", "S": "Swap", "F": "Flip"}
SYM_COLOUR = {"P": "#ff9f43", "S": "#54a0ff", "F": "#1dd1a1"}
SEAT_COLOURS = ("#ffd166", "#ef476f", "#06d6a0", "#118ab2")
MINION_TEXT = {"exchange-lesser": "swap a Lesser", "exchange-greater": "swap a Greater",
               "take-card": "take top card", "hand-six": "hand of 6", "discard-two": "2 discards"}


def push_target(column: bool, index: int, delta: int) -> str:
    """The id of the arrow that pushes a row or column (``push-col-0-down``)."""
    if column:
        return f"push-col-{index}-{'down' if delta > 0 else 'up'}"
    return f"push-row-{index}-{'right' if delta > 0 else 'left'}"


# ---------------------------------------------------------------- faces
_SPOTS: dict[int, list[tuple[float, float]]] = {
    1: [(0, 0)], 2: [(-0.5, -0.5), (0.5, 0.5)], 3: [(-0.6, -0.55), (0, 0), (0.6, 0.55)],
    4: [(-0.55, -0.55), (0.55, -0.55), (-0.55, 0.55), (0.55, 0.55)],
    5: [(-0.6, -0.6), (0.6, -0.6), (0, 0), (-0.6, 0.6), (0.6, 0.6)],
}


@lru_cache(maxsize=4096)
def face_art(code: str, cx: float, cy: float, s: float) -> str:
    """The symbol of a face centred at (cx, cy), ``s`` the tile's side."""
    r = s * 0.28
    if code in "12345":
        n = int(code)
        spots = _SPOTS[n]
        rr = s * (0.16 if n == 1 else 0.11)
        return "".join(
            el("path", d=star_path(cx + dx * r, cy + dy * r, rr), fill="#fff3b0",
               filter="url(#ns-glow)")
            for dx, dy in spots
        )
    if code == "V":
        return (el("circle", cx=cx, cy=cy, r=r, fill="#000000", stroke="#5a4a9c",
                   stroke_width=s * 0.03)
                + el("circle", cx=cx, cy=cy, r=r * 0.55, fill="none", stroke="#2a2250",
                     stroke_width=s * 0.02))
    if code == "Su":
        rays = "".join(
            el("line", x1=cx + r * 1.15 * math.cos(a), y1=cy + r * 1.15 * math.sin(a),
               x2=cx + r * 1.5 * math.cos(a), y2=cy + r * 1.5 * math.sin(a), stroke="#ffc93c",
               stroke_width=s * 0.035, stroke_linecap="round")
            for a in (k * math.pi / 6 for k in range(12))
        )
        return rays + el("circle", cx=cx, cy=cy, r=r, fill="url(#ns-sun)")
    if code == "So":
        return (el("circle", cx=cx, cy=cy, r=r * 1.25, fill="#ffb703", opacity=0.55,
                   filter="url(#ns-glow)")
                + el("circle", cx=cx, cy=cy, r=r, fill="#090b18", stroke="#ffdd77",
                     stroke_width=s * 0.02))
    if code == "Mo":
        return el("circle", cx=cx, cy=cy, r=r, fill="url(#ns-moon)", filter="url(#ns-glow)")
    if code == "L":
        return el("circle", cx=cx, cy=cy, r=r, fill="#9d2b2b", stroke="#e07a5f",
                  stroke_width=s * 0.02)
    if code in ("Wn", "Wx"):
        # The lit side: waxing on the right, waning on the left (northern sky).
        sign = 1 if code == "Wx" else -1
        d = (f"M{cx:.1f},{cy - r:.1f} A{r:.1f},{r:.1f} 0 0 {1 if sign > 0 else 0} "
             f"{cx:.1f},{cy + r:.1f} A{r * 0.45:.1f},{r:.1f} 0 0 {0 if sign > 0 else 1} "
             f"{cx:.1f},{cy - r:.1f} Z")
        return (el("circle", cx=cx, cy=cy, r=r, fill="#1b2147")
                + el("path", d=d, fill="url(#ns-moon)"))
    if code == "Sh":
        return (el("line", x1=cx - r * 1.3, y1=cy + r * 0.9, x2=cx + r * 0.3, y2=cy - r * 0.2,
                   stroke="#9ad0ff", stroke_width=s * 0.05, stroke_linecap="round",
                   opacity=0.7)
                + el("path", d=star_path(cx + r * 0.45, cy - r * 0.3, r * 0.6), fill="#ffffff",
                     filter="url(#ns-glow)"))
    if code == "Me":
        out = ""
        for dx, dy in ((-0.7, -0.5), (0.1, -0.1), (-0.3, 0.6), (0.7, 0.5)):
            x, y = cx + dx * r, cy + dy * r
            out += el("line", x1=x - r * 0.5, y1=y - r * 0.5, x2=x, y2=y, stroke="#ff9f43",
                      stroke_width=s * 0.03, stroke_linecap="round")
            out += el("circle", cx=x, cy=y, r=s * 0.035, fill="#ffd6a5")
        return out
    return text(cx, cy + 5, code, 14, anchor="middle")


def face_name(code: str | None) -> str:
    return FACE_NAMES[FACE_INDEX[code]] if code in FACE_INDEX else "empty"


# ---------------------------------------------------------------- sky
def _sky(v: dict[str, Any]) -> str:
    out = [el("rect", x=SKY_X - 12, y=SKY_Y - 12, width=TILE * 5 + 24, height=TILE * 5 + 24,
              rx=14, fill="#070a1c", stroke=EDGE, stroke_width=2)]
    last = v.get("last_summon") or {}
    lit = {c for cons in last.get("tiles", []) for c in cons}
    for r in range(5):
        out.append(text(SKY_X - 44, SKY_Y + r * TILE + TILE / 2 + 5, r + 1, 15, DIM,
                        anchor="middle"))
        out.append(text(SKY_X + r * TILE + TILE / 2, SKY_Y + TILE * 5 + 58, COLS[r], 15, DIM,
                        anchor="middle"))
        for c in range(5):
            face, back = v["sky"][r][c], v["sky_backs"][r][c]
            name = f"{COLS[c]}{r + 1}"
            # Drawn in the cell's own frame: a tile pushed to the next cell is the same text
            # there, so a move's light update copies it instead of sending it again.
            body = el("rect", x=3, y=3, width=TILE - 6, height=TILE - 6, rx=10,
                      fill="url(#ns-tile)", stroke="#ffd166" if name in lit else "#33407a",
                      stroke_width=3 if name in lit else 1.5)
            if face is not None:
                body += face_art(face, TILE / 2, TILE / 2 + 2, TILE)
                body += el("path", d=f"M{TILE - 30},3 h20 a7,7 0 0 1 7,7 v20 Z", fill="#2b3570")
                body += text(TILE - 8, 18, back, 12, DIM, anchor="end")
            label = f"{name}: {face_name(face)} (back: {face_name(back)})"
            out.append(group(body, f"tile-{r}-{c}", label,
                             transform=f"translate({SKY_X + c * TILE},{SKY_Y + r * TILE})"))
    # push arrows: rows at the left/right ends, columns at the top/bottom
    for i in range(5):
        mid_r = SKY_Y + i * TILE + TILE / 2
        mid_c = SKY_X + i * TILE + TILE / 2
        out.append(_arrow(SKY_X - 22, mid_r, "left", push_target(False, i, -1),
                          f"push row {i + 1} left"))
        out.append(_arrow(SKY_X + TILE * 5 + 22, mid_r, "right", push_target(False, i, 1),
                          f"push row {i + 1} right"))
        out.append(_arrow(mid_c, SKY_Y - 22, "up", push_target(True, i, -1),
                          f"push column {COLS[i]} up"))
        out.append(_arrow(mid_c, SKY_Y + TILE * 5 + 22, "down", push_target(True, i, 1),
                          f"push column {COLS[i]} down"))
    return "".join(out)


def _arrow(cx: float, cy: float, way: str, id_: str, label: str) -> str:
    s = 9
    pts = {"left": [(s, -s), (-s, 0), (s, s)], "right": [(-s, -s), (s, 0), (-s, s)],
           "up": [(-s, s), (0, -s), (s, s)], "down": [(-s, -s), (0, s), (s, -s)]}[way]
    poly = " ".join(f"{cx + dx},{cy + dy}" for dx, dy in pts)
    body = (el("circle", cx=cx, cy=cy, r=13, fill="#10163a", stroke="#33407a")
            + el("polygon", points=poly, fill="#ff9f43"))
    return group(body, id_, label)


# ---------------------------------------------------------------- cards
def _constellation(card: Card, x: float, y: float, w: float, h: float) -> str:
    """The card's constellations side by side, dark cells dotted."""
    cons = card.constellations
    cols = sum(c[1] for c in cons) + len(cons) - 1
    rows = max(c[0] for c in cons)
    cell = min(w / cols, h / rows, 24)
    ox = x + (w - cell * cols) / 2
    oy = y + (h - cell * rows) / 2
    out = []
    for ch, cw, cells in cons:
        have = {(r, c): f for r, c, f in cells}
        for r in range(ch):
            for c in range(cw):
                cx, cy = ox + c * cell, oy + r * cell
                f = have.get((r, c))
                out.append(el("rect", x=cx + 0.5, y=cy + 0.5, width=cell - 1, height=cell - 1,
                              rx=2, fill="#0b1030" if f is not None else "none",
                              stroke="#3d4a8a" if f is not None else "#2a3266",
                              stroke_width=0.8, stroke_dasharray=None if f is not None else "2,2"))
                if f is not None:
                    out.append(face_art(FACES[f], cx + cell / 2, cy + cell / 2, cell * 1.1))
        ox += (cw + 1) * cell
    return "".join(out)


@lru_cache(maxsize=2048)
def card_svg(card: Card, x: float, y: float, w: float = 132, h: float = 150,
             id_: str | None = None, note: str = "", dim: bool = False) -> str:
    """A face-up Creature card, drawn in its own frame (a card moved is the same text there:
    a move's light update copies it instead of sending it again)."""
    at, x, y = f"translate({x:g},{y:g})", 0, 0
    fill, edge = KIND_FILL[card.kind], KIND_EDGE[card.kind]
    body = [el("rect", x=x, y=y, width=w, height=h, rx=9, fill=fill, stroke=edge,
               stroke_width=2, opacity=0.55 if dim else None)]
    fs = 12.5 if w >= 120 else 12
    room = max(6, int((w - 34) / (fs * 0.6)))
    name = card.name if len(card.name) <= room else card.name[:room - 1] + "\u2026"
    body.append(text(x + 7, y + 18, name, fs, INK, weight="bold"))
    body.append(el("circle", cx=x + w - 14, cy=y + 14, r=11, fill="#0b1026", stroke=GOLD))
    body.append(text(x + w - 14, y + 18.5, card.vp, 12, GOLD, anchor="middle", weight="bold"))
    kind = KIND_NAME[card.kind]
    room = int((w - 14) / 7.2)  # the full kind is in the title (the client's detail panel)
    body.append(text(x + 7, y + 33, kind if len(kind) <= room else kind[:room - 1] + "\u2026",
                     12, DIM))
    # invocation symbols
    sx = x + 8
    for i, n in enumerate(card.invocation):
        sym = "PSF"[i]
        for _ in range(n):
            body.append(el("rect", x=sx, y=y + 38, width=18, height=18, rx=4,
                           fill=SYM_COLOUR[sym]))
            body.append(text(sx + 9, y + 52, SYM_GLYPH[sym], 13, "#0b1026", anchor="middle",
                             weight="bold"))
            sx += 21
    body.append(_constellation(card, x + 5, y + 60, w - 10, h - 92))
    foot = card.power_text() if card.kind != MINION else MINION_TEXT.get(card.minion, card.minion)
    if card.kind != MINION:
        a, b = foot.split(">")
        foot = f"{SYM_GLYPH[a]} \u2192 {' '.join(SYM_GLYPH[ch] for ch in b)}"
    body.append(text(x + 8, y + h - 9, foot, 12, INK))
    if card.bonus >= 0:
        body.append(el("rect", x=x + w - 30, y=y + h - 28, width=24, height=24, rx=5,
                       fill="#0b1030", stroke=GOLD, stroke_width=1))
        body.append(face_art(FACES[card.bonus], x + w - 18, y + h - 16, 26))
    if note:
        body.append(text(x + w / 2, y + h + 14, note, 12, GOLD, anchor="middle"))
    # Short words: the card itself shows its constellations and symbols.
    label = (f"{card.name} ({KIND_NAME[card.kind]}, {card.vp} VP): invoked with "
             f"{symbols_words(card.invocation)}; power: {power_words(card)}")
    if card.bonus >= 0:
        label += f"; bonus star {face_name(FACES[card.bonus])}"
    return group("".join(body), id_, label, transform=at)


def card_back(x: float, y: float, w: float, h: float, label: str, id_: str | None = None,
              count: int | None = None) -> str:
    body = (el("rect", x=x, y=y, width=w, height=h, rx=9, fill="#1b1240", stroke="#6f5bd6",
               stroke_width=2)
            + el("circle", cx=x + w / 2, cy=y + h / 2, r=min(w, h) * 0.28, fill="none",
                 stroke="#6f5bd6", stroke_width=2)
            + el("path", d=star_path(x + w / 2, y + h / 2, min(w, h) * 0.18, 7), fill="#8d7bff"))
    if count is not None:
        body += text(x + w / 2, y + h - 10, count, 14, INK, anchor="middle", weight="bold")
    return group(body, id_, label)


# ---------------------------------------------------------------- whole board
def board_svg(state: StarsAreRightState, viewer: int | None,
              names: Sequence[str] | None = None, colors: Sequence[str] | None = None) -> str:
    """One ``<svg>`` of what ``viewer`` sees (None: a spectator). ``names``/``colors``: each
    seat's name and colour as the page shows them (default ``seat N``, ``SEAT_COLOURS``)."""
    g = state.g
    v = state.view(viewer)

    def who(q: int) -> str:
        return names[q] if names is not None and q < len(names) and names[q] else f"seat {q}"

    by_id = {c.id: c for c in g.cards}
    out: list[str] = []
    # header
    if v["terminal"]:
        win = " and ".join(who(q) for q in state.winners())
        status = f"Game over ({v['end_reason']}): {win} won"
    else:
        actor = "you" if viewer == v["current"] else who(v["current"])
        status = f"Turn {v['turn'] + 1} \u00b7 {actor} to act \u00b7 step: {v['phase']}"
    out.append(text(30, 42, "The Stars Are Right", 26, GOLD, weight="bold"))
    out.append(text(330, 42, status, 17, INK))
    out.append(_symbols(v["symbols"]))
    out.append(_sky(v))
    out.append(section("Sky", SKY_X - 50, SKY_Y - 40, TILE * 5 + 100, TILE * 5 + 80))
    out.append(_piles(v, by_id))
    last = v.get("last_summon")
    if last:
        summoner = "you" if last["seat"] == viewer else who(last["seat"])
        out.append(text(30, 72, f"Last summoning: {summoner} summoned {by_id[last['card']].name} "
                        "on the gold-framed tiles", 13, DIM))
    out.append(_legend(SKY_X - 45, H - 116))
    # seats on the right
    out.append(_seats(v, viewer, by_id, state.winners() if v["terminal"] else [], names, colors))
    out.append(section("Seats", 670, 60, W - 680, H - 70 - (190 if viewer is not None else 0)))
    if viewer is not None:
        out.append(section("Your hand", 670, H - 200, W - 680, 200))
    return svg(W, H, "".join(out), "The Stars Are Right")


def _symbols(syms: dict[str, int]) -> str:
    """The symbols left to spend this turn, under the sky."""
    if not any(syms.values()):
        return ""
    out = [text(SKY_X - 10, SKY_Y + TILE * 5 + 95, "to spend:", 14, DIM)]
    sx = SKY_X - 10 + 75
    for sym in "PSF":
        for _ in range(syms[sym]):
            out.append(group(
                el("rect", x=sx, y=SKY_Y + TILE * 5 + 78, width=24, height=24, rx=5,
                   fill=SYM_COLOUR[sym])
                + text(sx + 12, SKY_Y + TILE * 5 + 96, SYM_GLYPH[sym], 16, "#0b1026",
                       anchor="middle", weight="bold"), None, SYM_NAME[sym]))
            sx += 28
    return "".join(out)


def _piles(v: dict[str, Any], by_id: dict[str, Card]) -> str:
    """The draw deck, the discard pile and the card being invoked or resolved."""
    py = SKY_Y + TILE * 5 + 118
    out = [card_back(SKY_X, py, 86, 112, f"draw deck: {v['deck_size']} cards", "deck",
                     v["deck_size"])]
    out.append(text(SKY_X + 43, py + 127, f"deck \u00b7 reshuffles {v['reshuffles']}", 12,
                    DIM, anchor="middle"))
    disc = v["discard"]
    if disc:
        top = by_id[disc[-1]]
        out.append(group(card_svg(top, SKY_X + 115, py, 132, 112), "discard",
                         f"discard pile: {len(disc)} cards, top {top.name}"))
    else:
        out.append(group(el("rect", x=SKY_X + 115, y=py, width=132, height=112, rx=9,
                            fill="none", stroke=EDGE, stroke_dasharray="6,4"),
                         "discard", "discard pile: empty"))
    out.append(text(SKY_X + 181, py + 127, f"discard pile ({len(disc)})", 12, DIM,
                    anchor="middle"))
    for key, title in (("invoked", "invoked"), ("resolving", "Dhole resolving")):
        if v[key]:
            out.append(card_svg(by_id[v[key]], SKY_X + 270, py, 132, 112))
            out.append(text(SKY_X + 336, py + 127, title, 12, GOLD, anchor="middle"))
    return "".join(out)


def _legend(x: float, y: float) -> str:
    out = []
    for i, code in enumerate(FACES):
        cx = x + (i % 4) * 148
        cy = y + (i // 4) * 28
        out.append(el("rect", x=cx, y=cy, width=24, height=24, rx=5, fill="url(#ns-tile)",
                      stroke="#33407a"))
        out.append(face_art(code, cx + 12, cy + 12, 26))
        out.append(text(cx + 30, cy + 16, code, 12, GOLD, weight="bold"))
        gap = 8 * len(code) + (3 if "W" in code else 0)
        out.append(text(cx + 36 + gap, cy + 16, FACE_NAMES[i], 12, INK))
    return "".join(out)


def _seats(v: dict[str, Any], viewer: int | None, by_id: dict[str, Card],
           winners: list[int], names: Sequence[str] | None = None,
           colors: Sequence[str] | None = None) -> str:
    out = []
    n = len(v["hand_sizes"])
    x0 = 680
    order = list(range(n))
    if viewer is not None:
        order = [viewer] + [q for q in order if q != viewer]
    hand_h = 190 if viewer is not None else 0
    avail = H - 80 - hand_h
    row_h = min(215, avail / n)
    ch = min(150, row_h - 56)
    y: float = 70
    used = set(v["powers_used"])
    for q in order:
        col = colors[q] if colors is not None and q < len(colors) else SEAT_COLOURS[q % 4]
        acting = (not v["terminal"]) and v["current"] == q
        won = q in winners
        out.append(el("rect", x=x0, y=y, width=W - x0 - 20, height=row_h - 10, rx=12,
                      fill=PANEL, stroke=col if acting or won else EDGE,
                      stroke_width=3 if acting or won else 1.2, opacity=0.92))
        name = names[q] if names is not None and q < len(names) and names[q] else f"Seat {q}"
        if len(name) > 20:  # a long name is cut here (whole in the players panel)
            name = name[:19] + "\u2026"
        who = name + (" (you)" if q == viewer else "")
        out.append(el("circle", cx=x0 + 20, cy=y + 22, r=8, fill=col))
        out.append(text(x0 + 36, y + 28, who, 16, INK, weight="bold"))
        # the points follow the name (bold 16 px: at most ~0.62 em a character)
        vp_x = max(x0 + 160, round(x0 + 36 + 0.62 * 16 * len(who) + 12))
        out.append(text(vp_x, y + 28, f"{v['scores'][q]} VP", 16, GOLD, weight="bold"))
        info = f"hand {v['hand_sizes'][q]} \u00b7 creatures {len(v['creatures'][q])}"
        if acting:
            info += " \u00b7 acting"
        if won:
            info = "\u2605 winner"
        out.append(text(vp_x + 80, y + 28, info, 13, DIM))
        out.append(_creatures(v, q, by_id, used, x0, y, ch))
        if q != viewer:
            whose = names[q] if names is not None and q < len(names) else f"seat {q}"
            out.append(_hand_backs(v, q, by_id, whose, y))
        y += row_h
    if viewer is not None:
        out.append(_own_hand(v["hand"] or [], by_id, x0, hand_h))
    return "".join(out)


def _creatures(v: dict[str, Any], q: int, by_id: dict[str, Card], used: set[str], x0: float,
               y: float, ch: float, cw: float = 98) -> str:
    """Seat ``q``'s creatures in a row (a power used this turn marked)."""
    out = []
    cx: float = x0 + 14
    cards = v["creatures"][q]
    step = min(cw + 6, (W - x0 - 60 - cw) / max(1, len(cards) - 1)) if cards else 0
    for cid in cards:
        note = "power used" if cid in used and q == v["current"] else ""
        out.append(card_svg(by_id[cid], cx, y + 40, cw, ch, f"card-{cid}", note))
        cx += step
    if not cards:
        out.append(text(x0 + 20, y + 40 + ch / 2, "no creatures yet", 13, DIM))
    return "".join(out)


def _hand_backs(v: dict[str, Any], q: int, by_id: dict[str, Card], whose: str, y: float) -> str:
    """Another seat's hand: card backs with the count, the cards known to all named."""
    known = v["known_in_hands"][q]
    hx: float = W - 150
    out = [card_back(hx, y + 8, 34, 26, f"{whose}'s hand: {v['hand_sizes'][q]} "
                     "cards" + (f" (known: {', '.join(known)})" if known else ""))]
    out.append(text(hx + 42, y + 27, f"\u00d7{v['hand_sizes'][q]}", 14, INK))
    if known:
        out.append(text(W - 36, y + 52, "known: " + ", ".join(by_id[k].name
                        for k in known), 12, DIM, anchor="end"))
    return "".join(out)


def _own_hand(hand: list[str], by_id: dict[str, Card], x0: float, hand_h: float) -> str:
    """The viewer's own hand, face up, along the bottom."""
    out = [text(x0, H - hand_h + 12, "Your hand", 16, GOLD, weight="bold")]
    hx = float(x0)
    hw = min(132.0, (W - x0 - 20) / max(1, len(hand)) - 8)
    for cid in hand:
        out.append(card_svg(by_id[cid], hx, H - hand_h + 22, hw, 150, f"card-{cid}"))
        hx += hw + 8
    return "".join(out)


__all__ = ["board_svg", "card_svg", "esc", "push_target"]
