"""How Shooting Star is shown (``game.ui``): the text drawing, the SVG board, and the label and
click targets of every choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from nightsky.core.game import Action, State
from nightsky.core.ui import GameUI, ScorePart, UIParts
from nightsky.games.shooting_star.actions import Build, Discard, Place
from nightsky.games.shooting_star.constants import CARD_KEYS, DARK_LEVEL
from nightsky.games.shooting_star.narrate import card_words, describe_entry
from nightsky.games.shooting_star.render import render
from nightsky.games.shooting_star.svg import COLOUR, board_svg, card_target, planet_target

if TYPE_CHECKING:
    from nightsky.games.shooting_star.game import ShootingStarGame
    from nightsky.games.shooting_star.state import ShootingStarState


class ShootingStarUI(GameUI):
    """Shooting Star's presentation; ``describe_action`` is also the label of every choice."""

    game: ShootingStarGame
    parts = UIParts(board_svg=board_svg, describe_log_entry=describe_entry)

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        return render(cast("ShootingStarState", state), viewer, names)

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
                else f"{g.p_name[p]} (Level {st.lvl[action.cell]})" if g.p_name[p]
                else f"a Level {st.lvl[action.cell]} planet"
            )
            # Short, as a hover box lists one per space: the card, face down (SS-3.4), where.
            return f"{card_words(st, action.card)} face down on {what} at {where}"
        if type(action) is Build:
            side = "Dark Planet" if action.level == DARK_LEVEL else f"Level {action.level} up"
            where = g.cell_name(action.cell)
            return f"{self._hand_planet(st, action.planet, player)} ({side}) at {where}"
        if type(action) is Discard:
            return f"{self._hand_planet(st, action.planet, player)} fits nowhere: back to the box"
        return str(action)

    def _hand_planet(self, st: ShootingStarState, planet: int, player: int) -> str:
        """A planet of ``player``'s hand by its name, or, unnamed, by its kind, its Moon and
        its place among the like ones in hand (``your 2nd 1/2 planet with a Moon``)."""
        g = self.game
        if g.p_name[planet]:
            return g.p_name[planet]
        words = g.planet_label(planet) + (" with a Moon" if g.p_moon[planet] else "")
        hand = st.phands[player] if 0 <= player < len(st.phands) else ()
        like = [p for p in hand if not g.p_name[p] and g.planet_label(p) == g.planet_label(planet)
                and g.p_moon[p] == g.p_moon[planet]]
        if len(like) > 1 and planet in like:
            nth = like.index(planet) + 1
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(nth, "th")
            return f"your {nth}{suffix} {words[2:]}"
        return words

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
