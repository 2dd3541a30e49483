"""The log in words: a game's history told to one viewer, sentence by sentence.

``GameUI.describe_log_entry`` tells one history entry from the position it was played on and the
one it led to. Those positions are gone once the game moved on, so the history is walked again
from the start (``Narrator``, which the server keeps per game and advances as moves come in;
``narrate`` for a one-off). Each viewer's lines are numbered from 1 without gaps: entries that
say nothing to that viewer (a hidden draw) get no line and no number. Every line keeps the
entry's notation as that viewer may read it (``State.log_text``) for tooltips and records.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nightsky.core.game import Game, State

log = logging.getLogger("nightsky.narration")

LogLine = dict[str, Any]
"""``{"n": number for this viewer (1, 2, ...), "index": history entry, "seat": mover (-1:
chance), "text": the sentence, "notation": the entry as the viewer may read it}``."""


class Narrator:
    """The log in words of one game for a fixed set of viewers, kept up to date incrementally.

    ``lines(state, viewer)`` walks the entries of ``state.history`` not yet told (a copy of the
    game replays them, so each entry is told from the positions around it) and tells each to
    every viewer at once. A history that the walk cannot replay (a tutorial that starts
    mid-game) is told by its notations from there on.
    """

    def __init__(
        self, game: Game, names: Sequence[str], viewers: Sequence[int | None] | None = None
    ) -> None:
        self.game = game
        self.names = list(names)
        self.viewers: list[int | None] = (
            list(viewers) if viewers is not None else [None, *range(game.num_players)]
        )
        self.reset()

    def reset(self) -> None:
        """Forget every line (the history was rewritten, or the names changed)."""
        self.cursor: State | None = self.game.new_initial_state()
        self.done = 0
        self.told: dict[int | None, list[LogLine]] = {v: [] for v in self.viewers}

    def rename(self, names: Sequence[str]) -> None:
        """New seat names: the lines are told again with them."""
        if list(names) != self.names:
            self.names = list(names)
            self.reset()

    def truncate(self, length: int) -> None:
        """The history was cut back to ``length`` entries (an undo): tell it again."""
        if length < self.done:
            self.reset()

    def lines(self, state: State, viewer: int | None) -> list[LogLine]:
        """Every line of ``state``'s history as ``viewer`` may read it."""
        if viewer not in self.told:
            self.viewers.append(viewer)
            self.reset()
        self.advance(state)
        return list(self.told[viewer])

    def advance(self, state: State) -> None:
        """Tell the entries of ``state.history`` not told yet."""
        history = state.history
        if len(history) < self.done:
            self.reset()
        ui = self.game.ui
        while self.done < len(history):
            i = self.done
            seat, action = history[i]
            cursor = self.cursor
            told: dict[int | None, list[str]] = {}
            if cursor is not None:
                before = cursor.clone()
                try:
                    cursor.step(action, seat)
                    for v in self.viewers:
                        told[v] = ui.describe_log_entry(before, cursor, i, v, self.names)
                except Exception:  # an unplayable history: tell the rest by notation
                    log.warning("%s: entry %d cannot be retold", self.game.info.id, i,
                                exc_info=True)
                    self.cursor = None
                    told = {}
            for v in self.viewers:
                notation = state.log_text(i, v)
                texts = told[v] if v in told else _plain(notation, seat, self.names)
                out = self.told[v]
                for text in texts:
                    out.append(
                        {"n": len(out) + 1, "index": i, "seat": seat, "text": text,
                         "notation": notation}
                    )
            self.done += 1


def _plain(notation: str, seat: int, names: Sequence[str]) -> list[str]:
    from nightsky.core.ui import seat_label

    if seat < 0:
        return [] if notation == "chance" else [notation]
    return [f"{seat_label(names, seat)}: {notation}"]


def narrate(
    state: State, viewer: int | None, names: Sequence[str] | None = None
) -> list[LogLine]:
    """``state``'s whole log in words as ``viewer`` may read it (``names``: each seat's
    name; default the game's ``seat_names``)."""
    game = state.game
    narrator = Narrator(game, names if names is not None else game.ui.seat_names(), [viewer])
    return narrator.lines(state, viewer)
