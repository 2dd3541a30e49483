"""Records: save, replay, and clear refusals of malformed or tampered records."""

from __future__ import annotations

import json
import random

import pytest

from nightsky.agents import make_agent
from nightsky.core import RecordError, load_game, make_record, replay
from nightsky.sim.runner import play_game


def finished_record(seed: int = 1) -> dict:
    game = load_game("toy-secret-sum", players=2)
    res = play_game(game, [make_agent("random"), make_agent("greedy")], seed, keep_record=True)
    assert res.record is not None
    return res.record


def test_record_replays_to_same_result() -> None:
    rec = finished_record()
    state = replay(json.dumps(rec))
    assert state.scores() == rec["result"]["scores"]
    assert state.winners() == rec["result"]["winners"]


def test_malformed_record_names_the_field() -> None:
    rec = finished_record()
    del rec["history"]
    with pytest.raises(RecordError, match="history"):
        replay(rec)
    with pytest.raises(RecordError, match="format"):
        replay({**finished_record(), "format": "other/2"})
    with pytest.raises(RecordError, match="JSON"):
        replay("{not json")


def test_illegal_action_in_record_is_refused_with_its_move_number() -> None:
    rec = finished_record()
    # Find the first player move and make it one the same seat cannot take: act out of turn.
    i = next(i for i, (seat, _) in enumerate(rec["history"]) if seat >= 0)
    rec["history"][i][0] = 1 - rec["history"][i][0]
    with pytest.raises(RecordError, match=f"move {i + 1}"):
        replay(rec)


def test_unreadable_action_in_record() -> None:
    rec = finished_record()
    rec["history"][0][1] = "draw99"
    with pytest.raises(RecordError, match="move 1"):
        replay(rec)


def test_tampered_result_is_detected() -> None:
    rec = finished_record()
    rec["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="differs"):
        replay(rec)


def test_partial_record_resumes() -> None:
    game = load_game("toy-secret-sum", players=2)
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(5):
        state.apply(state.sample_chance(rng), -1) if state.is_chance_node() else state.apply(
            state.legal_actions()[0]
        )
    again = replay(make_record(state))
    assert again.view(0) == state.view(0) and not again.is_terminal()
