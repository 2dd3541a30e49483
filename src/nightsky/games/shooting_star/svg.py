"""The Shooting Star board as SVG for the web client (``ShootingStarUI.board_svg``).

Drawn from ``view(viewer)`` plus the printed card data: the Star Sector (planets with their Level,
Moons, Dark Planets, the Destruction cards lying on them: your own face up, the others' as backs
in their colour), each admiral's public sheet (cards not yet revealed, conquest pile, Space
Debris, the Dark Invader), your Destruction cards with their blast patterns, your Secret
Missions and, in the Personalized variant, your planets to build.

Clickable ids follow ``ShootingStarUI.action_targets``: ``cell-<col>-<row>`` (as the notation
numbers them: from 1 on a dealt sector; around 8,8 on a built one, where they may be 0 or negative),
``card-<KEY>`` (a Destruction card in your hand) and ``planet-<code>`` (a planet in your hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from nightsky.games.shooting_star.constants import CARD_KEYS
from nightsky.games.shooting_star.render import describe_event
from nightsky.games.svgkit import (
    DIM,
    EDGE,
    GOLD,
    INK,
    PANEL,
    el,
    group,
    section,
    star_path,
    svg,
    text,
)

if TYPE_CHECKING:
    from nightsky.games.shooting_star.state import ShootingStarState

W, H = 1400, 1000
COLOUR = {"red": "#ff5d5d", "yellow": "#ffd23f", "green": "#3ddc84", "blue": "#4ea8ff",
          "purple": "#c77dff"}
DARKER = {"red": "#5a1620", "yellow": "#57480f", "green": "#124a2c", "blue": "#123a63",
          "purple": "#3e1d5c"}
LEVEL_FILL = {1: "#6bb5ff", 2: "#63d6b5", 3: "#ffb45c", 4: "#ff7b6b"}
SECTOR = (30, 80, 800, 640)  # x, y, width, height available to the grid


def card_target(key: str) -> str:
    """The id of a Destruction card in the viewer's hand."""
    return f"card-{key}"


def planet_target(code: str) -> str:
    """The id of a planet in the viewer's hand (Personalized variant)."""
    return f"planet-{code}"


# ---------------------------------------------------------------- pieces
@lru_cache(maxsize=4096)
def _planet(cx: float, cy: float, s: float, level: int | None, dark: bool, moon: bool,
            name: str, code: str) -> str:
    """A planet in a cell of side ``s``: body, Level badge, Moon, name."""
    out = []
    if dark:
        r = s * 0.3
        out.append(el("circle", cx=cx, cy=cy, r=r * 1.25, fill="#7b2cbf", opacity=0.35,
                      filter="url(#ns-glow)"))
        out.append(el("circle", cx=cx, cy=cy, r=r, fill="#07040f", stroke="#9d4edd",
                      stroke_width=2.5))
        out.append(el("ellipse", cx=cx, cy=cy, rx=r * 1.45, ry=r * 0.35, fill="none",
                      stroke="#c77dff", stroke_width=1.5, opacity=0.8))
        out.append(text(cx, cy + s * 0.42, "Dark Planet", s * 0.1, "#c77dff", anchor="middle"))
        return "".join(out)
    major = level in (3, 4)
    r = s * (0.27 if major else 0.2)
    fill = LEVEL_FILL.get(level or 1, "#888")
    out.append(el("circle", cx=cx, cy=cy, r=r, fill=fill, opacity=0.95))
    out.append(el("circle", cx=cx - r * 0.3, cy=cy - r * 0.3, r=r * 0.55, fill="#ffffff",
                  opacity=0.18))
    if major:  # a ring marks the named 3/4 planets
        out.append(el("ellipse", cx=cx, cy=cy, rx=r * 1.5, ry=r * 0.38, fill="none",
                      stroke="#ffe8c2", stroke_width=1.6, opacity=0.75))
    if moon:
        out.append(el("circle", cx=cx - r * 1.15, cy=cy + r * 0.9, r=s * 0.06,
                      fill="url(#ns-moon)", stroke="#6c7499", stroke_width=0.8))
    out.append(el("circle", cx=cx - s * 0.32, cy=cy - s * 0.32, r=s * 0.11, fill="#0b1026",
                  stroke=fill, stroke_width=2))
    out.append(text(cx - s * 0.32, cy - s * 0.32 + s * 0.045, level or "", s * 0.13, INK,
                    anchor="middle", weight="bold"))
    # Only the named planets print a name; a 1/2 planet's code is ours, not the card's.
    if name:
        out.append(text(cx, cy + s * 0.42, name, s * 0.1, DIM, anchor="middle"))
    return "".join(out)


