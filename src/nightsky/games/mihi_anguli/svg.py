"""The Mihi Anguli sheets as SVG for the web client (``MihiAnguliUI.board_svg``).

Every sheet is public (MA-10.3), so each seat's sheet is drawn in full: the viewer's large, the
others' below it at half or a third of the size (pictures only: only the viewer's own sheet
carries click targets). A sheet shows the 13x13 star map (major points, minor points, stars,
filled points and squares, the positioned major point), the ability dice, the schedule wheel
(seven spokes of items around the week), the five articles, the abilities and the supporters,
with the items filled (this turn's in orange) and the score so far.

Clickable ids follow ``render.action_targets`` with the seat's prefix ``p<seat>-``: ``pt-x,y`` (map
points), ``item-LABEL`` (items), ``item-W<w>`` (an article, for PROMOTER), ``ab-NAME``
(abilities), ``die-V`` (the first die showing V), ``mentor``, ``claim0``/``claim1`` (the week's
reward), and the buttons ``go``, ``done``, ``end``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.constants import rank_name
from nightsky.games.mihi_anguli.words import item_words
from nightsky.games.svgkit import DIM, EDGE, GOLD, INK, PANEL, el, group, star_path, svg, text

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.board import Compiled
    from nightsky.games.mihi_anguli.components import Item
    from nightsky.games.mihi_anguli.state import MihiAnguliState

SW, SH = 1360, 850  # one sheet at full size
SP = 56  # lattice spacing of the star map
MX, MY = 50, 100  # the map's top-left point inside a sheet
COL_A, COL_B = 795, 1100  # the two right-hand columns
E_FILL, S_FILL, Q_FILL = "#4ea8ff", "#ffd166", "#3ddc84"
NOW = "#ff9f43"  # filled this turn
ABILITY_ROWS = ("POS1", "PLOT1", "POS2", "POS3", "POS4", "PLOT2", "PLOT3", "PLOT4", "PLOT5",
                "REC", "OPT", "STUDY")
ABILITY_BIT = {"POS1": B.POS1, "PLOT1": B.PLOT1, "POS2": B.POS2, "POS3": B.POS3,
               "POS4": B.POS4, "PLOT2": B.PLOT2, "PLOT3": B.PLOT3, "PLOT4": B.PLOT4,
               "PLOT5": B.PLOT5, "REC": B.REC, "OPT": B.OPT, "STUDY": B.STUDY}
LONG = {v: k for k, v in B.SHORT.items()}
LONG.update({"POS1": "POSITIONING I", "PLOT1": "PLOTTING I"})
POINT_INDEX = {B.point_name(q): q for q in range(B.NPTS)}
# Words for the view's keys in the web client's "what you know" panel (GameUI.view_labels).
PHASE_WORDS = {"roll-effects": "the roll's effects", "week-reward": "the week's reward",
               "experience": "spending experience", "abilities": "using abilities"}
"""A turn's phase as the sheet's header says it (the view keeps the short names)."""

VIEW_LABELS = {
    "sheets": "Sheets",
    "points": "Star map points drawn",
    "squares": "Squares drawn",
    "items": "Boxes filled",
    "items_this_turn": "Boxes filled this turn",
    "acquired": "Abilities and Supporters acquired",
    "dice": "Dice",
    "lowest": "Lowest die",
    "used": "Dice used",
    "aux": "Choice detail",
    "claimed_points": "Points claimed",
}


def _xy(q: int) -> tuple[float, float]:
    return MX + (q % B.N) * SP, MY + (q // B.N) * SP


def _g(body: str, pre: str | None, name: str, label: str) -> str:
    """A clickable group ``<pre><name>`` on the interactive sheet; the bare drawing on the
    small sheets of the other seats (nobody clicks there: it keeps the SVG light)."""
    if pre is None:
        return body
    return group(body, pre + name, label)


# ---------------------------------------------------------------- star map
@lru_cache(maxsize=8192)
def _point(q: int, kind: str, filled: bool, pre: str | None) -> str:
    x, y = _xy(q)
    name = B.point_name(q)
    if kind == "major":
        body = el("circle", cx=x, cy=y, r=13, fill=GOLD if filled else "#10163a",
                  stroke=GOLD, stroke_width=2.2)
        label = f"major point {name}"
    elif kind == "star":
        body = el("path", d=star_path(x, y, 13), fill="#fff3b0" if filled else "#10163a",
                  stroke="#fff3b0", stroke_width=1.6,
                  filter="url(#ns-glow)" if filled else None)
        label = f"star {name}"
    else:
        body = (el("circle", cx=x, cy=y, r=7.5, fill="#ffffff", stroke="#cfd8ff",
                   stroke_width=1.5, filter="url(#ns-glow)") if filled else
                el("circle", cx=x, cy=y, r=5.5, fill="#10163a", stroke="#6a77b5",
                   stroke_width=1.3))
        label = f"point {name}"
    if pre is None:
        return body
    # a larger transparent disc makes small points easy to click
    body = el("circle", cx=x, cy=y, r=SP * 0.42, fill="#000000", opacity=0) + body
    return group(body, f"{pre}pt-{name}", label + (" (filled)" if filled else ""))


def _map(c: Compiled, sheet: dict[str, Any], pre: str | None) -> str:
    filled = {POINT_INDEX[n] for n in sheet["points"]}
    squares = set(sheet["squares"])
    out = [el("rect", x=MX - 36, y=MY - 36, width=SP * 12 + 72, height=SP * 12 + 72, rx=16,
              fill="#070a1c", stroke=EDGE, stroke_width=2)]
    # lattice lines, then filled squares
    for i in range(B.N):
        out.append(el("line", x1=MX, y1=MY + i * SP, x2=MX + 12 * SP, y2=MY + i * SP,
                      stroke="#1f2957", stroke_width=1))
        out.append(el("line", x1=MX + i * SP, y1=MY, x2=MX + i * SP, y2=MY + 12 * SP,
                      stroke="#1f2957", stroke_width=1))
    for sq in squares:
        col, row = sq % 12, sq // 12
        out.append(el("rect", x=MX + col * SP + 1.5, y=MY + row * SP + 1.5, width=SP - 3,
                      height=SP - 3, rx=3, fill="#3a7bd5", opacity=0.5))
    for k in range(1, 7):  # sheet coordinates of the majors
        out.append(text(MX + (2 * k - 1) * SP, MY - 16, k, 13, DIM, anchor="middle"))
        out.append(text(MX - 22, MY + (2 * k - 1) * SP + 5, k, 13, DIM, anchor="middle"))
    star = c.star_mask
    for q in range(B.NPTS):
        kind = "major" if B.is_major(q) else ("star" if star >> q & 1 else "minor")
        out.append(_point(q, kind, q in filled, pre))
    pos = sheet["position"]
    if pos is not None:
        x, y = _xy(POINT_INDEX[pos])
        out.append(el("circle", cx=x, cy=y, r=21, fill="none", stroke=NOW, stroke_width=3,
                      stroke_dasharray="5,3"))
        out.append(el("rect", x=x - SP - 6, y=y - SP - 6, width=2 * SP + 12, height=2 * SP + 12,
                      rx=10, fill="none", stroke=NOW, stroke_width=1.5, opacity=0.6))
    return "".join(out)


# ---------------------------------------------------------------- items
@lru_cache(maxsize=8192)
def _item(it: Item, x: float, y: float, state: str, pre: str | None, group: str) -> str:
    """One item box: E (experience, blue), S (star, gold), Q (squares, green).
    ``state``: "open", "filled", "now" (filled this turn) or "closed"."""
    colour = {"E": E_FILL, "S": S_FILL, "Q": Q_FILL}[it.kind]
    filled = state in ("filled", "now")
    stroke = NOW if state == "now" else colour
    body = el("rect", x=x, y=y, width=24, height=24, rx=5,
              fill=colour if filled else "#0e1433", stroke=stroke,
              stroke_width=2.2 if state == "now" else 1.4, opacity=0.35 if state == "closed"
              else None)
    ink = "#0b1026" if filled else colour
    if it.kind == "S":
        body += el("path", d=star_path(x + 12, y + 12, 8), fill=ink)
    elif it.kind == "Q":
        body += el("rect", x=x + 4, y=y + 4, width=8, height=8, fill="none", stroke=ink,
                   stroke_width=1.2)
        body += text(x + 16, y + 21, it.value, 12, ink, anchor="middle", weight="bold")
    else:
        body += text(x + 12, y + 16.5, f"E{it.value}", 12, ink, anchor="middle",
                     weight="bold")
    label = item_words(group, it)[4:] + (" - filled" if filled else "")
    label = label[:1].upper() + label[1:]
    return _g(body, pre, f"item-{it.label}", label)


def _items_row(c: Compiled, g: int, x: float, y: float, sheet: dict[str, Any], pre: str | None,
               closed: bool = False) -> str:
    done = set(sheet["items"])
    now = set(sheet["items_this_turn"])
    out = []
    for i in B.bits(c.group_mask[g]):
        label = c.items[i].label
        st = "now" if label in now else "filled" if label in done else (
            "closed" if closed else "open")
        out.append(_item(c.items[i], x, y, st, pre, c.group_names[g]))
        x += 27
    return "".join(out)




# ---------------------------------------------------------------- wheel, dice, lists
def _wheel(c: Compiled, sheet: dict[str, Any], pre: str | None, cx: float, cy: float) -> str:
    out = [el("circle", cx=cx, cy=cy, r=130, fill="#0d1436", stroke=EDGE, stroke_width=2),
           el("circle", cx=cx, cy=cy, r=34, fill="#1a2250", stroke=GOLD, stroke_width=1.5)]
    week = min(sheet["week"], 6)
    out.append(text(cx, cy - 4, "week", 12, DIM, anchor="middle"))
    out.append(text(cx, cy + 15, week, 18, GOLD, anchor="middle", weight="bold"))
    day = sheet["day"].rstrip("*")
    for d in range(7):
        a = -math.pi / 2 + d * 2 * math.pi / 7
        ca, sa = math.cos(a), math.sin(a)
        here = B.DAY_SHORT[d] == day
        if here:
            out.append(el("line", x1=cx + 36 * ca, y1=cy + 36 * sa, x2=cx + 122 * ca,
                          y2=cy + 122 * sa, stroke=NOW, stroke_width=30, opacity=0.25,
                          stroke_linecap="round"))
        lr = 142 + 8 * abs(ca)
        out.append(text(cx + lr * ca, cy + lr * sa + 4, B.DAY_SHORT[d], 12,
                        NOW if here else DIM, anchor="middle", weight="bold" if here else None))
        items = B.bits(c.group_mask[B.G_DAY0 + d])
        done = set(sheet["items"])
        now = set(sheet["items_this_turn"])
        for k, i in enumerate(items):
            r = 48 + k * 24
            label = c.items[i].label
            st = "now" if label in now else "filled" if label in done else "open"
            out.append(_item(c.items[i], round(cx + r * ca - 12, 1), round(cy + r * sa - 12, 1),
                             st, pre, c.group_names[B.G_DAY0 + d]))
    return "".join(out)


def _die(x: float, y: float, v: int, id_: str | None, label: str) -> str:
    pips = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
            4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
            5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
            6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[v]
    body = el("rect", x=x, y=y, width=40, height=40, rx=8, fill="#f4f1e8", stroke="#c9c2a8")
    body += "".join(el("circle", cx=x + 20 + dx * 10, cy=y + 20 + dy * 10, r=4, fill="#1b1b2f")
                    for dx, dy in pips)
    return group(body, id_, label)


def _button(x: float, y: float, w: float, label: str, id_: str | None, tip: str) -> str:
    body = (el("rect", x=x, y=y, width=w, height=28, rx=14, fill="#253070", stroke=GOLD,
               stroke_width=1.5)
            + text(x + w / 2, y + 19, label, 12.5, INK, anchor="middle", weight="bold"))
    return group(body, id_, tip)


_CACHE: dict[tuple[Any, ...], tuple[Compiled, str]] = {}


def _sheet(state: MihiAnguliState, i: int, v: dict[str, Any], viewer: int | None,
           interactive: bool, name: str | None = None, color: str | None = None) -> str:
    """One sheet, memoised: a sheet is redrawn only when its seat, score or role changed
    (in a simultaneous turn each action changes one sheet of up to four)."""
    c = state.c
    bd = state.score_breakdown()[i]
    key = (id(c), i, i == viewer, interactive, len(v["sheets"]), state.seats[i].key(),
           tuple(sorted(bd.items())), v["scores"][i], name, color)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is c:
        return hit[1]
    out = _draw_sheet(state, i, v, viewer, bd, interactive, name, color)
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[key] = (c, out)
    return out


def _sheet_info(sheet: dict[str, Any]) -> str:
    """The sheet's state in one line: week, day, phase and what is left to spend."""
    week = sheet["week"]
    day = "Saturday (MENTOR)" if sheet["day"] == "Saturday*" else sheet["day"]
    phase = PHASE_WORDS.get(sheet["phase"], sheet["phase"])
    info = f"week {min(week, 6)} \u00b7 {day} \u00b7 {phase}"
    if sheet["choice"]:
        info += f": choose the {sheet['choice']}"
    if sheet["phase"] == "experience" or sheet["choice"] == "STUDYING experience":
        info += f" \u00b7 {sheet['experience']} experience to spend"
    if sheet["stars_to_spend"]:
        info += f" \u00b7 stars to spend {sheet['stars_to_spend']}"
    if sheet["squares_to_spend"]:
        info += f" \u00b7 squares to spend {sheet['squares_to_spend']}"
    return info


