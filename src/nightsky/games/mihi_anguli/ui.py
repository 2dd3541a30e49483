"""Mihi Anguli's presentation (``game.ui``): the text sheets and action labels of ``render``
and the SVG board of ``svg``. Every sheet is public (MA-10.3): nothing here can show more than
``state.view(viewer)``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from nightsky.core.game import CHANCE
from nightsky.core.ui import GameUI, ScorePart, UIParts, seat_label
from nightsky.games.mihi_anguli.actions import Roll
from nightsky.games.mihi_anguli.render import action_targets, describe, render
from nightsky.games.mihi_anguli.svg import VIEW_LABELS, board_svg

if TYPE_CHECKING:
    from nightsky.core.game import State
    from nightsky.games.mihi_anguli.state import MihiAnguliState


class MihiAnguliUI(GameUI):
    """Text sheets, the SVG board, and one wording for every action (``render.describe``)."""

    parts = UIParts(board_svg=board_svg, describe_action=describe, action_targets=action_targets)

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        return render(cast("MihiAnguliState", state), viewer, names)

    def describe_log_entry(
        self,
        before: State,
        after: State,
        index: int,
        viewer: int | None,
        names: Sequence[str],
    ) -> list[str]:
        """Every move is public (MA-10.3); the roll tells each player's three ability dice."""
        seat, action = after.history[index]
        if seat == CHANCE and isinstance(action, Roll):
            dice = [
                f"{seat_label(names, q)} {', '.join(map(str, d))}"
                for q, d in enumerate(action.dice)
                if d is not None
            ]
            out = ["The ability dice are rolled: " + "; ".join(dice) + "."]
        else:
            out = super().describe_log_entry(before, after, index, viewer, names)
        if after.is_terminal() and not before.is_terminal():
            out.append("The game is over: the sheets are scored.")
        return out

    def score_parts(self, state: State) -> list[ScorePart]:
        """The score's sources in words (MA-9.3 to MA-9.5, MA-10.4)."""
        return [
            ScorePart("region", "Largest group of filled squares"),
            ScorePart("stars", "Filled star points (1 each)"),
            ScorePart("articles", "Article rewards circled"),
            ScorePart("publisher", "PUBLISHER (supporter)"),
            ScorePart("headhunter", "HEADHUNTER (supporter)"),
            ScorePart("unique", "Done by no other player (1 each)"),
        ]

    def view_labels(self) -> dict[str, str]:
        return VIEW_LABELS
