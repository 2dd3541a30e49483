"""A four-account Swiss tournament of three rounds, played by a script against a real server
process that is SIGKILLed in the middle of round 2 and started again on the same database: the
tournament carries on from its rows and completes with the standings its results make."""

from __future__ import annotations

import signal

import httpx
import pytest

from tests.server.club.tournament_script import (
    expected_points,
    open_tournament,
    play_table,
    round_tables,
    sign_up,
    wait_round,
)
from tests.server.test_crash_restart import _load_script

pytestmark = pytest.mark.slow

def test_a_swiss_tournament_survives_a_killed_server(tmp_path, monkeypatch):
    monkeypatch.setenv("NIGHTSKY_TOURNAMENT_POLL_SECONDS", "0.2")
    load_test = _load_script()
    port = load_test.free_port()
    db = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    base = f"http://127.0.0.1:{port}"
    proc = load_test.start_server(port, db, 0.0)
    clients: list[httpx.Client] = []

    def make() -> httpx.Client:
        clients.append(httpx.Client(base_url=base, timeout=30))
        return clients[-1]

    try:
        players = sign_up(make, ["ann", "ben", "cat", "dan"])
        ann = players["ann"]
        tid = open_tournament(players, "ann", game="shooting-star")
        assert ann.post(f"/api/tournaments/{tid}/start").status_code == 200
        for k, table in enumerate(round_tables(wait_round(ann, tid, 1), 1)):
            play_table(players, table["game_id"], table["players"], seed=k)
        second = round_tables(wait_round(ann, tid, 2), 2)
        play_table(players, second[0]["game_id"], second[0]["players"], seed=5)
        proc.send_signal(signal.SIGKILL)  # round 2 half played
        proc.wait(timeout=30)
        proc = load_test.start_server(port, db, 0.0)
        t = ann.get(f"/api/tournaments/{tid}").json()
        assert t["state"] == "playing" and t["round"] == 2
        play_table(players, second[1]["game_id"], second[1]["players"], seed=6)
        for k, table in enumerate(round_tables(wait_round(ann, tid, 3), 3)):
            play_table(players, table["game_id"], table["players"], seed=7 + k)
        t = wait_round(ann, tid, 4)
    finally:
        load_test.stop_server(proc, 10)
        for c in clients:
            c.close()
    assert t["state"] == "finished"
    assert [len(round_tables(t, r)) for r in (1, 2, 3)] == [2, 2, 2]
    met = [frozenset(x["players"]) for r in (1, 2, 3) for x in round_tables(t, r)]
    assert len(set(met)) == 6  # nobody met twice
    assert {s["name"]: s["points"] for s in t["standings"]} == expected_points(t)
    assert all(x["places"] is not None for r in (1, 2, 3) for x in round_tables(t, r))