def _cover(x: float, y: float, s: float, colour: str, key: str) -> str:
    """A Destruction card lying on a planet: face up (``key``) or a back (``?``)."""
    w, h = s * 0.3, s * 0.4
    cx, cy = x + s - w - s * 0.06, y + s - h - s * 0.06
    c = COLOUR.get(colour, "#ccc")
    body = el("rect", x=cx, y=cy, width=w, height=h, rx=4, fill=DARKER.get(colour, "#333"),
              stroke=c, stroke_width=2)
    if key == "?":
        body += el("path", d=star_path(cx + w / 2, cy + h / 2, w * 0.3), fill=c, opacity=0.8)
    elif key == "S":
        body += _shield(cx + w / 2, cy + h / 2, w * 0.32, c)
    else:
        body += text(cx + w / 2, cy + h / 2 + s * 0.045, key, s * 0.13, INK, anchor="middle",
                     weight="bold")
    return body


def _shield(cx: float, cy: float, r: float, colour: str) -> str:
    d = (f"M{cx:.1f},{cy - r:.1f} L{cx + r:.1f},{cy - r * 0.6:.1f} "
         f"Q{cx + r:.1f},{cy + r * 0.6:.1f} {cx:.1f},{cy + r * 1.1:.1f} "
         f"Q{cx - r:.1f},{cy + r * 0.6:.1f} {cx - r:.1f},{cy - r * 0.6:.1f} Z")
    return el("path", d=d, fill=colour, opacity=0.9)


@lru_cache(maxsize=256)
def _blast(blast: tuple[tuple[int, int], ...], cx: float, cy: float, cell: float,
           colour: str) -> str:
    """The blast pattern: a 7x7 grid around the card's planet (centre), hit cells lit."""
    hits: dict[tuple[int, int], int] = {}
    for dc, dr in blast:
        hits[(dc, dr)] = hits.get((dc, dr), 0) + 1
    out = []
    span = 2 if all(abs(a) <= 2 and abs(b) <= 2 for a, b in blast) else 3
    for dr in range(-span, span + 1):
        for dc in range(-span, span + 1):
            x = cx + (dc - 0.5) * cell
            y = cy + (dr - 0.5) * cell
            n = hits.get((dc, dr), 0)
            fill = colour if n else ("#2b3570" if (dc, dr) == (0, 0) else "#141b3d")
            out.append(el("rect", x=x + 0.5, y=y + 0.5, width=cell - 1, height=cell - 1, rx=2,
                          fill=fill, opacity=0.95 if n else 1))
            if n > 1:
                out.append(text(x + cell / 2, y + cell * 0.8, f"{n}", max(cell * 0.8, 12),
                                "#0b1026", anchor="middle", weight="bold"))
            if (dc, dr) == (0, 0) and n < 2:
                out.append(el("circle", cx=x + cell / 2, cy=y + cell / 2, r=cell * 0.18,
                              fill=INK if not n else "#0b1026"))
    return "".join(out)


def _dest_card(state: ShootingStarState, k: int, x: float, y: float, w: float, h: float,
               colour: str, id_: str | None) -> str:
    card = state.g.cards[k]
    key = CARD_KEYS[k]
    c = COLOUR.get(colour, "#ccc")
    body = el("rect", x=x, y=y, width=w, height=h, rx=8, fill=DARKER.get(colour, "#333"),
              stroke=c, stroke_width=2)
    body += text(x + 8, y + 21, key, 18, c, weight="bold")
    body += text(x + 8, y + 37, card.title, 12, INK)
    if card.blast:
        cell = min(w - 16, h - 50) / 5
        body += _blast(tuple(tuple(b) for b in card.blast), x + w / 2, y + 44 + (h - 50) / 2,
                       cell, c)
    else:
        body += _shield(x + w / 2, y + h / 2 + 8, min(w, h) * 0.25, c)
        body += text(x + w / 2, y + h - 22, "captures", 12, DIM, anchor="middle")
        body += text(x + w / 2, y + h - 8, "attackers", 12, DIM, anchor="middle")
    if card.blast:
        label = f"{key} {card.title}: priority {card.priority}, blasts the lit cells"
    else:
        label = f"{key} {card.title}: captures the cards that blast its planet"
    return group(body, id_, label)


