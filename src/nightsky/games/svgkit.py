"""Small helpers the games' ``svg.py`` modules share to draw their boards for the web client.

Only string building: every piece of text goes through :func:`esc`, numbers are rounded, and the
result is one ``<svg>`` element with a viewBox, no scripts and no external resources.
"""

from __future__ import annotations

from functools import lru_cache
from xml.sax.saxutils import escape, quoteattr

# The night-sky palette every board uses.
BG = "#0b1026"
BG2 = "#141b3d"
PANEL = "#1a2250"
EDGE = "#3a4a8c"
INK = "#e8ecff"
DIM = "#9aa6d6"
GOLD = "#ffd166"
SILVER = "#cfd8ff"
RED = "#ff6b6b"
FONT = "font-family:'DejaVu Sans',Verdana,Arial,sans-serif"
MIN_FONT = 10  # the smallest text, in board units: the web client zooms to make it readable


def esc(text: object) -> str:
    """Text escaped for element content."""
    return escape(str(text))


def _num(v: float) -> str:
    if isinstance(v, int):
        return str(v)
    r = round(v, 1)
    return str(int(r)) if r == int(r) else str(r)


_KEYS: dict[str, str] = {}


def _key(k: str) -> str:
    out = _KEYS.get(k)
    if out is None:
        out = _KEYS[k] = k.rstrip("_").replace("_", "-")
    return out


def _attr(s: str) -> str:
    if "&" in s or "<" in s or ">" in s or '"' in s or "\n" in s:
        return quoteattr(s)
    return '"' + s + '"'


def attrs(**kw: object) -> str:
    """`` key="value"`` pairs; ``_`` in a key becomes ``-``; None values are left out."""
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        if isinstance(v, str):
            out.append(f" {_key(k)}={_attr(v)}")
        else:
            out.append(f' {_key(k)}="{_num(v)}"')  # type: ignore[arg-type]
    return "".join(out)


def el(tag: str, body: str = "", **kw: object) -> str:
    """One element; ``body`` is already-escaped markup."""
    if body:
        return f"<{tag}{attrs(**kw)}>{body}</{tag}>"
    return f"<{tag}{attrs(**kw)}/>"


def text(x: float, y: float, s: object, size: float = 14, fill: str = INK, anchor: str = "start",
         weight: str | None = None, **kw: object) -> str:
    """A ``<text>`` with escaped content."""
    return el("text", esc(s), x=x, y=y, font_size=size, fill=fill, text_anchor=anchor,
              font_weight=weight, **kw)


def group(body: str, id_: str | None = None, label: str | None = None,
          detail: str | None = None, **kw: object) -> str:
    """A ``<g>``; an ``id`` makes it clickable for the client, ``label`` its tooltip (also a
    ``<title>`` child so plain SVG viewers show it), ``detail`` the fine print the client shows
    in its detail panel on hover, focus or tap (lines separated by newlines)."""
    title = el("title", esc(label)) if label else ""
    extra: dict[str, object] = {}
    if id_ is not None:
        extra["id"] = id_
    if label:
        extra["data_label"] = label
    if detail:
        extra["data_detail"] = detail
    return el("g", title + body, **extra, **kw)


def qattr(value: object) -> str:
    """An attribute value, quoted and escaped (for boards written as f-strings)."""
    return quoteattr(str(value))


def label_text(x: float, y: float, s: str, size: float = 12, fill: str = "#dfe6ff",
               anchor: str = "start", weight: str = "normal", extra: str = "") -> str:
    """A ``<text>`` that never takes the pointer (clicks reach the piece under it), at least
    ``MIN_FONT`` high, its position to one decimal; ``extra`` is more raw attributes."""
    size = max(size, MIN_FONT)
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}" font-weight="{weight}" pointer-events="none"{extra}>'
            f"{esc(s)}</text>")


def clickable(id_: str | None, label: str, inner: list[str] | str) -> str:
    """A ``<g>`` with a ``<title>`` tooltip; with an ``id`` it is a target the client can click
    (``data-label`` names it, the pointer shows it)."""
    body = "".join(inner) if isinstance(inner, list) else inner
    if id_ is None:
        return f"<g><title>{esc(label)}</title>{body}</g>"
    return (f"<g id={qattr(id_)} data-label={qattr(label)} style=\"cursor:pointer\">"
            f"<title>{esc(label)}</title>{body}</g>")


def section(name: str, x: float, y: float, w: float, h: float) -> str:
    """An invisible rectangle naming a part of the board (``data-section``): the web client
    offers a button that scrolls the board to it."""
    return el("rect", x=x, y=y, width=w, height=h, fill="none", stroke="none",
              pointer_events="none", data_section=name)


def star_path(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> str:
    """The ``d`` of a star polygon."""
    import math

    pts = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * inner
        a = math.pi * i / points - math.pi / 2
        pts.append(f"{_num(cx + rad * math.cos(a))},{_num(cy + rad * math.sin(a))}")
    return "M" + " L".join(pts) + " Z"


def defs() -> str:
    """Gradients and filters shared by the boards (ids prefixed ``ns-`` to stay apart from
    clickable ids)."""
    return (
        "<defs>"
        '<radialGradient id="ns-sky" cx="50%" cy="40%" r="75%">'
        f'<stop offset="0%" stop-color="{BG2}"/><stop offset="100%" stop-color="{BG}"/>'
        "</radialGradient>"
        '<linearGradient id="ns-tile" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0%" stop-color="#1d2a66"/><stop offset="100%" stop-color="#10173d"/>'
        "</linearGradient>"
        '<radialGradient id="ns-sun" cx="50%" cy="50%" r="50%">'
        '<stop offset="0%" stop-color="#fff6c2"/><stop offset="60%" stop-color="#ffc93c"/>'
        '<stop offset="100%" stop-color="#ff8c1a"/></radialGradient>'
        '<radialGradient id="ns-moon" cx="40%" cy="40%" r="60%">'
        '<stop offset="0%" stop-color="#ffffff"/><stop offset="100%" stop-color="#b9c2e0"/>'
        "</radialGradient>"
        '<filter id="ns-glow" x="-50%" y="-50%" width="200%" height="200%">'
        '<feGaussianBlur stdDeviation="2.5" result="b"/>'
        '<feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>'
        "</defs>"
    )


@lru_cache(maxsize=64)
def starfield(w: float, h: float, seed: int = 7, n: int = 90) -> str:
    """A fixed sprinkle of faint stars, the same for every position (so it leaks nothing)."""
    import random

    rng = random.Random(seed)
    return "".join(
        el("circle", cx=round(rng.uniform(0, w)), cy=round(rng.uniform(0, h)),
           r=round(rng.uniform(0.4, 1.4), 1), fill="#ffffff",
           opacity=round(rng.uniform(0.15, 0.6), 2))
        for _ in range(n)
    )


def backdrop(w: float, h: float, seed: int = 7, n: int = 90) -> str:
    """A dark sky with a fixed sprinkle of faint stars (deterministic: no hidden state)."""
    return el("rect", x=0, y=0, width=w, height=h, fill="url(#ns-sky)") + starfield(w, h, seed, n)


def svg(w: float, h: float, body: str, title: str) -> str:
    """The root element."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_num(w)} {_num(h)}" '
        f'style="{FONT}">'
        f"{el('title', esc(title))}{defs()}{backdrop(w, h)}{body}</svg>"
    )
