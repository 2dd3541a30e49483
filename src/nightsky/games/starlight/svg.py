"""SVG drawing of a Starlight position for the web client (``game.ui.board_svg``).

Layout: the status line on top; the Sky Board (six constellations: slots sized small, medium
or alpha, their night points, privilege badges, target rings, connection lines, launched stars
in their owner's colour) on the left; the rondel of seven action spaces with the pawns, and the
pools of Cores, long and short rays and Flares on the right; the Accolades, the slotless table
and the star being launched under the board; then one mat per seat (Starbots included).

Clickable ids are the ones ``labels.action_targets`` names: ``rondel:<space>``,
``slot:<con>:<n>``, ``pool:core:<id>``, ``pool:<long|short>:<colour>``, ``pool:flare:<pos>``,
``pool:<space>:flush``, ``hand:core:<id>``, ``hand:ray:<size>:<colour>``, ``hand:flare:<id>``,
``hand:god:<id>`` (the viewer's own mat only), ``mat:final``, ``mat:buy``, ``board:slotless``.
Each carries ``data-label``; its highlightable shape has ``class="hit"``. Everything is drawn
from ``view(viewer)`` and the printed components, so nothing hidden can show.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any

from nightsky.games.svgkit import clickable as _g
from nightsky.games.svgkit import label_text as _t
from nightsky.games.svgkit import section, starfield

from .components import PRIVILEGES
from .labels import NP_TEXT, PRIVILEGE_WORDS, boon_words

W = 1400
SEAT_COLOR = ("#ff8a8a", "#7fd3ff", "#a4f07f", "#ffd27f", "#d6a4ff", "#ff9fd6")
RAY_COLOR = {"red": "#ff6b6b", "yellow": "#ffd84d", "blue": "#5fa8ff", "white": "#f2f5ff",
             "violet": "#b98cff", "green": "#6fdc8c", "orange": "#ffa24d", "cyan": "#5fe8f0"}
FALLBACK = ("#ff6b6b", "#ffd84d", "#5fa8ff", "#f2f5ff", "#b98cff", "#6fdc8c", "#ffa24d",
            "#5fe8f0")
SIZE_R = (12, 16, 21)
SIZE_COLOR = ("#9fb4ff", "#ffd27f", "#ff9a7a")
PRIV_BADGE = {"buy_np": "$", "plus_ap": "+1", "refill_rays": "\u21bb", "laurels3": "L3",
              "core_ray": "CR", "alpha": "\u03b1"}
PRIV_NAME = PRIVILEGE_WORDS
SPACE_NAME = {"cores": ("Gain", "Cores"), "long": ("Long", "Rays"), "short": ("Short", "Rays"),
              "flares": ("Gain", "Flares"), "launch1": ("Launch", ""),
              "launch2": ("Launch", ""), "launch3": ("Launch", "")}
PATTERN_TEXT = {"any": "any sizes", "long": "all long", "short": "all short",
                "equal": "long = short"}
FONT = "font-family:'DejaVu Sans',Verdana,sans-serif"

# Where each slot sits inside its constellation's panel (x, y in 0..100). The rulebook copy has
# no board picture, so the shapes are drawn to follow the links of data/sky.toml without
# crossings; an unknown constellation (a user's component file) gets a zigzag.
SHAPES: dict[str, list[tuple[float, float]]] = {
    "aquila": [(8, 55), (24, 25), (26, 82), (44, 12), (50, 62), (62, 34), (75, 80), (93, 55)],
    "hydrus": [(8, 50), (25, 18), (25, 82), (45, 20), (45, 80), (62, 50), (78, 28), (94, 62)],
    "cygnus": [(45, 50), (27, 27), (27, 76), (64, 52), (8, 10), (8, 92), (80, 38), (95, 20)],
    "lyra": [(8, 86), (12, 44), (32, 76), (34, 34), (52, 56), (66, 20), (80, 62), (95, 30)],
    "orion": [(16, 74), (38, 60), (58, 50), (28, 28), (76, 74), (42, 8), (92, 38), (74, 10)],
    "draco": [(6, 86), (20, 62), (36, 80), (50, 56), (44, 30), (62, 14), (80, 32), (95, 12)],
}


# Words for the view's keys in the web client's "what you know" panel (GameUI.view_labels).
VIEW_LABELS = {
    "ap": "Action points",
    "board": "Star slots (the seat whose star fills it; -1: empty)",
    "accolades": "Accolades (the seat that won it; -1: nobody yet)",
    "long_bag": "Long rays in the bag",
    "short_bag": "Short rays in the bag",
    "space": "Rondel space",
    "saved_ap": "Saved action points",
}

def _rc(t: Any, c: str) -> str:
    return RAY_COLOR.get(c, FALLBACK[t.colors.index(c) % len(FALLBACK)])


# Each seat's name and colour as the page shows them, for the board being drawn (set by
# ``board_svg`` for its own call; a context variable keeps concurrent drawings apart).
_LOOK: ContextVar[tuple[Sequence[str] | None, Sequence[str] | None]] = ContextVar(
    "starlight_look", default=(None, None)
)


def _who(s: Any, q: int) -> str:
    names = _LOOK.get()[0]
    if names is not None and 0 <= q < len(names) and names[q]:
        return names[q]
    return f"Starbot {q}" if s.is_bot(q) else f"Seat {q}"


def _col(q: int) -> str:
    """Seat ``q``'s colour."""
    colors = _LOOK.get()[1]
    if colors is not None and 0 <= q < len(colors) and colors[q]:
        return colors[q]
    return SEAT_COLOR[q % 6]


def goal_text(g: Any, accolade: bool = False) -> str:
    """A Laurel's or an Accolade's goal in words."""
    k, v = g.kind, g.value
    if k == "constellations":
        if g.constellations and not accolade:
            return "a star in " + ", ".join(x.capitalize() for x in g.constellations)
        return f"stars in {v} constellations"
    words = {"magnitudes": "different magnitudes", "aspects": "different Aspects",
             "privileges": "privileges", "stars": "stars launched",
             "alpha": "alpha stars", "flares_used": "Flares used"}
    if k == "stars_in_one":
        return f"{v} stars in one constellation"
    return f"{v} {words.get(k, k)}"


def flare_text(t: Any, f: int) -> tuple[str, str]:
    card = t.data.flares[f]
    return (NP_TEXT[card.np].format(card.np_value),
            boon_words(card.boon, card.boon_value))


