"""SVG drawing of a Star Fire position for the web client (``StarFireUI.board_svg``).

Layout, top to bottom: the title and turn status beside the three decks; the viewer's hand face
up; then one panel per seat with its Stellar Nursery of elements, its hand as card backs, its
Star Fire pile and its solar systems (stars linked in a column, planets on orbits, moons beside
their planets, free moons on the outer orbit).

Clickable elements carry the ids ``StarFireUI.action_targets`` names (``deck:<name>``,
``card:<code>``, ``system:<seat>:<star>``, ``systems:<seat>`` for a new system, ``seat:<n>``,
``hand:<seat>:<kind>`` for a Star Fire kind) plus ``data-label``; the shape to highlight inside
each has ``class="hit"``. Only what ``view(viewer)`` holds is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from nightsky.games.star_fire.constants import (
    DECKS,
    ELEMENT_SHORT,
    MOON,
    PH_SETUP,
    PLANET,
    SF_KINDS,
    STAR,
    STARFIRE,
)
from nightsky.games.star_fire.words import card_words, plural, short_words
from nightsky.games.svgkit import clickable as _g
from nightsky.games.svgkit import label_text as _t
from nightsky.games.svgkit import qattr as _a
from nightsky.games.svgkit import section, starfield

if TYPE_CHECKING:
    from nightsky.games.star_fire.state import StarFireState

W = 1280
EL_COLOR = ("#7fb4ff", "#ffd166", "#c08a5b", "#c9d1dc")
EL_NAME = ("Hydrogen", "Helium", "Carbon", "Heavy Metal")
SEAT_COLOR = ("#ff8a8a", "#7fd3ff", "#a4f07f", "#ffd27f", "#d6a4ff", "#ff9fd6")
STAR_COLOR = ("#fff3b0", "#b9dcff", "#ffd38a", "#ffb38a", "#ff9a8a", "#e0d4ff", "#fffbe8",
              "#a8f4ff")
PLANET_COLOR = ("#5fa8d3", "#c97b4a", "#7dbb6e", "#d9b26f", "#6ec6c0", "#9d7bd8", "#b85c5c",
                "#8fb3d9", "#5b5b6e", "#6fbf73", "#d98f5c")
SF_TITLE = {"wormhole": "Worm Hole", "fission": "Nuclear Fission", "gamma": "Gamma Ray Burst",
            "divine": "Divine Intervention", "transmute": "Transmutation"}
SF_GLYPH = {"wormhole": "@", "fission": "\u2622", "gamma": "\u03b3", "divine": "\u2727",
            "transmute": "\u21c4"}
CAT_NAME = {STAR: "Star", PLANET: "Planet", MOON: "Moon", STARFIRE: "Star Fire"}
FONT = "font-family:'DejaVu Sans',Verdana,sans-serif"


def _cost_text(cost: tuple[int, int, int, int]) -> str:
    return " ".join(f"{n}{ELEMENT_SHORT[e]}" for e, n in enumerate(cost) if n) or "free"


class _Svg:
    """Collects SVG fragments."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def group(self, gid: str | None, label: str, inner: list[str]) -> None:
        attrs = f' id={_a(gid)} data-label={_a(label)} style="cursor:pointer"' if gid else ""
        title = f"<title>{escape(label)}</title>" if label else ""
        self.add(f"<g{attrs}>{title}{''.join(inner)}</g>")


def _defs() -> str:
    grads = []
    for i, col in enumerate(STAR_COLOR):
        grads.append(
            f'<radialGradient id="sf-star{i}"><stop offset="0" stop-color="#ffffff"/>'
            f'<stop offset="0.45" stop-color="{col}"/>'
            f'<stop offset="1" stop-color="{col}" stop-opacity="0"/></radialGradient>')
    for i, col in enumerate(PLANET_COLOR):
        grads.append(
            f'<radialGradient id="sf-pl{i}" cx="0.35" cy="0.35" r="0.7">'
            f'<stop offset="0" stop-color="#ffffff" stop-opacity="0.9"/>'
            f'<stop offset="0.25" stop-color="{col}"/>'
            f'<stop offset="1" stop-color="#0b0f24"/></radialGradient>')
    return (
        "<defs>"
        '<linearGradient id="sf-sky" x1="0" y1="0" x2="0.4" y2="1">'
        '<stop offset="0" stop-color="#070b1f"/><stop offset="0.6" stop-color="#111537"/>'
        '<stop offset="1" stop-color="#1d1240"/></linearGradient>'
        '<linearGradient id="sf-back" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#3b2a6b"/><stop offset="1" stop-color="#1b1438"/>'
        "</linearGradient>"
        + "".join(grads)
        + '<style>.hit{transition:stroke .15s}</style>'
        "</defs>"
    )


