"""The balance report: figures computed from game results, plots and the HTML page."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from nightsky.cli import _load_commands, app
from nightsky.sim.report import analyse, headlines, lead_stats
from nightsky.sim.runner import GameResult, action_kind

_load_commands()
runner = CliRunner()


def _result(index: int, scores: list[float], winners: list[int], trace: list[list[float]],
            usage: list[dict[str, int]] | None = None) -> GameResult:
    return GameResult(index=index, scores=scores, winners=winners, actions=10, chance_events=0,
                      seconds=0.0, trace=trace, usage=usage or [{}, {}], agents=["a", "b"])


def test_action_kind_is_the_first_word_or_card() -> None:
    assert action_kind("discard M5") == "discard"
    assert action_kind("P7@4,1") == "P7"
    assert action_kind("end") == "end"
    assert action_kind("@x") == "@x"


def test_lead_changes_and_decisive_point() -> None:
    # seat 0 leads at action 2, seat 1 takes over at 5 and wins: one change, decided at 0.5.
    r = _result(0, [3, 5], [1], [[2, 1, 0], [5, 1, 2], [8, 3, 5]])
    stats = lead_stats(r)
    assert stats is not None
    assert stats["changes"] == 1 and stats["decided_at"] == 0.5
    # a tie-break winner never alone in front: decided at the end
    tie = _result(1, [4, 4], [0], [[3, 1, 1], [9, 4, 4]])
    assert lead_stats(tie)["decided_at"] == 1.0  # type: ignore[index]
    assert lead_stats(_result(2, [1, 0], [0], [])) is None


def test_analyse_seat_verdicts_margins_and_usage() -> None:
    results = []
    for i in range(60):
        usage = [{"push": 3, "flip": 1}, {"flip": 2}]
        results.append(_result(i, [10, 6], [0], [[4, 1, 0], [10, 10, 6]], usage))
    data = analyse(results, ["a", "b"], game="toy")
    assert data["seats"][0]["verdict"] == "above fair"
    assert data["seats"][1]["verdict"] == "below fair"
    assert "Bonferroni" in data["method"]
    assert data["margin"]["median"] == 4 and data["margin"]["shared_victories"] == 0
    assert data["lead"]["mean_changes"] == 0
    assert data["lead"]["leader_at"]["75%"]["leader_wins"] == 1
    push = next(u for u in data["usage"] if u["kind"] == "push")
    assert push["win_rate_when_used"] == 1 and push["win_rate_when_not"] == 0
    assert push["correlation"] == 1.0
    text = " ".join(headlines(data))
    assert "seat 0 wins 100%" in text and "push" in text


def test_simulate_report_writes_html_json_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = runner.invoke(app, ["simulate", "shooting-star", "--players", "3", "--agents",
                              "random,random,greedy", "--games", "30", "--out", str(out),
                              "--report"])
    assert res.exit_code == 0, res.output
    page = (out / "report.html").read_text()
    assert "In one minute" in page and "Seat advantage" in page and "Clopper-Pearson" in page
    for png in ("seats.png", "scores.png", "length.png", "lead.png", "usage.png"):
        assert (out / png).stat().st_size > 1000, png
        assert png in page
    data = json.loads((out / "report.json").read_text())
    assert data["games"] == 30 and len(data["seats"]) == 3 and data["lead"] is not None


def test_report_needs_out() -> None:
    res = runner.invoke(app, ["simulate", "toy-secret-sum", "--agents", "random", "--report"])
    assert res.exit_code == 2 and "--out" in res.output
