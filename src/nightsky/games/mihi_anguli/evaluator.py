"""How Mihi Anguli judges a sheet (``MihiAnguliEvaluator``, ``game.evaluator``): the hand
heuristic of ``heuristic.py`` (``greedy``'s one-ply judge and the search's cut-offs) and the
learned value of ``value.py`` (``value=learned``, and its features for
``scripts/train_value.py``).

Compiled (``setup.py``); it reads the state and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from nightsky.core.evaluator import Evaluator
from nightsky.games.mihi_anguli.heuristic import evaluate
from nightsky.games.mihi_anguli.value import FEATURES, features, value

if TYPE_CHECKING:
    from nightsky.core.state import State
    from nightsky.games.mihi_anguli.state import MihiAnguliState


class MihiAnguliEvaluator(Evaluator):
    """A sheet's worth in score points, by hand (``evaluate``) or learned (``value``)."""

    def evaluate(self, state: State, player: int) -> float:
        return evaluate(cast("MihiAnguliState", state), player)

    def value(self, state: State, player: int) -> float:
        """The learned value (``value.py``): ``player``'s expected final score."""
        return value(cast("MihiAnguliState", state), player)

    def value_features(self, state: State, player: int) -> list[float]:
        return features(cast("MihiAnguliState", state), player)

    def value_feature_names(self) -> tuple[str, ...]:
        return FEATURES