# ---------------------------------------------------------------- board
def board_svg(state: ShootingStarState, viewer: int | None,
              names: Sequence[str] | None = None, colors: Sequence[str] | None = None) -> str:
    """One ``<svg>`` of what ``viewer`` sees (None: a spectator). ``names``/``colors``: how
    the page calls and colours each seat (default: the admiral and its colour)."""
    v = state.view(viewer)
    out: list[str] = []
    seats = v["seats"]
    me = seats[viewer] if viewer is not None and 0 <= viewer < len(seats) else None
    look = _Look(seats, names, colors)
    # header
    if v["terminal"]:
        win = " and ".join(look.title(q) for q in v["winners"])
        status = f"Game over: {win} won"
    else:
        acting = v["current_players"]
        who = ""
        if acting and acting[0] >= 0:
            who = "you" if acting[0] == viewer else look.name(acting[0])
        step = "build the Star Sector" if v["phase"] == "build" else "place a card face down"
        status = f"Turn {v['turn']}/7 \u00b7 {who} to {step}" if who else "dealing"
    out.append(text(30, 42, "Shooting Star", 26, GOLD, weight="bold"))
    out.append(text(245, 42, status, 17, INK))
    out.append(_sector(state, v, viewer, look))
    out.append(section("Star Sector", *SECTOR))
    out.append(_seats(state, v, viewer, look))
    out.append(section("Admirals", 850, 70, W - 860, H - 80))
    if me is not None:
        out.append(_hand(state, v, me))
        out.append(section("Your cards", 20, SECTOR[1] + SECTOR[3] + 4, SECTOR[2], 270))
    out.append(_events(state, v, look))
    return svg(W, H, "".join(out), "Shooting Star")


class _Look:
    """Each seat's name and colour on this board: the page's where given, else the
    admiral's own."""

    def __init__(self, seats: list[dict[str, Any]], names: Sequence[str] | None,
                 colors: Sequence[str] | None) -> None:
        self.seats = seats
        self.names = names
        self.colors = colors

    def name(self, q: int) -> str:
        if self.names is not None and q < len(self.names) and self.names[q]:
            return self.names[q]
        return str(self.seats[q]["admiral"])

    def owner(self, q: int) -> str:
        """Whose card it is: the name, else the colour."""
        if self.names is not None and q < len(self.names) and self.names[q]:
            return self.names[q]
        return str(self.seats[q]["colour"])

    def title(self, q: int) -> str:
        """The name with the admiral (``Alice (Krakenian)``)."""
        seat = self.seats[q]
        if self.names is not None and q < len(self.names) and self.names[q]:
            return f"{self.names[q]} ({seat['admiral']})"
        return f"{seat['admiral']} ({seat['colour']})"

    def header(self, q: int) -> str:
        if self.names is not None and q < len(self.names) and self.names[q]:
            return f"{self.names[q]} \u00b7 {self.seats[q]['admiral']}"
        return f"Seat {q} \u00b7 {self.seats[q]['admiral']}"

    def color(self, q: int) -> str:
        if self.colors is not None and q < len(self.colors) and self.colors[q]:
            return self.colors[q]
        return COLOUR.get(self.seats[q]["colour"], "#ccc")


