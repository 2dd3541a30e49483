"""Starlight's learned value (evaluator.value_features, data/value.json; issue 58).

The weights are data fitted by ``scripts/train_value.py`` on self-play of the shipped sky; these
tests check what the code promises about them, not their numbers: the file names this version's
features, a broken file says which field is wrong, the value is the weights' dot product with
the features, a Starbot keeps its hand ``potential``, and the search can use it.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from nightsky.agents.base import make_agent
from nightsky.core.game import State
from nightsky.core.linear_value import load_linear_value, parse_linear_value
from nightsky.core.registry import load_game
from nightsky.games.starlight.evaluator import (
    VALUE_FEATURES,
    game_left,
    potential,
    shipped_value_model,
    value,
    value_features,
)
from tests.support.positions import greedy_positions

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "src" / "nightsky" / "games" / "starlight" / "data" / "value.json"


def _positions(seed: int, count: int, **options: object) -> list[State]:
    """Positions of one seeded greedy game, every seventh decision."""
    return greedy_positions("starlight", seed, count, 7, **options)


def test_the_shipped_weights_name_this_versions_features_and_how_they_were_fitted() -> None:
    doc = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert doc["game"] == "starlight" and doc["features"] == list(VALUE_FEATURES)
    assert len(VALUE_FEATURES) == len(set(VALUE_FEATURES))
    model = load_linear_value(SHIPPED, VALUE_FEATURES)
    assert len(model.weights) == len(VALUE_FEATURES) and math.isfinite(model.bias)
    assert shipped_value_model().weights == model.weights
    trained = doc["trained"]
    assert trained["command"].startswith("PYTHONPATH=src python scripts/train_value.py starlight")
    assert trained["games"] > 0 and trained["rows"] > 0 and trained["date"]


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d.update(weights=d["weights"][:-1]), "field 'weights' must be a list of"),
        (lambda d: d["weights"].__setitem__(2, "x"), "field 'weights' item 2 must be a finite"),
        (lambda d: d.pop("bias"), "field 'bias' is missing"),
        (lambda d: d.update(features=d["features"][1:]), "field 'features' must list"),
    ],
)
def test_a_broken_weights_file_names_the_field(change, needle: str, tmp_path: Path) -> None:
    doc = json.loads(SHIPPED.read_text(encoding="utf-8"))
    change(doc)
    path = tmp_path / "value.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match="value.json: ") as err:
        load_linear_value(path, VALUE_FEATURES)
    assert needle in str(err.value)
    with pytest.raises(ValueError, match="must be a JSON object"):
        parse_linear_value([1], VALUE_FEATURES, "value.json")


def test_the_value_is_the_weights_dot_the_features() -> None:
    model = shipped_value_model()
    for st in _positions(5, 6):
        for p in (0, 1):
            f = value_features(st, p)  # type: ignore[arg-type]
            assert len(f) == len(VALUE_FEATURES)
            expect = model.bias + sum(w * x for w, x in zip(model.weights, f, strict=True))
            assert value(st, p) == pytest.approx(expect)  # type: ignore[arg-type]
            judge = st.game.evaluator
            assert judge.value(st, p) == judge.value(st.clone(), p)
            assert judge.value_features(st, p) == f


def test_the_features_follow_the_game() -> None:
    first, *_, late = _positions(6, 400)
    at = {n: i for i, n in enumerate(VALUE_FEATURES)}
    f0, f1 = value_features(first, 0), value_features(late, 0)  # type: ignore[arg-type]
    assert game_left(first) == f0[at["left"]] == 1.0  # type: ignore[arg-type]
    assert f1[at["left"]] < 1.0 and f1[at["turns"]] > f0[at["turns"]]
    assert f1[at["points"]] >= late.np[0]  # type: ignore[attr-defined]
    # Each feature times the share left sits beside it.
    for name in ("points", "saved", "turns"):
        assert f1[at[f"{name}*left"]] == pytest.approx(f1[at[name]] * f1[at["left"]])


def test_a_starbot_is_valued_by_its_potential() -> None:
    st = _positions(7, 3, starbots=1)[-1]
    bot = 2
    assert st.is_bot(bot)  # type: ignore[attr-defined]
    assert value(st, bot) == potential(st, bot)  # type: ignore[arg-type]


def test_the_search_plays_on_the_learned_value() -> None:
    game = load_game("starlight", players=2)
    agent = make_agent("ismcts:iterations=40,value=learned", game)
    st = _positions(8, 2)[-1]
    seat = st.current_players()[0]
    assert agent.choose(st, seat, random.Random(1)) in st.legal_actions(seat)


def test_the_fitter_writes_weights_starlight_loads(tmp_path: Path) -> None:
    from tests.support.scripts import load_script

    out = tmp_path / "value.json"
    args = ["starlight", "--games", "4", "--every", "30", "--holdout", "0.5", "--seed", "9"]
    load_script("train_value").main([*args, "--write", "--out", str(out)])
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["game"] == "starlight" and doc["trained"]["rows"] > 0
    assert len(load_linear_value(out, VALUE_FEATURES).weights) == len(VALUE_FEATURES)
