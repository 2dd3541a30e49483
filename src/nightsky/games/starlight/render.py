"""Plain-text drawing of the Sky Board and the player mats (``game.ui.render``), <= 100 columns."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from .labels import PRIVILEGE_WORDS, core_plan, flare_summary, space_words

WIDTH = 100

SIZE_MARK = ("s", "M", "A")  # small, medium, alpha (large)
PRIV_MARK = ("BN", "+A", "RR", "L3", "CR", "AS")  # in the order of PRIVILEGES
LEGEND = (
    "  slot: number, * target, size s/M/A(lpha), night points, privilege, owner (. empty);\n"
    "  privileges: BN buy night points, +A +1 AP, RR refill rays, L3 laurels+3, CR core+ray,\n"
    "  AS launch alpha star; lines: the connection lines between slots"
)


def goal_text(goal: Any, accolade: bool = False) -> str:
    """A Laurel's or an Accolade's goal in words."""
    v = goal.value
    k = goal.kind
    if k == "constellations":
        if accolade or not goal.constellations:
            return f"stars in {v} constellations"
        return "a star in each of " + ", ".join(goal.constellations)
    return {
        "magnitudes": f"{v} magnitudes recorded",
        "aspects": f"{v} Aspects recorded",
        "privileges": f"{v} privileges",
        "stars_in_one": f"{v} stars in one constellation",
        "stars": f"{v} stars launched",
        "alpha": f"{v} alpha star{'s' if v > 1 else ''}",
        "flares_used": f"{v} Flares used",
    }[k]


def _wrap(text: str, indent: int) -> list[str]:
    """``text`` in lines of at most WIDTH columns, continued ``indent`` columns in."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=" " * indent, break_on_hyphens=False)