def _sheet_header(i: int, v: dict[str, Any], viewer: int | None, bd: dict[str, float],
                  name: str | None, color: str | None) -> list[str]:
    """The frame, the seat's name, the sheet's state and its points."""
    sheet = v["sheets"][i]
    out = [el("rect", x=0, y=0, width=SW, height=SH, rx=18, fill=PANEL, opacity=0.85,
              stroke=GOLD if i == viewer else EDGE, stroke_width=2)]
    score = v["scores"][i]
    who = name or f"Seat {i}"
    if len(who) > 20:  # a long name is cut here (whole in the players panel)
        who = who[:19] + "\u2026"
    who += " (you)" if i == viewer else ""
    if color:  # the seat's colour, as on the page
        out.append(el("circle", cx=30, cy=32, r=8, fill=color))
    name_x = 46 if color else 24
    out.append(text(name_x, 40, who, 24, GOLD, weight="bold"))
    # the sheet's state starts after the name (bold 24 px: at most ~0.62 em a character)
    info_x = max(215, round(name_x + 0.62 * 24 * len(who) + 20))
    out.append(text(info_x, 38, _sheet_info(sheet), 15, INK))
    parts = [f"{k} {bd[k]:g}" for k in ("region", "stars", "articles", "publisher",
                                          "headhunter", "unique") if bd[k]]
    out.append(text(SW - 24, 40, f"{score:g} pts", 24, GOLD, anchor="end", weight="bold"))
    out.append(text(SW - 24, 62, " + ".join(parts) if parts else "no points yet", 12, DIM,
                    anchor="end"))
    if len(v["sheets"]) == 1:
        out.append(text(SW - 24, 80, f"rank: {rank_name(score)}", 12, DIM, anchor="end"))
    return out


