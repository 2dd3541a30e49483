"""What each seat may know (``view``) and where every component is (``census``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nightsky.games.shooting_star.constants import (
    BITS,
    CARD_KEYS,
    DARK_LEVEL,
    PH_DECK,
    PH_OVER,
    PHASE_NAMES,
    decode_cover,
    decode_pile_card,
    is_pile_card,
    pile_card,
    pile_of_cover,
)

if TYPE_CHECKING:
    from nightsky.games.shooting_star.state import ShootingStarState


def pile_item(state: ShootingStarState, code: int) -> str:
    """The component id of a pile entry: a planet code or ``colour:KEY``."""
    g = state.g
    if not is_pile_card(code):
        return g.p_code[code]
    seat, card = decode_pile_card(code)
    return f"{g.comp.colour[seat].name}:{CARD_KEYS[card]}"


def view(state: ShootingStarState, player: int | None) -> dict[str, Any]:
    """The game's keys of ``state.view(player)`` (after the common ones): face-down cards of
    others show as '?', their unplayed cards as a set (SS-3.4), Secret Missions only to their
    owner until the end, the deck only as a count."""
    g = state.g
    n = g.num_players
    over = state.phase == PH_OVER
    cells = []
    for c in range(g.ncells):
        lv = state.lvl[c]
        v = state.cov[c]
        cover: dict[str, Any] | None = None
        if v >= 0:
            seat, card = decode_cover(v)
            cover = {"seat": seat, "card": CARD_KEYS[card] if seat == player else "?"}
        if lv == 0 and cover is None:
            continue
        p = state.pl[c]
        col, row = g.cell_cr[c]
        cells.append(
            {
                "id": f"cell-{col}-{row}",
                "col": col,
                "row": row,
                "planet": g.p_code[p] if p >= 0 else None,
                "name": g.p_name[p] if p >= 0 else "",
                "level": None if lv in (0, DARK_LEVEL) else lv,
                "dark": lv == DARK_LEVEL,
                "moon": bool(p >= 0 and g.p_moon[p]),
                "cover": cover,
            }
        )
    seats = []
    for s in range(n):
        entry: dict[str, Any] = {
            "seat": s,
            "colour": g.comp.colour[s].name,
            "admiral": g.comp.colour[s].admiral,
            "unrevealed": [CARD_KEYS[k] for k in state.unrevealed(s)],
            "conquest": [pile_item(state, x) for x in state.conq[s]],
            "debris": [pile_item(state, x) for x in state.debris[s]],
            "planet_hand": [g.p_code[p] for p in sorted(state.phands[s])],
        }
        if s == player or over:
            entry["hand"] = [CARD_KEYS[k] for k in BITS[state.hands[s]]]
            if len(state.missions) > s:
                entry["missions"] = [g.missions[m].code for m in state.missions[s]]
        seats.append(entry)
    placed = [
        {
            "seat": s,
            "cell": f"cell-{g.cell_cr[c][0]}-{g.cell_cr[c][1]}",
            "card": CARD_KEYS[k] if s == player else "?",
        }
        for s, k, c in state.placed
    ]
    return {
        "phase": PHASE_NAMES[state.phase],
        "variant": "personalized" if g.personalized else "standard",
        "width": g.width,
        "height": g.height,
        "turn": state.turn + (0 if over else 1),
        "dark_invader": state.invader,
        "cells": cells,
        "seats": seats,
        "placed": placed,
        "last_resolution": [e._asdict() for e in state.events],
        "deck_size": len(state.deck),
        "box": sorted(g.p_code[p] for p in state.box),
        "winners": state.winners() if over else [],
    }


def census(state: ShootingStarState) -> dict[str, list[str]]:
    """Every card and the Dark Invader in exactly one place."""
    g = state.g
    n = g.num_players
    out: dict[str, list[str]] = {}
    for c in range(g.ncells):
        if state.pl[c] >= 0:
            out.setdefault("sector", []).append(g.p_code[state.pl[c]])
        if state.cov[c] >= 0:
            out.setdefault("sector-cards", []).append(pile_item(state, pile_of_cover(state.cov[c])))
    for s in range(n):
        out[f"hand:{s}"] = [
            pile_item(state, pile_card(s, k)) for k in BITS[state.hands[s]]
        ]
        out[f"conquest:{s}"] = [pile_item(state, x) for x in state.conq[s]]
        out[f"debris:{s}"] = [pile_item(state, x) for x in state.debris[s]]
        out[f"planet-hand:{s}"] = [g.p_code[p] for p in state.phands[s]]
        out[f"missions:{s}"] = (
            [g.missions[m].code for m in state.missions[s]] if len(state.missions) > s else []
        )
    used_missions = {m for trio in state.missions for m in trio}
    out["deck"] = [g.p_code[p] for p in state.deck]
    if state.phase <= PH_DECK:  # before the deck is formed, the planets not dealt are still boxed
        dealt = {p for p in state.pl if p >= 0} | {p for h in state.phands for p in h}
        out["box"] = [g.p_code[p] for p in range(len(g.p_code)) if p not in dealt]
    else:
        out["box"] = [g.p_code[p] for p in state.box]
    out["box-cards"] = [f"{col.name}:{k}" for col in g.comp.colour[n:] for k in CARD_KEYS]
    out["box-missions"] = [m.code for i, m in enumerate(g.missions) if i not in used_missions]
    out[f"dark-invader:{state.invader}"] = ["dark-invader"]
    return out
