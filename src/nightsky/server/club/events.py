"""Reading a rated game's rating event (``rating_events``), for the table's own view: kept
apart from ``ratings`` so that the rooms import nothing of the accounts."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from nightsky.server.club.tables import RatingEventRow
from nightsky.server.store import Store


def rating_event(store: Store, game_id: str) -> dict[str, Any] | None:
    """``{"changes": [{"seat", "before", "after", ...}], "unrated"}`` of a rated game that
    ended, or None before its end was committed."""
    with Session(store.engine) as s:
        row = s.get(RatingEventRow, game_id)
        if row is None:
            return None
        changes = [
            {k: c[k] for k in ("seat", "name", "place", "before", "after")}
            for c in row.changes
        ]
        return {"changes": changes, "unrated": row.unrated, "family": row.family}
