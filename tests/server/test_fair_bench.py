"""The stall of issue 52 as a load script (``make bench``): one client's 17 all-bot search
tables and 4 of ``greedy:samples=10000`` against another client's control tables. Reports the
control ``random`` bot's answer time unloaded and loaded; it must stay within 2x (plus a small
floor for a shared machine's scheduling noise), and the control ``expert`` seat must never
fall back (no "gave no move" line for its table). The same against ``nightsky serve`` itself:
one process on SQLite, and two processes on one PostgreSQL database (``--workers 2``)."""

from __future__ import annotations

import json
import logging
import os
import statistics
import subprocess
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from nightsky.server import create_app
from nightsky.server.settings import Settings
from tests.server.conftest import auth
from tests.support.pg import free_port
from tests.support.serving import serve, stop, wait_serving

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

pytestmark = pytest.mark.bench

GAME = "shooting-star"
ATTACKER = {"X-Forwarded-For": "203.0.113.7"}
CONTROL = {"X-Forwarded-For": "198.51.100.2"}


def _create(client: TestClient, seats: list[str], who: dict[str, str]) -> dict[str, Any]:
    r = client.post(
        "/api/games", headers=who, json={"game": GAME, "players": len(seats), "seats": seats}
    )
    assert r.status_code == 201, r.text
    return r.json()


def _attack(create: Callable[[list[str]], Any]) -> list[str]:
    """The issue's stall from one client: 17 all-bot search tables and 4 of
    ``greedy:samples=10000``, then a few seconds for the load to build up. The tables' ids."""
    made = [create(["ismcts", "ismcts"]) for _ in range(17)]
    made += [create(["greedy:samples=10000", "greedy:samples=10000"]) for _ in range(4)]
    time.sleep(3.0)
    return [m["id"] for m in made]


def _moves(get: Callable[[str], Any], ids: list[str]) -> int:
    """Moves made so far at the tables ``ids`` (their versions), read through the API."""
    return sum(int(get(f"/api/games/{gid}/view").json()["version"]) for gid in ids)


def _answer_times(client: TestClient, moves: int) -> list[float]:
    """Seconds from a human move's answer until a control table's ``random`` bot moved
    (over new control tables until ``moves`` answers were timed)."""
    out: list[float] = []
    for _ in range(60):
        out += _one_table(client, moves - len(out))
        if len(out) >= moves:
            break
    return out


def _one_table(client: TestClient, moves: int) -> list[float]:
    made = _create(client, ["human", "random"], CONTROL)
    gid, tok = made["id"], made["tokens"][0]["token"]
    room = client.app.state.manager.get(gid)  # type: ignore[attr-defined]
    out: list[float] = []
    while len(out) < moves:
        v = client.get(f"/api/games/{gid}/view", headers={**CONTROL, **auth(tok)}).json()
        if v["terminal"]:
            break
        if not v["legal"]:
            time.sleep(0.05)  # (well under the per-client request rate)
            continue
        r = client.post(
            f"/api/games/{gid}/actions", headers={**CONTROL, **auth(tok)},
            json={"action": v["legal"][0]["action"], "version": v["version"]},
        )
        assert r.status_code == 200, r.text
        start, mark = time.monotonic(), len(room.state.history)
        # (A human move may leave the human to move again: only a bot's answer counts.)
        while not any(s == 1 for s, _ in room.state.history[mark:]):
            with room.lock:
                idle = not room.bot_busy and not room.bot_seats()
            # (A bot's job may not be queued yet just after the move: idle counts after a grace.)
            if (idle and time.monotonic() - start > 0.5) or time.monotonic() - start > 120:
                break
            time.sleep(0.002)
        else:
            out.append(time.monotonic() - start)
    return out