def _window(state: ShootingStarState, v: dict[str, Any]) -> tuple[range, range]:
    """The columns and rows to draw, as the notation numbers them: the dealt sector, or the
    extent of the built one (any shape, ruling SS-14.6) with room for the next planet."""
    g = state.g
    first_col, last_col = g.col0, g.col0 + g.width - 1
    first_row, last_row = g.row0, g.row0 + g.height - 1
    if not g.personalized:
        return range(first_col, last_col + 1), range(first_row, last_row + 1)
    xs = [c["col"] for c in v["cells"]]
    ys = [c["row"] for c in v["cells"]]
    if not xs:
        col, row = g.cell_cr[g.centre]
        return range(col - 1, col + 2), range(row - 1, row + 2)
    pad = 1 if v["phase"] == "build" else 0  # room for the next planet while building
    return (range(max(first_col, min(xs) - pad), min(last_col, max(xs) + pad) + 1),
            range(max(first_row, min(ys) - pad), min(last_row, max(ys) + pad) + 1))


def _sector(state: ShootingStarState, v: dict[str, Any], viewer: int | None,
            look: _Look) -> str:
    cols, rows = _window(state, v)
    sx, sy, sw, sh = SECTOR
    s = min(165.0, sw / len(cols), sh / len(rows))
    ox = sx + (sw - s * len(cols)) / 2
    oy = sy + (sh - s * len(rows)) / 2
    colour_of = [seat["colour"] for seat in v["seats"]]
    cells = {(c["col"], c["row"]): c for c in v["cells"]}
    building = v["phase"] == "build"
    out = [el("rect", x=ox - 8, y=oy - 8, width=s * len(cols) + 16, height=s * len(rows) + 16,
              rx=12, fill="#070a1c", stroke=EDGE, stroke_width=2, opacity=0.9)]
    for j, y in enumerate(rows):
        for i, x in enumerate(cols):
            px, py = ox + i * s, oy + j * s
            cell = cells.get((x, y))
            body = el("rect", x=px + 2, y=py + 2, width=s - 4, height=s - 4, rx=8,
                      fill="url(#ns-tile)" if cell else "#000000",
                      fill_opacity=None if cell else 0.25,
                      stroke="#33407a" if cell else ("#3a4a8c" if building else "#1d2550"),
                      stroke_width=1.2, stroke_dasharray=None if cell else "5,4")
            name = f"{x},{y}"
            if cell is None:
                label = f"{name}: empty space"
            else:
                if cell["planet"] is not None:
                    body += _planet(px + s / 2, py + s / 2, s, cell["level"], cell["dark"],
                                    cell["moon"], cell["name"], cell["planet"])
                    what = ("Dark Planet" if cell["dark"] else
                            f"{cell['name'] or 'planet'} Level {cell['level']}")
                    if cell["moon"]:
                        what += " with a Moon"
                else:
                    what = "no planet"
                label = f"{name}: {what}"
                cover = cell["cover"]
                if cover is not None:
                    col = colour_of[cover["seat"]]
                    body += _cover(px, py, s, col, cover["card"])
                    who = "your" if cover["seat"] == viewer else f"{look.owner(cover['seat'])}'s"
                    shown = "face-down card" if cover["card"] == "?" else cover["card"]
                    label += f"; {who} {shown}"
            if cell is not None or building:
                body += text(px + s - 8, py + 17, name, 12, "#7d8ac8", anchor="end")
            out.append(group(body, f"cell-{x}-{y}", label))
    return "".join(out)


def _chip(x: float, y: float, key: str, colour: str, faded: bool = False) -> str:
    c = COLOUR.get(colour, "#ccc")
    return (el("rect", x=x, y=y, width=26, height=20, rx=4, fill=DARKER.get(colour, "#333"),
               stroke=c, stroke_width=1.2, opacity=0.4 if faded else 1)
            + text(x + 13, y + 14.5, key, 12, INK, anchor="middle", weight="bold"))


