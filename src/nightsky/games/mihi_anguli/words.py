"""Mihi Anguli's sheet in players' words: a box by its place in its row and what it costs
(labels, the log and the board's hover boxes share it; the codes ``W1.1`` stay in notation)."""

from __future__ import annotations

from typing import Any


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``11th``."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def item_words(group: str, it: Any) -> str:
    """Box ``it`` of the row ``group`` (its printed name): ``the 2nd box of PLOTTING II
    (3 experience)``, ``the 1st box of the Week 1 article (a star)``."""
    if group.startswith("Week "):
        group = f"the {group} article"
    cost = {"E": f"{it.value} experience", "S": "a star", "Q": f"{it.value} squares"}[it.kind]
    return f"the {ordinal(it.slot + 1)} box of {group} ({cost})"
