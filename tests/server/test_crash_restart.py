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


def _load_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("load_test", SCRIPT)
    assert spec and spec.loader
    load_test = importlib.util.module_from_spec(spec)
    sys.modules["load_test"] = load_test
    spec.loader.exec_module(load_test)
    return load_test


def test_clocks_survive_a_killed_server_and_the_time_down_is_not_charged(tmp_path):
    """A realtime table's clocks after a SIGKILL: the stopped clock as it was, the running one
    with the time it had (the seconds the server was down are not charged), running again
    from the restart."""
    import signal
    import time
    from datetime import datetime

    import httpx

    load_test = _load_script()
    port = load_test.free_port()
    db = f"sqlite:///{tmp_path / 'clocks.sqlite3'}"
    base = f"http://127.0.0.1:{port}"
    proc = load_test.start_server(port, db, 0.0)
    try:
        clock = {"mode": "realtime", "bank_seconds": 3600, "increment_seconds": 10}
        made = httpx.post(
            f"{base}/api/games",
            json={"game": "shooting-star", "players": 2, "seats": ["human", "human"],
                  "clock": clock},
        ).json()
        gid, token = made["id"], made["tokens"][0]["token"]
        h = {"Authorization": f"Bearer {token}"}
        v = httpx.get(f"{base}/api/games/{gid}/view", headers=h).json()
        r = httpx.post(
            f"{base}/api/games/{gid}/actions",
            headers=h,
            json={"action": v["legal"][0]["action"], "version": v["version"]},
        )
        assert r.status_code == 200
        view = r.json()
        before = view["clocks"]["seats"]
        assert view["current_players"] == [1], "seat 0's move passes the turn"
        assert not before[0]["running"] and before[1]["running"]
        assert before[0]["seconds_left"] > 3600  # the increment
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        time.sleep(3)  # the server is down
        restarted = time.time()
        proc = load_test.start_server(port, db, 0.0)
        after = httpx.get(f"{base}/api/games/{gid}/view").json()["clocks"]["seats"]
        assert after[0] == before[0]  # the stopped clock: exactly as it was
        assert after[1]["running"] and after[1]["standin"] is None
        assert after[1]["seconds_left"] == before[1]["seconds_left"] == 3600
        since = datetime.fromisoformat(after[1]["since"]).timestamp()
        assert since >= restarted - 0.5  # runs again from the restart, not from before
    finally:
        proc.kill()
        proc.wait()
