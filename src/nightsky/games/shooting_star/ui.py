"""How Shooting Star is shown (``game.ui``): the text drawing, the SVG board, and the label and
click targets of every choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from nightsky.core.game import Action, State
from nightsky.core.ui import GameUI, ScorePart, UIParts
from nightsky.games.shooting_star.actions import Build, Discard, Place
from nightsky.games.shooting_star.constants import CARD_KEYS, DARK_LEVEL
from nightsky.games.shooting_star.narrate import describe_entry
from nightsky.games.shooting_star.render import render
from nightsky.games.shooting_star.svg import COLOUR, board_svg, card_target, planet_target

if TYPE_CHECKING:
    from nightsky.games.shooting_star.game import ShootingStarGame
    from nightsky.games.shooting_star.state import ShootingStarState


class ShootingStarUI(GameUI):
    """Shooting Star's presentation; ``describe_action`` is also the label of every choice."""

    game: ShootingStarGame
    parts = UIParts(board_svg=board_svg, describe_log_entry=describe_entry)

    def render(self, state: State, viewer: int | None = None) -> str:
        return render(cast("ShootingStarState", state), viewer)

    def seat_colors(self) -> list[str]:
        """Each admiral's own colour (the colour of its Destruction cards, SS-1.1)."""
        return [COLOUR.get(c, "#cccccc") for c in self.game.colours]

    def score_parts(self, state: State) -> list[ScorePart]:
        return [
            ScorePart("cards", "Captured cards (planets and Destruction cards, 1 each)"),
            ScorePart("moons", "Moons on captured planets (1 each)"),
            ScorePart("missions", "Secret Missions"),
            ScorePart("debris_bonus", "Largest Space Debris (3)"),
        ]

    def describe_action(
        self, state: State, action: Action, player: int, names: Sequence[str] | None = None
    ) -> str:
        st = cast("ShootingStarState", state)
        g = self.game
        if type(action) is Place:
            where = g.cell_name(action.cell)
            p = st.pl[action.cell]
            what = (
                "a Dark Planet"
                if st.lvl[action.cell] == DARK_LEVEL
                else f"{g.planet_label(p)} (Level {st.lvl[action.cell]})"
            )
            card = g.cards[action.card]
            key = CARD_KEYS[action.card]
            return f"{card.title} ({key}) face down on {what} at {where}"
        if type(action) is Build:
            side = "Dark Planet" if action.level == DARK_LEVEL else f"Level {action.level} up"
            where = g.cell_name(action.cell)
            return f"{g.planet_label(action.planet)} ({side}) at {where}"
        if type(action) is Discard:
            return f"{g.planet_label(action.planet)} fits nowhere: back to the box"
        return str(action)

    def action_targets(self, state: State, action: Action, player: int) -> list[str]:
        """The cell (``cell-<col>-<row>``), then the card or planet from the hand
        (``card-<KEY>``, ``planet-<code>``) that ``board_svg`` draws."""
        if type(action) is Place:
            return [f"cell-{action.col}-{action.row}", card_target(CARD_KEYS[action.card])]
        if type(action) is Build:
            return [f"cell-{action.col}-{action.row}", planet_target(action.code)]
        if type(action) is Discard:
            return [planet_target(action.code)]
        return []
