"""The Stars Are Right at a glance (``GameUI.glance``): cards in hand and creatures per seat,
read from the view; the viewer's hand is docked under the board."""

from __future__ import annotations

from typing import Any

from nightsky.games.glancekit import count, seat_line, size


def glance(view: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """Each seat's line and the viewer's dock (the board's "Your hand")."""
    hands = view.get("hand_sizes") or []
    creatures = view.get("creatures") or []
    seats = [
        seat_line(view, i, [
            count("in hand", hands[i] if i < len(hands) else 0),
            count("creatures", size(creatures[i]) if i < len(creatures) else 0),
        ])
        for i in range(len(hands))
    ]
    return {"seats": seats, "dock": "Your hand" if viewer is not None else None}
