"""How a game is shown: the ``GameUI`` a ``Game`` owns (``game.ui``).

Presentation stays out of the rules: a state knows the rules and what each seat may know
(``view``); the game's UI turns that into text for the terminal, an SVG board for the browser,
a label plus click targets for every choice, the log in words and the score table. Nothing here
may show more than ``state.view(viewer)`` (and, for the log, ``state.log_text``) holds.

One identity per seat: whoever shows a seat (the board, a web page's players panel, its log, its
end screen) takes the seat's name from the caller (``names``: the server knows who sits where)
and its colour from ``seat_colors`` (one palette, the game's), so they never disagree.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from nightsky.core.state import CHANCE

if TYPE_CHECKING:
    from nightsky.core.game import Action, Game, State

SEAT_COLORS = ("#ff8a8a", "#7fd3ff", "#a4f07f", "#ffd27f", "#d6a4ff", "#ff9fd6")
"""The one palette of seat colours (seat ``i`` gets ``SEAT_COLORS[i % 6]``) where a game's
components give its seats no colour of their own."""


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One column of the final score table: ``key`` of ``score_breakdown``, its ``label`` in
    words, and whether it counts ``points`` (False: a count shown beside the points, e.g. how
    many creatures a seat controls, which is not part of the total)."""

    key: str
    label: str
    points: bool = True


Narration = Callable[
    [Any, Any, int, "int | None", Sequence[str], Callable[[], list[str]]], list[str]
]
"""``(before, after, index, viewer, names, default) -> sentences``: a game's log in words;
``default()`` gives ``GameUI``'s own sentences for an entry the game tells no differently."""


@dataclass(frozen=True, slots=True)
class UIParts:
    """The module functions a game's presentation is drawn by, declared once on its ``GameUI``
    (``parts = UIParts(board_svg=board_svg, ...)``) instead of a method per
    function that only forwards to it. Each takes the game's own state type; a part left None
    keeps ``GameUI``'s default. The signatures are those of the ``GameUI`` methods of the same
    names, without ``self`` (``describe_action`` without ``names``) and, for
    ``describe_log_entry``, with the default sentences as a last argument (``Narration``).
    (``render``, the terminal's text, stays a method: it takes the seats' names there.)"""

    board_svg: (
        Callable[[Any, int | None, Sequence[str] | None, Sequence[str] | None], str | None]
        | None
    ) = None
    describe_action: Callable[[Any, Any, int], str] | None = None
    action_targets: Callable[[Any, Any, int], list[str]] | None = None
    describe_log_entry: Narration | None = None


