"""scripts/train_value.py: a tiny training run writes a weights file the game can load."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from nightsky.games.mihi_anguli.value import FEATURES, load_model
from tests.support.scripts import load_script


def _script() -> ModuleType:
    return load_script("train_value")


def test_a_tiny_run_writes_loadable_weights_with_their_provenance(tmp_path: Path) -> None:
    out = tmp_path / "value.json"
    data = tmp_path / "rows.npz"
    args = ["mihi-anguli", "--games", "4", "--every", "25", "--holdout", "0.5", "--seed", "9"]
    _script().main([*args, "--write", "--out", str(out), "--save-data", str(data)])
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["features"] == list(FEATURES) and len(load_model(out).weights) == len(FEATURES)
    trained = doc["trained"]
    # the command reproduces the file: no local paths in it
    assert trained["command"] == "PYTHONPATH=src python scripts/train_value.py " + " ".join(
        [*args, "--write"]
    )
    assert trained["games"] == 4 and trained["rows"] > 0 and trained["fit"]["holdout_games"] == 2
    # refitting from the saved rows gives the same weights
    again = tmp_path / "again.json"
    _script().main([*args, "--write", "--out", str(again), "--load-data", str(data)])
    assert json.loads(again.read_text(encoding="utf-8"))["weights"] == doc["weights"]


def test_around_keeps_the_sum_and_pairs_fit_a_correction(tmp_path: Path) -> None:
    out = tmp_path / "value.json"
    _script().main([
        "mihi-anguli", "--games", "2", "--every", "25", "--holdout", "0.5",
        "--around", "score,map", "--no-level", "--pairs", "2", "--pair-every", "120",
        "--pair-only", "score", "--write", "--out", str(out),
    ])
    doc = json.loads(out.read_text(encoding="utf-8"))
    weights = dict(zip(doc["features"], doc["weights"], strict=True))
    assert weights["map"] == 1.0 and weights["score"] != 1.0 and doc["bias"] == 0.0
    assert all(w == 0.0 for n, w in weights.items() if n not in ("score", "map"))
    assert doc["trained"]["fit"]["sibling_pairs"]["pairs"] > 0


def test_an_unknown_feature_is_refused_by_name() -> None:
    with pytest.raises(SystemExit):
        _script().main(["mihi-anguli", "--games", "1", "--only", "nonsense"])


# ------------------------------------------------------------------ --method play

HEURISTIC_PARTS = "score,map,costs,pending"


def test_play_starts_from_the_heuristic_parts_which_play_exactly_as_greedy() -> None:
    """The sum of the heuristic's parts is ``evaluate``: greedy on it plays greedy's games, so
    a margin by play measures what the weights change and nothing else."""
    from nightsky.agents import make_agent
    from nightsky.core.registry import load_game

    tv = _script()
    game = load_game("mihi-anguli", players=2)
    weights = [1.0 if n in HEURISTIC_PARTS.split(",") else 0.0 for n in FEATURES]
    for index in range(2):
        ours = tv.play_game(game, [tv.CandidateGreedy(weights, 0.0), make_agent("greedy")],
                            31, index)
        theirs = tv.play_game(game, [make_agent("greedy"), make_agent("greedy")], 31, index)
        assert ours == theirs
    solo = tv.Duels(load_game("mihi-anguli", players=1))
    assert solo.margin(weights, 0.0, 31, 0) == 0.0  # alone: against greedy on the same dice
    # a candidate that ignores the score's growth plays differently and scores differently
    other = [0.0 if n == "score" else w for n, w in zip(FEATURES, weights, strict=True)]
    assert solo.margin(other, 0.0, 31, 0) != 0.0


def test_adam_moves_every_coordinate_by_the_step_uphill_at_first() -> None:
    import numpy as np

    tv = _script()
    state: dict = {}
    theta = tv.adam_step(np.zeros(3), np.array([2.0, -0.01, 0.0]), state, 0.1)
    assert theta[0] == pytest.approx(0.1) and theta[1] == pytest.approx(-0.1)
    assert theta[2] == 0.0 and state["t"] == 1


def test_a_tiny_play_run_keeps_the_fixed_weight_and_records_how(tmp_path: Path) -> None:
    out = tmp_path / "value.json"
    args = ["mihi-anguli", "--method", "play", "--around", HEURISTIC_PARTS, "--fix", "score",
            "--generations", "2", "--pairs-per-gen", "1", "--gen-games", "1",
            "--check-games", "2", "--check-every", "1", "--spread-games", "1", "--seed", "3"]
    _script().main([*args, "--write", "--out", str(out)])
    doc = json.loads(out.read_text(encoding="utf-8"))
    model = load_model(out)
    weights = dict(zip(doc["features"], model.weights, strict=True))
    assert weights["score"] == 1.0 and model.bias == 0.0
    trained = doc["trained"]
    assert trained["command"] == "PYTHONPATH=src python scripts/train_value.py " + " ".join(
        [*args, "--write"]
    )
    assert trained["method"] == "play" and trained["fixed"] == ["score"]
    # 2 check games at the start and after each generation, 2 candidates x 1 game a generation
    assert trained["games_played"] == 2 + 2 * (2 + 2) and len(trained["history"]) == 3
    assert 0 <= trained["chosen_generation"] <= 2


def test_play_needs_a_start() -> None:
    with pytest.raises(SystemExit):
        _script().main(["mihi-anguli", "--method", "play", "--generations", "1"])


def test_sibling_spread_is_one_where_a_feature_never_differs() -> None:
    from nightsky.core.registry import load_game

    spread = _script().sibling_spread(load_game("mihi-anguli", players=2), 1, 4)
    named = dict(zip(FEATURES, spread, strict=True))
    assert all(s > 0 for s in spread)
    assert named["score"] != 1.0 and named["left^2"] == 1.0


def test_coordinate_ascent_keeps_only_moves_that_gain_and_records_them(tmp_path: Path) -> None:
    out = tmp_path / "value.json"
    args = ["mihi-anguli", "--method", "play", "--search", "coord", "--around", HEURISTIC_PARTS,
            "--fix", ",".join(n for n in FEATURES if n not in ("abilities", "points")),
            "--sweeps", "1", "--gen-games", "2", "--check-games", "2", "--spread-games", "1",
            "--seed", "5"]
    _script().main([*args, "--write", "--out", str(out)])
    doc = json.loads(out.read_text(encoding="utf-8"))
    trained = doc["trained"]
    assert trained["search"] == "coord" and "coordinate ascent" in doc["model"]
    # 2 check games before and after the sweep; the sweep's 2 games for the weights as they
    # are and for each of the 2 free weights moved up and down (a kept move ends the weight's
    # tries, so at most 4 candidates)
    assert 2 + 2 + 2 <= trained["games_played"] <= 2 + 2 + 2 + 4 * 2
    weights = dict(zip(doc["features"], doc["weights"], strict=True))
    moved = {n for n in FEATURES if weights[n] != (1.0 if n in HEURISTIC_PARTS else 0.0)}
    assert moved <= {"abilities", "points"}
    for move in trained["history"][1]["moves"]:  # every kept move gained enough
        assert move["gain"] >= 0.5 and move["gain"] > 2.0 * move["stderr"]
    if trained["chosen_sweep"] == 0:  # the validation games did not favour the sweep
        assert moved == set()
