"""``Evaluator``: how a game judges a position for its players, beside the rules.

A ``State`` plays and knows: the rules, whose turn it is, what each seat may see, the score the
rulebook gives. Judging a position that is not over belongs to its consumers (the ``greedy``
agent, the search agents' cut-offs, the learner's features, the simulator's statistics), so it
lives here, one subclass per game in the game's ``evaluator.py``, named by
``Game.evaluator_class`` and reached as ``game.evaluator`` (as the observer is reached through
``game.make_observer()``). An evaluator keeps no state of its own: one per game serves every
consumer.

Compiled with mypyc (``setup.py``); the search calls it at every cut-off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from nightsky.core.game import Game
    from nightsky.core.state import State


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled; tests and plug-ins subclass it
class Evaluator:
    """The judging hooks of one game (with fixed parameters). Every method has a default, so a
    game without an evaluator of its own is judged by its score margin."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its game (it holds nothing else): a compiled class has no __dict__ for
        # pickle's and deepcopy's default way, so a game (with its cached evaluator) would not
        # pickle under the compiled engine.
        return (type(self), (self.game,))

    def evaluate(self, state: State, player: int) -> float:
        """Heuristic value of ``state`` for ``player``: what ``greedy`` maximises one ply ahead
        and a search scores its cut-offs by. Default: ``player``'s score minus the best rival's."""
        s = state.scores()
        others = [v for p, v in enumerate(s) if p != player]
        return s[player] - (max(others) if others else 0.0)

    def evaluate_all(self, state: State) -> list[float]:
        """``evaluate`` of every seat, in seat order. A game whose seats' values share work
        overrides it to do that work once; the values must be exactly those of ``evaluate``
        (the conformance suite checks)."""
        return [self.evaluate(state, p) for p in range(self.game.num_seats)]

    def cutoff_values(self, state: State) -> list[float]:
        """Each seat's value where a search compares the seats at a cut-off; ``evaluate_all``
        unless a game overrides it (where a term of ``evaluate`` suits one seat's own one-ply
        choice but not a comparison of seats across turns: Starlight's action points)."""
        return self.evaluate_all(state)

    def end_condition(self, state: State) -> str | None:
        """Which of the rulebook's end conditions ended the game, as a short name (``goal``,
        ``deck``, ...), for the simulator's statistics; None before the end or where the game
        does not name them (the default)."""
        return None

    def value(self, state: State, player: int) -> float:
        """A learned value of ``state`` for ``player`` (a game whose ``GameInfo.value_model``
        names a weights file overrides it; the search uses it with ``value=learned``)."""
        raise NotImplementedError(f"game {self.game.info.id!r} has no learned value")

    def value_features(self, state: State, player: int) -> list[float]:
        """The numbers a learned value is computed from (``value_feature_names`` names them);
        ``scripts/train_value.py`` records them in self-play."""
        raise NotImplementedError(f"game {self.game.info.id!r} has no learned value")

    def value_feature_names(self) -> tuple[str, ...]:
        """The names of ``value_features``' numbers, in order (empty: no learned value)."""
        return ()
