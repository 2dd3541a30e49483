"""What each seat may see: ``view``, the component census, the observation tensor, UI hints.

Public: the Sky Board, the rondel, every pool, all Cores, rays and Flares on the table (they
are taken face up), mats, Accolades, kept Gods, deck sizes and the Core discards. Secret: the
Laurels of other players, and God cards dealt to others before they choose (and the discards).

Observation tensor (``observation(p)``), floats in this order, for the fixed maximum of 5 seats:
  seat block x5 (relative to p: p first): present, is-Starbot, rondel one-hot (8: -1..6),
    night points/100, saved AP/10, stars/10, constellations with stars/6, privileges (6 bits),
    magnitudes (6 bits),
    aspects (6 bits), cores held/5, rays held (2 x colours, /10), face-up Flares/10,
    used Flares/10;
  own: AP/10, phase one-hot (11), first/last/moved/opened flags (4), own Laurels
    (one-hot per Laurel card), the star being built: core one-hot (all cores), its rays (2 x
    colours)/7;
  board: per slot 3 values (empty, mine, other's);
  pools: core pool counts per core, long and short pool counts per colour/5, Flare pool
    one-hot per position and Flare card;
  Accolades: per index, owner relative one-hot (6: open + 5 seats);
  round/50, daybreak triggered.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    ATTACH,
    BOON,
    BUY,
    CORE,
    FINAL,
    FLARE,
    FLUSH,
    FREE,
    KEEP,
    LAUNCH,
    PLACE,
    SIZE_NAMES,
    SLOT,
    SLOTLESS,
    STAR,
    STEP,
    TAKE,
    USE,
    Act,
)
from .components import PRIVILEGES, SIZES

MAX_SEATS = 5


def _bits(mask: int, names: tuple[str, ...] | list[str]) -> list[str]:
    return [n for i, n in enumerate(names) if mask >> i & 1]


def make_view(s: Any, player: int | None) -> dict[str, Any]:
    from .state import PHASE_NAMES

    t = s.t
    g = s.game
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
        "game": "starlight",
        "viewer": player,
        "current_players": list(s.current_players()),
        "terminal": s.is_terminal(),
        "scores": s.scores(),
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
    if s.phase == 9:  # over
        view["score_breakdown"] = s.score_breakdown()
        view["winners"] = s.winners()
        # At the end the Laurels are revealed (SL-13.1).
        for q, d in enumerate(seats):
            if not s.is_bot(q):
                d["laurels"] = [t.laurel_ids[x] for x in sorted(s.laurels[q])]
    return view


def make_census(s: Any) -> dict[str, list[str]]:
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
    for q in range(s.game.num_seats):
        out[f"seat{q}_cores"] = [t.core_ids[c] for c in s.cores[q]]
        out[f"seat{q}_rays"] = ray_ids(f"seat{q}", s.rays[q], None)
        out[f"seat{q}_flares"] = [t.flare_ids[f] for f in s.flares[q] + s.used[q]]
        out[f"seat{q}_laurels"] = [t.laurel_ids[x] for x in s.laurels[q]]
        gods = list(s.god_hand[q]) + ([s.god[q]] if s.god[q] >= 0 else [])
        out[f"seat{q}_gods"] = [t.god_ids[x] for x in gods]
    return out


def observation_size(game: Any) -> int:
    t = game.tables
    nc = len(t.colors)
    seat = 2 + 8 + 4 + 18 + 1 + 2 * nc + 2
    own = 1 + 11 + 4 + len(t.laurel_ids) + len(t.core_ids) + 2 * nc
    board = 3 * len(t.slots)
    pools = t.num_deck_cores + 2 * nc + game.tables.data.board.flare_pool * len(t.flare_ids)
    return MAX_SEATS * seat + own + board + pools + 5 * 6 + 2


def observation(s: Any, p: int) -> list[float]:
    t = s.t
    g = s.game
    nc = len(t.colors)
    n = g.num_seats
    out: list[float] = []
    for k in range(MAX_SEATS):
        if k >= n:
            out.extend([0.0] * (2 + 8 + 4 + 18 + 1 + 2 * nc + 2))
            continue
        q = (p + k) % n
        out += [1.0, 1.0 if s.is_bot(q) else 0.0]
        r = [0.0] * 8
        r[s.pos[q] + 1] = 1.0
        out += r
        out += [s.np[q] / 100, s.saved[q] / 10, s.stars_of(q) / 10, s.constellations_of(q) / 6]
        out += [float(s.privs[q] >> i & 1) for i in range(6)]
        out += [float(s.mags[q] >> i & 1) for i in range(6)]
        out += [float(s.aspects[q] >> i & 1) for i in range(6)]
        out.append(len(s.cores[q]) / 5)
        out += [x / 10 for x in s.rays[q]]
        out += [len(s.flares[q]) / 10, len(s.used[q]) / 10]
    out.append(s.ap / 10 if s.turn == p else 0.0)
    ph = [0.0] * 11
    ph[s.phase] = 1.0
    out += ph
    mine = s.turn == p
    out += [float(mine and s.first), float(mine and s.last), float(mine and s.moved)]
    out.append(float(mine and s.opened))
    lau = [0.0] * len(t.laurel_ids)
    for x in s.laurels[p]:
        lau[x] = 1.0
    out += lau
    star = [0.0] * len(t.core_ids)
    if s.star_core >= 0 and mine:
        star[s.star_core] = 1.0
    out += star
    out += [x / 7 if mine else 0.0 for x in s.star_rays]
    for o in s.board:
        out += [1.0 if o < 0 else 0.0, 1.0 if o == p else 0.0, 1.0 if o >= 0 and o != p else 0.0]
    cp = [0.0] * t.num_deck_cores
    for c in s.core_pool:
        cp[c] += 1.0
    out += cp
    lp = [0.0] * (2 * nc)
    for c in s.long_pool:
        lp[c] += 0.2
    for c in s.short_pool:
        lp[nc + c] += 0.2
    out += lp
    for f in s.flare_pool:
        row = [0.0] * len(t.flare_ids)
        if f >= 0:
            row[f] = 1.0
        out += row
    for i in range(5):
        row = [0.0] * 6
        o = s.accolade[i]
        row[0 if o < 0 else 1 + (o - p) % n] = 1.0
        out += row
    out += [s.round / 50, 1.0 if s.daybreak_round else 0.0]
    return out


def describe_action(s: Any, a: Act, p: int) -> str:
    t = s.t
    k = a.kind
    if k == STEP:
        nxt = t.rondel[(s.pos[p] + 1) % 7]
        return f"step to {nxt} (1 AP)"
    if k == CORE:
        c = a.a
        return f"take Core {t.core_ids[c]} ({_plan(t, c)})"
    if k == STAR:
        return f"launch Core {t.core_ids[a.a]} ({_plan(t, a.a)})"
    if k == SLOT:
        sl = t.slots[a.a]
        pr = f", {PRIVILEGES[sl.privilege]}" if sl.privilege >= 0 else ""
        return f"{a.text} ({SIZES[sl.size]}, {sl.np} night points{pr})"
    if k == FLARE:
        f = s.flare_pool[a.a]
        return f"buy Flare {t.flare_ids[f]} ({_flare(t, f)}) for {s.flare_cost(p, a.a)} AP"
    if k in (USE, BOON):
        return f"{a.text} ({_flare(t, a.a)})"
    if k == KEEP:
        god = t.data.gods[a.a]
        return f"keep {god.name}, {god.title}: {god.text}"
    return a.text


NP_TEXT = {
    "flat": "{} night points",
    "per_star": "{} per launched star",
    "per_constellation": "{} per constellation with your stars",
    "per_privilege": "{} per privilege",
    "per_aspect": "{} per Aspect recorded",
    "per_magnitude": "{} per magnitude recorded",
    "magnitude": "{} x the star's magnitude",
    "per_flare": "{} per used Flare",
}
BOON_TEXT = {"ap": "+{} action points", "ray": "{} free ray(s)", "core": "{} free Core"}


def _flare(t: Any, f: int) -> str:
    card = t.data.flares[f]
    np_part = NP_TEXT[card.np].format(card.np_value)
    return f"launch: {np_part} / boon: {BOON_TEXT[card.boon].format(card.boon_value)}"


def _plan(t: Any, c: int) -> str:
    if c >= t.num_deck_cores:
        return "starter: any colour, any size, +1 pre-printed ray"
    card = t.data.cores[c]
    return f"{'/'.join(card.colors)}, {card.pattern} sizes, {card.aspect}"


def action_ui(s: Any, a: Act, p: int) -> dict[str, Any]:
    t = s.t
    k = a.kind
    targets: list[str] = []
    if k == PLACE:
        targets = [f"rondel:{t.rondel[a.a]}"]
    elif k == STEP:
        targets = [f"rondel:{t.rondel[(s.pos[p] + 1) % 7]}"]
    elif k == CORE:
        targets = [f"pool:core:{t.core_ids[a.a]}"]
    elif k in (TAKE, FREE):
        targets = [f"pool:{SIZE_NAMES[a.a]}:{t.colors[a.b]}"]
    elif k == FLARE:
        targets = [f"pool:flare:{a.a + 1}"]
    elif k in (LAUNCH, FINAL):
        targets = [f"rondel:{s.space(p)}"] if k == LAUNCH else ["mat:final"]
    elif k == STAR:
        targets = [f"hand:core:{t.core_ids[a.a]}"]
    elif k == ATTACH:
        targets = [f"hand:ray:{SIZE_NAMES[a.a]}:{t.colors[a.b]}"]
    elif k in (USE, BOON):
        targets = [f"hand:flare:{t.flare_ids[a.a]}"]
    elif k == SLOT:
        sl = t.slots[a.a]
        targets = [f"slot:{t.constellations[sl.constellation]}:{sl.n}"]
    elif k == KEEP:
        targets = [f"hand:god:{t.god_ids[a.a]}"]
    elif k == FLUSH:
        targets = [f"pool:{s.space(p)}:flush"]
    elif k == BUY:
        targets = ["mat:buy"]
    elif k == SLOTLESS:
        targets = ["board:slotless"]
    else:  # end, done, skip: buttons
        targets = [f"button:{a.text.replace(' ', '-')}"]
    return {"label": describe_action(s, a, p), "targets": targets}
