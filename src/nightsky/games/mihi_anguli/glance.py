"""Mihi Anguli at a glance (``GameUI.glance``): each sheet's week, experience and items, read
from the view (every sheet is public); no dock: the viewer's sheet is the board."""

from __future__ import annotations

from typing import Any

from nightsky.games.glancekit import count, seat_line, size


def glance(view: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """Each sheet's line; nothing docked."""
    seats = [
        seat_line(view, i, [
            count("week", s.get("week")),
            count("experience", s.get("experience", 0)),
            count("items", size(s.get("items"))),
        ])
        for i, s in enumerate(view.get("sheets") or [])
    ]
    return {"seats": seats, "dock": None}