# ---------------------------------------------------------------- pieces

def _deck(x: float, y: float, name: str, count: int, bottom: list[str], color: str) -> str:
    inner = []
    for k in range(min(4, max(1, count)) - 1, -1, -1):
        op = "1" if count else "0.25"
        inner.append(
            f'<rect x="{x + 4 * k}" y="{y - 3 * k}" width="86" height="116" rx="9" '
            f'fill="url(#sf-back)" stroke="{color}" stroke-width="1.5" opacity="{op}"'
            + (' class="hit"' if k == 0 else "") + "/>")
    inner.append(f'<circle cx="{x + 43}" cy="{y + 46}" r="20" fill="none" stroke="{color}" '
                 f'stroke-width="2" opacity="0.8"/>')
    inner.append(_t(x + 43, y + 52, str(count), 18, "#ffffff", "middle", "bold"))
    inner.append(_t(x + 43, y + 92, name.capitalize(), 12, color, "middle", "bold"))
    if bottom:
        more = "\u2026" if len(bottom) > 2 else ""
        inner.append(_t(x + 43, y + 108, "under: " + " ".join(bottom[:2]) + more, 9, "#cfd6f5",
                        "middle"))
    label = f"Draw from the {name} deck ({plural(count, 'card')})"
    if bottom:
        label += "; known at the bottom: " + ", ".join(bottom)
    return _g('deck:' + name, label, inner)


def _chip(s: StarFireState, x: float, y: float, c: int) -> str:
    C = s.C
    e = C.element[c]
    wild = bool(s.wild >> c & 1)
    col = EL_COLOR[e]
    label = card_words(C, c) + (" - wild" if wild else "")
    inner = [
        f'<circle class="hit" cx="{x}" cy="{y}" r="16" fill="{col}" fill-opacity="0.22" '
        f'stroke="{col}" stroke-width="2"/>',
    ]
    if wild:
        inner.append(f'<circle cx="{x}" cy="{y}" r="19" fill="none" stroke="#ff6bd6" '
                     f'stroke-width="2" stroke-dasharray="3 2"/>')
    inner.append(_t(x, y + 2, ELEMENT_SHORT[e], 11, "#ffffff", "middle", "bold"))
    for k in range(C.units[c]):
        inner.append(f'<circle cx="{x - 3 + 6 * k if C.units[c] == 2 else x}" cy="{y + 9}" '
                     f'r="2" fill="{col}"/>')
    return _g('card:' + C.name[c], label, inner)


def _body_label(s: StarFireState, c: int) -> str:
    C = s.C
    k = C.cat[c]
    base = (f"{card_words(C, c)}, {CAT_NAME[k]} worth {C.points(c)}, "
            f"cost {_cost_text(C.cost[c])}")
    if k == STAR:
        rp, rm, pts = C.star_bonus[c]
        if pts:
            base += (f"; bonus {pts} with {plural(rp, 'planet')} and {plural(rm, 'moon')} "
                     "in its system")
    elif k == PLANET:
        rm, pts = C.moon_bonus[c]
        base += f"; holds up to {plural(C.moon_limit[c], 'moon')}"
        if pts:
            base += f"; bonus {pts} with {plural(rm, 'moon')}"
    elif k == MOON:
        base += "; needs a planet" if C.needs_host[c] else "; may orbit a star directly"
    return base


def _glyph(cat: int, cx: float, cy: float, c: int, r: float) -> str:
    if cat == STAR:
        return (f'<circle cx="{cx}" cy="{cy}" r="{r * 1.6}" fill="url(#sf-star{c % 8})"/>'
                f'<circle cx="{cx}" cy="{cy}" r="{r * 0.55}" fill="#ffffff"/>')
    if cat == PLANET:
        return f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="url(#sf-pl{c % 11})"/>'
    return (f'<circle cx="{cx}" cy="{cy}" r="{r * 0.6}" fill="#d8dce8"/>'
            f'<circle cx="{cx + r * 0.2}" cy="{cy - r * 0.15}" r="{r * 0.5}" fill="#151a38"/>')


