"""The short version of scripts/load_test.py: a real server process is SIGKILLed mid-game,
restarted on the same database, and every game is intact and plays to its end."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "load_test.py"


def test_games_survive_a_killed_server():
    spec = importlib.util.spec_from_file_location("load_test", SCRIPT)
    assert spec and spec.loader
    load_test = importlib.util.module_from_spec(spec)
    sys.modules["load_test"] = load_test  # dataclasses look their module up there
    spec.loader.exec_module(load_test)
    # A little think time keeps both games running when the kill comes.
    report = load_test.run(
        games=2, kill_after=1.5, seed=3, titles=["stars-are-right", "star-fire"], think=0.03
    )
    assert report["errors"] == []
    assert report["intact_after_restart"] and report["lost_moves"] == 0
    assert report["moves_before_kill"] > 0
    assert report["finished"] == 2
    if report["finished_before_kill"] < 2:
        assert report["human_moves_total"] > report["moves_before_kill"]  # play went on
