"""The rulebook's worked examples as loadable positions (filled in below)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.game import Tutorial

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.game import MihiAnguliGame


def tutorials(game: MihiAnguliGame) -> list[Tutorial]:
    return []