def _defs() -> str:
    return (
        "<defs>"
        '<linearGradient id="sl-sky" x1="0" y1="0" x2="0.3" y2="1">'
        '<stop offset="0" stop-color="#060a1c"/><stop offset="0.55" stop-color="#0f1638"/>'
        '<stop offset="1" stop-color="#1b1242"/></linearGradient>'
        '<radialGradient id="sl-glow"><stop offset="0" stop-color="#ffffff"/>'
        '<stop offset="0.35" stop-color="#fff3c4" stop-opacity="0.9"/>'
        '<stop offset="1" stop-color="#fff3c4" stop-opacity="0"/></radialGradient>'
        '<radialGradient id="sl-core" cx="0.4" cy="0.35" r="0.7">'
        '<stop offset="0" stop-color="#ffffff"/><stop offset="0.5" stop-color="#ffe9a8"/>'
        '<stop offset="1" stop-color="#d08b2c"/></radialGradient>'
        '<linearGradient id="sl-back" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#34286a"/><stop offset="1" stop-color="#17123a"/>'
        "</linearGradient>"
        "</defs>"
    )


def _star_path(cx: float, cy: float, r: float) -> str:
    pts = []
    for i in range(10):
        ang = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append(f"{cx + rr * math.cos(ang):.1f},{cy + rr * math.sin(ang):.1f}")
    return "M" + " L".join(pts) + " Z"


# ------------------------------------------------------------------ the Sky Board

def _constellation_frame(s: Any, v: dict, ci: int, x: float, y: float, w: float,
                         h: float) -> list[str]:
    """A constellation's panel: frame, title, its owners' dots and the Launch spaces naming it."""
    t = s.t
    con = t.data.constellations[ci]
    out = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="14" fill="#0c1230" '
           f'fill-opacity="0.8" stroke="#3d4a8a" stroke-opacity="0.7"/>',
           _t(x + 12, y + 20, con.title, 13, "#ffe9a8", weight="bold")]
    owners = [q for q in range(len(v["seats"])) if any(
        s.board[i] == q for i in t.slots_of[ci])]
    if owners:
        dots = "".join(f'<circle cx="{x + w - 14 - 14 * k}" cy="{y + 15}" r="5" '
                       f'fill="{_col(q)}"/>' for k, q in enumerate(owners))
        out.append(dots)
    shows = [sp for sp, cons in t.launch_shows.items() if ci in cons]
    if shows:
        out.append(_t(x + 12, y + h - 8, "launched from " + ", ".join(
            "/".join(t.constellations[c][:3].capitalize() for c in t.launch_shows[sp])
            for sp in shows) + " Launch space", 9, "#8f9bd0"))
    return out


def _slot_label(s: Any, con: Any, sl: Any, priv: str, own: int) -> str:
    size_word = ("small (magnitude 2-3)", "medium (magnitude 4-5)",
                 "alpha (magnitude 6-7)")[sl.size]
    label = f"{con.title.split(',')[0]} {sl.n}: {size_word}, {sl.np} night points"
    if priv:
        label += f", privilege: {PRIV_NAME[priv]}"
    if sl.target:
        label += ", a target slot (may start the constellation)"
    label += f" - {_who(s, own)}'s star" if own >= 0 else " - empty"
    return label


def _slot(s: Any, con: Any, name: str, i: int, cx: float, cy: float) -> str:
    """One slot of a constellation: a seat's star or an empty ring, target and privilege marks."""
    sl = s.t.slots[i]
    r = SIZE_R[sl.size]
    own = s.board[i]
    priv = PRIVILEGES[sl.privilege] if sl.privilege >= 0 else ""
    inner = []
    if own >= 0:
        col = _col(own)
        inner.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 2:.1f}" '
                     f'fill="url(#sl-glow)" opacity="0.55"/>')
        inner.append(f'<circle class="hit" cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" '
                     f'fill="{col}" stroke="#ffffff" stroke-width="1.5"/>')
        inner.append(f'<path d="{_star_path(cx, cy, r * 0.75)}" fill="#ffffff" '
                     f'fill-opacity="0.85"/>')
        inner.append(_t(cx, cy + 3.5, str(sl.np), 9, "#1a1430", "middle", "bold"))
    else:
        inner.append(f'<circle class="hit" cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" '
                     f'fill="#0a0f28" stroke="{SIZE_COLOR[sl.size]}" stroke-width="1.8"/>')
        inner.append(_t(cx, cy + 4, str(sl.np), 10 + sl.size, "#ffffff", "middle", "bold"))
    if sl.target:
        inner.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r + 4}" fill="none" '
                     f'stroke="#7fffd4" stroke-width="1.3" stroke-dasharray="3 3"/>')
    if priv:
        bx, by = cx + r * 0.8, cy - r * 0.9
        inner.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="7.5" fill="#2b1d5c" '
                     f'stroke="#d6a4ff" stroke-width="1"/>')
        inner.append(_t(bx, by + 3, PRIV_BADGE[priv], 7.5, "#f0dcff", "middle", "bold"))
    inner.append(_t(cx - r * 0.9, cy + r + 10, str(sl.n), 8, "#8f9bd0", "middle"))
    return _g(f"slot:{name}:{sl.n}", _slot_label(s, con, sl, priv, own), inner)


def _constellation(s: Any, v: dict, ci: int, x: float, y: float, w: float, h: float) -> list[str]:
    t = s.t
    con = t.data.constellations[ci]
    name = t.constellations[ci]
    out = _constellation_frame(s, v, ci, x, y, w, h)
    slots = t.slots_of[ci]
    shape = SHAPES.get(name)
    if shape is None or len(shape) != len(slots):
        shape = [(8 + 84 * k / max(1, len(slots) - 1), 25 + 50 * (k % 2))
                 for k in range(len(slots))]
    ix, iy, iw, ih = x + 26, y + 40, w - 52, h - 78
    pos = {i: (ix + iw * px / 100, iy + ih * py / 100) for i, (px, py) in zip(slots, shape,
                                                                              strict=True)}
    for i in slots:
        for j in t.slots[i].links:
            if j > i:
                (x0, y0), (x1, y1) = pos[i], pos[j]
                lit = s.board[i] >= 0 and s.board[j] >= 0
                out.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                           f'stroke="{"#ffe9a8" if lit else "#6f7fc0"}" '
                           f'stroke-opacity="{0.9 if lit else 0.45}" '
                           f'stroke-width="{2.2 if lit else 1.4}"/>')
    for i in slots:
        out.append(_slot(s, con, name, i, *pos[i]))
    return out