def _hand_card(s: StarFireState, x: float, y: float, c: int, dealt: bool) -> str:
    C = s.C
    k = C.cat[c]
    col = {STAR: "#ffd27f", PLANET: "#7fc8ff", MOON: "#d0d4e4"}[k]
    inner = [
        f'<rect class="hit" x="{x}" y="{y}" width="96" height="130" rx="9" fill="#161b3d" '
        f'stroke="{col}" stroke-width="1.8"/>',
        f'<rect x="{x}" y="{y}" width="96" height="20" rx="9" fill="{col}" fill-opacity="0.25"/>',
        _t(x + 48, y + 14, f"{CAT_NAME[k]} \u00b7 {C.points(c)} pts", 10, col, "middle", "bold"),
        _glyph(k, x + 48, y + 48, c, 15 if k != MOON else 18),
        _t(x + 48, y + 82, C.title[c], 12, "#ffffff", "middle", "bold"),
        _t(x + 48, y + 95, C.name[c], 9, "#aab3da", "middle"),
    ]
    px = x + 10
    for e, n in enumerate(C.cost[c]):
        if n:
            inner.append(f'<circle cx="{px + 8}" cy="{y + 112}" r="8" fill="{EL_COLOR[e]}" '
                         f'fill-opacity="0.3" stroke="{EL_COLOR[e]}"/>')
            inner.append(_t(px + 8, y + 115.5, f"{n}", 10, "#ffffff", "middle", "bold"))
            inner.append(_t(px + 8, y + 127, ELEMENT_SHORT[e], 7, EL_COLOR[e], "middle"))
            px += 20
    if k == PLANET:
        inner.append(_t(x + 90, y + 116, f"\u263e{C.moon_limit[c]}", 10, "#d0d4e4", "end"))
    if k == STAR and C.star_bonus[c][2]:
        rp, rm, pts = C.star_bonus[c]
        inner.append(_t(x + 90, y + 116, f"+{pts}", 10, "#ffd27f", "end", "bold"))
    if dealt:
        inner.append(f'<rect x="{x + 52}" y="{y + 26}" width="40" height="14" rx="7" '
                     f'fill="#ffd27f"/>')
        inner.append(_t(x + 72, y + 36, "dealt", 9, "#1a1430", "middle", "bold"))
    label = _body_label(s, c) + (" - your dealt Star, built for free" if dealt else "")
    return _g('card:' + C.name[c], label, inner)


def _sf_card(seat: int, x: float, y: float, kind: str, count: int) -> str:
    inner = [
        f'<rect class="hit" x="{x}" y="{y}" width="96" height="130" rx="9" fill="#2a1238" '
        f'stroke="#ff7ad9" stroke-width="1.8"/>',
        f'<rect x="{x}" y="{y}" width="96" height="20" rx="9" fill="#ff7ad9" fill-opacity="0.25"/>',
        _t(x + 48, y + 14, "Star Fire", 10, "#ff9be3", "middle", "bold"),
        _t(x + 48, y + 64, SF_GLYPH[kind], 30, "#ffb3ec", "middle", "bold"),
    ]
    words = SF_TITLE[kind].split(" ")
    for i, w in enumerate(words):
        inner.append(_t(x + 48, y + 88 + 13 * i, w, 11, "#ffffff", "middle", "bold"))
    if count > 1:
        inner.append(f'<circle cx="{x + 84}" cy="{y + 32}" r="10" fill="#ff7ad9"/>')
        inner.append(_t(x + 84, y + 36, f"\u00d7{count}", 10, "#1a1430", "middle", "bold"))
    label = f"{SF_TITLE[kind]} (Star Fire card, {count} held)"
    gid = f"hand:{seat}:{kind}"
    return _g(gid, label, inner)


def _back(x: float, y: float, cat: int, count: int) -> str:
    col = {STAR: "#ffd27f", PLANET: "#7fc8ff", MOON: "#d0d4e4", STARFIRE: "#ff7ad9"}[cat]
    out = []
    for k in range(min(3, count) - 1, -1, -1):
        out.append(f'<rect x="{x + 3 * k}" y="{y - 2 * k}" width="34" height="46" rx="5" '
                   f'fill="url(#sf-back)" stroke="{col}" stroke-width="1.2"/>')
    out.append(_t(x + 17, y + 20, CAT_NAME[cat][0] + ("F" if cat == STARFIRE else ""), 12, col,
                  "middle", "bold"))
    out.append(_t(x + 17, y + 38, f"\u00d7{count}", 11, "#ffffff", "middle", "bold"))
    face_down = plural(count, f"{CAT_NAME[cat]} card")
    return f"<g><title>{face_down}, face down</title>{''.join(out)}</g>"


# ---------------------------------------------------------------- solar systems

def _system_width(s: StarFireState, sys: list[list[int]]) -> int:
    stars, planets, loose = sys
    names = sum(len(s.C.title[x]) + 1 for x in stars)
    return max(120 + 74 * len(planets) + (44 if loose else 0) + 10, 6 * names + 90)


