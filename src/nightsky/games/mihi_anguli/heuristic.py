"""``evaluate(p)``: the heuristic the greedy agent maximises one action ahead."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.state import MihiAnguliState


def evaluate(st: MihiAnguliState, player: int) -> float:
    return float(st.scores()[player])
