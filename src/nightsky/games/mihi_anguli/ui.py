"""Mihi Anguli's presentation (``game.ui``): the text sheets and action labels of ``render``
and the SVG board of ``svg``. Every sheet is public (MA-10.3): nothing here can show more than
``state.view(viewer)``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from nightsky.core.ui import GameUI
from nightsky.games.mihi_anguli.render import action_targets, describe, render
from nightsky.games.mihi_anguli.svg import board_svg

if TYPE_CHECKING:
    from nightsky.core.game import Action, State
    from nightsky.games.mihi_anguli.state import MihiAnguliState


class MihiAnguliUI(GameUI):
    """Text sheets, the SVG board, and one wording for every action (``render.describe``)."""

    def render(self, state: State, viewer: int | None = None) -> str:
        return render(cast("MihiAnguliState", state), viewer)

    def board_svg(
        self,
        state: State,
        viewer: int | None = None,
        names: Sequence[str] | None = None,
        colors: Sequence[str] | None = None,
    ) -> str | None:
        return board_svg(cast("MihiAnguliState", state), viewer, names, colors)

    def describe_action(
        self, state: State, action: Action, player: int, names: Sequence[str] | None = None
    ) -> str:
        return describe(cast("MihiAnguliState", state), action, player)

    def action_targets(self, state: State, action: Action, player: int) -> list[str]:
        return action_targets(cast("MihiAnguliState", state), action, player)
