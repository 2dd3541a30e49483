"""Shooting Star at a glance (``GameUI.glance``): conquests, debris and ships not yet revealed
per admiral, read from the view; the viewer's cards are docked under the board."""

from __future__ import annotations

from typing import Any

from nightsky.games.glancekit import count, seat_line, size


def glance(view: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """Each seat's line and the viewer's dock (the board's "Your cards")."""
    seats = [
        seat_line(view, i, [
            count("conquered", size(s.get("conquest"))),
            count("debris", size(s.get("debris"))),
            count("unrevealed", size(s.get("unrevealed"))),
        ])
        for i, s in enumerate(view.get("seats") or [])
    ]
    return {"seats": seats, "dock": "Your cards" if viewer is not None else None}