# ------------------------------------------------------------------ the rondel

def _rondel(s: Any, v: dict, cx: float, cy: float, R: float) -> list[str]:
    t = s.t
    out = [f'<circle cx="{cx}" cy="{cy}" r="{R + 58}" fill="#0c1230" fill-opacity="0.75" '
           f'stroke="#3d4a8a"/>',
           f'<circle cx="{cx}" cy="{cy}" r="{R}" fill="none" stroke="#6f7fc0" '
           f'stroke-opacity="0.5" stroke-dasharray="2 6"/>',
           _t(cx, cy - 6, "RONDEL", 13, "#ffe9a8", "middle", "bold",
              ' letter-spacing="3"'),
           _t(cx, cy + 12, "clockwise, 1 AP a step", 9, "#8f9bd0", "middle")]
    n = len(t.rondel)
    here = {i: [q for q, sd in enumerate(v["seats"]) if s.pos[q] == i] for i in range(n)}
    turn = v["turn"]
    for i, sp in enumerate(t.rondel):
        ang = -math.pi / 2 + 2 * math.pi * i / n
        x, y = cx + R * math.cos(ang), cy + R * math.sin(ang)
        # an arrow to the next space
        a2 = ang + 2 * math.pi / n * 0.5
        ax, ay = cx + R * math.cos(a2), cy + R * math.sin(a2)
        dx, dy = -math.sin(a2), math.cos(a2)
        out.append(f'<path d="M{ax - 6 * dx + 4 * dy:.1f},{ay - 6 * dy - 4 * dx:.1f} '
                   f'L{ax + 6 * dx:.1f},{ay + 6 * dy:.1f} '
                   f'L{ax - 6 * dx - 4 * dy:.1f},{ay - 6 * dy + 4 * dx:.1f}" '
                   f'fill="none" stroke="#8f9bd0" stroke-width="1.6"/>')
        launch = sp.startswith("launch")
        col = "#ff9a7a" if launch else "#7fc8ff"
        l1, l2 = SPACE_NAME.get(sp, (sp, ""))
        if launch:
            l2 = "/".join(t.constellations[c][:3].capitalize() for c in t.launch_shows[sp])
            label = "Launch space: launch a star to " + " or ".join(
                t.constellations[c].capitalize() for c in t.launch_shows[sp])
        else:
            label = {"cores": "Gain Cores (1 AP each, at most 2)",
                     "long": "Gain Long Rays (1 AP each)", "short": "Gain Short Rays (1 AP each)",
                     "flares": "Gain Flares (1-4 AP by position)"}.get(sp, sp)
        if here[i]:
            label += " - here: " + ", ".join(_who(s, q) for q in here[i])
        inner = [f'<circle class="hit" cx="{x:.1f}" cy="{y:.1f}" r="36" fill="#141b44" '
                 f'stroke="{col}" stroke-width="2"/>',
                 _t(x, y - 3, l1, 11, col, "middle", "bold"),
                 _t(x, y + 11, l2, 9.5, "#ffffff", "middle")]
        if launch:
            inner.append(f'<path d="{_star_path(x, y - 22, 6)}" fill="#ff9a7a"/>')
        for k, q in enumerate(here[i]):
            pa = ang + (k - (len(here[i]) - 1) / 2) * 0.2
            px, py = cx + (R + 45) * math.cos(pa), cy + (R + 45) * math.sin(pa)
            c2 = _col(q)
            ring = ' stroke="#ffffff" stroke-width="2.5"' if q == turn else ' stroke="#0a0f28"'
            inner.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="10" fill="{c2}"{ring}/>')
            inner.append(_t(px, py + 4, ("B" if s.is_bot(q) else "") + str(q), 9, "#1a1430",
                            "middle", "bold"))
        out.append(_g(f"rondel:{sp}", label, inner))
    return out


# ------------------------------------------------------------------ cards and tokens

def _core_card(s: Any, x: float, y: float, c: int, gid: str | None, note: str = "",
               w: float = 86, h: float = 96, glow: bool = False) -> str:
    t = s.t
    cid = t.core_ids[c]
    starter = c >= t.num_deck_cores
    if starter:
        colors = list(t.colors)
        pattern, aspect = "any sizes", "+1 ray printed"
    else:
        card = t.data.cores[c]
        colors = card.colors
        pattern, aspect = PATTERN_TEXT[card.pattern], card.aspect
    inner = [f'<rect class="hit" x="{x}" y="{y}" width="{w}" height="{h}" rx="9" '
             f'fill="#1a1640" stroke="{"#ffffff" if glow else "#ffd27f"}" '
             f'stroke-width="{2.4 if glow else 1.4}"/>',
             f'<circle cx="{x + w / 2}" cy="{y + 30}" r="14" fill="url(#sl-core)"/>',
             _t(x + 8, y + 15, cid, 10, "#ffe9a8", weight="bold")]
    k = len(colors)
    for j, col in enumerate(colors):
        ang = -math.pi / 2 + 2 * math.pi * j / k
        inner.append(f'<line x1="{x + w / 2 + 15 * math.cos(ang):.1f}" '
                     f'y1="{y + 30 + 15 * math.sin(ang):.1f}" '
                     f'x2="{x + w / 2 + 22 * math.cos(ang):.1f}" '
                     f'y2="{y + 30 + 22 * math.sin(ang):.1f}" stroke="{_rc(t, col)}" '
                     f'stroke-width="3" stroke-linecap="round"/>')
    inner.append(_t(x + w / 2, y + 66, pattern, 9, "#ffffff", "middle"))
    inner.append(_t(x + w / 2, y + 79, aspect, 9, "#d6a4ff", "middle"))
    if note:
        inner.append(_t(x + w / 2, y + h - 5, note, 8, "#7fffd4", "middle", "bold"))
    label = (f"Core {cid}: " + ("Starter Core, any colour and size, one ray printed"
                                if starter else
                                f"{'/'.join(colors)} rays, {pattern}, Aspect {aspect}"))
    return _g(gid, label, inner)


