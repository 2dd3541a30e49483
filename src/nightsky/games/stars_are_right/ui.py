"""How The Stars Are Right is shown (``game.ui``): the text board and choice labels of
``render.py`` and the SVG board of ``svg.py``, behind the shared ``GameUI`` interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from nightsky.core.ui import GameUI, ScorePart

from .narrate import describe_entry
from .render import action_targets, describe, render
from .svg import SEAT_COLOURS, board_svg

if TYPE_CHECKING:
    from nightsky.core.game import Action, State

    from .state import StarsAreRightState


class StarsAreRightUI(GameUI):
    """Text and SVG boards; a choice's label is ``describe_action`` (one wording for menus and
    the board), its targets the tiles, arrows and cards a click on which takes it."""

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        return render(cast("StarsAreRightState", state), viewer, names)

    def board_svg(
        self,
        state: State,
        viewer: int | None = None,
        names: Sequence[str] | None = None,
        colors: Sequence[str] | None = None,
    ) -> str | None:
        return board_svg(cast("StarsAreRightState", state), viewer, names, colors)

    def describe_log_entry(
        self,
        before: State,
        after: State,
        index: int,
        viewer: int | None,
        names: Sequence[str],
    ) -> list[str]:
        return describe_entry(
            cast("StarsAreRightState", before), cast("StarsAreRightState", after), index,
            viewer, names,
            lambda: super(StarsAreRightUI, self).describe_log_entry(
                before, after, index, viewer, names
            ),
        )

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

    def describe_action(
        self, state: State, action: Action, player: int, names: Sequence[str] | None = None
    ) -> str:
        return describe(cast("StarsAreRightState", state), action, player)

    def action_targets(self, state: State, action: Action, player: int) -> list[str]:
        return action_targets(cast("StarsAreRightState", state), action, player)