def _seats(state: ShootingStarState, v: dict[str, Any], viewer: int | None,
           look: _Look) -> str:
    seats = v["seats"]
    n = len(seats)
    x0 = 860
    hand_h = 0
    top = 70
    avail = H - top - 20 - hand_h
    row_h = min(170.0, avail / n)
    out = []
    acting = v["current_players"]
    score = v["scores"]
    breakdown = state.score_breakdown() if v["terminal"] else []
    for idx, q in enumerate(_order(n, viewer)):
        seat = seats[q]
        y = top + idx * row_h
        col = look.color(q)
        live = bool(acting) and acting[0] == q
        won = q in v["winners"]
        out.append(el("rect", x=x0, y=y, width=W - x0 - 20, height=row_h - 10, rx=12,
                      fill=PANEL, stroke=col if live or won else EDGE,
                      stroke_width=3 if live or won else 1.2, opacity=0.92))
        out.append(el("circle", cx=x0 + 20, cy=y + 22, r=9, fill=col))
        who = look.header(q) + (" (you)" if q == viewer else "")
        out.append(text(x0 + 36, y + 28, who, 16, INK, weight="bold"))
        pts = score[q]
        out.append(text(W - 36, y + 28, f"{pts:g} pts" if v["terminal"] else f"{pts:g}",
                        16, GOLD, anchor="end", weight="bold"))
        tag = []
        if q == v["dark_invader"] and not v["terminal"]:
            tag.append("\u2620 Dark Invader")
        if won:
            tag.append("\u2605 winner")
        elif live:
            tag.append("acting")
        out.append(text(W - 36, y + 53, " \u00b7 ".join(tag), 12.5, GOLD if won else DIM,
                        anchor="end"))
        # cards not yet revealed (public set) and the conquest pile
        out.append(text(x0 + 16, y + 52, "unrevealed", 12, DIM))
        cx = x0 + 86
        for key in seat["unrevealed"]:
            out.append(_chip(cx, y + 38, key, seat["colour"]))
            cx += 29
        out.append(_conquest(state, seat, x0, y, row_h > 110))
        if v["terminal"]:  # the final score, item by item (everything is revealed now)
            b = breakdown[q]
            codes = ", ".join(seat.get("missions", []))
            out.append(text(x0 + 16, y + row_h - 22,
                            f"{b['cards']:g} cards + {b['moons']:g} Moons + {b['missions']:g} "
                            f"missions ({codes}) + {b['debris_bonus']:g} debris bonus = "
                            f"{b['total']:g}", 12, GOLD if won else INK))
        if seat["planet_hand"] and q != viewer:
            out.append(text(x0 + 16, y + row_h - 22, f"planets to build: "
                            f"{len(seat['planet_hand'])}", 12, DIM))
    ly = top + n * row_h + 10
    if H - ly > 130:
        out.append(_legend(x0, ly))
    return "".join(out)


def _conquest(state: ShootingStarState, seat: dict[str, Any], x0: float, y: float,
              drawn: bool) -> str:
    """A seat's conquest pile counted in words and, where the row has room (``drawn``), each
    captured card and planet as a chip (SS-12)."""
    g = state.g
    conq = seat["conquest"]
    planets = [c for c in conq if ":" not in c]
    moons = sum(1 for c in planets if g.p_moon[g.code_index[c]])
    cards = len(conq) - len(planets)
    out = [text(x0 + 16, y + 78, f"conquest: {len(planets)} planets ({moons} with a "
                f"Moon), {cards} cards \u00b7 Debris {len(seat['debris'])}", 12, INK)]
    if drawn:
        px = x0 + 16
        for c in conq[:22]:
            if ":" in c:
                colour, key = c.split(":")
                out.append(_chip(px, y + 88, key, colour))
            else:
                p = g.code_index[c]
                lv = 3 if g.p_kind[p] == 1 else 1
                out.append(el("circle", cx=px + 13, cy=y + 98, r=9,
                              fill=LEVEL_FILL[lv] if g.p_kind[p] != 2 else "#1a0b2e",
                              stroke="#9d4edd" if g.p_kind[p] == 2 else "none"))
                if g.p_moon[p]:
                    out.append(el("circle", cx=px + 22, cy=y + 90, r=3.5, fill="#dfe6ff"))
            px += 29
    return "".join(out)