def _flare_card(s: Any, x: float, y: float, f: int, gid: str | None, top: str = "",
                w: float = 92, h: float = 100, used: bool = False) -> str:
    t = s.t
    fid = t.flare_ids[f]
    np_t, boon_t = flare_text(t, f)
    op = ' opacity="0.55"' if used else ""
    inner = [f'<rect class="hit" x="{x}" y="{y}" width="{w}" height="{h}" rx="9" '
             f'fill="#2a1238" stroke="#ff7ad9" stroke-width="1.4"/>',
             _t(x + 8, y + 14, fid, 10, "#ffb3ec", weight="bold")]
    if top:
        inner.append(_t(x + w - 8, y + 14, top, 10, "#ffe9a8", "end", "bold"))
    inner.append(f'<rect x="{x + 5}" y="{y + 20}" width="{w - 10}" height="{h / 2 - 16}" rx="5" '
                 f'fill="#1f3a7a" fill-opacity="0.7"/>')
    inner.append(f'<rect x="{x + 5}" y="{y + h / 2 + 8}" width="{w - 10}" '
                 f'height="{h / 2 - 14}" rx="5" fill="#1f6a4a" fill-opacity="0.7"/>')
    for j, line in enumerate(_wrap(np_t, 16)[:2]):
        inner.append(_t(x + w / 2, y + 33 + 11 * j, line, 8.5, "#d8e6ff", "middle"))
    for j, line in enumerate(_wrap("boon: " + boon_t, 16)[:2]):
        inner.append(_t(x + w / 2, y + h / 2 + 21 + 11 * j, line, 8.5, "#d8ffe6", "middle"))
    label = f"Flare {fid}: at launch {np_t}; or boon: {boon_t}" + (" (used)" if used else "")
    return _g(gid, label, f"<g{op}>{''.join(inner)}</g>")


