"""Parameters shared by the RL adapter tests: every registered game and its configurations."""

from __future__ import annotations

from typing import Any

from nightsky.core.registry import game_class, game_ids


def all_configs() -> list[tuple[str, dict[str, Any]]]:
    """Every (game id, parameters) the conformance suite plays: each supported player count."""
    return [(g, cfg) for g in game_ids() for cfg in game_class(g).conformance_configs()]


def smallest_configs() -> list[tuple[str, dict[str, Any]]]:
    """One configuration per game: the one with the fewest seats (shortest games)."""
    out = []
    for g in game_ids():
        cfgs = game_class(g).conformance_configs()
        out.append((g, min(cfgs, key=lambda c: (c.get("players", 0), len(c)))))
    return out


def config_id(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)
