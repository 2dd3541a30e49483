"""Star Fire at a glance (``GameUI.glance``): cards in hand, systems and nursery per player,
read from the view; the viewer's hand is docked under the board."""

from __future__ import annotations

from typing import Any

from nightsky.games.glancekit import count, seat_line, size


def _in_hand(p: dict[str, Any]) -> int:
    if isinstance(p.get("hand"), list):
        return len(p["hand"])
    backs = p.get("hand_backs") or {}
    return sum(v for v in backs.values() if isinstance(v, int))


def glance(view: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """Each seat's line and the viewer's dock (the board's "Your hand")."""
    seats = [
        seat_line(view, i, [
            count("in hand", _in_hand(p)),
            count("systems", size(p.get("systems"))),
            count("in the nursery", size(p.get("nursery"))),
        ])
        for i, p in enumerate(view.get("players") or [])
    ]
    return {"seats": seats, "dock": "Your hand" if viewer is not None else None}
