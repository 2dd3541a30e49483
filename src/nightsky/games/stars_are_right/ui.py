"""How The Stars Are Right is shown (``game.ui``): the text board and choice labels of
``render.py`` and the SVG board of ``svg.py``, behind the shared ``GameUI`` interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from nightsky.core.ui import GameUI, ScorePart, UIParts

from .narrate import describe_entry
from .render import action_targets, describe, render
from .svg import SEAT_COLOURS, board_svg

if TYPE_CHECKING:
    from nightsky.core.game import State

    from .state import StarsAreRightState


class StarsAreRightUI(GameUI):
    """Text and SVG boards; a choice's label is ``describe_action`` (one wording for menus and
    the board), its targets the tiles, arrows and cards a click on which takes it."""

    parts = UIParts(
        board_svg=board_svg, describe_action=describe, action_targets=action_targets,
        describe_log_entry=describe_entry,
    )

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        return render(cast("StarsAreRightState", state), viewer, names)

    def score_parts(self, state: State) -> list[ScorePart]:
        """The VP of the creatures by kind (TSAR-10.1); how many creatures, apart."""
        return [
            ScorePart("great_old_ones", "Great Old Ones (VP)"),
            ScorePart("greater_servitors", "Greater Servitors (VP)"),
            ScorePart("lesser_servitors", "Lesser Servitors (VP)"),
            ScorePart("creatures", "Creatures summoned (a count, not points)", points=False),
        ]

    def seat_colors(self) -> list[str]:
        """The board's own four seat colours, on the page too."""
        return [SEAT_COLOURS[i % len(SEAT_COLOURS)] for i in range(self.game.num_seats)]
