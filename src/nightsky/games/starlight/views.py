"""What each seat may see: the game's part of ``view``, and the component census.

Public: the Sky Board, the rondel, every pool, all Cores, rays and Flares on the table (they
are taken face up), mats, Accolades, kept Gods, deck sizes and the Core discards. Secret: the
Laurels of other players, and God cards dealt to others before they choose (and the discards).

The rules' side of what a seat knows: the state imports it; presentation (``ui``, ``render``,
``svg``, ``labels``) and the observation tensor (``observation``) are elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import PRIVILEGES
from .constants import OVER, PHASE_NAMES, SIZE_NAMES

if TYPE_CHECKING:
    from .state import StarlightState


def _bits(mask: int, names: tuple[str, ...] | list[str]) -> list[str]:
    return [n for i, n in enumerate(names) if mask >> i & 1]


def make_view(s: StarlightState, player: int | None) -> dict[str, Any]:
    """The game's keys of ``view(player)`` (``State.view`` puts the common ones first)."""
    t = s.t
    g = s.g
    nc = len(t.colors)
    seats = []
    for q in range(g.num_seats):
        d: dict[str, Any] = {
            "seat": q,
            "starbot": s.is_bot(q),
            "space": s.space(q) or None,
            "night_points": s.np[q],
            "stars": s.stars_of(q),
        }
        if not s.is_bot(q):
            d.update(
                saved_ap=s.saved[q],
                head_start=s.g.head_start[q],
                cores=[t.core_ids[c] for c in sorted(s.cores[q])],
                rays={
                    f"{SIZE_NAMES[i // nc]} {t.colors[i % nc]}": s.rays[q][i]
                    for i in range(2 * nc)
                    if s.rays[q][i]
                },
                flares=[t.flare_ids[f] for f in sorted(s.flares[q])],
                used_flares=[t.flare_ids[f] for f in sorted(s.used[q])],
                privileges=_bits(s.privs[q], PRIVILEGES),
                magnitudes=[m + 2 for m in range(6) if s.mags[q] >> m & 1],
                aspects=_bits(s.aspects[q], t.aspects),
                god=t.god_ids[s.god[q]] if s.god[q] >= 0 else None,
                laurel_count=len(s.laurels[q]),
                god_cards_in_hand=len(s.god_hand[q]),
            )
            if player == q:
                d["laurels"] = [t.laurel_ids[x] for x in sorted(s.laurels[q])]
                d["god_hand"] = [t.god_ids[x] for x in sorted(s.god_hand[q])]
        else:
            d["accolade_markers"] = [s.marks[i + 5 * q] for i in range(5)]
        seats.append(d)
    view: dict[str, Any] = {
        "phase": PHASE_NAMES[s.phase],
        "turn": s.turn,
        "round": s.round,
        "daybreak_round": s.daybreak_round or None,
        "daybreak_by_safeguard": s.safeguard,
        "ap": s.ap,
        "first_turn": s.first,
        "last_turn": s.last,
        "moved": s.moved,
        "action_open": s.opened,
        "launched_here": s.launched_here,
        "cores_taken": s.cores_taken,
        "seats": seats,
        "board": {
            f"{t.constellations[sl.constellation]} {sl.n}": s.board[sl.index] for sl in t.slots
        },
        "accolades": {a.id: s.accolade[a.index - 1] for a in t.data.accolades},
        "core_pool": [t.core_ids[c] for c in s.core_pool],
        "long_pool": [t.colors[c] for c in s.long_pool],
        "short_pool": [t.colors[c] for c in s.short_pool],
        "flare_pool": [t.flare_ids[f] if f >= 0 else None for f in s.flare_pool],
        "core_deck": len(s.core_deck),
        "core_discard": [t.core_ids[c] for c in sorted(s.core_discard)],
        "long_bag": dict(zip(t.colors, s.long_bag, strict=True)),
        "short_bag": dict(zip(t.colors, s.short_bag, strict=True)),
        "flare_deck": len(s.flare_deck) + len(s.flare_bottom),
        "flare_bottom": [t.flare_ids[f] for f in s.flare_bottom],
        "laurel_deck": len(s.laurel_deck),
        "starbot_deck": len(s.sb_deck),
        "starbot_discard": [t.starbot_ids[x] for x in s.sb_discard],
        "pending_draws": len(s.pending),
        "star": None,
    }
    if s.star_core >= 0:
        view["star"] = {
            "core": t.core_ids[s.star_core],
            "rays": {
                f"{SIZE_NAMES[i // nc]} {t.colors[i % nc]}": s.star_rays[i]
                for i in range(2 * nc)
                if s.star_rays[i]
            },
            "flare": t.flare_ids[s.star_flare] if s.star_flare >= 0 else None,
        }
    if s.phase == OVER:
        view["score_breakdown"] = s.score_breakdown()
        view["winners"] = s.winners()
        # At the end the Laurels are revealed (SL-13.1).
        for q, d in enumerate(seats):
            if not s.is_bot(q):
                d["laurels"] = [t.laurel_ids[x] for x in sorted(s.laurels[q])]
    return view


