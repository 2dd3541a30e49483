"""scripts/agent_strength.py: the table it writes (a tiny run; the real one is a benchmark)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from nightsky.core.registry import game_class, game_ids, packaged_game_ids
from tests.support.scripts import load_script


def _script() -> ModuleType:
    return load_script("agent_strength")


def test_two_player_games_are_every_shipped_game_that_takes_two() -> None:
    games = _script().two_player_games()
    shipped = packaged_game_ids()
    assert games and set(games) <= set(shipped)
    for gid in shipped:
        info = game_class(gid).info
        assert (gid in games) == (info.min_players <= 2 <= info.max_players), gid
    assert "toy-secret-sum" in game_ids() and "toy-secret-sum" not in games  # test-only


def test_tiny_run_writes_the_marked_table(tmp_path: Path) -> None:
    doc = tmp_path / "agents.md"
    doc.write_text("# Agents\n\n<!-- strength:begin -->\nold\n<!-- strength:end -->\ntail\n")
    rows = _script().main(["--only", "shooting-star", "--games", "4", "--spec",
                           "ismcts:iterations=5,depth=2", "--write", str(doc)])
    assert [r["opponent"] for r in rows] == ["random", "greedy"]
    assert all(r["games"] == 4 and 0 <= r["win_rate"] <= 1 for r in rows)
    text = doc.read_text()
    assert "old" not in text and text.endswith("tail\n")
    assert "| shooting-star | random | 4 |" in text and "--games 4" in text


def test_saved_rows_build_one_table(tmp_path: Path) -> None:
    # A long run may be split into several runs: each saves its rows, one table is built.
    rows_file = tmp_path / "rows.jsonl"
    for opp in ("random", "greedy"):
        _script().main(["--only", "shooting-star", "--games", "2", "--opponents", opp,
                        "--spec", "ismcts:iterations=5,depth=2", "--save", str(rows_file)])
    assert len(rows_file.read_text().splitlines()) == 2
    doc = tmp_path / "agents.md"
    doc.write_text("<!-- strength:begin -->\n<!-- strength:end -->\n")
    rows = _script().main(["--spec", "ismcts:iterations=5,depth=2", "--load", str(rows_file),
                           "--write", str(doc)])
    assert [r["opponent"] for r in rows] == ["greedy", "random"]
    text = doc.read_text()
    assert "| shooting-star | greedy | 2 |" in text and "| shooting-star | random | 2 |" in text
    assert text.count("--opponents") == 2  # each row names its run


@pytest.mark.bench
def test_full_strength_run() -> None:
    """The full benchmark (hours on 2 cores): ismcts:seconds=0.2 meets its targets."""
    rows = _script().main(["--workers", "2"])
    assert all(r["win_rate"] >= r["target"] for r in rows)


def test_paired_strength_counts_the_games_of_a_cut_short_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """scripts/paired_strength.py: games appended one by one, a rerun plays only the missing
    ones, and ``--row`` is the strength row of what was played, with the components' hash."""
    import json

    from nightsky.sim.design import components_hash

    script = load_script("paired_strength")
    out = tmp_path / "games.jsonl"
    args = ["shooting-star", "--spec", "greedy", "--opponent", "random", "--seed", "3",
            "--out", str(out)]
    script.main([*args, "--games", "2"])
    first = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(g["i"] for g in first) == [0, 1] and {g["seat"] for g in first} == {0, 1}
    script.main([*args, "--games", "4"])  # games 0 and 1 are not played again
    games = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(g["i"] for g in games) == [0, 1, 2, 3] and games[:2] == first
    capsys.readouterr()
    script.main(["shooting-star", "--spec", "greedy", "--opponent", "random", "--seed", "3",
                 "--row", str(out)])
    row = json.loads(capsys.readouterr().out)
    wins = sum(g["share"] for g in games)
    assert row["games"] == 4 and row["win_rate"] == pytest.approx(wins / 4, abs=1e-6)
    assert row["ci95"][0] <= row["win_rate"] <= row["ci95"][1]
    assert row["components"] == {"file": "shipped", "sha256": components_hash("shooting-star")}
