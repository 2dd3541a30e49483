"""scripts/train_value.py: a tiny training run writes a weights file the game can load."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from nightsky.games.mihi_anguli.value import FEATURES, load_model

ROOT = Path(__file__).resolve().parents[2]


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("train_value", ROOT / "scripts" /
                                                  "train_value.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_value"] = mod
    spec.loader.exec_module(mod)
    return mod


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