SYS_H = 176


def _system_score(s: StarFireState, sys: list[list[int]]) -> tuple[int, int, int]:
    """The system's moon count, body points and bonus points (SF scoring, as the panel shows)."""
    C = s.C
    stars, planets, loose = sys
    hosted = sum(len(s.moons_on[p]) for p in planets)
    n_moons = hosted + len(loose)
    pts = 5 * len(stars) + 3 * len(planets) + n_moons
    bonus = 0
    for st in stars:
        rp, rm, bp = C.star_bonus[st]
        if len(planets) >= rp and n_moons >= rm:
            bonus += bp
    for p in planets:
        rm, bp = C.moon_bonus[p]
        if rm and len(s.moons_on[p]) >= rm:
            bonus += bp
    return n_moons, pts, bonus


def _system_frame(s: StarFireState, seat: int, x: float, y: float, sys: list[list[int]],
                  owner_color: str, owner: str | None) -> str:
    """The clickable frame of one system, its names and its points."""
    C = s.C
    stars, planets, _loose = sys
    w = _system_width(s, sys)
    n_moons, pts, bonus = _system_score(s, sys)
    names = "+".join(C.title[st] for st in stars)
    label = (f"{owner or f'Seat {seat + 1}'}'s system of {names}: "
             f"{plural(len(planets), 'planet')}, {plural(n_moons, 'moon')}, "
             f"{pts} body points + {bonus} bonus")
    return _g(f"system:{seat}:{C.name[stars[0]]}", label, [
        f'<rect class="hit" x="{x}" y="{y}" width="{w}" '
        f'height="{SYS_H}" rx="14" fill="#0d1233" fill-opacity="0.85" stroke="{owner_color}" '
        f'stroke-opacity="0.45" stroke-width="1.5"/>',
        _t(x + 10, y + SYS_H - 9, f"{names}", 10, "#aab3da"),
        _t(x + w - 10, y + SYS_H - 9, f"{pts}+{bonus} pts", 10, "#ffd27f", "end", "bold")])


def _orbits(cx: float, cy: float, n: int, dashed_last: bool) -> list[str]:
    """``n`` orbits drawn as arcs around the (first) star; the last dashed for loose moons."""
    out: list[str] = []
    for i in range(n):
        r = 86 + 74 * i
        th = math.asin(min(0.98, 70 / r))
        x0, y0 = cx + r * math.cos(th), cy - r * math.sin(th)
        x1, y1 = cx + r * math.cos(th), cy + r * math.sin(th)
        dash = ' stroke-dasharray="4 4"' if dashed_last and i == n - 1 else ""
        out.append(f'<path d="M{x0:.1f},{y0:.1f} A{r},{r} 0 0 1 {x1:.1f},{y1:.1f}" '
                   f'fill="none" stroke="#8fa2ff" stroke-opacity="0.3"{dash}/>')
    return out


def _star_column(s: StarFireState, seat: int, cx: float, cy: float, stars: list[int],
                 owner: str | None) -> list[str]:
    """The system's stars: a column joined by links (SF-6.2)."""
    C = s.C
    out: list[str] = []
    k = len(stars)
    ys = [cy + (j - (k - 1) / 2) * 46 for j in range(k)]
    for j in range(k - 1):
        out.append(f'<line x1="{cx}" y1="{ys[j]}" x2="{cx}" y2="{ys[j + 1]}" '
                   f'stroke="#ffe9a8" stroke-width="3" stroke-dasharray="2 3"/>')
    for j, st in enumerate(stars):
        col = STAR_COLOR[st % 8]
        lab = _body_label(s, st) + f" - built by {owner or f'seat {seat}'}"
        out.append(_g("card:" + C.name[st], lab, [
            f'<circle cx="{cx}" cy="{ys[j]}" r="{34 if k == 1 else 23}" '
            f'fill="url(#sf-star{st % 8})"/>'
            f'<circle class="hit" cx="{cx}" cy="{ys[j]}" r="{15 if k == 1 else 12}" '
            f'fill="{col}" stroke="#ffffff" stroke-width="1"/>',
            _t(cx, ys[j] + 4, C.name[st], 9, "#2a1a00", "middle", "bold")]))
    return out


def _moon(s: StarFireState, m: int, mx: float, my: float, r: int, where: str,
          label_xy: tuple[float, float], anchor: str) -> str:
    """One moon card, clickable, its name beside it."""
    C = s.C
    mlab = _body_label(s, m) + where
    return _g("card:" + C.name[m], mlab, [
        f'<circle class="hit" cx="{mx}" cy="{my}" r="{r}" fill="#dfe3ef" '
        f'stroke="#ffffff" stroke-width="0.8"/>',
        _t(label_xy[0], label_xy[1], C.name[m], 8, "#cfd6f5", anchor)])