class GameUI:
    """The default presentation: the view as JSON text, no board, notations as labels.

    A game subclasses it and names the subclass in ``Game.ui_class``; the functions it is
    drawn by are declared in ``parts`` (``UIParts``), methods it needs beyond them written as
    methods. ``action_ui`` builds its label from ``describe_action``, so menus, logs and the
    board agree on one wording.
    """

    parts: ClassVar[UIParts] = UIParts()
    """The game's drawing functions (``UIParts``); none by default."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        """A plain-text drawing of what ``viewer`` sees; ``names``: how to call each seat
        (default ``seat_names``: ``Seat 1``...), never by its index."""
        return json.dumps(state.view(viewer), indent=2, sort_keys=True)

    def board_svg(
        self,
        state: State,
        viewer: int | None = None,
        names: Sequence[str] | None = None,
        colors: Sequence[str] | None = None,
    ) -> str | None:
        """An SVG drawing (one ``<svg>`` element) of what ``viewer`` sees, for the web client.

        Every element a click can choose carries an ``id`` equal to a target named by
        ``action_targets`` (and ``data-label`` where a tooltip helps), so the client highlights
        legal choices and maps clicks to actions without knowing the game. It must show
        nothing ``view(viewer)`` does not hold. ``names``/``colors``: each seat's name and
        colour as the page shows them (None: the game's own wording and ``seat_colors``).
        None: the client shows ``render``.
        """
        if self.parts.board_svg is not None:
            return self.parts.board_svg(state, viewer, names, colors)
        return None

    # ------------------------------------------------------------------ seats
    def seat_colors(self) -> list[str]:
        """One colour (``#rrggbb``) per seat (``game.num_seats``): ``SEAT_COLORS`` unless the
        game's components colour the seats (Shooting Star's admirals)."""
        return [SEAT_COLORS[i % len(SEAT_COLORS)] for i in range(self.game.num_seats)]

    def seat_names(self) -> list[str]:
        """How the log and the board call each seat when the caller names nobody:
        ``Seat 1``... (the seats the game plays itself by ``Game.seat_name``)."""
        game = self.game
        return [
            f"Seat {i + 1}" if i < game.num_players else game.seat_name(i)
            for i in range(game.num_seats)
        ]

    def view_labels(self) -> dict[str, str]:
        """Words for the keys of ``view`` in the web client's "what you know" panel: a key
        (``"ap"``) or a dotted path (``"seats.rays"``) mapped to a label (``"Action points"``).
        Keys without one are shown as words made from the key. Default: none."""
        return {}

    # ------------------------------------------------------------------ choices
    def describe_action(
        self, state: State, action: Action, player: int, names: Sequence[str] | None = None
    ) -> str:
        """A human sentence for ``action`` (menus, labels, the log). Default: its notation.

        Two different legal actions of one position must never get the same label.
        ``names``: how to call each seat, where an action names one (default: the game's
        own wording)."""
        if self.parts.describe_action is not None:
            return self.parts.describe_action(state, action, player)
        return str(action)

    def action_targets(self, state: State, action: Action, player: int) -> list[str]:
        """The board elements (ids in ``board_svg``) a click on which chooses ``action``."""
        if self.parts.action_targets is not None:
            return self.parts.action_targets(state, action, player)
        return []

    def action_ui(
        self, state: State, action: Action, player: int, names: Sequence[str] | None = None
    ) -> dict[str, Any]:
        """How a client offers ``action``: ``{"label": str, "targets": [element ids]}``."""
        return {
            "label": self.describe_action(state, action, player, names),
            "targets": self.action_targets(state, action, player),
        }

    # ------------------------------------------------------------------ the log
    def describe_log_entry(
        self,
        before: State,
        after: State,
        index: int,
        viewer: int | None,
        names: Sequence[str],
    ) -> list[str]:
        """History entry ``index`` in words, as ``viewer`` (None: a spectator) may read it:
        zero or more sentences (none: nothing worth a line, e.g. a hidden draw).

        ``before`` is the position the entry was played on, ``after`` the one it led to (its
        history ends with the entry); ``names[seat]`` is how to call each seat. A sentence
        must tell nothing ``after.log_text(index, viewer)``, ``before.view(viewer)`` and
        ``after.view(viewer)`` do not: what the entry *changed on the table* (a capture, a
        card destroyed) belongs here too, so a game whose rules resolve several things in one
        step tells each of them.

        Default: the mover's name and ``describe_action`` told as done (``as_done``) when
        the viewer may read the move, else its redacted notation; a public chance outcome by
        ``describe_chance``; a hidden draw ("chance") says nothing.
        """
        tell = self.parts.describe_log_entry
        if tell is not None:
            return tell(
                before, after, index, viewer, names,
                lambda: self._default_entry(before, after, index, viewer, names),
            )
        return self._default_entry(before, after, index, viewer, names)

    def _default_entry(
        self, before: State, after: State, index: int, viewer: int | None, names: Sequence[str]
    ) -> list[str]:
        seat, action = after.history[index]
        seen = after.log_text(index, viewer)
        if seat == CHANCE:
            if seen == "chance":
                return []
            return [self.describe_chance(before, action) if seen == str(action) else seen]
        who = seat_label(names, seat)
        if seen == str(action):
            return [f"{who} {as_done(self.describe_action(before, action, seat, names))}"]
        return [f"{who}: {seen}"]

    def describe_chance(self, state: State, outcome: Action) -> str:
        """A public chance outcome in words (a die, a card turned face up); ``state`` is the
        position it was drawn on. Default: its notation."""
        return str(outcome)

    # ------------------------------------------------------------------ at a glance
    def glance(self, view: dict[str, Any], viewer: int | None) -> dict[str, Any]:
        """What the web table shows without opening anything, read from ``view`` (so it
        tells nothing the viewer may not know): ``{"seats": [{"score", "counts": [{"label",
        "value"}...]}...], "dock": section or None}``. ``counts`` are the few numbers that
        matter in the game (cards in hand, creatures), one line per seat; ``dock`` names
        the board's ``data-section`` that holds the viewer's own hand, which the page keeps
        in view under the board.

        A game says it in an optional ``glance`` module of its package (a function
        ``glance(view, viewer)``); without one: each seat's score where the view has
        ``scores``, no counts, no dock.
        """
        module = _glance_module(type(self.game))
        if module is not None:
            return dict(module.glance(view, viewer))
        scores = view.get("scores") if isinstance(view, dict) else None
        seats: list[dict[str, Any]] = [
            {"score": scores[i] if isinstance(scores, list) and i < len(scores) else None,
             "counts": []}
            for i in range(self.game.num_players)
        ]
        return {"seats": seats, "dock": None}

    # ------------------------------------------------------------------ the end
    def score_parts(self, state: State) -> list[ScorePart]:
        """The columns of the final score table, in words (the ``total`` excluded). Default:
        every key of ``score_breakdown`` as points, its name spelled out."""
        keys: list[str] = []
        for row in state.score_breakdown():
            keys.extend(k for k in row if k != "total" and k not in keys)
        return [ScorePart(k, k.replace("_", " ").capitalize()) for k in keys]


_PAST = {
    "advance": "advanced", "attach": "attached", "build": "built", "buy": "bought",
    "choose": "chose", "circle": "circled", "discard": "discarded", "draw": "drew",
    "end": "ended", "fill": "filled", "flip": "flipped", "flush": "flushed", "invoke": "invoked",
    "keep": "kept", "launch": "launched", "make": "made", "pass": "passed", "place": "placed",
    "play": "played", "push": "pushed", "put": "put", "score": "scored", "steal": "stole",
    "step": "stepped", "stop": "stopped", "summon": "summoned", "swap": "swapped",
    "take": "took", "use": "used",
}
_PERSON = {"your": "their", "you": "they", "yours": "theirs", "yourself": "themselves"}


def as_done(label: str) -> str:
    """A choice's label (``take a long red ray``) told as done by someone, for the log
    (``took a long red ray.``); a label that does not start with a known verb reads
    ``chose: <label>.``. Second person becomes third (``your`` -> ``their``)."""
    first, _, rest = label.partition(" ")
    words = [_PERSON.get(w, w) for w in rest.split(" ")] if rest else []
    tail = " ".join(words)
    verb = _PAST.get(first.lower())
    text = f"{verb} {tail}".strip() if verb else f"chose: {label}"
    return text if text.endswith((".", "!", "?")) else text + "."


def _glance_module(game_type: type) -> Any:
    """The ``glance`` module of the package that defines ``game_type``, or None."""
    package = game_type.__module__.rpartition(".")[0]
    if not package:
        return None
    try:
        return importlib.import_module(f"{package}.glance")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.glance":
            raise
        return None


def seat_label(names: Sequence[str], seat: int) -> str:
    """``names[seat]``, or ``Seat N`` where ``names`` has no entry for it."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"Seat {seat + 1}"


def resolve_look(
    ui: GameUI, names: Sequence[str] | None, colors: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    """The names and colours a board draws: the caller's where given, else the game's."""
    own_names = ui.seat_names()
    own_colors = ui.seat_colors()
    out_names = [
        (names[i] if names is not None and i < len(names) and names[i] else own_names[i])
        for i in range(len(own_names))
    ]
    out_colors = [
        (colors[i] if colors is not None and i < len(colors) and colors[i] else own_colors[i])
        for i in range(len(own_colors))
    ]
    return out_names, out_colors


def render_text(
    ui: GameUI, state: State, viewer: int | None, names: Sequence[str] | None = None
) -> str:
    """``ui.render`` with the seats' ``names`` where the game's ``render`` takes them (a game
    written before ``render`` had ``names`` draws its own seat words)."""
    import inspect  # here, not at the top: only this helper needs it

    if "names" in inspect.signature(ui.render).parameters:
        return ui.render(state, viewer, names)
    return ui.render(state, viewer)


def turn_words(names: Sequence[str], acting: Sequence[int]) -> str:
    """Whose turn it is, by name: ``It is Bo's turn.``, ``It is Bo's and Cy's turn.`` (a
    refusal in players' words where the rules would say ``seat 1``)."""
    if not acting or all(q == CHANCE for q in acting):
        return "It is nobody's turn: the game is drawing or dealing."
    who = [f"{seat_label(names, q)}'s" for q in acting if q != CHANCE]
    listed = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
    return f"It is {listed} turn."
