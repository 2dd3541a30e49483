"""Friends (issue 53 item 4): befriending by name, inviting a friend to a seat by name (no
link: accepting gives the seat to the account), friends' games, and the cap on invitations."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.settings import Settings
from tests.server.club.helpers import CLOCK, member, view


@pytest.fixture
def app(db_url):
    application = create_app(db_url, settings=Settings(friend_invites_per_hour=4,
                                                        bot_processes=0))
    with TestClient(application):
        yield application


def _befriend(a, b, b_name, a_name):
    assert a.post("/api/friends", json={"name": b_name}).json() == {"state": "requested"}
    assert b.post(f"/api/friends/{a_name}/accept").status_code == 200


def test_a_request_then_its_acceptance_makes_friends_both_ways(app):
    a, b = member(app, "ada"), member(app, "bob")
    assert a.post("/api/friends", json={"name": "Bob"}).json() == {"state": "requested"}
    assert a.get("/api/friends").json()["outgoing"][0]["name"] == "bob"
    assert b.get("/api/friends").json()["incoming"][0]["name"] == "ada"
    assert b.post("/api/friends/ada/accept").status_code == 200
    assert [f["name"] for f in a.get("/api/friends").json()["friends"]] == ["bob"]
    assert [f["name"] for f in b.get("/api/friends").json()["friends"]] == ["ada"]
    assert b.post("/api/friends/ada/remove").status_code == 200
    assert a.get("/api/friends").json()["friends"] == []


def test_bad_friend_requests_are_refused_by_name(app):
    a = member(app, "ada")
    r = a.post("/api/friends", json={"name": "nobody"})
    assert r.status_code == 404 and r.json()["error"]["field"] == "name"
    r = a.post("/api/friends", json={"name": "ADA"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "is_you"
    assert a.post("/api/friends/nobody/accept").status_code == 404
    # anonymous, and signed in without the CSRF token
    assert TestClient(app).get("/api/friends").status_code == 401
    a.headers.pop("X-CSRF-Token")
    assert a.post("/api/friends", json={"name": "ada"}).status_code == 403


def test_a_friend_invited_by_name_takes_the_seat_and_plays_it(app):
    a, b, c = member(app, "ada"), member(app, "bob"), member(app, "cy")
    _befriend(a, b, "bob", "ada")
    made = a.post("/api/games", json={"game": "toy-secret-sum", "players": 2,
                                      "seats": ["human", "human"], "clock": CLOCK}).json()
    gid = made["id"]
    # not a friend: refused; not the creator: refused
    r = a.post(f"/api/games/{gid}/invite-friend", json={"seat": 1, "name": "cy"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_friends"
    r = b.post(f"/api/games/{gid}/invite-friend", json={"seat": 1, "name": "ada"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = a.post(f"/api/games/{gid}/invite-friend", json={"seat": 0, "name": "bob"})
    assert r.status_code == 409 and r.json()["error"]["field"] == "seat"
    r = a.post(f"/api/games/{gid}/invite-friend", json={"seat": 1, "name": "bob"})
    assert r.status_code == 200, r.text
    got = b.get("/api/friends").json()
    assert [(i["game_id"], i["seat"], i["from"]) for i in got["invitations"]] == [(gid, 1, "ada")]
    assert c.post(f"/api/invitations/{got['invitations'][0]['id']}/accept").status_code == 404
    took = b.post(f"/api/invitations/{got['invitations'][0]['id']}/accept").json()
    assert took["seat"] == 1
    v = view(b, gid, took["token"])
    assert v["seat"] == 1 and v["seats"][1]["joined"]
    # the seat is the account's: its games list it on any device
    games = b.get("/api/account/games").json()["games"]
    assert gid in [g["id"] for g in games]
    assert b.get("/api/friends").json()["invitations"] == []
    # ada's friends' games list the table bob plays
    assert gid in [g["id"] for g in a.get("/api/friends").json()["games"]]


def test_friend_requests_and_invitations_are_capped_per_hour(app):
    a = member(app, "ada")
    others = [member(app, f"p{i}") for i in range(5)]
    for i in range(4):
        assert a.post("/api/friends", json={"name": f"p{i}"}).status_code == 200
    r = a.post("/api/friends", json={"name": "p4"})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_invites"
    assert "retry-after" in {k.lower() for k in r.headers}
    assert others[4].get("/api/friends").json()["incoming"] == []  # nothing was sent
