"""Tournaments through the API (issue 53 item 5): four accounts play a three-round Swiss
tournament, its rounds paired and their tables made on their own, with standings and
tie-breaks; what the organiser and an admin may do; refusals naming their field."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.settings import Settings
from tests.server.club.tournament_script import (
    CLOCK,
    expected_points,
    open_tournament,
    play_table,
    round_tables,
    sign_up,
    wait_round,
)

NAMES = ["ann", "ben", "cat", "dan"]


@pytest.fixture
def app(db_url):
    application = create_app(
        db_url, settings=Settings(tournament_poll_seconds=0.05, bot_processes=0)
    )
    with TestClient(application):
        yield application


def test_a_four_player_swiss_of_three_rounds_completes_with_its_standings(app):
    players = sign_up(lambda: TestClient(app), NAMES)
    ann = players["ann"]
    tid = open_tournament(players, "ann", rated=True)
    r = ann.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 200 and r.json()["round"] == 1
    met: list[frozenset[str]] = []
    for round_no in (1, 2, 3):
        t = wait_round(ann, tid, round_no)
        for k, table in enumerate(round_tables(t, round_no)):
            assert ann.get(f"/api/games/{table['game_id']}/view").json()["rating"]["rated"]
            play_table(players, table["game_id"], table["players"], seed=10 * round_no + k)
            met.append(frozenset(table["players"]))
    t = wait_round(ann, tid, 4)
    assert t["state"] == "finished" and t["round"] == 3
    assert len(set(met)) == 6 == len(met)  # 3 rounds of 4 players: nobody met twice
    points = expected_points(t)
    assert {s["name"]: s["points"] for s in t["standings"]} == points
    order = [(s["points"], s["buchholz"], s["sonneborn_berger"]) for s in t["standings"]]
    assert order == sorted(order, reverse=True)
    assert sum(points.values()) == 6.0  # six games, one point each
    # the rated games moved the ratings: everyone has three rated games
    for name in NAMES:
        ratings = ann.get(f"/api/users/{name}/ratings").json()["ratings"]
        assert ratings[0]["games"] == 3


def test_who_may_start_and_close_and_what_is_refused(app):
    players = sign_up(lambda: TestClient(app), ["ann", "ben", "cat"])
    ann, ben = players["ann"], players["ben"]
    base = {"name": "x", "game": "toy-secret-sum", "clock": CLOCK}
    r = ann.post("/api/tournaments", json={**base, "kind": "round-robin", "players": 3})
    assert r.status_code == 422 and r.json()["error"]["field"] == "players"
    r = ann.post("/api/tournaments", json={**base, "clock": {"mode": "untimed"}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "clock"
    assert TestClient(app).post("/api/tournaments", json=base).status_code == 401
    tid = ann.post("/api/tournaments", json={**base, "kind": "round-robin"}).json()["id"]
    assert ann.post(f"/api/tournaments/{tid}/enter").status_code == 200
    r = ann.post(f"/api/tournaments/{tid}/start")
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_few_players"
    for c in (ben, players["cat"]):
        c.post(f"/api/tournaments/{tid}/enter")
    assert ben.post(f"/api/tournaments/{tid}/start").status_code == 403
    t = ann.post(f"/api/tournaments/{tid}/start").json()
    assert t["rounds"] == 3  # a round robin of three: three rounds, a bye in each
    assert sum(x["bye"] for x in round_tables(t, 1)) == 1
    assert ben.post(f"/api/tournaments/{tid}/close").status_code == 403
    admin = app.state.accounts.by_name("cat")
    app.state.accounts.set_flags(admin.id, is_admin=True)
    assert players["cat"].post(f"/api/tournaments/{tid}/close").json()["state"] == "closed"
    log = app.state.accounts.moderation_log()
    assert log[0]["action"] == "close_tournament" and log[0]["target"] == f"tournament:{tid}"


def test_players_who_never_come_are_played_by_the_clocks_stand_in(app):
    """Nobody moves at all: each seat's clock runs out, its stand-in bot plays the game to
    its end, and the tournament completes on its own."""
    players = sign_up(lambda: TestClient(app), ["ann", "ben"])
    clock = {"mode": "turnbased", "move_seconds": 0.2, "on_timeout": "bot:random"}
    tid = open_tournament(players, "ann", rounds=1, clock=clock)
    assert players["ann"].post(f"/api/tournaments/{tid}/start").status_code == 200
    t = wait_round(players["ann"], tid, 2, timeout=60)
    assert t["state"] == "finished"
    (table,) = round_tables(t, 1)
    assert sorted(table["places"]) in ([1, 2], [1, 1])
    assert sum(s["points"] for s in t["standings"]) == 1.0
