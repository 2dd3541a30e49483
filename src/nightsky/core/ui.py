"""How a game is shown: the ``GameUI`` a ``Game`` owns (``game.ui``).

Presentation stays out of the rules: a state knows the rules and what each seat may know
(``view``); the game's UI turns that into text for the terminal, an SVG board for the browser,
and a label plus click targets for every choice. Nothing here may show more than
``state.view(viewer)`` holds.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nightsky.core.game import Action, Game, State


class GameUI:
    """The default presentation: the view as JSON text, no board, notations as labels.

    A game subclasses it and names the subclass in ``Game.ui_class``. ``action_ui`` builds
    its label from ``describe_action``, so menus, logs and the board agree on one wording.
    """

    def __init__(self, game: Game) -> None:
        self.game = game

    def render(self, state: State, viewer: int | None = None) -> str:
        """A plain-text drawing of what ``viewer`` sees."""
        return json.dumps(state.view(viewer), indent=2, sort_keys=True)

    def board_svg(self, state: State, viewer: int | None = None) -> str | None:
        """An SVG drawing (one ``<svg>`` element) of what ``viewer`` sees, for the web client.

        Every element a click can choose carries an ``id`` equal to a target named by
        ``action_targets`` (and ``data-label`` where a tooltip helps), so the client highlights
        legal choices and maps clicks to actions without knowing the game. It must show
        nothing ``view(viewer)`` does not hold. None: the client shows ``render``.
        """
        return None

    def view_labels(self) -> dict[str, str]:
        """Words for the keys of ``view`` in the web client's "what you know" panel: a key
        (``"ap"``) or a dotted path (``"seats.rays"``) mapped to a label (``"Action points"``).
        Keys without one are shown as words made from the key. Default: none."""
        return {}

    def describe_action(self, state: State, action: Action, player: int) -> str:
        """A human sentence for ``action`` (menus, labels). Default: its notation."""
        return str(action)

    def action_targets(self, state: State, action: Action, player: int) -> list[str]:
        """The board elements (ids in ``board_svg``) a click on which chooses ``action``."""
        return []

    def action_ui(self, state: State, action: Action, player: int) -> dict[str, Any]:
        """How a client offers ``action``: ``{"label": str, "targets": [element ids]}``."""
        return {
            "label": self.describe_action(state, action, player),
            "targets": self.action_targets(state, action, player),
        }
