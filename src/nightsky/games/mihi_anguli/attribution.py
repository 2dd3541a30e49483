"""Which named components a Mihi Anguli action uses (the design lab's attribution).

``nightsky balance`` and ``nightsky compare`` credit each seat with the abilities and
supporters of its sheet that it used, by the sheet's name ("PLOTTING III", "MENTOR"); the
basic POSITIONING I and PLOTTING I every player has count too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from nightsky.core.game import Action, State
from nightsky.games.mihi_anguli.actions import Move

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.game import MihiAnguliGame

ROMAN = ("", "I", "II", "III", "IV", "V")
FAMILIES = {"POS": "POSITIONING", "PLOT": "PLOTTING"}
NAMED = {"rec": "RECORDING", "opt": "OPTIMIZING", "study": "STUDYING", "mentor": "MENTOR",
         "promote": "PROMOTER"}


def component_events(
    game: MihiAnguliGame, state: State, action: Action, seat: int
) -> tuple[tuple[int, str, str], ...]:
    """``(seat, "used", ability)`` for an ability or supporter's use; () for other actions."""
    if seat < 0 or type(action) is not Move:
        return ()
    name = NAMED.get(action.kind)
    if name is None:
        m = re.fullmatch(r"(pos|plot)([1-5])", action.kind)
        if m is None:
            return ()
        name = f"{FAMILIES[m.group(1).upper()]} {ROMAN[int(m.group(2))]}"
    return ((seat, "used", name),)
