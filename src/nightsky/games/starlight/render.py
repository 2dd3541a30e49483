"""Plain-text drawing of the Sky Board and the player mats (``State.render``)."""

from __future__ import annotations

from typing import Any

from .components import PRIVILEGES

SIZE_MARK = ("s", "M", "A")  # small, medium, alpha (large)


def _who(s: Any, q: int) -> str:
    return f"B{q}" if s.is_bot(q) else f"P{q}"


def render_state(s: Any, viewer: int | None = None) -> str:
    t = s.t
    v = s.view(viewer)
    lines: list[str] = []
    lines.append(
        f"Starlight - round {s.round}, phase {v['phase']}, seat to act: {v['current_players']}"
        + (f", daybreak came in round {s.daybreak_round}" if s.daybreak_round else "")
    )
    # The rondel, clockwise, with the markers on each space.
    cells = []
    for i, sp in enumerate(t.rondel):
        here = [_who(s, q) for q in range(len(s.pos)) if s.pos[q] == i]
        label = sp
        if sp.startswith("launch"):
            label += "(" + "/".join(t.constellations[c] for c in t.launch_shows[sp]) + ")"
        cells.append(f"{label}[{' '.join(here)}]")
    lines.append("Rondel: " + " -> ".join(cells) + " -> (back to start)")
    lines.append("Sky Board (slot: size night-points privilege *target, links; owner):")
    for ci, name in enumerate(t.constellations):
        parts = []
        for i in t.slots_of[ci]:
            sl = t.slots[i]
            own = s.board[i]
            pr = PRIVILEGES[sl.privilege] if sl.privilege >= 0 else "-"
            tgt = "*" if sl.target else ""
            occ = _who(s, own) if own >= 0 else "."
            links = ",".join(str(t.slots[j].n) for j in sl.links)
            parts.append(f"{sl.n}{tgt}:{SIZE_MARK[sl.size]}{sl.np} {pr} >{links} [{occ}]")
        lines.append(f"  {name:7} " + " | ".join(parts))
    lines.append(
        f"Pools: Cores {v['core_pool']}  Long {v['long_pool']}  Short {v['short_pool']}  "
        f"Flares (1-4 AP) {v['flare_pool']}"
    )
    lines.append(
        f"Decks: Cores {v['core_deck']} (discards {len(v['core_discard'])}), "
        f"Flares {v['flare_deck']}, Starbot {v['starbot_deck']}"
    )
    acc = []
    for a in t.data.accolades:
        o = s.accolade[a.index - 1]
        acc.append(f"#{a.index} {a.kind}>={a.value} ({a.dp}dp): {_who(s, o) if o >= 0 else 'open'}")
    lines.append("Accolades: " + "; ".join(acc))
    for d in v["seats"]:
        q = d["seat"]
        head = f"{_who(s, q)} {'(Starbot)' if d['starbot'] else ''} on {d['space']}: "
        head += f"{d['night_points']} night points, {d['stars']} stars"
        lines.append(head)
        if d["starbot"]:
            lines.append(f"    Accolade markers {d['accolade_markers']}")
            continue
        lines.append(
            f"    mat: saved AP {d['saved_ap']}, privileges {d['privileges'] or '-'}, "
            f"magnitudes {d['magnitudes'] or '-'}, aspects {d['aspects'] or '-'}"
            + (f", god {d['god']}" if d["god"] else "")
        )
        lines.append(
            f"    cores {d['cores']}, rays {d['rays'] or '{}'}, flares {d['flares']}, "
            f"used {len(d['used_flares'])}"
            + (f", laurels {d['laurels']}" if "laurels" in d else f", {d['laurel_count']} laurels")
        )
    if v["star"]:
        lines.append(f"Star being launched: {v['star']}")
    if s.turn >= 0 and not s.is_bot(s.turn) and s.phase not in (8, 9):
        lines.append(f"AP left: {s.ap}")
    if s.phase == 9:
        for q, b in enumerate(s.score_breakdown()):
            lines.append(f"Final {_who(s, q)}: {b}")
        lines.append(f"Winners: {s.winners()}")
    return "\n".join(lines)
