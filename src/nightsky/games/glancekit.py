"""Helpers for the games' ``glance`` modules (``GameUI.glance``): one seat's line of counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def count(label: str, value: Any) -> dict[str, Any]:
    """One count of a seat's line: ``{"label": "in hand", "value": 4}``."""
    return {"label": label, "value": value}


def seat_line(view: dict[str, Any], seat: int, counts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A seat's line: its score from ``view["scores"]`` (None where the view has none) and
    ``counts``."""
    scores = view.get("scores")
    score = scores[seat] if isinstance(scores, list) and seat < len(scores) else None
    return {"score": score, "counts": list(counts)}


def size(x: Any) -> int:
    """How many items ``x`` holds (0 for None or a scalar)."""
    return len(x) if isinstance(x, list | tuple | dict) else 0
