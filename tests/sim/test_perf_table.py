"""scripts/perf_table.py: one game with a tiny time budget (the real run is docs/performance.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_tiny_run_prints_json_and_the_table() -> None:
    pytest.importorskip("pyspiel")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    # The baseline is this very commit (a temporary worktree of HEAD): the mechanism, quickly.
    cmd = [sys.executable, str(ROOT / "scripts" / "perf_table.py"), "--seconds", "0.1",
           "--games", "shooting-star:2", "--json", "--markdown", "--baseline", "HEAD"]
    out = subprocess.run(cmd, env=env, cwd=ROOT, check=True, capture_output=True, text=True,
                         timeout=120).stdout
    first, _, table = out.partition("\n")
    result = json.loads(first)
    assert result["engines"]["subprocess"] == "pure"
    (row,) = result["rows"]
    assert (row["game"], row["players"]) == ("shooting-star", 2)
    for engine in ("compiled", "pure"):
        figures = row[engine]
        assert figures["actions_per_second"] > 0
        assert figures["clone_us"] > 0 and figures["legal_actions_us"] > 0
        assert figures["ismcts_iterations_per_second"] > 0
    assert result["references"]["python_block_dominoes"]["per_second"] > 0
    assert row["vs_dominoes"] > 0 and row["ismcts_compiled_vs_pure"] > 0
    if result["baseline_commit"] is not None:  # None where git cannot make a worktree
        assert row["baseline"]["ismcts_iterations_per_second"] > 0
        assert row["ismcts_vs_baseline"] > 0
    for ratio in ("vs_dominoes", "pz_vs_connect_four", "ismcts_compiled_vs_pure"):
        assert row["cpu_ratios"][ratio] > 0
    assert result["references"]["connect_four_v3"]["per_cpu_second"] > 0
    assert "| shooting-star | 2 |" in table and "python_block_dominoes" in table


def test_bench_json_has_pettingzoo_steps() -> None:
    pytest.importorskip("pettingzoo")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    cmd = [sys.executable, "-m", "nightsky", "bench", "shooting-star", "--seconds", "0.2",
           "--json"]
    out = subprocess.run(cmd, env=env, cwd=ROOT, check=True, capture_output=True, text=True,
                         timeout=60).stdout
    assert json.loads(out)["pettingzoo_steps_per_second"] > 0
