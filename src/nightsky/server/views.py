"""What one seat is sent: built only from ``view``/``render``/``board_svg``/legal actions of
that seat and the redacted log, so it holds nothing the seat may not know.

These functions are pure (state in, JSON-ready dict out) so the secrecy test can call them on
a state and on its resamples and demand identical output.
"""

from __future__ import annotations

from typing import Any

import orjson

from nightsky.core.game import CHANCE, State
from nightsky.core.markup import plain_text


def legal_choices(state: State, viewer: int | None) -> list[dict[str, Any]]:
    """The legal actions of ``viewer`` with their labels and board targets (empty when the
    viewer is a spectator or not to act)."""
    if viewer is None or viewer == CHANCE or viewer not in state.current_players():
        return []
    out = []
    for action in state.legal_actions(viewer):
        ui = state.game.ui.action_ui(state, action, viewer)
        out.append(
            {
                "action": str(action),
                "label": str(ui.get("label") or action),
                "targets": [str(t) for t in ui.get("targets") or []],
            }
        )
    return out


def log_line(state: State, index: int, seat: int, action: Any, viewer: int | None) -> dict:
    """One history entry as ``viewer`` may see it."""
    return {
        "index": index,
        "seat": seat,
        "text": state.log_text(index, viewer),
    }


def redacted_log(state: State, viewer: int | None, start: int = 0) -> list[dict[str, Any]]:
    return [
        log_line(state, i, seat, action, viewer)
        for i, (seat, action) in enumerate(state.history[start:], start=start)
    ]


def seat_payload(state: State, viewer: int | None) -> dict[str, Any]:
    """Everything about the position that ``viewer`` (None: a spectator) is sent, but the log."""
    terminal = state.is_terminal()
    return {
        "current_players": list(state.current_players()),
        "terminal": terminal,
        "view": state.view(viewer),
        "view_labels": state.game.ui.view_labels(),
        "text": plain_text(state.game.ui.render(state, viewer)),
        "svg": state.game.ui.board_svg(state, viewer),
        "legal": legal_choices(state, viewer),
        "scores": [float(x) for x in state.scores()] if terminal else None,
        "breakdown": state.score_breakdown() if terminal else None,
        "winners": list(state.winners()) if terminal else [],
    }


def encode(payload: Any) -> bytes:
    """``payload`` as compact JSON (orjson: 3-6x faster than ``json`` on a view). Integer dict
    keys become strings, as ``json.dumps`` makes them."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