def _planet(s: StarFireState, p: int, px: float, py: float) -> list[str]:
    """One planet on its orbit with its moons and empty moon places above it."""
    C = s.C
    moons = s.moons_on[p]
    lim = C.moon_limit[p]
    rm, bp = C.moon_bonus[p]
    lab = _body_label(s, p) + f" - {len(moons)} of {plural(lim, 'moon')}"
    out = [_g("card:" + C.name[p], lab, [
        f'<circle class="hit" cx="{px}" cy="{py}" r="17" fill="url(#sf-pl{p % 11})" '
        f'stroke="#9fb4ff" stroke-opacity="0.6"/>',
        _t(px, py + 32, C.title[p], 10, "#e8ecff", "middle", "bold"),
        _t(px, py + 44, C.name[p] + (f" \u00b7 {rm}\u263e:+{bp}" if bp else ""), 8,
           "#aab3da", "middle")])]
    for j in range(lim):
        mx = px - 18 + 18 * j
        my = py - 34
        if j < len(moons):
            out.append(_moon(s, moons[j], mx, my, 7, f" - orbiting {C.title[p]}",
                             (mx, my - 10), "middle"))
        else:
            out.append(f'<circle cx="{mx}" cy="{my}" r="6" fill="none" stroke="#8fa2ff" '
                       f'stroke-opacity="0.5" stroke-dasharray="2 2"/>')
    return out


def _system(s: StarFireState, seat: int, x: float, y: float, sys: list[list[int]],
            owner_color: str, owner: str | None = None) -> list[str]:
    stars, planets, loose = sys
    out = [_system_frame(s, seat, x, y, sys, owner_color, owner)]
    cx = x + 46
    cy = y + 80
    out += _orbits(cx, cy, len(planets) + (1 if loose else 0), bool(loose))
    out += _star_column(s, seat, cx, cy, stars, owner)
    for i, p in enumerate(planets):
        out += _planet(s, p, cx + 86 + 74 * i, cy)
    if loose:
        lx = cx + 86 + 74 * len(planets) - 14
        for j, m in enumerate(loose):
            my = cy - 40 + 26 * j
            out.append(_moon(s, m, lx, my, 8, " - orbiting the star directly",
                             (lx + 12, my + 3), "start"))
    return out


def _new_system(seat: int, x: float, y: float, color: str, owner: str | None = None) -> str:
    label = f"{owner or f'Seat {seat}'}: found a new solar system here"
    return _g(f"systems:{seat}", label, [
        f'<rect class="hit" x="{x}" y="{y}" width="96" height="{SYS_H}" rx="14" '
        f'fill="#0d1233" fill-opacity="0.4" stroke="{color}" stroke-opacity="0.55" '
        f'stroke-dasharray="6 5"/>',
        _t(x + 48, y + SYS_H / 2 - 4, "+", 28, color, "middle", "bold"),
        _t(x + 48, y + SYS_H / 2 + 18, "new system", 10, color, "middle")])


# ---------------------------------------------------------------- the whole board

class _Seats:
    """Each seat's name and colour as the page shows them (defaults ``Seat N``, ``SEAT_COLOR``)."""

    def __init__(self, names: Sequence[str] | None, colors: Sequence[str] | None) -> None:
        self.names = names
        self.colors = colors

    def who(self, q: int) -> str:
        names = self.names
        return names[q] if names is not None and q < len(names) and names[q] else f"Seat {q}"

    def color(self, q: int) -> str:
        colors = self.colors
        if colors is not None and q < len(colors) and colors[q]:
            return colors[q]
        return SEAT_COLOR[q % 6]

    def owner(self, q: int) -> str | None:
        """The name a system's labels use: only when the page passed names."""
        return self.who(q) if self.names is not None else None


def _status(s: StarFireState, v: dict[str, Any], seats: _Seats, winners: set[int]) -> str:
    """The turn status line: game over, set-up, or whose turn with what is pending."""
    if v["terminal"]:
        best = ", ".join(seats.who(q) for q in sorted(winners))
        return f"Game over - winner: {best}"
    if v["phase"] in ("deal", "setup"):
        status = "Setting up: each player places or keeps their dealt Star"
        if s.phase == PH_SETUP and not s.queue:
            status = f"Set-up: {seats.who(s.setup_seat)} places or keeps their dealt Star"
        return status
    status = f"Round {v['round']} \u00b7 {seats.who(v['turn'])} to act \u00b7 "
    status += f"{plural(v['actions_left'], 'action')} left"
    if v["substep"] == "wormhole":
        status += f" \u00b7 Worm Hole: steal up to {plural(v['substep_units'], 'unit')}"
    elif v["substep"] == "transmute":
        status += f" \u00b7 Transmutation: {v['substep_units']} wild left"
    if v["last_turn"]:
        status += " \u00b7 last turn"
    return status