def test_one_client_cannot_stall_another_clients_bots(tmp_path, caplog) -> None:
    settings = Settings(
        trust_proxy=True, rate_create="100/minute", max_open_tables_per_client=40,
        bot_processes=2,
        # The harness polls the control table's view between moves far faster than a page
        # does; the request rate limit is not what this measures.
        rate_requests="100000/minute;10000/second",
    )
    caplog.set_level(logging.WARNING, logger="nightsky.server")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}", settings=settings)) as c:
        unloaded = _answer_times(c, 12)
        expert = _create(c, ["random", "expert"], CONTROL)["id"]
        attack = _attack(lambda seats: _create(c, seats, ATTACKER))
        before = _moves(c.get, attack)
        t0 = time.monotonic()
        health = c.get("/healthz")
        health_s = time.monotonic() - t0
        loaded = _answer_times(c, 12)
        time.sleep(5.0)  # the expert seat plays a few moves under load
        room = c.app.state.manager.get(expert)  # type: ignore[attr-defined]
        expert_moves = sum(1 for s, _ in room.state.history if s == 1)
        attacker_moves = _moves(c.get, attack) - before
    base, under = statistics.median(unloaded), statistics.median(loaded)
    fallbacks = [r.getMessage() for r in caplog.records if "gave no move" in r.getMessage()]
    print(
        f"\ncontrol random bot, median answer: unloaded {base * 1000:.1f} ms, "
        f"loaded {under * 1000:.1f} ms ({under / base:.2f}x); /healthz {health_s * 1000:.0f} ms; "
        f"control expert moves {expert_moves}, fallbacks anywhere {len(fallbacks)}; "
        f"attacker moves meanwhile {attacker_moves}"
    )
    assert health.status_code == 200
    assert len(loaded) == 12
    assert under <= 2 * base + 0.05, (unloaded, loaded)
    assert not [f for f in fallbacks if expert in f], fallbacks
    assert expert_moves >= 1
    assert attacker_moves >= 1  # the load was real


# ---------------------------------------------------------------------- real server processes
# The same stall against `nightsky serve` itself: one process on SQLite, and two processes on
# one PostgreSQL database (the attacker's tables land on both). Everything goes through HTTP
# and the table's WebSocket, as a browser's would.
def _serve(db: str, workers: int, port: int, log: Any) -> subprocess.Popen[bytes]:
    return serve(
        ["--workers", str(workers), "--db", db, "--port", str(port), "--bot-delay", "0",
         "--bot-cadence", "0", "--trust-proxy", "--rate-create", "100/minute",
         "--max-open-tables-per-client", "40", "--log-level", "warning"],
        log,
    )


