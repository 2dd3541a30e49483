"""The stall of issue 52 as a load script (``make bench``): one client's 17 all-bot search
tables and 4 of ``greedy:samples=10000`` against another client's control tables. Reports the
control ``random`` bot's answer time unloaded and loaded; it must stay within 2x (plus a small
floor for a shared machine's scheduling noise), and the control ``expert`` seat must never
fall back (no "gave no move" line for its table)."""

from __future__ import annotations

import logging
import statistics
import time
import warnings
from typing import Any

import pytest

from nightsky.server import create_app
from nightsky.server.settings import Settings
from tests.server.conftest import auth

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


def _answer_times(client: TestClient, moves: int) -> list[float]:
    """Seconds from a human move's answer until a control table's ``random`` bot moved
    (over new control tables until ``moves`` answers were timed)."""
    out: list[float] = []
    for _ in range(20):
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
            if idle or time.monotonic() - start > 120:
                break
            time.sleep(0.002)
        else:
            out.append(time.monotonic() - start)
    return out


def test_one_client_cannot_stall_another_clients_bots(tmp_path, caplog) -> None:
    settings = Settings(
        trust_proxy=True, rate_create="100/minute", max_open_tables_per_client=40,
        bot_processes=2,
    )
    caplog.set_level(logging.WARNING, logger="nightsky.server")
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}", settings=settings)) as c:
        unloaded = _answer_times(c, 12)
        expert = _create(c, ["random", "expert"], CONTROL)["id"]
        for _ in range(17):
            _create(c, ["ismcts", "ismcts"], ATTACKER)
        for _ in range(4):
            _create(c, ["greedy:samples=10000", "greedy:samples=10000"], ATTACKER)
        time.sleep(3.0)  # the load builds up
        t0 = time.monotonic()
        health = c.get("/healthz")
        health_s = time.monotonic() - t0
        loaded = _answer_times(c, 12)
        time.sleep(5.0)  # the expert seat plays a few moves under load
        room = c.app.state.manager.get(expert)  # type: ignore[attr-defined]
        expert_moves = sum(1 for s, _ in room.state.history if s == 1)
    base, under = statistics.median(unloaded), statistics.median(loaded)
    fallbacks = [r.getMessage() for r in caplog.records if "gave no move" in r.getMessage()]
    print(
        f"\ncontrol random bot, median answer: unloaded {base * 1000:.1f} ms, "
        f"loaded {under * 1000:.1f} ms ({under / base:.2f}x); /healthz {health_s * 1000:.0f} ms; "
        f"control expert moves {expert_moves}, fallbacks anywhere {len(fallbacks)}"
    )
    assert health.status_code == 200
    assert len(loaded) == 12
    assert under <= 2 * base + 0.05, (unloaded, loaded)
    assert not [f for f in fallbacks if expert in f], fallbacks
    assert expert_moves >= 1