def _header(s: StarFireState, v: dict[str, Any], seats: _Seats, winners: set[int]) -> list[str]:
    """Title, status, the turn's extras and the three decks."""
    C = s.C
    body = [_t(24, 40, "STAR FIRE", 26, "#ffe9a8", weight="bold", extra=' letter-spacing="4"'),
            _t(24, 60, "Galactic Architects", 12, "#aab3da"),
            _t(24, 92, _status(s, v, seats, winners), 15, "#ffffff", weight="bold")]
    extra = []
    if v["fusion_turns_left"]:
        turns = plural(v["fusion_turns_left"], "more turn")
        extra.append(f"Nuclear Fusion: {turns} with 3 actions")
    credit = [f"{n}{(*ELEMENT_SHORT, 'wild')[e]}" for e, n in enumerate(v["credit"]) if n]
    if credit:
        extra.append("credit this turn: " + " ".join(credit))
    if v["events_used"]:
        extra.append("events: " + ", ".join(v["events_used"]))
    spent = f"spent elements: {len(v['spent'])}" + (" (out of play)" if v["reshuffled"] else "")
    extra.append(spent)
    body.append(_t(24, 114, " \u00b7 ".join(extra), 11, "#aab3da"))
    deck_colors = {"elements": "#7fb4ff", "bodies": "#ffd27f", "starfire": "#ff7ad9"}
    body.append(section("Decks", 890, 10, 380, 130))
    for i, d in enumerate(DECKS):
        bottom = [short_words(C, C.by_name[x]) for x in v["decks"][d]["bottom"]]
        body.append(_deck(900 + 120 * i, 18, d, v["decks"][d]["count"], bottom,
                          deck_colors[d]))
    return body


