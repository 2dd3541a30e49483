"""Two server processes (two apps, each with its own engine and tournament driver) on one
PostgreSQL database run a Swiss tournament: every round is paired and its tables made exactly
once, whichever process gets there first, with both drivers racing and extra steps hammering
from threads of both; and each rated game's end counts once in the ratings."""

from __future__ import annotations

import threading
import warnings

from sqlalchemy import func, select
from sqlalchemy.orm import Session

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.accounts.tables import SeatAccountRow
from nightsky.server.club.tables import TournamentTableRow
from nightsky.server.settings import Settings
from nightsky.server.store import GameRow
from tests.server.club.tournament_script import (
    expected_points,
    open_tournament,
    round_tables,
    sign_up,
    wait_round,
)


def _hammer(apps, tid: int) -> None:
    """Eight threads, half on each process, all trying to advance the tournament at once."""
    threads = [
        threading.Thread(target=apps[i % 2].state.club.tournaments.step, args=(tid,))
        for i in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)


def _resign(app, cookies, gid: str) -> None:
    """Seat 1's player (signed in on ``app`` with ``cookies``) resigns: seat 0 wins."""
    c = TestClient(app, cookies=cookies["client"].cookies)
    c.headers["X-CSRF-Token"] = cookies["client"].headers["X-CSRF-Token"]
    token = c.post(f"/api/games/{gid}/seat").json()["token"]
    r = c.post(f"/api/games/{gid}/resign", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text


def test_two_processes_pair_every_round_once_on_postgres(pg_url):
    settings = Settings(tournament_poll_seconds=0.02, bot_processes=0)
    apps = [create_app(pg_url, settings=settings), create_app(pg_url, settings=settings)]
    with TestClient(apps[0]), TestClient(apps[1]):
        players = sign_up(lambda: TestClient(apps[0]), ["ann", "ben", "cat", "dan"])
        ann = players["ann"]
        tid = open_tournament(players, "ann", game="shooting-star", rated=True)
        assert ann.post(f"/api/tournaments/{tid}/start").status_code == 200
        _hammer(apps, tid)
        for round_no in (1, 2, 3):
            t = wait_round(ann, tid, round_no)
            for k, table in enumerate(round_tables(t, round_no)):
                seat1 = {"client": players[table["players"][1]]}
                _resign(apps[k % 2], seat1, table["game_id"])
            _hammer(apps, tid)
        t = wait_round(ann, tid, 4)
        with Session(apps[0].state.manager.store.engine) as s:
            tables = s.execute(
                select(func.count()).select_from(TournamentTableRow)
                .where(TournamentTableRow.tournament_id == tid)
            ).scalar_one()
            games = s.execute(
                select(func.count()).select_from(GameRow).where(GameRow.tournament == tid)
            ).scalar_one()
            seats = s.execute(select(func.count()).select_from(SeatAccountRow)).scalar_one()
        rated = [ann.get(f"/api/users/{n}/ratings").json()["ratings"][0]["games"]
                 for n in players]
    assert t["state"] == "finished"
    assert (tables, games, seats) == (6, 6, 12)  # 3 rounds x 2 tables, each made once
    assert rated == [3, 3, 3, 3]  # each rated game counted once, on whichever process ended it
    met = [frozenset(x["players"]) for r in (1, 2, 3) for x in round_tables(t, r)]
    assert len(set(met)) == 6
    points = expected_points(t)
    assert {s["name"]: s["points"] for s in t["standings"]} == points
    # seat 1 resigned at every table: seat 0 won each, and the places say so
    assert all(x["places"] == [1, 2] for r in (1, 2, 3) for x in round_tables(t, r))
