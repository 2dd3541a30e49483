"""scripts/ladder.py: pairwise rates, the markdown block and its marked section (made-up
results; the real run is a benchmark)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from nightsky.sim.runner import GameResult
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