def _pack(head: str, items: list[str], sep: str = ";", indent: int = 8) -> list[str]:
    """``head`` then the items, breaking lines only between items where it can."""
    if not items:
        return [head + " -"]
    lines = [head]
    for i, item in enumerate(items):
        piece = item + (sep if i < len(items) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > WIDTH and lines[-1] != head:
            lines.append(" " * indent + piece)
        else:
            lines[-1] += " " + piece
    return [x for line in lines for x in _wrap(line, indent)]


def _rays(rays: dict[str, int]) -> str:
    """{"long red": 2, "short blue": 1, ...} as "long red 2; short blue 1", by size."""
    parts = []
    for size in ("long", "short"):
        mine = [f"{k.split()[1]} {n}" for k, n in rays.items() if k.startswith(size)]
        if mine:
            parts.append(f"{size} " + ", ".join(mine))
    return "; ".join(parts) or "-"


def render_state(s: Any, viewer: int | None = None, names: Sequence[str] | None = None) -> str:
    """The position for the terminal; ``names``: each seat's name (a Starbot's default
    ``Starbot N``)."""
    t = s.t

    def who(q: int) -> str:
        if names is not None and 0 <= q < len(names) and names[q]:
            return names[q]
        return f"Starbot {q + 1}" if s.is_bot(q) else f"Seat {q + 1}"

    v = s.view(viewer)
    lines: list[str] = []
    lines.append(
        f"Starlight - round {s.round}, phase {v['phase']}, to act: "
        + (", ".join(who(q) if q >= 0 else "chance" for q in s.current_players()) or "-")
        + (f", daybreak came in round {s.daybreak_round}" if s.daybreak_round else "")
        + (" (round limit, SL-12.6)" if s.safeguard else "")
    )
    cells = []
    for i, sp in enumerate(t.rondel):
        here = [who(q) for q in range(len(s.pos)) if s.pos[q] == i]
        cells.append(f"{space_words(t, sp)} [{', '.join(here)}]")
    cells.append("back to " + space_words(t, t.rondel[0]))
    lines.extend(_pack("Rondel, clockwise:", cells, sep=" >", indent=19))
    lines.append("Sky Board")
    lines.append(LEGEND)
    for ci, name in enumerate(t.constellations):
        links = sorted(
            {
                (min(t.slots[i].n, t.slots[j].n), max(t.slots[i].n, t.slots[j].n))
                for i in t.slots_of[ci]
                for j in t.slots[i].links
            }
        )
        cells = []
        for i in t.slots_of[ci]:
            sl = t.slots[i]
            own = s.board[i]
            pr = PRIV_MARK[sl.privilege] if sl.privilege >= 0 else "--"
            # the owner in a few letters: the name's first three, else the seat's number
            occ = (who(own)[:3] if names else str(own + 1)) if own >= 0 else "."
            tgt = "*" if sl.target else " "
            cells.append(f"{sl.n}{tgt} {SIZE_MARK[sl.size]} {sl.np:>2} {pr} {occ:<2}")
        for k in range(0, len(cells), 4):
            lead = f"  {name:<8}" if k == 0 else " " * 10
            lines.append(lead + " | ".join(cells[k : k + 4]))
        lines.append(" " * 10 + "lines " + " ".join(f"{a}-{b}" for a, b in links))
    pool = [f"{c} ({core_plan(t, t.core_ids.index(c))})" for c in v["core_pool"]]
    lines.extend(_pack("Core pool:", pool))
    fl = [
        f"{i + 1} AP {f} ({flare_summary(t, t.flare_ids.index(f))})"
        for i, f in enumerate(v["flare_pool"])
        if f is not None
    ]
    lines.extend(_pack("Flare pool:", fl))
    lines.append(f"Long rays: {', '.join(v['long_pool']) or '-'}")
    lines.append(f"Short rays: {', '.join(v['short_pool']) or '-'}")
    lines.append(
        f"Decks: Cores {v['core_deck']} (discards {len(v['core_discard'])}), "
        f"Flares {v['flare_deck']}"
        + (f", Starbot {v['starbot_deck']}" if s.game.options["starbots"] else "")
    )
    acc = []
    for a in t.data.accolades:
        o = s.accolade[a.index - 1]
        owner = who(o) if o >= 0 else "open"
        acc.append(f"#{a.index} {goal_text(a, accolade=True)}: {a.dp} dp, {owner}")
    lines.extend(_pack("Accolades:", acc, " |", 11))
    for d in v["seats"]:
        q = d["seat"]
        head = f"{who(q)}{' (Starbot)' if d['starbot'] else ''} on {space_words(t, d['space'])}: "
        head += f"{d['night_points']} night points, {d['stars']} stars"
        if d["starbot"]:
            lines.append(head + f"; Accolade markers {d['accolade_markers']}")
            continue
        head += f", saved AP {d['saved_ap']}"
        if d.get("head_start"):
            head += f", head start {d['head_start']} day points"
        if d["god"]:
            god = t.data.gods[t.god_ids.index(d["god"])]
            head += f", God {god.name}: {god.text}"
        lines.extend(_wrap(head, 4))
        mat = (
            "mat: privileges "
            f"{', '.join(PRIVILEGE_WORDS.get(x, x) for x in d['privileges']) or '-'}; magnitudes "
            f"{' '.join(str(m) for m in d['magnitudes']) or '-'}; aspects "
            f"{', '.join(d['aspects']) or '-'}"
        )
        lines.extend(_wrap("    " + mat, 8))
        cores = [f"{c} ({core_plan(t, t.core_ids.index(c))})" for c in d["cores"]]
        lines.extend(_pack("    cores:", cores))
        lines.extend(_wrap(f"    rays: {_rays(d['rays'])}", 8))
        fl = [f"{f} ({flare_summary(t, t.flare_ids.index(f))})" for f in d["flares"]]
        lines.extend(_pack(f"    Flares (used {len(d['used_flares'])}):", fl))
        if "laurels" in d:
            cards = [t.data.laurels[t.laurel_ids.index(x)] for x in d["laurels"]]
            lau = [f"{c.id} ({goal_text(c)}: {c.dp} dp)" for c in cards]
            lines.extend(_pack("    Laurels:", lau))
        else:
            lines.append(f"    Laurels: {d['laurel_count']} (secret)")
    if v["star"]:
        st = v["star"]
        core = st["core"]
        rays = _rays(st["rays"])
        flare = f", Flare {st['flare']}" if st["flare"] else ""
        lines.append(f"Star being launched: Core {core}, rays {rays}{flare}")
    if s.turn >= 0 and not s.is_bot(s.turn) and s.phase not in (8, 9):
        lines.append(f"AP left: {s.ap}")
    if s.phase == 9:
        for q, b in enumerate(s.score_breakdown()):
            parts = ", ".join(
                f"{k.replace('_', ' ')} {x:g}" for k, x in b.items() if k != "total"
            )
            lines.append(f"Final {who(q)}: {parts} = {b['total']:g}")
        lines.append("Winners: " + ", ".join(who(q) for q in s.winners()))
    return "\n".join(line.rstrip() for line in lines)
