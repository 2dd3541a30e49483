"""Which named components a Starlight action takes or plays (the design lab's attribution).

``nightsky balance`` and ``nightsky compare`` credit each seat with the slots it launched a
star onto ("Aquila 1"), the Gods it kept ("Apollo"), the Flares it played ("Flare F14") and
the Cores it took ("Core C12"), so a report can name the component that decides games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.game import Action, State

from .actions import Act
from .constants import BOON, CORE, KEEP, SLOT, USE

if TYPE_CHECKING:
    from .game import StarlightGame


def component_events(
    game: StarlightGame, state: State, action: Action, seat: int
) -> tuple[tuple[int, str, str], ...]:
    """``(seat, verb, name)`` for the component ``action`` takes or plays; () for others."""
    if seat < 0 or type(action) is not Act:
        return ()
    t = game.tables
    kind = action.kind
    if kind == SLOT:
        slot = t.slots[action.a]
        return ((seat, "launched on", f"{slot_title(game, slot.constellation)} {slot.n}"),)
    if kind == KEEP:
        return ((seat, "kept", t.data.gods[action.a].name),)
    if kind in (USE, BOON):
        return ((seat, "played", f"Flare {t.flare_ids[action.a]}"),)
    if kind == CORE:
        return ((seat, "took", f"Core {t.core_ids[action.a]}"),)
    return ()


def slot_title(game: StarlightGame, constellation: int) -> str:
    """A constellation's board name: the first word of its title ("Aquila")."""
    return game.tables.data.constellations[constellation].title.split(",")[0].strip()
