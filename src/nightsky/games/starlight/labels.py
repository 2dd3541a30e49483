"""Words and click targets of Starlight's choices and cards, for the presentation modules.

``describe_action`` is the one label of a choice (menus, the CLI, the web client's buttons);
``action_targets`` names the board elements of ``svg`` that choose it; the card texts are shared
by the text rendering and the SVG board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .components import PRIVILEGES, SIZES
from .constants import (
    ATTACH,
    BOON,
    BUY,
    CORE,
    D_CORE,
    D_FLARE,
    D_LONG,
    D_SHORT,
    DONE,
    END,
    FINAL,
    FLARE,
    FLUSH,
    FREE,
    KEEP,
    LAUNCH,
    PLACE,
    SIZE_NAMES,
    SKIP,
    SLOT,
    SLOTLESS,
    STAR,
    STEP,
    TAKE,
    USE,
)

if TYPE_CHECKING:
    from .actions import Act
    from .components import Tables
    from .state import StarlightState


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
BOON_TEXT = {"ap": "+{} action points", "ray": "{} free rays", "core": "{} free Cores"}
_BOON_ONE = {"ap": "+1 action point", "ray": "1 free ray", "core": "1 free Core"}
PRIVILEGE_WORDS = {"buy_np": "Buy night points", "plus_ap": "+1 action point",
                   "refill_rays": "Refill rays", "laurels3": "Laurels +3 each",
                   "core_ray": "a free ray with each Core", "alpha": "Launch alpha stars"}
"""Each privilege as the mat prints it (the keys are the components' own ids)."""


def boon_words(boon: str, value: int) -> str:
    """A Flare's boon in words: ``1 free ray``, ``+2 action points``."""
    return _BOON_ONE[boon] if value == 1 else BOON_TEXT[boon].format(value)


def space_words(t: Tables, space: str | None) -> str:
    """A rondel space as the board prints it: ``Gain Cores``, ``Long Rays``, ``Launch
    (Aquila/Hydrus)`` (a launch space by the constellations it shows); None: not on the
    rondel yet."""
    if space is None:
        return "no space yet"
    if space.startswith("launch") and space in t.launch_shows:
        shows = "/".join(t.constellations[c].capitalize() for c in t.launch_shows[space])
        return f"Launch ({shows})"
    return {"cores": "Gain Cores", "long": "Long Rays", "short": "Short Rays",
            "flares": "Gain Flares"}.get(space, space)


def slot_words(notation: str) -> str:
    """A slot's notation (``to cygnus 3``) as the board names it: ``Cygnus 3``."""
    return notation.removeprefix("to ").capitalize()


def flare_summary(t: Tables, f: int) -> str:
    """A Flare card's two uses in words."""
    card = t.data.flares[f]
    np_part = NP_TEXT[card.np].format(card.np_value)
    return f"launch: {np_part} / boon: {boon_words(card.boon, card.boon_value)}"


def core_plan(t: Tables, c: int) -> str:
    """A Core's plan (colours, sizes, Aspect) in words."""
    if c >= t.num_deck_cores:
        return "starter: any colour, any size, +1 pre-printed ray"
    card = t.data.cores[c]
    return f"{'/'.join(card.colors)}, {card.pattern} sizes, {card.aspect}"


def describe_action(s: StarlightState, a: Act, p: int) -> str:
    """The label of a choice: its notation, with what the card or slot does where it helps."""
    t = s.t
    k = a.kind
    if k == STEP:
        nxt = t.rondel[(s.pos[p] + 1) % 7]
        return f"step to {space_words(t, nxt)} (1 AP)"
    if k == CORE:
        c = a.a
        return f"take Core {t.core_ids[c]} ({core_plan(t, c)})"
    if k == STAR:
        return f"launch Core {t.core_ids[a.a]} ({core_plan(t, a.a)})"
    if k == SLOT:
        sl = t.slots[a.a]
        pr = (f", privilege: {PRIVILEGE_WORDS[PRIVILEGES[sl.privilege]]}"
              if sl.privilege >= 0 else "")
        where = slot_words(a.text)
        return f"place the star on {where} ({SIZES[sl.size]}, {sl.np} night points{pr})"
    if k == FLARE:
        f = s.flare_pool[a.a]
        return f"buy Flare {t.flare_ids[f]} ({flare_summary(t, f)}) for {s.flare_cost(p, a.a)} AP"
    if k == USE:
        return f"use Flare {t.flare_ids[a.a]} at the launch ({flare_summary(t, a.a)})"
    if k == BOON:
        return f"use the boon of Flare {t.flare_ids[a.a]} ({flare_summary(t, a.a)})"
    if k == KEEP:
        god = t.data.gods[a.a]
        return f"keep {god.name}, {god.title}: {god.text}"
    if k == PLACE:
        return f"put your marker on {space_words(t, t.rondel[a.a])} (first turn)"
    if k in (TAKE, FREE):
        how = "take a free" if k == FREE else "take a"
        return f"{how} {SIZE_NAMES[a.a]} {t.colors[a.b]} ray" + ("" if k == FREE else " (1 AP)")
    if k == ATTACH:
        return f"attach a {SIZE_NAMES[a.a]} {t.colors[a.b]} ray"
    words = {
        END: "end the turn",
        FLUSH: f"flush the {s.space(p)} pool (1 AP)",
        LAUNCH: "launch a star",
        FINAL: "final launch (1 AP, your last turn)",
        SLOTLESS: "score the star without a slot",
        BUY: "buy night points (2 AP each)",
        DONE: "done",
        SKIP: "take no free ray",
    }
    return words.get(k, a.text)


def action_targets(s: StarlightState, a: Act, p: int) -> list[str]:
    """The ids of the board elements (``svg``) a click on which chooses ``a``."""
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
    return targets


def draw_words(outcome: object) -> str:
    """A chance draw (``actions.Draw``) in words: ``A long red ray comes out of the bag.``,
    ``Core C30 is turned up.``; a secret card (Laurel, God, Starbot) only as a card drawn."""
    kind = getattr(outcome, "kind", -1)
    what = str(outcome).removeprefix("draw ")
    if kind in (D_LONG, D_SHORT):
        return f"A {what} ray comes out of the bag."
    if kind == D_CORE:
        return f"Core {what} is turned up."
    if kind == D_FLARE:
        return f"Flare {what} is turned up."
    return "A card is drawn."