def make_census(s: StarlightState) -> dict[str, list[str]]:
    """Where every component is (``State.census``)."""
    t = s.t
    nc = len(t.colors)
    out: dict[str, list[str]] = {
        "core_deck": [t.core_ids[c] for c in s.core_deck],
        "core_discard": [t.core_ids[c] for c in s.core_discard],
        "core_pool": [t.core_ids[c] for c in s.core_pool],
        "starters_out": [t.core_ids[c] for c in s.starters_out],
        "flare_deck": [t.flare_ids[f] for f in s.flare_deck + s.flare_bottom],
        "flare_pool": [t.flare_ids[f] for f in s.flare_pool if f >= 0],
        "laurel_deck": [t.laurel_ids[x] for x in s.laurel_deck],
        "god_deck": [t.god_ids[x] for x in s.god_deck],
        "god_discard": [t.god_ids[x] for x in s.god_discard],
        "starbot_deck": [t.starbot_ids[x] for x in s.sb_deck],
        "starbot_discard": [t.starbot_ids[x] for x in s.sb_discard],
        "star": [],
    }
    counters: dict[str, int] = {}

    def ray_ids(place: str, counts: list[int], size: int | None) -> list[str]:
        ids = []
        for i, n in enumerate(counts):
            sz = size if size is not None else i // nc
            col = i % nc if size is None else i
            for _ in range(n):
                key = f"{SIZE_NAMES[sz]}-{t.colors[col]}"
                counters[key] = counters.get(key, 0) + 1
                ids.append(f"{key}-{counters[key]}")
        return ids

    out["long_bag"] = ray_ids("long_bag", s.long_bag, 0)
    out["short_bag"] = ray_ids("short_bag", s.short_bag, 1)
    lp = [0] * nc
    for c in s.long_pool:
        lp[c] += 1
    sp = [0] * nc
    for c in s.short_pool:
        sp[c] += 1
    out["long_pool"] = ray_ids("long_pool", lp, 0)
    out["short_pool"] = ray_ids("short_pool", sp, 1)
    out["limbo"] = ray_ids("limbo", s.limbo, None)
    out["star_rays"] = ray_ids("star", s.star_rays, None)
    # The Core being launched stays in its owner's hand until the launch is over.
    if s.star_flare >= 0:
        out["star"].append(t.flare_ids[s.star_flare])
    for q in range(s.g.num_seats):
        out[f"seat{q}_cores"] = [t.core_ids[c] for c in s.cores[q]]
        out[f"seat{q}_rays"] = ray_ids(f"seat{q}", s.rays[q], None)
        out[f"seat{q}_flares"] = [t.flare_ids[f] for f in s.flares[q] + s.used[q]]
        out[f"seat{q}_laurels"] = [t.laurel_ids[x] for x in s.laurels[q]]
        gods = list(s.god_hand[q]) + ([s.god[q]] if s.god[q] >= 0 else [])
        out[f"seat{q}_gods"] = [t.god_ids[x] for x in gods]
    return out
