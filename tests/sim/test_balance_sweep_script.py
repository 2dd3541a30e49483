"""scripts/balance_sweep.py: candidate files, the choice rule and a tiny run (the real one is a
benchmark for a many-core machine)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from nightsky.core.registry import load_game
from nightsky.sim.runner import MatchSpec, play_spec
from tests.support.scripts import load_script


def _script() -> ModuleType:
    return load_script("balance_sweep")


def test_candidate_files_replace_only_the_five_player_row(tmp_path: Path) -> None:
    mod = _script()
    shipped = mod.shipped_row()
    shipped_turn = load_game("starlight", players=5).tables.data.turn_order
    for c in mod.CANDIDATES:
        path = mod.components_file(c, tmp_path)
        if (c.saved_ap, c.night_points) == shipped and not any(shipped_turn.day_points["5"]):
            assert path == ""  # the default game, nothing replaced
            continue
        s = load_game("starlight", players=5, components=path).new_initial_state()
        assert (tuple(s.saved), tuple(s.np)) == (c.saved_ap, c.night_points)
        assert s.g.head_start == [0] * 5  # the candidate replaces the whole 5-player head start
        turn = load_game("starlight", players=5, components=path).tables.data.turn_order
        for n in ("1", "2", "3", "4"):
            assert turn.saved_ap[n] == shipped_turn.saved_ap[n]
            assert turn.night_points[n] == shipped_turn.night_points[n]
            assert turn.day_points[n] == shipped_turn.day_points[n]


def _run(advantages: list[float], flagged: int = -1) -> dict[str, Any]:
    return {"rows": [{"seat": p, "advantage": a, "flagged": p == flagged, "win_share": 0.2,
                      "players": 5} for p, a in enumerate(advantages)]}


def test_choice_rule_fewest_flags_then_smallest_worst_advantage() -> None:
    choose = _script().choose
    calm = [_run([0.9, -0.9, 0, 0, 0]), _run([0.8, -0.8, 0, 0, 0])]
    flagged = [_run([0.1, -0.1, 0, 0, 0], flagged=1), _run([0.1, -0.1, 0, 0, 0])]
    steadier = [_run([0.5, -0.5, 0, 0, 0]), _run([0.95, -0.95, 0, 0, 0])]
    assert choose({"calm": calm, "flagged": flagged}) == "calm"
    assert choose({"calm": calm, "steadier": steadier}) == "calm"  # worst 0.9 < 0.95
    assert choose({"steadier": steadier, "other": [_run([1.0, -1.0, 0, 0, 0])] * 2}) == "steadier"


def test_tiny_run_writes_rows_that_nightsky_balance_would_play(tmp_path: Path) -> None:
    mod = _script()
    assert mod.main([
        "--jobs", "1", "--out", str(tmp_path), "--games", "2", "--candidates", "ap3",
        "--tune-seeds", "3", "--fresh-seeds", "4", "--fresh-players", "2",
        "--fresh-5p-seeds", "--search-agent", "ismcts:iterations=3", "--search-games", "2",
        "--search-players", "2", "--strength-games", "2", "--deadline", "600",
    ]) == 0
    report = json.loads((tmp_path / "sweep.json").read_text())
    (fresh,) = report["fresh"]
    assert fresh["players"] == 2 and fresh["seed"] == 4 and fresh["games"] == 2
    spec = MatchSpec("starlight", load_game("starlight", players=2).params, ("greedy",) * 2, 4)
    scores = [play_spec(spec, i).scores for i in range(2)]
    means = [sum(s[p] for s in scores) / 2 for p in range(2)]
    assert [r["mean_score"] for r in fresh["rows"]] == [round(m, 3) for m in means]
    assert [len(d["rows"]) for d in report["tune"]["ap3"]] == [5]
    (search,) = report["search"]
    assert search["games"] == 2 and len(search["rows"]) == 2
    assert report["strength"]["games"] == 2
    text = (tmp_path / "sweep.md").read_text()
    assert "fresh seed 4" in text and "| 2 | 1 |" in text and "ap3" in text
