"""Starlight at a glance (``GameUI.glance``): stars, cores and flares per seat, read from the
view; the viewer's mat is docked under the board."""

from __future__ import annotations

from typing import Any

from nightsky.games.glancekit import count, seat_line, size


def glance(view: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """Each seat's line and the viewer's dock (the board's "Your mat")."""
    seats = [
        seat_line(view, i, [
            count("stars", s.get("stars", 0)),
            count("cores", size(s.get("cores"))),
            count("flares", size(s.get("flares"))),
            count("laurels", s.get("laurel_count", 0)),
        ])
        for i, s in enumerate(view.get("seats") or [])
    ]
    return {"seats": seats, "dock": "Your mat" if viewer is not None else None}
