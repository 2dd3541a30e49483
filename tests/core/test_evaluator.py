"""Judging sits beside the state: ``State`` plays and knows, ``game.evaluator`` judges."""

from __future__ import annotations

import random

import pytest

from nightsky.core import CHANCE, Evaluator, State, load_game
from nightsky.core.registry import game_ids

JUDGING = (
    "evaluate", "evaluate_all", "cutoff_values", "end_condition",
    "value", "value_features", "value_feature_names",
)


def test_the_base_state_has_no_evaluation_or_feature_methods() -> None:
    held = [name for name in JUDGING if hasattr(State, name)]
    assert not held, f"State judges positions again: {held} belong to core.evaluator.Evaluator"
    assert all(callable(getattr(Evaluator, name)) for name in JUDGING)


@pytest.mark.parametrize("game_id", game_ids())
def test_no_game_state_judges_positions_itself(game_id: str) -> None:
    state_cls = type(load_game(game_id).new_initial_state())
    held = [name for name in JUDGING if hasattr(state_cls, name)]
    assert not held, f"{state_cls.__name__} still has {held}: move them to its Evaluator"


@pytest.mark.parametrize("game_id", game_ids())
def test_the_evaluator_is_one_per_game_and_judges_every_seat(game_id: str) -> None:
    game = load_game(game_id)
    judge = game.evaluator
    assert isinstance(judge, Evaluator) and judge is game.evaluator and judge.game is game
    state, rng = game.new_initial_state(), random.Random(1)
    while not state.is_terminal() and len(state.history) < 40:
        seat = state.current_players()[0]
        act = state.sample_chance(rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.step(act, seat)
    values = judge.cutoff_values(state)
    assert len(values) == game.num_seats and all(isinstance(v, float | int) for v in values)


def test_the_default_evaluator_is_the_score_margin() -> None:
    game = load_game("shooting-star", players=3)
    state = game.new_initial_state()
    base = Evaluator(game)
    scores = state.scores()
    assert [base.evaluate(state, p) for p in range(3)] == [
        scores[p] - max(s for q, s in enumerate(scores) if q != p) for p in range(3)
    ]
    assert base.end_condition(state) is None and base.value_feature_names() == ()
    with pytest.raises(NotImplementedError, match="no learned value"):
        base.value(state, 0)