def _dice_buttons(sheet: dict[str, Any], pre: str | None) -> list[str]:
    """The ability dice still to use and the buttons the sheet's phase offers."""
    x = COL_A
    out = [text(x, 96, "dice", 12, DIM)]
    seen: set[int] = set()
    live = sheet["phase"] not in ("waiting", "finished")
    for k, d in enumerate(sheet["dice"] if live else []):
        id_ = None if d in seen or pre is None else f"{pre}die-{d}"
        seen.add(d)
        out.append(_die(x + k * 48, 104, d, id_, f"ability die {d}"))
    bx = x + 160
    phase = sheet["phase"]
    buttons = []
    if phase == "roll-effects":
        buttons.append(("advance", "go", "advance the schedule wheel"))
    if phase == "experience" or sheet["choice"] == "STUDYING experience":
        buttons.append(("done", "done", "stop spending experience"))
    if phase == "abilities" and not sheet["choice"]:
        buttons.append(("end turn", "end", "end your turn"))
    if phase == "week-reward":
        buttons.append(("points", "claim0", "claim the finished week's article points"))
        buttons.append(("map point", "claim1", "fill one point of the map instead"))
    for k, (lab, key, tip) in enumerate(buttons):
        out.append(_button(bx + (k % 2) * 92, 100 + (k // 2) * 32, 86, lab,
                           None if pre is None else pre + key, tip))
    return out


def _articles(c: Compiled, sheet: dict[str, Any], pre: str | None) -> list[str]:
    """The five weekly articles: their items and points, ringed when claimed."""
    y = 540
    out = [text(COL_A, y, "Articles", 15, GOLD, weight="bold"),
           text(COL_A + 280, y, "points", 12, DIM, anchor="end")]
    claimed = set(sheet["claimed_points"])
    for w in range(1, 6):
        yy = y + 12 + (w - 1) * 34
        g = w - 1
        closed = w < sheet["week"]
        head = (el("rect", x=COL_A, y=yy, width=40, height=26, rx=6,
                   fill="#253070" if not closed else "#151a3a", stroke=EDGE)
                + text(COL_A + 20, yy + 18, f"W{w}", 12, INK if not closed else DIM,
                       anchor="middle", weight="bold"))
        out.append(_g(head, pre, f"item-W{w}", f"article of week {w}: "
                         f"{c.article_points[g]} points when finished in its week"))
        out.append(_items_row(c, g, COL_A + 46, yy + 1, sheet, pre, closed))
        pts = f"{c.article_points[g]}"
        mark = GOLD if w in claimed else DIM
        out.append(el("circle", cx=COL_A + 268, cy=yy + 13, r=12, fill="none", stroke=mark,
                      stroke_width=2.5 if w in claimed else 1))
        out.append(text(COL_A + 268, yy + 18, pts, 12, mark, anchor="middle", weight="bold"))
    return out


def _row_head(yy: float, short: str, own: bool, fill: str) -> str:
    """The labelled box that starts an ability's or a supporter's row."""
    return (el("rect", x=COL_B, y=yy, width=96, height=26, rx=6, fill=fill,
               stroke=GOLD if own else EDGE, stroke_width=1.5 if own else 1)
            + text(COL_B + 48, yy + 18, short, 12, INK if own else DIM, anchor="middle",
                   weight="bold"))


def _abilities(c: Compiled, sheet: dict[str, Any], pre: str | None) -> list[str]:
    """The ability rows: owned, used this turn, and the items that unlock each."""
    acquired = set(sheet["acquired"])
    used = sheet["used"]
    y = 96
    out = [text(COL_B, y, "Abilities", 15, GOLD, weight="bold")]
    for k, short in enumerate(ABILITY_ROWS):
        yy = y + 10 + k * 31
        name = LONG[short]
        own = short in ("POS1", "PLOT1") or name in acquired
        was_used = bool(used >> ABILITY_BIT[short] & 1)
        fill = "#2c3f8f" if own and not was_used else ("#1c2452" if own else "#121838")
        tip = f"{name}: " + ("acquired" if own else "not acquired")
        if was_used:
            tip += ", used this turn"
        out.append(_g(_row_head(yy, short, own, fill), pre, f"ab-{short}", tip))
        if short not in ("POS1", "PLOT1"):
            g = B.G_OF_ABILITY[ABILITY_BIT[short]]
            out.append(_items_row(c, g, COL_B + 102, yy + 1, sheet, pre))
        else:
            out.append(text(COL_B + 104, yy + 18, "owned from the start", 12, DIM))
    return out


def _supporters(c: Compiled, sheet: dict[str, Any], pre: str | None) -> list[str]:
    """The supporter rows (MENTOR clickable) and the items that win each."""
    acquired = set(sheet["acquired"])
    y = 490
    out = [text(COL_B, y, "Supporters", 15, GOLD, weight="bold")]
    for k, name in enumerate(B.SUPPORTERS):
        yy = y + 10 + k * 31
        own = name in acquired
        head = _row_head(yy, B.SHORT[name], own, "#2c3f8f" if own else "#121838")
        tip = f"{name}: " + ("acquired" if own else "not acquired")
        id_ = f"{pre}mentor" if name == "MENTOR" and pre is not None else None
        out.append(group(head, id_, tip))
        out.append(_items_row(c, B.G_SUP0 + k, COL_B + 102, yy + 1, sheet, pre))
    return out


def _sheet_legend() -> list[str]:
    """What the fills of the items mean."""
    ly = SH - 40
    legend = [(E_FILL, "E: experience"), (S_FILL, "S: star"), (Q_FILL, "Q: squares"),
              (NOW, "filled this turn")]
    out = []
    for k, (col, lab) in enumerate(legend):
        out.append(el("rect", x=COL_A + k * 140, y=ly, width=14, height=14, rx=3, fill=col))
        out.append(text(COL_A + 20 + k * 140, ly + 12, lab, 12, DIM))
    return out


def _draw_sheet(state: MihiAnguliState, i: int, v: dict[str, Any], viewer: int | None,
                bd: dict[str, float], interactive: bool, name: str | None = None,
                color: str | None = None) -> str:
    c = state.c
    sheet = v["sheets"][i]
    pre = f"p{i}-" if interactive else None
    out = _sheet_header(i, v, viewer, bd, name, color)
    out.append(_map(c, sheet, pre))
    out += _dice_buttons(sheet, pre)
    out.append(_wheel(c, sheet, pre, COL_A + 140, 335))
    out += _articles(c, sheet, pre)
    out += _abilities(c, sheet, pre)
    out += _supporters(c, sheet, pre)
    out += _sheet_legend()
    return "".join(out)


def board_svg(state: MihiAnguliState, viewer: int | None, names: Sequence[str] | None = None,
              colors: Sequence[str] | None = None) -> str:
    """One ``<svg>`` of the sheets at full size: the viewer's first (seat 0's for a
    spectator), the others below it; each sheet is a section the client can jump to.
    ``names``/``colors``: each seat's name and colour as the page shows them (default
    ``seat N``, no colour)."""
    v = state.view(viewer)

    def who(q: int, default: str) -> str:
        return names[q] if names is not None and q < len(names) and names[q] else default

    def colour(q: int) -> str | None:
        return colors[q] if colors is not None and q < len(colors) and colors[q] else None

    n = len(v["sheets"])
    main = viewer if viewer is not None and 0 <= viewer < n else 0
    others = [i for i in range(n) if i != main]
    W = SW + 40
    H = 70 + (SH + 20) * n
    out = [text(24, 46, "Mihi Anguli", 28, GOLD, weight="bold")]
    if v["terminal"]:
        win = " and ".join(who(q, f"seat {q}") for q in state.winners())
        status = "Game over" + (f": {win} won" if n > 1 else f": {v['scores'][0]:g} points")
    else:
        acting = [q for q in v["current_players"] if q >= 0]
        status = f"Turn {v['turn'] + 1}"
        if acting:
            status += " \u00b7 acting: " + ", ".join(
                "you" if q == viewer else who(q, f"seat {q}") for q in acting)
    out.append(text(220, 44, status, 17, INK))
    out.append(el("g", _sheet(state, main, v, viewer, main == viewer, who(main, ""),
                              colour(main)),
                  transform="translate(20,70)",
                  data_section="Your sheet" if main == viewer else who(main, f"Seat {main}")))
    for k, i in enumerate(others):
        y = 70 + (SH + 20) * (k + 1)
        out.append(el("g", _sheet(state, i, v, viewer, False, who(i, ""), colour(i)),
                      transform=f"translate(20,{y})", data_section=who(i, f"Seat {i}")))
    return svg(W, H, "".join(out), "Mihi Anguli")
