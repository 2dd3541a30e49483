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
    STARBOT_WEIGHTS_FILE,
    VALUE_FEATURES,
    WEIGHTS_FILE,
    game_left,
    potential,
    shipped_value_model,
    value,
    value_features,
    value_model_for,
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


# ------------------------------------------------- one live player at a Starbot table (issue 58)
STARBOTS_FILE = SHIPPED.with_name(STARBOT_WEIGHTS_FILE)


def _solo_positions(seed: int, count: int, **options: object) -> list[State]:
    """Positions of one seeded greedy game of one live player (``options`` for the game), every
    fifth decision."""
    return greedy_positions("starlight", seed, count, 5, players=1, **options)


def test_the_starbot_weights_were_fitted_on_starbot_tables() -> None:
    doc = json.loads(STARBOTS_FILE.read_text(encoding="utf-8"))
    assert doc["game"] == "starlight" and doc["features"] == list(VALUE_FEATURES)
    trained = doc["trained"]
    assert trained["players"] == 1 and int(trained["options"]["starbots"]) > 0
    assert "--file value_starbots.json" in trained["command"]
    model = load_linear_value(STARBOTS_FILE, VALUE_FEATURES)
    assert shipped_value_model(STARBOT_WEIGHTS_FILE).weights == model.weights
    assert model.weights != shipped_value_model().weights


def test_each_table_is_judged_by_its_own_weights() -> None:
    assert value_model_for(1, 2) == value_model_for(1, 4) == STARBOT_WEIGHTS_FILE
    # Alone without Starbots, and with other live players, the weights fitted on live seats.
    assert value_model_for(1, 0) == value_model_for(2, 1) == value_model_for(2, 0) == WEIGHTS_FILE
    bots = shipped_value_model(STARBOT_WEIGHTS_FILE)
    live = shipped_value_model()
    states = _solo_positions(11, 6, starbots=2, starbot_level="hard")
    assert len(states) == 6
    for st in states:
        f = value_features(st, 0)  # type: ignore[arg-type]
        assert value(st, 0) == pytest.approx(bots.predict(f))  # type: ignore[arg-type]
        assert value(st, 1) == potential(st, 1)  # type: ignore[arg-type]  # a Starbot
    st = _positions(12, 3)[-1]
    assert value(st, 1) == pytest.approx(live.predict(value_features(st, 1)))  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "starbots", "leaf"), [(1, 2, "delta"), (1, 0, "delta"),
                                                           (2, 0, "share"), (2, 1, "share")])
def test_alone_the_search_scores_its_own_gain(players: int, starbots: int, leaf: str) -> None:
    game = load_game("starlight", players=players, starbots=starbots)
    expert = dict((lv.name, lv.spec) for lv in game.info.levels)["expert"]
    assert make_agent(expert, game).settings_for(game)["leaf"] == leaf  # type: ignore[attr-defined]
    # A spec's own key still wins over the table's default.
    agent = make_agent(f"{expert},leaf=share", game)
    assert agent.settings_for(game)["leaf"] == "share"  # type: ignore[attr-defined]


def test_one_agent_takes_each_tables_settings() -> None:
    agent = make_agent("ismcts:iterations=20,value=learned")
    two, solo = load_game("starlight", players=2), load_game("starlight", players=1, starbots=1)
    assert agent.settings_for(two)["leaf"] == "share"  # type: ignore[attr-defined]
    assert agent.settings_for(solo)["leaf"] == "delta"  # type: ignore[attr-defined]
    assert agent.settings_for(two)["leaf"] == "share"  # type: ignore[attr-defined]
    st = _solo_positions(13, 3, starbots=1)[-1]
    seat = st.current_players()[0]
    assert agent.choose(st, seat, random.Random(2)) in st.legal_actions(seat)


def test_the_fitter_records_only_the_live_seats_of_a_starbot_table(tmp_path: Path) -> None:
    import numpy as np

    from tests.support.scripts import load_script

    data, out = tmp_path / "rows.npz", tmp_path / "value_starbots.json"
    args = ["starlight", "--players", "1", "--option", "starbots=2", "--vary",
            "starbot_level=easy,expert", "--games", "2", "--every", "20", "--holdout", "0.5",
            "--seed", "9"]
    load_script("train_value").main([*args, "--save-data", str(data), "--write", "--out",
                                     str(out)])
    rows = dict(np.load(data))
    assert len(rows["seat"]) > 0 and set(rows["seat"].tolist()) == {0}
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["trained"]["players"] == 1 and doc["trained"]["vary"] == "starbot_level=easy,expert"
    assert str(tmp_path) not in doc["trained"]["command"]
    with pytest.raises(SystemExit, match="--vary must be KEY=V1"):
        load_script("train_value").main(["starlight", "--vary", "starbot_level", "--games", "1"])


def test_the_starbot_table_script_plays_the_same_deals_and_reports(tmp_path: Path) -> None:
    from tests.support.scripts import load_script

    script = load_script("starlight_starbots")
    out = tmp_path / "sb.jsonl"
    args = ["--agents", "greedy", "greedy:epsilon=0.5", "--levels", "easy", "hard", "--games",
            "2", "--seed", "5"]
    script.main([*args, "--out", str(out)])
    games = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(games) == 8 and all(len(g["starbots"]) == 2 for g in games)
    script.main([*args, "--out", str(out)])  # nothing missing: nothing played again
    assert len(out.read_text().splitlines()) == 8
    again = script.one_game("greedy", "hard", 2, 5, 1)
    assert again["score"] == next(g["score"] for g in games
                                  if (g["agent"], g["level"], g["i"]) == ("greedy", "hard", 1))
    text = script.table(games, ["greedy", "greedy:epsilon=0.5"], ["easy", "hard"])
    assert text.count("\n| easy |") == 2 and "(2 deals)" in text
    with pytest.raises(SystemExit):
        script.main(["--levels", "brutal", "--seed", "1", "--out", str(out)])