def _legend(x: float, y: float) -> str:
    out = [el("rect", x=x, y=y, width=W - x - 20, height=118, rx=12, fill=PANEL, opacity=0.6,
              stroke=EDGE),
           text(x + 16, y + 24, "Legend", 13, GOLD, weight="bold")]
    items = [
        (el("circle", cx=x + 30, cy=y + 46, r=9, fill=LEVEL_FILL[1]), "1/2 planet (Level)"),
        (el("circle", cx=x + 30, cy=y + 72, r=10, fill=LEVEL_FILL[4])
         + el("ellipse", cx=x + 30, cy=y + 72, rx=15, ry=4, fill="none", stroke="#ffe8c2"),
         "named 3/4 planet"),
        (el("circle", cx=x + 30, cy=y + 98, r=9, fill="#07040f", stroke="#9d4edd",
            stroke_width=2), "Dark Planet"),
        (el("circle", cx=x + 250, cy=y + 46, r=5, fill="url(#ns-moon)"), "Moon: +1 point"),
        (el("rect", x=x + 242, y=y + 62, width=16, height=20, rx=3, fill=DARKER["blue"],
            stroke=COLOUR["blue"]) + el("path", d=star_path(x + 250, y + 72, 5),
                                         fill=COLOUR["blue"]), "face-down card"),
        (_shield(x + 250, y + 97, 8, COLOUR["blue"]), "Space Shield"),
    ]
    for i, (icon, label) in enumerate(items):
        lx = x + 48 + (i // 3) * 220
        ly = y + 50 + (i % 3) * 26
        out.append(icon + text(lx, ly, label, 12, INK))
    return "".join(out)


def _order(n: int, viewer: int | None) -> list[int]:
    if viewer is None or not 0 <= viewer < n:
        return list(range(n))
    return [viewer] + [q for q in range(n) if q != viewer]


def _hand(state: ShootingStarState, v: dict[str, Any], me: dict[str, Any]) -> str:
    g = state.g
    out = []
    y = SECTOR[1] + SECTOR[3] + 20
    x = 30.0
    hand = me.get("hand", [])
    out.append(text(x, y + 4, "Your Destruction cards", 15, GOLD, weight="bold"))
    w = min(92.0, (SECTOR[2] - 10) / max(1, len(hand)) - 6)
    for key in hand:
        k = CARD_KEYS.index(key)
        out.append(_dest_card(state, k, x, y + 12, w, 132, me["colour"], card_target(key)))
        x += w + 6
    if not hand:
        out.append(text(30, y + 40, "all your cards are played", 12, DIM))
    # planets to build (Personalized variant)
    if me["planet_hand"]:
        px = 30.0
        py = y + 160
        out.append(text(px, py + 10, "Your planets:", 12, DIM))
        px += 90
        for code in me["planet_hand"]:
            p = g.code_index[code]
            kind = g.p_kind[p]
            lv = 5 if kind == 2 else (3 if kind == 1 else 1)
            body = el("rect", x=px, y=py - 8, width=52, height=30, rx=6, fill="#10163a",
                      stroke=EDGE)
            body += el("circle", cx=px + 14, cy=py + 7, r=9,
                       fill="#07040f" if lv == 5 else LEVEL_FILL[lv],
                       stroke="#9d4edd" if lv == 5 else "none", stroke_width=2)
            if g.p_moon[p]:
                body += el("circle", cx=px + 22, cy=py, r=3.5, fill="#dfe6ff")
            body += text(px + 40, py + 11, (g.p_name[p] or "1/2")[:4], 12, INK, anchor="middle")
            kind_name = ("Dark Planet" if kind == 2 else
                         f"{g.p_name[p]} (3/4)" if kind == 1 else "1/2 planet")
            out.append(group(body, planet_target(code), kind_name
                             + (" with a Moon" if g.p_moon[p] else "")))
            px += 58
    # Secret Missions
    missions = me.get("missions") or []
    if missions:
        my = y + (195 if me["planet_hand"] else 165)
        out.append(text(30, my, "Secret Missions", 13, GOLD, weight="bold"))
        for i, code in enumerate(missions):
            m = g.missions[g.mission_index[code]]
            out.append(text(150 + 0 * i, my + i * 18, f"{m.value} pt \u00b7 {m.text}", 13,
                            INK))
    return "".join(out)


def _events(state: ShootingStarState, v: dict[str, Any], look: _Look) -> str:
    if not state.events:
        return ""
    # events are public: the text log shows them to everyone as well
    who = look.owner if look.names is not None else None
    lines = [describe_event(state, e, who) for e in state.events][-6:]
    line = "Last resolution: " + "; ".join(lines)
    if len(line) > 180:
        line = line[:179] + "\u2026"
    return text(30, 66, line, 13, DIM)