def _http_create(base: str, seats: list[str], who: dict[str, str]) -> dict[str, Any]:
    body = {"game": GAME, "players": len(seats), "seats": seats}
    r = httpx.post(f"{base}/api/games", headers=who, json=body, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()


def _socket_answer_times(base: str, moves: int) -> list[float]:
    """Seconds from sending a human move on the table's socket until the view with the
    control ``random`` bot's answer arrives (over new control tables until ``moves``)."""
    out: list[float] = []
    for _ in range(20):
        made = _http_create(base, ["human", "random"], CONTROL)
        url = base.replace("http://", "ws://") + f"/api/games/{made['id']}/ws"
        with connect(url, additional_headers=CONTROL, open_timeout=30) as ws:
            ws.send(json.dumps({"token": made["tokens"][0]["token"]}))
            out += _play_timed(ws, moves - len(out))
        if len(out) >= moves:
            break
    return out


def _play_timed(ws: Any, moves: int) -> list[float]:
    out: list[float] = []
    view = _next_view(ws, -1, 120)[1]
    msg_id = 0
    while len(out) < moves and view is not None and not view["terminal"]:
        if not view["legal"]:
            view = _next_view(ws, view["version"], 120)[1]
            continue
        msg_id += 1
        start = time.monotonic()
        ws.send(json.dumps({"type": "act", "id": msg_id, "action": view["legal"][0]["action"],
                            "version": view["version"]}))
        seen: list[tuple[float, dict[str, Any]]] = []
        mine = None
        while mine is None:  # the views up to the ack (the bot may answer before it arrives)
            msg = json.loads(ws.recv(timeout=120))
            if msg["type"] == "view":
                seen.append((time.monotonic(), msg["data"]))
            elif msg["type"] == "ack":
                mine = msg["version"]
            elif msg["type"] == "error":
                # The table moved on under the move (a stale view): look again, untimed.
                assert msg["code"] in ("stale_version", "not_your_turn"), msg
                break
        if mine is None:
            view = seen[-1][1] if seen else _next_view(ws, view["version"], 120)[1]
            continue
        after = [(t, v) for t, v in seen if v["version"] > mine]
        last = seen[-1][1] if seen else None
        if not after and last is not None and (last["legal"] or last["terminal"]):
            view = last  # the human moves again: no bot answer to time
            continue
        at, view = after[0] if after else _next_view(ws, mine, 120)
        out.append(at - start)
    return out


def _next_view(ws: Any, after: int, timeout: float) -> tuple[float, Any]:
    """The first view pushed with a version above ``after``, and when it came."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        msg = json.loads(ws.recv(timeout=end - time.monotonic()))
        if msg["type"] == "view" and msg["data"]["version"] > after:
            return time.monotonic(), msg["data"]
    raise AssertionError("no view came")


def _stall_over_processes(db: str, workers: int, log_path: Path) -> dict[str, Any]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        proc = _serve(db, workers, port, log)
    try:
        wait_serving(base, proc, 120)  # two processes start slowly on a busy machine
        _socket_answer_times(base, 3)  # warm up: think workers, imports, connections
        unloaded = _socket_answer_times(base, 12)
        expert = _http_create(base, ["random", "expert"], CONTROL)["id"]
        attack = _attack(lambda seats: _http_create(base, seats, ATTACKER))
        before = _moves(lambda u: httpx.get(base + u, timeout=60), attack)
        t0 = time.monotonic()
        health = httpx.get(f"{base}/healthz", timeout=60)
        health_s = time.monotonic() - t0
        loaded = _socket_answer_times(base, 12)
        time.sleep(5.0)  # the expert seat plays a few moves under load
        load = os.getloadavg()
        log_view = httpx.get(f"{base}/api/games/{expert}/view", timeout=60).json()["log"]
        expert_moves = sum(1 for line in log_view if line.get("seat") == 1)
        attacker_moves = _moves(lambda u: httpx.get(base + u, timeout=60), attack) - before
    finally:
        stop(proc)
    lines = log_path.read_text(errors="replace").splitlines()
    return {
        "unloaded": unloaded, "loaded": loaded, "health": health, "health_s": health_s,
        "expert": expert, "expert_moves": expert_moves, "load": load,
        "attacker_moves": attacker_moves,
        "fallbacks": [x for x in lines if "gave no move" in x],
    }


def _report(kind: str, got: dict[str, Any]) -> None:
    base, under = statistics.median(got["unloaded"]), statistics.median(got["loaded"])
    print(
        f"\n{kind}: control random bot, median answer over the socket: unloaded "
        f"{base * 1000:.1f} ms (range {min(got['unloaded']) * 1000:.0f}-"
        f"{max(got['unloaded']) * 1000:.0f}), loaded {under * 1000:.1f} ms (range "
        f"{min(got['loaded']) * 1000:.0f}-{max(got['loaded']) * 1000:.0f}; {under / base:.2f}x);"
        f" /healthz {got['health_s'] * 1000:.0f} ms; control expert moves "
        f"{got['expert_moves']}, fallbacks anywhere {len(got['fallbacks'])}; attacker moves "
        f"meanwhile {got['attacker_moves']}; load average "
        + " ".join(f"{x:.1f}" for x in got["load"])
    )
    assert got["health"].status_code == 200
    assert len(got["loaded"]) == 12
    assert under <= 2 * base + 0.05, (got["unloaded"], got["loaded"])
    assert not [f for f in got["fallbacks"] if got["expert"] in f], got["fallbacks"]
    assert got["expert_moves"] >= 1
    assert got["attacker_moves"] >= 1  # the load was real


def test_the_stall_on_one_sqlite_server_process(tmp_path) -> None:
    got = _stall_over_processes(f"sqlite:///{tmp_path / 's.sqlite3'}", 1, tmp_path / "s.log")
    _report("nightsky serve, 1 process, SQLite", got)


def test_the_stall_on_two_server_processes_over_postgresql(pg_url: str, tmp_path) -> None:
    got = _stall_over_processes(pg_url, 2, tmp_path / "pg.log")
    _report("nightsky serve --workers 2, PostgreSQL", got)
