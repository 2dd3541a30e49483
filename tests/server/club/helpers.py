"""Helpers of the club's tests: signed-in members as separate clients of one app, and
playing a table to its end through the API."""

from __future__ import annotations

import random
import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from tests.server.conftest import auth

CLOCK = {"mode": "realtime", "bank_seconds": 600}


def member(app: Any, name: str, password: str = "correct horse battery") -> TestClient:
    """A new account ``name`` signed in on its own client (its own cookie jar), every
    change carrying its CSRF token."""
    c = TestClient(app)
    r = c.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    c.headers["X-CSRF-Token"] = r.json()["csrf"]
    return c


def view(c: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def play_out(c: Any, gid: str, tokens: list[str], seed: int = 0) -> dict[str, Any]:
    """Random legal moves for every seat (all from client ``c``) until the game is over."""
    return play_seats([(c, tok) for tok in tokens], gid, seed)


def play_seats(seats: list[tuple[Any, str]], gid: str, seed: int = 0) -> dict[str, Any]:
    """Random legal moves for every seat, each (client, token) of ``seats`` playing its own,
    until the game is over; the last view. Works with TestClient and httpx.Client."""
    rng = random.Random(seed)
    for _ in range(3000):
        for c, tok in seats:
            v = view(c, gid, tok)
            if v["status"] == "over":
                return v
            if v["legal"]:
                r = c.post(f"/api/games/{gid}/actions", headers=auth(tok),
                           json={"action": rng.choice(v["legal"])["action"],
                                 "version": v["version"]})
                assert r.status_code in (200, 409), r.text
    raise AssertionError(f"the game {gid} did not end")


def rated_pair(app: Any, a: TestClient, b: TestClient, game: str = "toy-secret-sum"
               ) -> tuple[str, str, str]:
    """A rated two-player table ``a`` opens and ``b`` takes by its invite: (id, a's token,
    b's token)."""
    r = a.post("/api/games", json={"game": game, "players": 2, "seats": ["human", "human"],
                                   "rated": True, "clock": CLOCK})
    assert r.status_code == 201, r.text
    made = r.json()
    got = b.post(f"/api/games/{made['id']}/claim", json={"invite": made["invites"][0]["code"]})
    assert got.status_code == 200, got.text
    return made["id"], made["tokens"][0]["token"], got.json()["token"]
