"""scripts/ladder.py: pairwise rates, the markdown block and its marked section (made-up
results; the real run is a benchmark)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from nightsky.core.errors import OptionError
from nightsky.sim.engines import run_games
from nightsky.sim.runner import GameResult, MatchSpec
from nightsky.sim.tournament import lineups
from tests.support.scripts import load_script


def _script() -> ModuleType:
    return load_script("ladder")


def _results(mod, seatings=None, rounds=2) -> list[GameResult]:  # type: ignore[no-untyped-def]
    """``rounds`` rounds of every seating (default: every ordered pair of AGENTS) where the agent
    listed later in AGENTS always wins."""
    order = list(mod.AGENTS)
    out = []
    for i, (a, b) in enumerate((seatings or lineups(mod.AGENTS, 2)) * rounds):
        winner = 0 if order.index(a) > order.index(b) else 1
        out.append(GameResult(i, [1.0 - winner, float(winner)], [winner], 10, 0, 0.1,
                              agents=[a, b]))
    return out


def test_pairwise_counts_both_seatings_and_the_block_reads_the_ladder() -> None:
    mod = _script()
    results = _results(mod)
    pw = mod.pairwise(results)
    assert pw["expert", "hard"] == (4.0, 4) and pw["hard", "expert"] == (0.0, 4)
    block = mod.table("shooting-star", results, 1.0, "note")
    assert block.startswith("<!-- ladder:shooting-star:begin -->")
    assert "- easy vs random: 100% of 4" in block and "- expert vs hard: 100% of 4" in block
    first = [ln for ln in block.splitlines() if ln.startswith("| expert")]
    assert first and "`ismcts:seconds=0.2`" in first[0]


def test_write_block_replaces_one_game_and_keeps_the_others(tmp_path: Path) -> None:
    mod = _script()
    doc = tmp_path / "agents.md"
    doc.write_text("head\n<!-- ladder:begin -->\n<!-- ladder:end -->\ntail\n")
    a1 = "<!-- ladder:star-fire:begin -->\nA1\n<!-- ladder:star-fire:end -->"
    b = "<!-- ladder:mihi-anguli:begin -->\nB\n<!-- ladder:mihi-anguli:end -->"
    a2 = a1.replace("A1", "A2")
    for block in (a1, b, a2):
        mod.write_block(doc, block.split(":")[1], block)
    text = doc.read_text()
    assert "A1" not in text and text.index("B") < text.index("A2")
    assert text.startswith("head\n") and text.endswith("tail\n")


def test_steps_seat_each_level_against_the_one_below_and_the_table_keeps_to_them() -> None:
    mod = _script()
    seatings = mod.steps()
    assert seatings == (
        ("easy", "random"), ("random", "easy"), ("medium", "easy"), ("easy", "medium"),
        ("hard", "medium"), ("medium", "hard"), ("expert", "hard"), ("hard", "expert"),
    )
    block = mod.table("starlight", _results(mod, seatings, rounds=3), 1.0, "note")
    header = next(ln for ln in block.splitlines() if ln.startswith("| agent"))
    assert "vs greedy" not in header and "vs expert" in header  # greedy never played
    assert not any(ln.startswith("| greedy ") for ln in block.splitlines())
    assert "- expert vs hard: 100% of 6" in block and "- easy vs random: 100% of 6" in block


def _save(mod, path: Path, gid: str, seed: int, results) -> None:  # type: ignore[no-untyped-def]
    specs = mod.played_as(gid)
    path.write_text("".join(mod.saved_line(gid, seed, r, specs) + "\n" for r in results))


def test_saved_games_load_back_checked_against_the_run(tmp_path: Path) -> None:
    mod = _script()
    seatings = mod.steps()
    results = _results(mod, seatings, rounds=2)
    path = tmp_path / "games.jsonl"
    _save(mod, path, "starlight", 5, results)
    with path.open("a") as fh:  # another game's lines and a blank line are skipped
        fh.write('\n{"game": "star-fire", "seed": 1, "index": 0}\n')
    loaded = mod.load_saved([path], "starlight", 5, seatings)
    assert sorted(loaded) == [r.index for r in results]
    assert [(loaded[r.index].agents, loaded[r.index].winners, loaded[r.index].scores)
            for r in results] == [(r.agents, r.winners, r.scores) for r in results]
    # Loading the same file twice is harmless; each refusal names its line and cause.
    assert len(mod.load_saved([path, path], "starlight", 5, seatings)) == len(results)
    refusals = {
        "seed 5, this run's is 6": (path.read_text(), 6, seatings),
        "played as `greedy:epsilon=0.3`": (
            path.read_text().replace('"greedy:epsilon=0.2"', '"greedy:epsilon=0.3"', 1), 5,
            seatings),
        "which this run's seatings do not put there": (path.read_text(), 5,
                                                       lineups(mod.AGENTS, 2)),
        "not a JSON line": (path.read_text() + "{oops\n", 5, seatings),
        "not a saved ladder game": (path.read_text() + '{"game": "starlight"}\n', 5, seatings),
        "one spec per seat": (path.read_text().replace('"specs": [', '"specs": ["x", ', 1), 5,
                              seatings),
    }
    for needle, (text, seed, seats) in refusals.items():
        bad = tmp_path / "bad.jsonl"
        bad.write_text(text)
        try:
            mod.load_saved([bad], "starlight", seed, seats)
        except SystemExit as exc:
            assert needle in str(exc) and "bad.jsonl:" in str(exc), (needle, str(exc))
        else:
            raise AssertionError(f"not refused: {needle}")
    flipped = [GameResult(r.index, r.scores[::-1], [1 - r.winners[0]], 10, 0, 0.1,
                          agents=r.agents) for r in results[:1]]
    other = tmp_path / "other.jsonl"
    _save(mod, other, "starlight", 5, flipped)
    try:
        mod.load_saved([path, other], "starlight", 5, seatings)
    except SystemExit as exc:
        assert "saved twice with different results" in str(exc)
    else:
        raise AssertionError("a game saved twice with different results was taken")


def test_a_table_from_saved_games_alone(tmp_path: Path) -> None:
    mod = _script()
    saved = tmp_path / "games.jsonl"
    _save(mod, saved, "starlight", 7, _results(mod, mod.steps(), rounds=3))
    doc = tmp_path / "agents.md"
    doc.write_text("<!-- ladder:begin -->\n<!-- ladder:end -->\n")
    argv = ["--only", "starlight", "--steps", "--games", "0", "--seed", "7", "--load",
            str(saved), "--write", str(doc)]
    assert mod.main(argv) == 0
    text = doc.read_text()
    assert "24 saved games (`--load`" in text and "6 games per pairing" in text
    assert "- expert vs hard: 100% of 6" in text


def test_a_run_in_parts_plays_the_games_of_one_run() -> None:
    spec = MatchSpec("shooting-star", {"players": 2}, ("random", "greedy"), 3,
                     lineups=(("random", "greedy"), ("greedy", "random")))
    whole = sorted(run_games(spec, 6), key=lambda r: r.index)
    parts = [*run_games(spec, 2), *run_games(spec, 4, first=2, workers=2)]
    parts.sort(key=lambda r: r.index)
    assert [r.index for r in parts] == list(range(6))
    assert [(r.agents, r.scores, r.actions) for r in parts] == [
        (r.agents, r.scores, r.actions) for r in whole]
    with pytest.raises(OptionError, match="first game index"):
        list(run_games(spec, 2, first=-1))
