"""Starlight's presentation (``game.ui``): the text rendering, the SVG board, choice labels.

It only draws: the text comes from ``render``, the board from ``svg``, the labels and click
targets of choices from ``labels``; each of them reads what ``state.view(viewer)`` holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from nightsky.core.ui import GameUI, ScorePart, UIParts

from .labels import action_targets, describe_action, draw_words
from .narrate import describe_entry
from .render import render_state
from .svg import VIEW_LABELS, board_svg

if TYPE_CHECKING:
    from nightsky.core.game import Action, State



class StarlightUI(GameUI):
    """Text, SVG and choice labels of a Starlight position."""

    parts = UIParts(
        board_svg=board_svg, describe_action=describe_action, action_targets=action_targets,
        describe_log_entry=describe_entry,
    )

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        return render_state(state, viewer, names)

    def describe_chance(self, state: State, outcome: Action) -> str:
        """A public draw in words: a ray out of its bag, a Core or Flare turned up."""
        return draw_words(outcome)

    def score_parts(self, state: State) -> list[ScorePart]:
        """Night points, then the points the end adds (SL scoring); Starbots score their
        launched stars instead of Alpha Day and Laurels."""
        parts = [
            ScorePart("night", "Night points"),
            ScorePart("alpha", "Alpha Day"),
            ScorePart("laurels", "Laurels achieved"),
            ScorePart("accolades", "Accolades won"),
        ]
        if state.game.num_seats > state.game.num_players:
            parts.insert(1, ScorePart("stars", "Starbot's launched stars"))
        if any(getattr(state.game, "head_start", ())):
            parts.append(ScorePart("head_start", "Turn-order day points (SL-1.5)"))
        return parts

    def view_labels(self) -> dict[str, str]:
        return VIEW_LABELS