def _my_hand(s: StarFireState, v: dict[str, Any], viewer: int, seats: _Seats,
             y: float, body: list[str]) -> int:
    """The viewer's hand face up (bodies, then Star Fire cards by kind); returns its height."""
    C = s.C
    me = v["players"][viewer]
    hand = [C.by_name[x] for x in me["hand"]]
    bodies = sorted((c for c in hand if C.cat[c] != STARFIRE), key=lambda c: (C.cat[c], c))
    kinds: dict[str, int] = {}
    for c in hand:
        if C.cat[c] == STARFIRE:
            kinds[SF_KINDS[C.sf_kind[c]]] = kinds.get(SF_KINDS[C.sf_kind[c]], 0) + 1
    n_cards = len(bodies) + len(kinds)
    per_row = (W - 48) // 104
    rows = max(1, -(-n_cards // per_row))
    h = 36 + rows * 140
    body.append(f'<rect x="12" y="{y}" width="{W - 24}" height="{h}" rx="14" '
                f'fill="#141a40" fill-opacity="0.8" stroke="{seats.color(viewer)}" '
                f'stroke-opacity="0.6"/>')
    body.append(section("Your hand", 12, y, W - 24, h))
    body.append(_t(28, y + 24, f"Your hand ({seats.who(viewer)})", 14,
                   seats.color(viewer), weight="bold"))
    if not n_cards:
        body.append(_t(28, y + 60, "no cards in hand", 12, "#aab3da"))
    dealt = C.by_name[me["dealt_star"]] if me.get("dealt_star") else -1
    for i, c in enumerate(bodies):
        cx = 24 + 104 * (i % per_row)
        cy = y + 34 + 140 * (i // per_row)
        body.append(_hand_card(s, cx, cy, c, c == dealt))
    order = sorted(kinds.items(), key=lambda kv: SF_KINDS.index(kv[0]))
    for j, (kind, cnt) in enumerate(order):
        i = len(bodies) + j
        cx = 24 + 104 * (i % per_row)
        cy = y + 34 + 140 * (i // per_row)
        body.append(_sf_card(viewer, cx, cy, kind, cnt))
    return h


def _flow(widths: list[int], avail: float) -> list[list[float]]:
    """Systems flowed into rows: each row's x offsets."""
    rows_x: list[list[float]] = [[]]
    cur = 0.0
    for w in widths:
        if cur and cur + w > avail:
            rows_x.append([])
            cur = 0.0
        rows_x[-1].append(cur)
        cur += w + 12
    return rows_x


def _seat_marks(p: dict[str, Any], acting: bool) -> list[str]:
    marks: list[str] = []
    if p["eliminated"]:
        marks.append("eliminated")
    if p["fission"]:
        marks.append(f"fission: -{plural(p['fission'], 'action')}")
    if acting:
        marks.append("to act")
    return marks


def _seat_badge(q: int, y: float, left_w: int, label: str, title: str, col: str,
                score: float) -> str:
    """The seat's header, clickable (the Nuclear Fission target)."""
    return _g(f"seat:{q}", label, [
        f'<rect class="hit" x="24" y="{y + 10}" width="{left_w - 16}" height="34" rx="10" '
        f'fill="{col}" fill-opacity="0.16" stroke="{col}" stroke-width="1.4"/>'
        f'<circle cx="42" cy="{y + 27}" r="7" fill="{col}"/>',
        _t(56, y + 32, title, 14, "#ffffff", weight="bold"),
        _t(left_w - 2, y + 32, f"{score:g} pts", 14, "#ffe9a8", "end", "bold")])


def _nursery(s: StarFireState, p: dict[str, Any], ly: float, left_w: int,
             nursery: list[int], body: list[str]) -> None:
    """The Stellar Nursery: unit totals and one chip per element card."""
    body.append(_t(26, ly + 8, "Stellar Nursery", 11, "#aab3da", weight="bold"))
    units = [0] * 5
    for e in p["nursery"]:
        units[4 if e["wild"] else e["element"]] += e["units"]
    tot = " ".join(f"{u}{(*ELEMENT_SHORT, 'wild')[i]}" for i, u in enumerate(units) if u)
    body.append(_t(left_w + 8, ly + 8, tot or "empty", 10, "#cfd6f5", "end"))
    for i, c in enumerate(nursery):
        body.append(_chip(s, 44 + 38 * (i % 7), ly + 36 + 42 * (i // 7), c))


def _hand_backs(s: StarFireState, p: dict[str, Any], ly: float, body: list[str]) -> None:
    """Another seat's hand: card backs by kind, then the cards known to all."""
    C = s.C
    known = [C.by_name[x] for x in p["known_hand"]]
    backs = dict(p["hand_backs"])
    for c in known:
        key = {STAR: "stars", PLANET: "planets", MOON: "moons"}.get(C.cat[c], "star_fire")
        backs[key] -= 1
    bx = 26.0
    body.append(_t(26, ly + 8, "Hand", 11, "#aab3da", weight="bold"))
    for key, cat in (("stars", STAR), ("planets", PLANET), ("moons", MOON),
                     ("star_fire", STARFIRE)):
        if backs[key] > 0:
            body.append(_back(bx, ly + 16, cat, backs[key]))
            bx += 48
    for c in known:
        lab = _body_label(s, c) + " - known to all (drawn off the open bottom)"
        body.append(
            f"<g id={_a('card:' + C.name[c])} data-label={_a(lab)}><title>"
            f"{escape(lab)}</title>"
            f'<rect class="hit" x="{bx}" y="{ly + 16}" width="34" height="46" rx="5" '
            f'fill="#161b3d" '
            f'stroke="#ffffff"/>' + _glyph(C.cat[c], bx + 17, ly + 30, c, 7)
            + _t(bx + 17, ly + 56, C.name[c], 9, "#ffffff", "middle") + "</g>")
        bx += 40
    if sum(p["hand_backs"].values()) == 0:
        body.append(_t(26, ly + 36, "empty", 10, "#6f7aa8"))
    if p["holds_dealt_star"]:
        body.append(_t(bx + 4, ly + 44, "holds their dealt Star", 9, "#ffd27f"))


_SCORE_PARTS = (("bodies", "bodies"), ("system_bonus", "system bonus"),
                ("moon_bonus", "moon bonus"), ("star_fire", "Star Fire"),
                ("elements", "elements"), ("largest_system", "largest system"),
                ("most_systems", "most systems"), ("largest_nebula", "largest nebula"))


def _seat_systems(s: StarFireState, q: int, sx: float, y: float, rows_x: list[list[float]],
                  slot: bool, col: str, owner: str | None, body: list[str]) -> None:
    """The seat's systems in their rows, then the "new system" slot where it may build one."""
    k = 0
    for r, xs in enumerate(rows_x):
        for x0 in xs:
            gx = sx + x0
            gy = y + 8 + r * (SYS_H + 12)
            if k < len(s.systems[q]):
                body.extend(_system(s, q, gx, gy, s.systems[q][k], col, owner))
            elif slot:
                body.append(_new_system(q, gx, gy, col, owner))
            k += 1


def _seat_panel(s: StarFireState, v: dict[str, Any], q: int, viewer: int | None,
                seats: _Seats, winners: set[int], y: float, body: list[str]) -> int:
    """One seat's panel: badge, nursery, hand, score breakdown, systems; returns its height."""
    C = s.C
    terminal = v["terminal"]
    p = v["players"][q]
    col = seats.color(q)
    left_w = 290
    sx = 24 + left_w
    # the "new system" slot is drawn where its owner may build one
    slot = q == viewer and not terminal and not p["eliminated"]
    widths = [_system_width(s, sys) for sys in s.systems[q]] + ([96] if slot else [])
    rows_x = _flow(widths, W - 24 - sx)
    sys_h = len(rows_x) * (SYS_H + 12)
    nursery = [C.by_name[e["card"]] for e in p["nursery"]]
    chip_rows = max(1, -(-len(nursery) // 7))
    left_h = 180 + chip_rows * 42  # header, status, nursery rows, hand backs
    h = max(sys_h + 16 + (14 if terminal else 0), left_h)
    acting = (not terminal and q in v["current_players"])
    body.append(section("You" if q == viewer else seats.who(q), 12, y, W - 24, h))
    body.append(f'<rect x="12" y="{y}" width="{W - 24}" height="{h}" rx="16" '
                f'fill="#0f1434" fill-opacity="0.75" stroke="{col}" '
                f'stroke-opacity="{0.95 if acting else 0.35}" '
                f'stroke-width="{2.5 if acting else 1.2}"/>')
    marks = _seat_marks(p, acting)
    label = f"{seats.who(q)}: score {v['scores'][q]:g}" + (
        f" ({', '.join(marks)})" if marks else "")
    crown = " \u265b" if q in winners else ""
    title = f"{seats.who(q)}{' (you)' if q == viewer else ''}{crown}"
    body.append(_seat_badge(q, y, left_w, label, title, col, v["scores"][q]))
    ly = y + 62
    if marks:
        body.append(_t(26, ly, " \u00b7 ".join(marks), 11,
                       "#ff8a8a" if p["eliminated"] else "#ffd27f", weight="bold"))
    ly += 14
    _nursery(s, p, ly, left_w, nursery, body)
    ly += 26 + chip_rows * 42
    # the hand: backs (or a pointer to the viewer's own hand)
    if q == viewer:
        body.append(_t(26, ly + 22, f"hand: {plural(len(p['hand']), 'card')}, shown above", 11,
                       "#aab3da"))
    else:
        _hand_backs(s, p, ly, body)
    if not s.systems[q] and not slot:
        body.append(_t(sx + 16, y + 40, "no solar system yet", 12, "#6f7aa8"))
    if terminal:
        row = s.score_breakdown()[q]
        txt = " \u00b7 ".join(f"{lab} {row[k]:g}" for k, lab in _SCORE_PARTS if row[k])
        body.append(_t(sx + 4, y + h - 8, txt, 10, "#ffe9a8"))
    if p["star_fire_pile"]:
        body.append(_t(left_w + 8, ly + 8, f"\u2737 {len(p['star_fire_pile'])} played", 10,
                       "#ff9be3", "end"))
    _seat_systems(s, q, sx, y, rows_x, slot, col, seats.owner(q), body)
    return h


def board_svg(s: StarFireState, viewer: int | None, names: Sequence[str] | None = None,
              colors: Sequence[str] | None = None) -> str:
    """One ``<svg>`` of what ``viewer`` sees (None: a spectator). ``names``/``colors``: each
    seat's name and colour as the page shows them (default ``Seat N`` and ``SEAT_COLOR``)."""
    v = s.view(viewer)
    seats = _Seats(names, colors)
    winners = set(s.winners()) if v["terminal"] else set()
    body = _header(s, v, seats, winners)
    y = 150
    if viewer is not None and 0 <= viewer < s.n:
        y += _my_hand(s, v, viewer, seats, y, body) + 14
    for q in range(s.n):
        y += _seat_panel(s, v, q, viewer, seats, winners, y, body) + 12
    height = y + 8
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" '
        f'width="100%" preserveAspectRatio="xMidYMin meet" style="{FONT}" '
        f'role="img" aria-label="Star Fire board">'
        + _defs()
        + f'<rect x="0" y="0" width="{W}" height="{height}" fill="url(#sf-sky)"/>'
        + starfield(W, height, 12345, 140)
        + "".join(body)
        + "</svg>"
    )


__all__ = ["board_svg"]
