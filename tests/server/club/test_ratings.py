"""Rated tables and ratings through the API (issue 53 item 3): who may open and sit at a rated
table, the rating settled once in the game's last commit, the change on the end screen, the
leaderboard and the bots' reference ratings."""

from __future__ import annotations

import warnings

import pytest
from sqlalchemy.orm import Session

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.club.ratings import settle
from nightsky.server.club.tables import RatingRow
from nightsky.server.settings import Settings
from tests.server.club.helpers import CLOCK, member, play_out, rated_pair, view
from tests.server.conftest import auth


@pytest.fixture
def app(db_url):
    application = create_app(db_url, settings=Settings(leaderboard_min_games=1,
                                                        bot_processes=0))
    with TestClient(application):
        yield application


def _new(c, **extra):
    body = {"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"],
            "rated": True, "clock": CLOCK, **extra}
    return c.post("/api/games", json=body)


def test_a_rated_table_needs_an_account_people_only_and_a_clock(app):
    anon = TestClient(app)
    r = _new(anon)
    assert r.status_code == 401 and r.json()["error"]["field"] == "rated"
    a = member(app, "ada")
    r = _new(a, seats=["human", "greedy"])
    assert r.status_code == 422 and r.json()["error"]["field"] == "seats"
    r = _new(a, clock=None)
    assert r.status_code == 422 and r.json()["error"]["field"] == "clock"
    r = _new(a, clock={"mode": "untimed"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "clock"
    assert app.state.manager.store.count_playing() == 0  # nothing was made


def test_a_rated_seat_goes_only_to_another_signed_in_account(app):
    a = member(app, "ada")
    made = _new(a).json()
    code = made["invites"][0]["code"]
    anon = TestClient(app)
    r = anon.post(f"/api/games/{made['id']}/claim", json={"invite": code})
    assert r.status_code == 401 and r.json()["error"]["field"] == "rated"
    r = a.post(f"/api/games/{made['id']}/claim", json={"invite": code})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"
    b = member(app, "bob")
    assert b.post(f"/api/games/{made['id']}/claim", json={"invite": code}).status_code == 200


def test_the_end_changes_both_ratings_once_and_the_view_shows_it(app):
    a, b = member(app, "ada"), member(app, "bob")
    gid, ta, tb = rated_pair(app, a, b)
    assert view(a, gid, ta)["rating"] == {"rated": True, "changes": None, "unrated": None}
    end = play_out(a, gid, [ta, tb])
    winners = end["winners"]
    changes = view(b, gid, tb)["rating"]["changes"]
    assert [c["seat"] for c in changes] == [0, 1]
    for c in changes:
        assert c["before"] == 1500
        if winners == [c["seat"]]:
            assert c["after"] > 1500 and c["place"] == 1
        elif len(winners) == 1:
            assert c["after"] < 1500 and c["place"] == 2
    # a change after the end (a player leaves the finished table) rates nothing again
    assert a.post(f"/api/games/{gid}/leave", headers=auth(tb)).status_code == 200
    with Session(app.state.manager.store.engine) as s:
        rows = s.query(RatingRow).all()
        assert sorted(r.games for r in rows) == [1, 1]
        settle(s, gid, [1, 2])  # the same end written again: still once
        s.commit()
        assert sorted(r.games for r in s.query(RatingRow).all()) == [1, 1]
    board = a.get("/api/leaderboards/toy-secret-sum").json()
    assert sorted(p["name"] for p in board["players"]) == ["ada", "bob"]
    assert [p["games"] for p in board["players"]] == [1, 1]
    assert board["players"][0]["rating"] >= board["players"][1]["rating"]
    prof = a.get("/api/users/bob/ratings").json()
    assert prof["recent"][0]["game_id"] == gid


def test_resigning_counts_as_a_loss_and_leaving_is_refused(app):
    a, b = member(app, "ada"), member(app, "bob")
    gid, ta, tb = rated_pair(app, a, b, game="shooting-star")  # it has a resign ruling
    r = b.post(f"/api/games/{gid}/leave", headers=auth(tb))
    assert r.status_code == 409 and r.json()["error"]["code"] == "rated_stays"
    assert b.post(f"/api/games/{gid}/resign", headers=auth(tb)).status_code == 200
    changes = {c["seat"]: c for c in view(a, gid, ta)["rating"]["changes"]}
    assert changes[1]["after"] < 1500 < changes[0]["after"]


def test_leaderboard_needs_min_games_and_names_the_bots_by_level(db_url):
    application = create_app(db_url, settings=Settings(leaderboard_min_games=2,
                                                        bot_processes=0))
    with TestClient(application):
        a, b = member(application, "ada"), member(application, "bob")
        gid, ta, tb = rated_pair(application, a, b, game="shooting-star")
        b.post(f"/api/games/{gid}/resign", headers=auth(tb))
        board = a.get("/api/leaderboards/shooting-star").json()
        assert board["players"] == [] and board["min_games"] == 2  # one game is not enough
        levels = [x["level"] for x in board["bots"]]
        assert levels == ["expert", "hard", "medium", "easy", "random"]
        ratings = a.get("/api/users/ada/ratings").json()["ratings"]
        assert ratings[0]["game"] == "shooting-star" and ratings[0]["like"] in levels
        assert a.get("/api/leaderboards/no-such").status_code == 404


def test_a_rated_table_without_distinct_accounts_at_its_end_rates_nobody(app):
    """Should a seat lose its account (or one account hold two seats) by the end, the game is
    recorded as not rated, saying why, and no rating moves."""
    a, b = member(app, "ada"), member(app, "bob")
    gid, ta, tb = rated_pair(app, a, b, game="shooting-star")
    ada = app.state.accounts.by_name("ada")
    app.state.accounts.bind_seat(gid, 1, ada.id)  # one account on both seats
    assert b.post(f"/api/games/{gid}/resign", headers=auth(tb)).status_code == 200
    rating = view(a, gid, ta)["rating"]
    assert rating["changes"] == [] and "one account played two seats" in rating["unrated"]
    with Session(app.state.manager.store.engine) as s:
        assert s.query(RatingRow).count() == 0
