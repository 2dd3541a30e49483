"""The presentation contract every game keeps: the log in words (every move told, numbered
without gaps, the notation kept), distinct choice labels, the score table's columns in words
adding up to the total, and the board calling the seats by the names it is given."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nightsky.core.game import CHANCE
from nightsky.core.narration import narrate
from nightsky.core.registry import game_ids, load_game
from nightsky.core.ui import as_done

NAMES = ["Altair", "Bellatrix", "Capella", "Deneb", "Electra", "Fomalhaut"]


def played(game_id: str, seed: int = 7, players: int = 2):
    game = load_game(game_id, players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    duplicates: list[tuple[str, list[str]]] = []
    while not state.is_terminal():
        seats = state.current_players()
        if seats == (CHANCE,):
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        seat = rng.choice(seats)
        legal = state.legal_actions(seat)
        labels = Counter(game.ui.describe_action(state, a, seat) for a in legal)
        duplicates += [(k, [str(a) for a in legal]) for k, v in labels.items() if v > 1]
        state.apply(rng.choice(legal), seat)
    return state, duplicates


@pytest.mark.parametrize("game_id", game_ids())
def test_every_move_is_told_in_words_numbered_without_gaps(game_id: str) -> None:
    state, duplicates = played(game_id)
    assert not duplicates, f"two choices share one label: {duplicates[:3]}"
    names = NAMES[: state.game.num_seats]
    moves = {i for i, (seat, _) in enumerate(state.history) if seat >= 0}
    for viewer in (None, *range(state.game.num_players)):
        lines = narrate(state, viewer, names)
        assert [x["n"] for x in lines] == list(range(1, len(lines) + 1))
        assert moves <= {x["index"] for x in lines}, "a move without a line"
        for x in lines:
            assert x["notation"] == state.log_text(x["index"], viewer)
            assert x["text"] and x["text"] != x["notation"] or x["seat"] < 0
        first = {}
        for x in lines:
            first.setdefault(x["index"], x)
        assert all(names[x["seat"]] in x["text"] for x in first.values() if x["seat"] >= 0)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_score_table_names_every_part_and_its_points_make_the_total(game_id: str) -> None:
    state, _ = played(game_id, seed=3)
    parts = state.game.ui.score_parts(state)
    keys = [p.key for p in parts]
    assert len(set(keys)) == len(keys) and all(p.label for p in parts)
    for row, total in zip(state.score_breakdown(), state.scores(), strict=True):
        assert set(row) - {"total"} <= set(keys), f"a part without a column: {set(row) - set(keys)}"
        assert sum(row.get(p.key, 0) for p in parts if p.points) == pytest.approx(total)


@pytest.mark.parametrize("game_id", [g for g in game_ids() if g != "toy-secret-sum"])
def test_the_board_calls_the_seats_by_the_names_and_colours_it_is_given(game_id: str) -> None:
    state, _ = played(game_id, seed=5)
    game = state.game
    names = NAMES[: game.num_seats]
    colors = ["#010203", "#040506", "#070809", "#0a0b0c", "#0d0e0f", "#101112"][: game.num_seats]
    for viewer in (None, 0):
        svg = game.ui.board_svg(state, viewer, names, colors)
        assert svg is not None
        for name in names:
            assert name in svg, (viewer, name)
        assert "Seat 0" not in svg and "seat 0" not in svg
        assert any(c in svg for c in colors)


def test_a_label_told_as_done() -> None:
    assert as_done("take a long red ray (1 AP)") == "took a long red ray (1 AP)."
    assert as_done("keep your dealt Star in hand") == "kept their dealt Star in hand."
    assert as_done("POSITIONING I") == "chose: POSITIONING I."
