"""A script that plays a tournament as its players would: each signs in on its own client,
enters, and plays its table of every round through the API (its seat's token comes from
``POST /api/games/{id}/seat``, no link). Works with TestClient and with httpx.Client against
a real server process."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.server.club.helpers import play_seats

CLOCK = {"mode": "realtime", "bank_seconds": 600}


def sign_up(make: Callable[[], httpx.Client], names: list[str]) -> dict[str, httpx.Client]:
    """A signed-in client per name (CSRF token in its headers)."""
    out = {}
    for name in names:
        c = make()
        r = c.post("/api/account/signup", json={"name": name, "password": "tournament pass"})
        assert r.status_code == 201, r.text
        c.headers["X-CSRF-Token"] = r.json()["csrf"]
        out[name] = c
    return out


def open_tournament(players: dict[str, httpx.Client], organiser: str, **spec: Any) -> int:
    body = {"name": "Club night", "kind": "swiss", "game": "toy-secret-sum", "players": 2,
            "rounds": 3, "clock": CLOCK, **spec}
    r = players[organiser].post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid = int(r.json()["id"])
    for c in players.values():
        assert c.post(f"/api/tournaments/{tid}/enter").status_code == 200
    return tid


def wait_round(c: httpx.Client, tid: int, round_no: int, timeout: float = 30.0) -> dict[str, Any]:
    """The tournament once round ``round_no`` has its tables made (or it finished)."""
    end = time.monotonic() + timeout
    while True:
        t = c.get(f"/api/tournaments/{tid}").json()
        made = [r for r in t["schedule"] if r["round"] == round_no]
        if t["state"] in ("finished", "closed") or (
            made and all(x["game_id"] or x["bye"] for x in made[0]["tables"])
        ):
            return t
        assert time.monotonic() < end, f"round {round_no} was not made: {t}"
        time.sleep(0.1)


def play_table(players: dict[str, httpx.Client], gid: str, names: list[str], seed: int) -> None:
    """The table's players (in seat order) play random legal moves until it is over."""
    tokens = []
    for name in names:
        r = players[name].post(f"/api/games/{gid}/seat")
        assert r.status_code == 200, r.text
        tokens.append((players[name], r.json()["token"]))
    play_seats(tokens, gid, seed)


def round_tables(t: dict[str, Any], round_no: int) -> list[dict[str, Any]]:
    return [x for r in t["schedule"] if r["round"] == round_no for x in r["tables"]]


def expected_points(t: dict[str, Any]) -> dict[str, float]:
    """Every player's points from the tables' places as the tournament shows them: 1 for a
    win, 1/2 a tie, 0 a loss, 1 a bye."""
    pts: dict[str, float] = {name: 0.0 for name in t["entrants"]}
    for r in t["schedule"]:
        for x in r["tables"]:
            if x["bye"]:
                pts[x["players"][0]] += 1.0
                continue
            a, b = x["places"]
            pts[x["players"][0]] += 1.0 if a < b else 0.5 if a == b else 0.0
            pts[x["players"][1]] += 1.0 if b < a else 0.5 if a == b else 0.0
    return pts
