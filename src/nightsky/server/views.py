"""What one seat is sent: built only from ``view``/``render``/``board_svg``/legal actions of
that seat and the log in words (``core.narration``), so it holds nothing the seat may not know.

These functions are pure (state in, JSON-ready dict out) so the secrecy test can call them on
a state and on its resamples and demand identical output.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import orjson

from nightsky.core.game import CHANCE, State
from nightsky.core.markup import plain_text
from nightsky.core.narration import narrate
from nightsky.core.ui import render_text


def legal_choices(
    state: State, viewer: int | None, names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The legal actions of ``viewer`` with their labels and board targets (empty when the
    viewer is a spectator or not to act); ``names``: how labels call the seats."""
    if viewer is None or viewer == CHANCE or viewer not in state.current_players():
        return []
    out = []
    for action in state.legal_actions(viewer):
        ui = state.game.ui.action_ui(state, action, viewer, names)
        out.append(
            {
                "action": str(action),
                "label": str(ui.get("label") or action),
                "targets": [str(t) for t in ui.get("targets") or []],
            }
        )
    return out


def redacted_log(
    state: State, viewer: int | None, start: int = 0, names: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The log in words as ``viewer`` may read it, from history entry ``start`` on."""
    return [line for line in narrate(state, viewer, names) if line["index"] >= start]


def seat_payload(
    state: State,
    viewer: int | None,
    names: Sequence[str] | None = None,
    colors: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Everything about the position that ``viewer`` (None: a spectator) is sent, but the log.
    ``names``/``colors``: each seat's name and colour, which the board draws too."""
    terminal = state.is_terminal()
    ui = state.game.ui
    view = state.view(viewer)
    return {
        "current_players": list(state.current_players()),
        "terminal": terminal,
        "view": view,
        "glance": ui.glance(view, viewer),
        "view_labels": ui.view_labels(),
        "text": plain_text(render_text(ui, state, viewer, names)),
        "svg": ui.board_svg(state, viewer, names, colors),
        "legal": legal_choices(state, viewer, names),
        "scores": [float(x) for x in state.scores()] if terminal else None,
        "breakdown": state.score_breakdown() if terminal else None,
        "score_parts": [asdict(p) for p in ui.score_parts(state)] if terminal else None,
        "winners": list(state.winners()) if terminal else [],
    }


def encode(payload: Any) -> bytes:
    """``payload`` as compact JSON (orjson: 3-6x faster than ``json`` on a view). Integer dict
    keys become strings, as ``json.dumps`` makes them."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
