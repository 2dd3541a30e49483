"""``nightsky balance``: equal agents in every seat, per seat win share, score and advantage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightsky.cli import _load_commands, app
from nightsky.sim.balance import seat_rows, summarize_balance
from nightsky.sim.runner import GameResult

_load_commands()
runner = CliRunner()

ROW_KEYS = {"players", "seat", "win_share", "win_ci95", "mean_score", "score_ci95", "advantage",
            "advantage_ci95", "advantage_verdict", "flagged"}


def _check_rows(data: dict, counts: list[int]) -> None:
    assert sorted({r["players"] for r in data["rows"]}) == counts
    for n in counts:
        rows = [r for r in data["rows"] if r["players"] == n]
        assert [r["seat"] for r in rows] == list(range(n))
        assert sum(r["win_share"] for r in rows) == pytest.approx(1, abs=1e-3)
        assert sum(r["advantage"] for r in rows) == pytest.approx(0, abs=1e-2)
        for r in rows:
            assert set(r) == ROW_KEYS
            lo, hi = r["win_ci95"]
            assert lo <= r["win_share"] <= hi
            slo, shi = r["score_ci95"]
            assert slo <= r["mean_score"] <= shi
            assert isinstance(r["flagged"], bool)


def test_balance_json_shooting_star_three_players() -> None:
    res = runner.invoke(app, ["balance", "shooting-star", "--players", "3", "--games", "30",
                              "--json", "--seed", "4"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {"game", "agents", "method", "rows"} <= set(data)
    assert data["game"] == "shooting-star" and data["agents"] == "greedy"
    assert "Clopper-Pearson" in data["method"] and "Bonferroni" in data["method"]
    _check_rows(data, [3])


def test_balance_seats_do_not_rotate_and_match_simulate() -> None:
    # Every player count given, toy game; the same seed gives simulate's win shares.
    res = runner.invoke(app, ["balance", "toy-secret-sum", "--agents", "random", "--players",
                              "3", "--players", "2", "--games", "40", "--seed", "7", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    _check_rows(data, [2, 3])
    sim = runner.invoke(app, ["simulate", "toy-secret-sum", "--agents", "random", "--players",
                              "3", "--games", "40", "--seed", "7", "--json"])
    wins = json.loads(sim.stdout)["wins"]
    assert [r["win_share"] for r in data["rows"] if r["players"] == 3] == pytest.approx(
        wins, abs=1e-4)


def test_balance_table_and_report_files(tmp_path: Path) -> None:
    out = tmp_path / "bal"
    res = runner.invoke(app, ["balance", "toy-secret-sum", "--agents", "random", "--games", "12",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "win share" in res.output and "advantage" in res.output
    assert "Clopper-Pearson" in res.output
    data = json.loads((out / "balance.json").read_text())
    assert data["games"] == 12 and len({r["players"] for r in data["rows"]}) > 1
    assert (out / "balance.png").stat().st_size > 1000
    page = (out / "balance.html").read_text()
    assert "balance.png" in page and "Clopper-Pearson" in page and "In one minute" in page
    assert "nightsky balance toy-secret-sum --agents random --games 12 --seed 0" in page


def test_game_driven_seats_are_not_measured() -> None:
    res = runner.invoke(app, ["balance", "starlight", "--players", "1", "--option", "starbots=1",
                              "--games", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [r["seat"] for r in data["rows"]] == [0]  # the Starbot seat is left out
    assert any("Starbot" in note and "not measured" in note for note in data["notes"])


def _result(i: int, scores: list[float], winners: list[int]) -> GameResult:
    return GameResult(index=i, scores=scores, winners=winners, actions=1, chance_events=0,
                      seconds=0.0)


def test_rows_split_shared_wins_and_skip_automaton_wins() -> None:
    # Two live seats and one automaton (seat 2): its win leaves the shares to the other games.
    results = [_result(0, [3, 1, 0], [0]), _result(1, [2, 2, 0], [0, 1]),
               _result(2, [1, 1, 5], [2]), _result(3, [0, 4, 1], [1])]
    rows, note = seat_rows(results, 2)
    assert [r["win_share"] for r in rows] == [0.5, 0.5]
    assert [r["mean_score"] for r in rows] == [1.5, 2.0]
    assert [r["advantage"] for r in rows] == [-0.25, 0.25]
    assert "1 of 4 games were won by no measured seat" in note
    data = summarize_balance("x", "greedy", {2: results}, games=4, seed=0)
    assert data["notes"] == [note]


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--games", "1"], "at least 2"),
        (["--agents", "random,greedy,random"], "one agent in every seat"),
        (["--agents", "wizard"], "unknown agent"),
        (["--players", "9"], "players"),
        (["--workers", "0"], "--workers"),
        (["--engine", "spark"], "is not one of"),
        (["--option", "players=3"], "--players"),
        (["--option", "nosuch=1"], "no option"),
    ],
)
def test_balance_bad_flags(extra: list[str], message: str) -> None:
    res = runner.invoke(app, ["balance", "toy-secret-sum", *extra])
    assert res.exit_code == 2 and message in res.output, res.output


def test_balance_unknown_game() -> None:
    res = runner.invoke(app, ["balance", "no-such-game"])
    assert res.exit_code == 2 and "no-such-game" in res.output
