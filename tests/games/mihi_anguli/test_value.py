"""The learned value of a sheet (value.py, data/value.json, scripts/train_value.py)."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from nightsky import _native
from nightsky.agents.base import make_agent
from nightsky.agents.search import SearchAgent
from nightsky.core.errors import OptionError
from nightsky.core.game import CHANCE, State
from nightsky.core.registry import load_game
from nightsky.games.mihi_anguli.value import (
    FEATURES,
    features,
    load_model,
    parse_model,
    shipped_model,
    value,
)
from tests.support.positions import greedy_positions

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "src" / "nightsky" / "games" / "mihi_anguli" / "data" / "value.json"


def _positions(seed: int, count: int) -> list[State]:
    """Positions of one seeded greedy 2-player game, every fifth decision."""
    return greedy_positions("mihi-anguli", seed, count, 5)


def test_the_shipped_weights_load_and_name_this_versions_features() -> None:
    doc = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert doc["features"] == list(FEATURES)
    model = load_model()
    assert len(model.weights) == len(FEATURES) and math.isfinite(model.bias)
    assert shipped_model().weights == model.weights
    trained = doc["trained"]  # how to reproduce it: the command, the data size, the date
    assert trained["command"].startswith("PYTHONPATH=src python scripts/train_value.py")
    assert trained["games"] > 0 and trained["date"]
    if trained.get("method") == "play":  # tuned by play: the games it took, how it chose
        assert trained["games_played"] == trained["games"] and trained["check_games"] > 0
        assert trained["command"].split().count("--method") == 1
    else:  # a regression: the rows it was fit on
        assert trained["rows"] > 0


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda d: d.update(weights=d["weights"][:-1]), "field 'weights' must be a list of"),
        (lambda d: d["weights"].__setitem__(3, "x"), "field 'weights' item 3 must be a finite"),
        (lambda d: d["weights"].__setitem__(0, float("nan")), "field 'weights' item 0"),
        (lambda d: d.pop("bias"), "field 'bias' is missing"),
        (lambda d: d.update(bias=True), "field 'bias' must be a finite number"),
        (lambda d: d.update(features=d["features"][::-1]), "field 'features' must list"),
        (lambda d: d.pop("features"), "field 'features' must list"),
    ],
)
def test_a_broken_weights_file_names_the_field(change, needle: str, tmp_path: Path) -> None:
    doc = json.loads(SHIPPED.read_text(encoding="utf-8"))
    change(doc)
    path = tmp_path / "value.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match="value.json: ") as err:
        load_model(path)
    assert needle in str(err.value)


def test_a_weights_file_that_is_not_json_or_missing_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "value.json"
    bad.write_text("{weights: 1", encoding="utf-8")
    with pytest.raises(ValueError, match="value.json: not valid JSON"):
        load_model(bad)
    with pytest.raises(ValueError, match="cannot read the weights file"):
        load_model(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="must be a JSON object"):
        parse_model([1, 2])


def test_the_value_is_the_weights_dot_the_features_and_deterministic() -> None:
    model = shipped_model()
    for st in _positions(3, 8):
        for p in (0, 1):
            f = features(st, p)
            assert len(f) == len(FEATURES)
            expect = model.bias + sum(w * x for w, x in zip(model.weights, f, strict=True))
            assert value(st, p) == pytest.approx(expect)
            judge = st.game.evaluator
            # pure: the same every time
            assert judge.value(st, p) == value(st, p) == judge.value(st.clone(), p)
            assert judge.value_features(st, p) == f


def test_the_learned_value_predicts_a_late_sheet_near_its_score() -> None:
    # At the end of a game nothing is left to gain: the value is close to the score itself.
    late = _positions(4, 200)[-1]
    for p in (0, 1):
        assert abs(late.game.evaluator.value(late, p) - late.scores()[p]) < 6.0


def test_the_search_uses_the_learned_value_with_value_learned() -> None:
    state = _positions(5, 6)[-1]
    seat = [p for p in state.current_players() if p != CHANCE][0]
    agent = make_agent("ismcts:iterations=60,value=learned")
    assert isinstance(agent, SearchAgent)
    assert agent.settings_for(state.game)["value"] == "learned"
    first = agent.choose(state, seat, random.Random(1))
    assert first in state.legal_actions(seat)
    again = make_agent("ismcts:iterations=60,value=learned").choose(state, seat, random.Random(1))
    assert again == first  # an iteration budget: reproducible


def test_value_learned_in_a_game_without_one_is_refused_by_name() -> None:
    game = load_game("star-fire", players=2)
    state = game.new_initial_state()
    agent = make_agent("ismcts:iterations=5,value=learned")
    with pytest.raises(OptionError, match="value=learned, but game 'star-fire' has no learned"):
        agent.choose(state, state.current_players()[0], random.Random(0))
    with pytest.raises(OptionError, match="value must be 'heuristic' or 'learned'"):
        make_agent("ismcts:value=neural")
    with pytest.raises(NotImplementedError, match="no learned value"):
        state.game.evaluator.value(state, 0)


def test_compiled_and_pure_values_agree() -> None:
    if not _native.compiled():
        pytest.skip(f"no compiled engine here ({_native.engine()})")
    mine = [[st.game.evaluator.value(st, p) for p in (0, 1)] for st in _positions(6, 10)]
    code = (
        "import json\n"
        "from nightsky import _native\n"
        "from tests.games.mihi_anguli.test_value import _positions\n"
        "assert not _native.compiled()\n"
        "judge = _positions(6, 1)[0].game.evaluator\n"
        "print(json.dumps([[judge.value(st, p) for p in (0, 1)] for st in _positions(6, 10)]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "NIGHTSKY_PURE": "1"},
        capture_output=True, text=True, check=True, timeout=300,
    )
    assert json.loads(out.stdout.strip().splitlines()[-1]) == mine


def test_greedy_with_value_learned_maximises_the_learned_value() -> None:
    state = _positions(7, 4)[-1]
    seat = [p for p in state.current_players() if p != CHANCE][0]
    move = make_agent("greedy:value=learned,cheat=true").choose(state, seat, random.Random(0))
    best = -math.inf
    for a in state.legal_actions(seat):
        child = state.clone()
        child.step(a, seat)
        best = max(best, child.game.evaluator.value(child, seat))
    chosen = state.clone()
    chosen.step(move, seat)
    assert chosen.game.evaluator.value(chosen, seat) == best
    with pytest.raises(OptionError, match="greedy: value must be 'heuristic' or 'learned'"):
        make_agent("greedy:value=neural")
    other = load_game("star-fire", players=2).new_initial_state()
    with pytest.raises(OptionError, match="greedy: value=learned, but game 'star-fire'"):
        make_agent("greedy:value=learned").choose(
            other, other.current_players()[0], random.Random(0)
        )


def test_worth_features_follow_the_heuristics_shape_for_each_ability_and_supporter() -> None:
    # One feature per buyable group, in the heuristic's shape for its worth (heuristic.py's
    # _items_value): the share of the game left times the progress on the cost, then times 1
    # once acquired; so a weight there is a correction to that group's WORTH in points.
    from nightsky.games.mihi_anguli import board as B
    from nightsky.games.mihi_anguli.heuristic import LINEAR, TURNS, _turns_left

    names = [n for n in FEATURES if n.startswith("worth:")]
    assert len(names) == B.NGROUPS - B.G_AB0 == 17 and "worth:MATHEMATICIAN" in names
    seen_partial = seen_acquired = False
    for st in _positions(8, 40):
        for p in (0, 1):
            s, f = st.seats[p], dict(zip(FEATURES, features(st, p), strict=True))
            t = min(1.0, _turns_left(s) / TURNS)
            for g in range(B.G_AB0, B.NGROUPS):
                x = f["worth:" + st.c.group_names[g]]
                mask = st.c.group_mask[g]
                share = (mask & s.items).bit_count() / mask.bit_count()
                if s.acq >> g & 1:
                    assert x == pytest.approx(t)
                    seen_acquired = True
                else:
                    assert x == pytest.approx(t * (LINEAR * share + (1 - LINEAR) * share**2))
                    seen_partial |= 0 < share < 1
    assert seen_partial and seen_acquired  # the positions exercised both cases