def _wrap(text: str, n: int) -> list[str]:
    words = text.split()
    lines: list[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > n:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines


def _ray(t: Any, x: float, y: float, size: int, color: str, count: int, gid: str | None,
         label: str) -> str:
    col = _rc(t, color)
    ln = 30 if size == 0 else 16
    inner = [f'<rect class="hit" x="{x - 4}" y="{y - 12}" width="{ln + 30}" height="24" rx="7" '
             f'fill="#10163a" stroke="{col}" stroke-opacity="0.5"/>',
             f'<line x1="{x + 2}" y1="{y}" x2="{x + 2 + ln}" y2="{y}" stroke="{col}" '
             f'stroke-width="{5 if size == 0 else 4}" stroke-linecap="round"/>',
             _t(x + ln + 20, y + 4, f"{count}", 11, "#ffffff", "middle", "bold")]
    return _g(gid, label, inner)


def _button(gid: str, x: float, y: float, w: float, text: str, label: str,
            color: str = "#7fffd4") -> str:
    return _g(gid, label, [
        # a transparent margin: the button takes taps a little beyond its outline
        f'<rect x="{x - 3}" y="{y - 3}" width="{w + 6}" height="28" fill="transparent"/>',
        f'<rect class="hit" x="{x}" y="{y}" width="{w}" height="22" rx="11" fill="#10163a" '
        f'stroke="{color}" stroke-width="1.3"/>',
        _t(x + w / 2, y + 15, text, 10, color, "middle", "bold")])


# ------------------------------------------------------------------ the whole board

def board_svg(s: Any, viewer: int | None, names: Sequence[str] | None = None,
              colors: Sequence[str] | None = None) -> str:
    """One ``<svg>`` of what ``viewer`` sees (None: a spectator). ``names``/``colors``: each
    seat's name and colour as the page shows them (default ``Seat N``/``Starbot N`` and
    ``SEAT_COLOR``)."""
    token = _LOOK.set((names, colors))
    try:
        return _board_svg(s, viewer)
    finally:
        _LOOK.reset(token)


_PHASE_WORD = {"choose-star": "choose the Core to launch",
               "build-star": "build the star: attach rays, a Flare, choose its slot",
               "buy-night-points": "buy night points (2 AP each)",
               "free-ray": "take a free ray", "free-core": "take a free Core"}


def _status(s: Any, v: dict) -> str:
    """The status line: game over, set-up, or whose turn with its AP and phase."""
    turn = v["turn"]
    if v["terminal"]:
        win = ", ".join(_who(s, q) for q in v.get("winners", []))
        return f"Game over - winner: {win}"
    if v["phase"] == "choose-god":
        return f"Set-up: {_who(s, turn)} chooses a God"
    if turn < 0:
        return "Setting up"
    status = f"Round {v['round']} \u00b7 {_who(s, turn)} to act"
    if not s.is_bot(turn):
        status += f" \u00b7 {v['ap']} AP"
    if v["phase"] in _PHASE_WORD:
        status += f" \u00b7 {_PHASE_WORD[v['phase']]}"
    if v["first_turn"]:
        status += " \u00b7 first turn"
    if v["last_turn"]:
        status += " \u00b7 last turn"
    return status


def _legend(bx: float, ly: float, width: float) -> list[str]:
    """The Sky Board's key: slot sizes, the target ring, then the privilege badges."""
    legend = [f'<circle cx="{bx + 14}" cy="{ly + 6}" r="6" fill="none" '
              f'stroke="{SIZE_COLOR[0]}" stroke-width="1.6"/>',
              _t(bx + 24, ly + 10, "small 2-3", 9, "#aab3da"),
              f'<circle cx="{bx + 94}" cy="{ly + 6}" r="7" fill="none" '
              f'stroke="{SIZE_COLOR[1]}" stroke-width="1.6"/>',
              _t(bx + 104, ly + 10, "medium 4-5", 9, "#aab3da"),
              f'<circle cx="{bx + 182}" cy="{ly + 6}" r="8" fill="none" '
              f'stroke="{SIZE_COLOR[2]}" stroke-width="1.6"/>',
              _t(bx + 193, ly + 10, "alpha 6-7", 9, "#aab3da"),
              f'<circle cx="{bx + 262}" cy="{ly + 6}" r="7" fill="none" stroke="#7fffd4" '
              f'stroke-dasharray="3 3"/>',
              _t(bx + 273, ly + 10, "target", 9, "#aab3da")]
    px: float = bx + 340
    for p in PRIVILEGES:
        if px > bx + width - 120:
            px, ly = bx + 340, ly + 18
        legend.append(f'<circle cx="{px}" cy="{ly + 6}" r="7" fill="#2b1d5c" stroke="#d6a4ff"/>')
        legend.append(_t(px, ly + 9, PRIV_BADGE[p], 7.5, "#f0dcff", "middle", "bold"))
        legend.append(_t(px + 10, ly + 10, PRIV_NAME[p], 9, "#aab3da"))
        px += 16 + 5.3 * len(PRIV_NAME[p]) + 10
    return legend


def _ray_pools(s: Any, v: dict, rx: float, rw: float, ry: float, out: list[str]) -> float:
    """The long and short ray pools with their flush buttons; returns the y below them."""
    t = s.t
    for size, key in ((0, "long"), (1, "short")):
        pool = v[f"{key}_pool"]
        bag = v[f"{key}_bag"]
        out.append(_t(rx + 12, ry + 4, f"{key.capitalize()} rays \u00b7 bag "
                      f"{sum(bag.values())}", 11, "#ffe9a8", weight="bold"))
        out.append(_button(f"pool:{key}:flush", rx + rw - 74, ry - 12, 62, "flush",
                           f"Flush the {key} ray pool and draw it again (1 AP)"))
        counts = {c: pool.count(c) for c in t.colors if c in pool}
        xx = rx + 16
        for c, cnt in counts.items():
            out.append(_ray(t, xx, ry + 24, size, c, cnt, f"pool:{key}:{c}",
                            f"{cnt} {key} {c} ray{'' if cnt == 1 else 's'} in the pool"))
            xx += (30 if size == 0 else 16) + 38
        if not counts:
            out.append(_t(rx + 16, ry + 28, "empty", 10, "#6f7aa8"))
        ry += 52
    return ry


def _flare_pool(s: Any, v: dict, rx: float, rw: float, fy: float, out: list[str]) -> None:
    """The Flare pool: each place costs its position in AP; empty places dashed."""
    t = s.t
    out.append(_t(rx + 12, fy + 4, f"Flare pool \u00b7 deck {v['flare_deck']}", 11, "#ffe9a8",
                  weight="bold"))
    out.append(_button("pool:flares:flush", rx + rw - 74, fy - 12, 62, "flush",
                       "Flush the Flare pool and deal it again (1 AP)"))
    fw = (rw - 24 - 6 * (len(v["flare_pool"]) - 1)) / max(1, len(v["flare_pool"]))
    for k, fid in enumerate(v["flare_pool"]):
        x0 = rx + 12 + k * (fw + 6)
        if fid is None:
            out.append(f'<rect x="{x0}" y="{fy + 12}" width="{fw}" height="100" rx="9" '
                       f'fill="none" stroke="#6f7aa8" stroke-dasharray="4 4"/>')
            out.append(_t(x0 + fw / 2, fy + 66, f"{k + 1} AP", 10, "#6f7aa8", "middle"))
            continue
        f = t.flare_ids.index(fid)
        out.append(_flare_card(s, x0, fy + 12, f, f"pool:flare:{k + 1}", top=f"{k + 1} AP",
                               w=fw))


def _pools(s: Any, v: dict, rx: float, rw: float, py: float, out: list[str]) -> float:
    """The Core, ray and Flare pools in one panel; returns the panel's bottom."""
    t = s.t
    out.append(section("Pools", rx, py, rw, 290))
    panel_at = len(out)  # the panel's frame goes in once its height is known
    out.append(_t(rx + 12, py + 20, f"Core pool \u00b7 deck {v['core_deck']} \u00b7 "
                  f"discards {len(v['core_discard'])}", 11, "#ffe9a8", weight="bold"))
    for k, cid in enumerate(v["core_pool"]):
        c = t.core_ids.index(cid)
        out.append(_core_card(s, rx + 12 + 92 * k, py + 28, c, f"pool:core:{cid}", w=86, h=88))
    out.append(_button("pool:cores:flush", rx + rw - 74, py + 8, 62, "flush",
                       "Flush the Core pool and deal three new Cores (1 AP)"))
    fy = _ray_pools(s, v, rx, rw, py + 134, out)
    _flare_pool(s, v, rx, rw, fy, out)
    right_bottom = fy + 120
    out.insert(panel_at, f'<rect x="{rx}" y="{py}" width="{rw}" height="{right_bottom - py}" '
               f'rx="14" fill="#0c1230" fill-opacity="0.8" stroke="#3d4a8a"/>')
    return right_bottom


def _accolade(s: Any, v: dict, acc: Any, x0: float, ay: float) -> str:
    """One Accolade card: goal, day points, who won it and the Starbots' markers toward it."""
    owner = v["accolades"][acc.id]
    won = owner is not None and owner >= 0
    col = _col(owner) if won else "#6f7fc0"
    marks = [(q, sd["accolade_markers"][acc.index - 1]) for q, sd in enumerate(v["seats"])
             if sd["starbot"] and sd["accolade_markers"][acc.index - 1]]
    label = f"Accolade {acc.index}: {goal_text(acc, True)}, {acc.dp} day points"
    if owner is not None and owner >= 0:
        label += f" - won by {_who(s, owner)}"
    inner = [f'<rect x="{x0}" y="{ay + 22}" width="142" height="62" rx="10" '
             f'fill="#141b44" stroke="{col}" stroke-width="{2 if won else 1}"/>',
             _t(x0 + 10, ay + 40, f"#{acc.index}", 12, "#ffe9a8", weight="bold"),
             _t(x0 + 132, ay + 40, f"{acc.dp} DP", 11, "#ffe9a8", "end", "bold")]
    for j, line in enumerate(_wrap(goal_text(acc, True), 24)[:2]):
        inner.append(_t(x0 + 10, ay + 56 + 12 * j, line, 9.5, "#dfe6ff"))
    if won:
        inner.append(f'<circle cx="{x0 + 44}" cy="{ay + 36}" r="7" fill="{col}"/>')
        inner.append(_t(x0 + 55, ay + 40, "won", 9, col, weight="bold"))
    for j, (q, m) in enumerate(marks):
        inner.append(_t(x0 + 132, ay + 78 - 12 * j, f"B{q}: {m}/5", 8.5,
                        _col(q), "end"))
    return _g(None, label, inner)


def _slotless(s: Any, sx0: float, ay: float) -> str:
    """The slotless final-launch box with its night points by star size."""
    sl = s.t.data.slotless
    return _g("board:slotless",
              f"Slotless final launch: small {sl.small}, medium {sl.medium}, "
              f"alpha {sl.large} night points", [
                  f'<rect class="hit" x="{sx0}" y="{ay + 22}" width="128" height="62" '
                  f'rx="10" fill="#141b44" stroke="#ff9a7a" stroke-dasharray="5 3"/>',
                  _t(sx0 + 64, ay + 40, "slotless launch", 10, "#ff9a7a", "middle", "bold"),
                  _t(sx0 + 64, ay + 58, f"{sl.small} / {sl.medium} / {sl.large} NP", 11,
                     "#ffffff", "middle", "bold"),
                  _t(sx0 + 64, ay + 74, "small / medium / alpha", 8.5, "#aab3da",
                     "middle")])


def _star_rays(s: Any, star: dict, scx: float, scy: float) -> list[str]:
    """The rays of the star being launched, spread evenly around its Core."""
    t = s.t
    c = t.core_ids.index(star["core"])
    rays = []
    for key, cnt in star["rays"].items():
        size_w, color = key.split(" ", 1)
        rays += [(size_w, color)] * cnt
    if c >= t.num_deck_cores:
        rays.append(("short", "white"))
    k = max(1, len(rays))
    out = []
    for j, (size_w, color) in enumerate(rays):
        ang = -math.pi / 2 + 2 * math.pi * j / k
        ln = 26 if size_w == "long" else 16
        out.append(f'<line x1="{scx + 11 * math.cos(ang):.1f}" '
                   f'y1="{scy + 11 * math.sin(ang):.1f}" '
                   f'x2="{scx + (11 + ln) * math.cos(ang):.1f}" '
                   f'y2="{scy + (11 + ln) * math.sin(ang):.1f}" '
                   f'stroke="{_rc(t, color) if color in t.colors else "#ffffff"}" '
                   f'stroke-width="3.5" stroke-linecap="round"/>')
    return out


def _launching(s: Any, v: dict, star: dict, stx: float, sty: float, width: float) -> list[str]:
    """The star being launched, built face up: its Core, rays and Flare."""
    mag = s.star_magnitude()  # the star is built face up
    out = [f'<rect x="{stx}" y="{sty + 4}" width="{width}" height="86" rx="12" '
           f'fill="#1a1640" stroke="#ffe9a8" stroke-opacity="0.7"/>']
    what = f"a star of magnitude {mag}" if star["rays"] else "a star (no rays yet)"
    out.append(_t(stx + 12, sty + 22, f"{_who(s, v['turn'])} is launching {what}", 11,
                  "#ffe9a8", weight="bold"))
    scx, scy = stx + 60, sty + 56
    out.append(f'<circle cx="{scx}" cy="{scy}" r="26" fill="url(#sl-glow)"/>')
    out.append(f'<circle cx="{scx}" cy="{scy}" r="10" fill="url(#sl-core)"/>')
    out += _star_rays(s, star, scx, scy)
    desc = f"Core {star['core']}; rays: " + (", ".join(
        f"{n} {k2}" for k2, n in star["rays"].items()) or "none yet")
    if star["flare"]:
        desc += f"; Flare {star['flare']}"
    for j, line in enumerate(_wrap(desc, 60)[:3]):
        out.append(_t(stx + 104, sty + 44 + 14 * j, line, 10, "#dfe6ff"))
    return out


def _under_board(s: Any, v: dict, bx: float, ay: float, width: float, out: list[str]) -> float:
    """Accolades, the slotless box and the star being launched; returns the y below them."""
    out.append(section("Accolades", bx, ay, width, 100))
    out.append(_t(bx + 6, ay + 14, "Accolades", 13, "#ffe9a8", weight="bold"))
    for k, acc in enumerate(s.t.data.accolades):
        out.append(_accolade(s, v, acc, bx + 6 + k * 150, ay))
    out.append(_slotless(s, bx + 6 + 5 * 150 + 6, ay))
    star = v["star"]
    sty = ay + 96
    if star:
        out += _launching(s, v, star, bx + 6, sty, width - 14)
    return sty + (96 if star else 0)


def _board_svg(s: Any, viewer: int | None) -> str:
    t = s.t
    v = s.view(viewer)
    out: list[str] = []
    out.append(_t(24, 38, "STARLIGHT", 26, "#ffe9a8", weight="bold", extra=' letter-spacing="5"'))
    out.append(_t(250, 36, _status(s, v), 15, "#ffffff", weight="bold"))
    day = (f"Daybreak came in round {v['daybreak_round']}: the next round is the last"
           if v["daybreak_round"] else f"Daybreak at {t.data.board.daybreak} night points")
    out.append(_t(250, 54, day, 10, "#aab3da"))
    # ---- Sky Board and its legend
    bx, by = 16, 70
    cw, ch = 306, 236
    for ci in range(len(t.constellations)):
        gc, gr = ci % 3, ci // 3
        out.extend(_constellation(s, v, ci, bx + gc * (cw + 8), by + gr * (ch + 8), cw, ch))
    rows = -(-len(t.constellations) // 3)
    board_bottom = by + rows * (ch + 8)
    out.append(section("Sky", bx, by, 3 * (cw + 8), rows * (ch + 8)))
    out.extend(_legend(bx, board_bottom, 3 * (cw + 8)))
    # ---- rondel and pools (right column)
    rx = 3 * (cw + 8) + bx + 4
    rw = W - rx - 12
    out.extend(_rondel(s, v, rx + rw / 2, by + 166, 106))
    out.append(section("Rondel", rx, by, rw, 330))
    right_bottom = _pools(s, v, rx, rw, by + 342, out)
    # ---- under the board, then the seat mats
    under = _under_board(s, v, bx, board_bottom + 32, 3 * (cw + 8), out)
    y: float = max(under, right_bottom + 12)
    for q, sd in enumerate(v["seats"]):
        y = _mat(s, v, sd, q, viewer, y, out)
    height = int(y + 10)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" width="100%" '
        f'preserveAspectRatio="xMidYMin meet" style="{FONT}" role="img" '
        f'aria-label="Starlight board">'
        + _defs()
        + f'<rect x="0" y="0" width="{W}" height="{height}" fill="url(#sl-sky)"/>'
        + starfield(W, height, 987654, 170)
        + "".join(out)
        + "</svg>"
    )


def _mat_header(s: Any, v: dict, sd: dict, q: int, me: bool, y: float) -> list[str]:
    """The mat's name, points and one info line (the score breakdown once the game is over)."""
    terminal = v["terminal"]
    bot = sd["starbot"]
    name = _who(s, q) + (" (you)" if me else "")
    crown = " \u265b" if terminal and q in v.get("winners", []) else ""
    out = [f'<circle cx="34" cy="{y + 24}" r="9" fill="{_col(q)}"/>',
           _t(50, y + 29, name + crown, 15, "#ffffff", weight="bold")]
    score = v["scores"][q]
    big = f"{score:g}" if terminal else f"{sd['night_points']}"
    out.append(_t(250, y + 30, big, 22, "#ffe9a8", "end", "bold"))
    out.append(_t(250, y + 44, "points" if terminal else "night points", 9, "#ffe9a8", "end"))
    info = [f"stars {sd['stars']}",
            f"on {sd['space']}" if sd["space"] else "not on the rondel yet"]
    if not bot:
        info.append(f"saved AP {sd['saved_ap']}")
        if sd.get("head_start"):
            info.append(f"head start +{sd['head_start']}")
    out.append(_t(26, y + 62, " \u00b7 ".join(info), 10, "#aab3da"))
    if terminal and "score_breakdown" in v:
        row = v["score_breakdown"][q]
        txt = " \u00b7 ".join(
            f"{k.replace('_', ' ')} {val:g}" for k, val in row.items() if k != "total" and val
        )
        out.append(_t(26, y + 76, txt, 9.5, "#ffe9a8"))
    return out


def _starbot_line(v: dict, sd: dict, y: float) -> list[str]:
    """A Starbot's mat: its Accolade markers and deck."""
    marks = sd["accolade_markers"]
    n_deck = v["starbot_deck"]
    return [_t(300, y + 29, "Starbot: plays from its deck \u00b7 Accolade markers "
               + "  ".join(f"#{i + 1}: {m}" for i, m in enumerate(marks)), 11, "#dfe6ff"),
            _t(300, y + 50, f"Starbot deck {n_deck} card{'' if n_deck == 1 else 's'}, "
               f"{len(v['starbot_discard'])} discarded", 10, "#aab3da")]


def _record_track(s: Any, sd: dict, ry: float) -> list[str]:
    """The mat's record track: privileges, magnitudes and aspects, lit where recorded."""
    out = [_t(26, ry, "Privileges", 10, "#aab3da", weight="bold")]
    for k, p in enumerate(PRIVILEGES):
        on = p in sd["privileges"]
        cx = 36 + 36 * k
        out.append(_g(None, f"{PRIV_NAME[p]}: {'recorded' if on else 'not yet'}", [
            f'<circle cx="{cx}" cy="{ry + 18}" r="13" fill="{"#5a3aa8" if on else "#141b44"}" '
            f'stroke="{"#d6a4ff" if on else "#3d4a8a"}" stroke-width="1.4"/>',
            _t(cx, ry + 22, PRIV_BADGE[p], 10, "#ffffff" if on else "#4f5a90", "middle",
               "bold")]))
    ry += 50
    out.append(_t(26, ry, "Magnitudes", 10, "#aab3da", weight="bold"))
    for m in range(2, 8):
        on = m in sd["magnitudes"]
        cx = 36 + 36 * (m - 2)
        out.append(f'<rect x="{cx - 13}" y="{ry + 6}" width="26" height="24" rx="6" '
                   f'fill="{"#7a5a10" if on else "#141b44"}" '
                   f'stroke="{"#ffd27f" if on else "#3d4a8a"}"/>')
        out.append(_t(cx, ry + 23, str(m), 11, "#ffffff" if on else "#4f5a90", "middle", "bold"))
    ry += 50
    out.append(_t(26, ry, "Aspects", 10, "#aab3da", weight="bold"))
    for k, asp in enumerate(s.t.aspects):
        on = asp in sd["aspects"]
        cx = 36 + 36 * k
        out.append(_g(None, f"Aspect {asp}: {'recorded' if on else 'not yet'}", [
            f'<rect x="{cx - 16}" y="{ry + 6}" width="32" height="24" rx="6" '
            f'fill="{"#1f5a5a" if on else "#141b44"}" '
            f'stroke="{"#7fffd4" if on else "#3d4a8a"}"/>',
            _t(cx, ry + 21.5, asp[:5], 8, "#ffffff" if on else "#4f5a90", "middle")]))
    return out


def _mat_cores_rays(s: Any, v: dict, sd: dict, q: int, me: bool, y: float,
                    out: list[str]) -> float:
    """The seat's Cores (the one being launched glows) and rays; returns where Flares go."""
    t = s.t
    cx0 = 270
    out.append(_t(cx0, y + 48, f"Cores ({len(sd['cores'])})", 11, "#ffe9a8", weight="bold"))
    star_core = v["star"]["core"] if v["star"] and q == v["turn"] else None
    for k, cid in enumerate(sd["cores"]):
        c = t.core_ids.index(cid)
        gid = f"hand:core:{cid}" if me else None
        note = "launching" if cid == star_core else ""
        out.append(_core_card(s, cx0 + 92 * k, y + 56, c, gid, note, w=86, h=96,
                              glow=bool(note)))
    rx0 = cx0 + 92 * max(4, len(sd["cores"])) + 8
    out.append(_t(rx0, y + 48, "Rays", 11, "#ffe9a8", weight="bold"))
    for size, key in ((0, "long"), (1, "short")):
        xx: float = rx0
        yy = y + 72 + 34 * size
        any_ray = False
        for c in t.colors:
            cnt = sd["rays"].get(f"{key} {c}", 0)
            if not cnt:
                continue
            any_ray = True
            gid = f"hand:ray:{key}:{c}" if me else None
            out.append(_ray(t, xx + 4, yy, size, c, cnt, gid,
                            f"{cnt} {key} {c} ray{'' if cnt == 1 else 's'}"))
            xx += (30 if size == 0 else 16) + 38
        if not any_ray:
            out.append(_t(rx0 + 4, yy + 4, f"no {key} rays", 10, "#4f5a90"))
    return rx0 + 5 * 68 + 10


def _mat_flares(s: Any, sd: dict, me: bool, fx0: float, y: float, out: list[str]) -> None:
    """Held Flares, fanned out when they do not fit; used ones fill what room is left."""
    t = s.t
    fl = sd["flares"]
    used = sd["used_flares"]
    out.append(_t(fx0, y + 48, f"Flares ({len(fl)} held, {len(used)} used)", 11, "#ffe9a8",
                  weight="bold"))
    avail = W - 30 - fx0
    step = 88.0 if len(fl) * 88 <= avail else max(18.0, (avail - 82) / max(1, len(fl) - 1))
    xx = float(fx0)
    for fid in fl:
        f = t.flare_ids.index(fid)
        gid = f"hand:flare:{fid}" if me else None
        out.append(_flare_card(s, xx, y + 56, f, gid, w=82, h=96))
        xx += step
    if fl and step < 88:
        xx += 82 - step + 6
    room = int((W - 30 - xx + 6) // 88)
    shown = used[-room:] if room > 0 else []
    for fid in shown:
        f = t.flare_ids.index(fid)
        out.append(_flare_card(s, xx, y + 56, f, None, w=82, h=96, used=True))
        xx += 88


def _god_card(card: Any, gx: float, gy: float, gid: str | None, label: str,
              rect_extra: str) -> str:
    """One God card face: name, title and the first two lines of its power."""
    cls = ' class="hit"' if gid else ""
    return _g(gid, label, [
        f'<rect{cls} x="{gx}" y="{gy + 12}" width="230" height="58" rx="9" fill="#2a2410" '
        f'stroke="#ffd27f"{rect_extra}/>',
        _t(gx + 10, gy + 30, f"{card.name}, {card.title}", 11, "#ffe9a8", weight="bold"),
        *[_t(gx + 10, gy + 44 + 11 * j, line, 8.5, "#f5ecd0")
          for j, line in enumerate(_wrap(card.text, 44)[:2])]])


def _mat_gods(s: Any, sd: dict, gy: float, out: list[str]) -> float:
    """The God kept, the Gods to choose from (or their backs); returns the x after them."""
    t = s.t
    gx = 270
    god = sd.get("god")
    out.append(_t(gx, gy + 6, "God: choose one to keep" if sd.get("god_hand") else "God", 11,
                  "#ffe9a8", weight="bold"))
    if god:
        card = t.data.gods[t.god_ids.index(god)]
        out.append(_god_card(card, gx, gy, None, f"{card.name}, {card.title}: {card.text}", ""))
        gx += 240
    hand = sd.get("god_hand")
    if hand:
        for gid_ in hand:
            card = t.data.gods[t.god_ids.index(gid_)]
            out.append(_god_card(card, gx, gy, f"hand:god:{gid_}",
                                 f"Keep {card.name}, {card.title}: {card.text}",
                                 ' stroke-dasharray="5 3"'))
            gx += 240
    elif sd["god_cards_in_hand"]:
        for k in range(sd["god_cards_in_hand"]):
            out.append(f'<rect x="{gx + 6 * k}" y="{gy + 12 + 2 * k}" width="44" height="58" '
                       f'rx="7" fill="url(#sl-back)" stroke="#ffd27f"/>')
        out.append(_t(gx + 60, gy + 46, f"{sd['god_cards_in_hand']} God cards to choose from",
                      10, "#aab3da"))
        gx += 250
    elif not god:
        out.append(_t(gx, gy + 30, "none", 10, "#4f5a90"))
        gx += 60
    return gx


def _mat_laurels(s: Any, sd: dict, q: int, lx: float, gy: float, out: list[str]) -> None:
    """The seat's Laurels face up (ticked when met) or, hidden, their backs."""
    t = s.t
    out.append(_t(lx, gy + 6, "Laurels", 11, "#ffe9a8", weight="bold"))
    laurels = sd.get("laurels")
    if laurels is not None:
        for k, lid in enumerate(laurels):
            li = t.laurel_ids.index(lid)
            card = t.data.laurels[li]
            met = s.goal_met(q, card)
            out.append(_g(None, f"Laurel {lid}: {goal_text(card)}, {card.dp} day points"
                          + (" - met" if met else ""), [
                f'<rect x="{lx + 200 * k}" y="{gy + 12}" width="192" height="58" rx="9" '
                f'fill="#10301c" stroke="{"#7fffd4" if met else "#4fa070"}" '
                f'stroke-width="{2 if met else 1}"/>',
                _t(lx + 200 * k + 10, gy + 30, f"{lid} \u00b7 {card.dp} DP"
                   + (" \u2713" if met else ""), 11, "#bfffd8", weight="bold"),
                *[_t(lx + 200 * k + 10, gy + 44 + 11 * j, line, 8.5, "#dfffe8")
                  for j, line in enumerate(_wrap(goal_text(card), 34)[:2])]]))
    else:
        n = sd["laurel_count"]
        for k in range(n):
            out.append(f'<rect x="{lx + 6 * k}" y="{gy + 12 + 2 * k}" width="44" height="58" '
                       f'rx="7" fill="url(#sl-back)" stroke="#4fa070"/>')
        out.append(_t(lx + 60, gy + 46, f"{n} secret Laurel{'' if n == 1 else 's'}", 10, "#aab3da"))


def _mat_buttons(v: dict, q: int, y: float) -> list[str]:
    """The viewer's own special buttons: final launch, buy a night point."""
    bxx = W - 170
    out = []
    if v["last_turn"] and v["turn"] == q:
        out.append(_button("mat:final", bxx, y + 12, 150, "final launch",
                           "Final launch: 1 AP, to any constellation or slotless",
                           "#ff9a7a"))
    if v["phase"] == "buy-night-points" and v["turn"] == q:
        out.append(_button("mat:buy", bxx, y + 40, 150, "buy 1 NP (2 AP)",
                           "Buy one night point for 2 action points", "#ffd27f"))
    return out


def _mat(s: Any, v: dict, sd: dict, q: int, viewer: int | None, y: float,
         out: list[str]) -> float:
    col = _col(q)
    terminal = v["terminal"]
    acting = not terminal and q in v["current_players"]
    me = q == viewer
    bot = sd["starbot"]
    h = 96 if bot else 246
    out.append(section("Your mat" if me else f"{_who(s, q)}'s mat", 12, y, W - 24, h))
    out.append(f'<rect x="12" y="{y}" width="{W - 24}" height="{h}" rx="16" fill="#0f1434" '
               f'fill-opacity="0.82" stroke="{col}" stroke-opacity="{0.95 if acting else 0.4}" '
               f'stroke-width="{2.6 if acting else 1.2}"/>')
    out += _mat_header(s, v, sd, q, me, y)
    if bot:
        out += _starbot_line(v, sd, y)
        return y + h + 10
    out += _record_track(s, sd, y + 96)
    fx0 = _mat_cores_rays(s, v, sd, q, me, y, out)
    _mat_flares(s, sd, me, fx0, y, out)
    gy = y + 166  # the second row: God, Laurels
    gx = _mat_gods(s, sd, gy, out)
    _mat_laurels(s, sd, q, max(gx + 10, 760), gy, out)
    if me and not terminal:
        out += _mat_buttons(v, q, y)
    return y + h + 10


__all__ = ["board_svg", "goal_text"]
