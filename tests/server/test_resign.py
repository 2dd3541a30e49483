"""Resign and leave (issue 50 item 7): each game's ruling on a player who resigns (a rule id of
its catalogue: the rulebooks are silent), applied generically by the server, and leaving a
finished table. The resigning sections these tests cover: SS-15, TSAR-12, SF-20, MA-11, SL-17."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from nightsky.core.registry import game_class
from nightsky.core.rulebook import rulebook
from tests.server.conftest import auth, create, seat_tokens, settle

RULINGS = {
    "shooting-star": "SS-15.1",
    "stars-are-right": "TSAR-12.1",
    "star-fire": "SF-20.1",
    "mihi-anguli": "MA-11.1",
    "starlight": "SL-17.1",
}
"""The rule id of each game's ruling on resigning (its ``rules.md``)."""


def view(client: TestClient, gid: str, token: str | None = None) -> dict:
    r = client.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("game", sorted(RULINGS))
def test_each_game_declares_its_ruling_on_resigning(game: str) -> None:
    rule = RULINGS[game]
    assert game_class(game).info.resign_rule == rule
    book = rulebook(game)
    assert book is not None and rule in book.rules
    text = book.rules[rule]
    assert "loses" in text and "stand-in bot" in text and "ends at once" in text


@pytest.mark.parametrize("game", sorted(RULINGS))
def test_a_resign_at_two_players_ends_the_game_and_the_other_wins(client, game: str) -> None:
    made = create(client, game, ["human", "human"])
    gid = made["id"]
    tokens = seat_tokens(client, made)
    r = client.post(f"/api/games/{gid}/resign", headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["terminal"] and v["status"] == "over" and v["ended"] == "resigned"
    assert v["resigned"] == [1] and v["winners"] == [0] and v["resign_rule"] == RULINGS[game]
    assert v["legal"] == [] and v["current_players"] == [] and v["scores"] is None
    words = [n["text"] for n in v["notices"]]
    name1, name0 = v["seats"][1]["name"], v["seats"][0]["name"]
    assert f"{name1} resigned and loses ({RULINGS[game]}): the game is over, {name0} wins." in words
    # The winner's view says the same; nobody moves any more; the record and rematch open.
    other = view(client, gid, tokens[0])
    assert other["terminal"] and other["winners"] == [0] and other["legal"] == []
    r = client.post(f"/api/games/{gid}/actions", json={"action": "x", "version": other["version"]},
                    headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    again = client.post(f"/api/games/{gid}/resign", headers=auth(tokens[0]))
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"
    assert client.get(f"/api/games/{gid}/record").status_code == 200
    assert client.post(f"/api/games/{gid}/rematch", headers=auth(tokens[0])).status_code == 200


def test_a_resign_at_three_players_hands_the_seat_to_a_bot_and_the_seat_loses(client) -> None:
    made = create(client, "shooting-star", ["human", "random", "random"])
    gid, token = made["id"], made["tokens"][0]["token"]
    settle(client, gid)
    r = client.post(f"/api/games/{gid}/resign", headers=auth(token))
    assert r.status_code == 200, r.text
    v = r.json()
    assert v["resigned"] == [0] and v["ended"] is None and not v["terminal"]
    assert v["clocks"]["seats"][0]["standin"] == "resigned" and v["clocks"]["seats"][0]["resigned"]
    assert any("a greedy bot plays the seat to the end" in n["text"] for n in v["notices"])
    # The player cannot take the seat back: no move, no "back", no second resign.
    for path, body in (("actions", {"action": "x", "version": v["version"]}),
                       ("away", {"away": False})):
        r = client.post(f"/api/games/{gid}/{path}", json=body, headers=auth(token))
        assert r.status_code == 409 and r.json()["error"]["code"] == "resigned", path
        assert r.json()["error"]["rule"] == "SS-15.1"
    assert client.post(f"/api/games/{gid}/resign", headers=auth(token)).json()["error"]["code"] \
        == "resigned"
    # The game goes on to the rules' end, the stand-in bot playing seat 0 (its moves marked).
    settle(client, gid)
    end = view(client, gid, token)
    assert end["terminal"] and end["ended"] is None and end["scores"] is not None
    assert any(line.get("by") == "bot" and line["seat"] == 0 for line in end["log"])
    assert 0 not in end["winners"] and end["winners"]
    room = client.app.state.manager.get(gid)  # type: ignore[attr-defined]
    rules_won = [w for w in room.state.winners() if w != 0]
    best = max(end["scores"][1:])
    assert end["winners"] == (rules_won or [i for i in (1, 2) if end["scores"][i] == best])


def test_resigning_needs_a_seat_token(client) -> None:
    made = create(client, "shooting-star", ["human", "human"])
    r = client.post(f"/api/games/{made['id']}/resign")
    assert r.status_code == 401 and r.json()["error"]["code"] == "token_required"
    assert view(client, made["id"])["resigned"] == []


def test_anyone_leaves_a_finished_table_the_creator_too(client) -> None:
    made = create(client, "shooting-star", ["human", "human"])
    gid = made["id"]
    tokens = seat_tokens(client, made)
    r = client.post(f"/api/games/{gid}/leave", headers=auth(tokens[0]))
    assert r.json()["error"]["code"] == "creator_stays"  # while the game goes on
    client.post(f"/api/games/{gid}/resign", headers=auth(tokens[1]))
    for seat in (0, 1):
        r = client.post(f"/api/games/{gid}/leave", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        assert client.get(f"/api/games/{gid}/view", headers=auth(tokens[seat])).status_code == 401
    notices = [n["text"] for n in view(client, gid)["notices"]]
    assert sum(t.endswith("left the table.") for t in notices) == 2


def test_a_resign_survives_a_restart(db_url) -> None:
    from nightsky.server import create_app

    with TestClient(create_app(db_url)) as client:
        made = create(client, "star-fire", ["human", "human", "human"])
        gid, token = made["id"], made["tokens"][0]["token"]
        assert client.post(f"/api/games/{gid}/resign", headers=auth(token)).status_code == 200
    with TestClient(create_app(db_url)) as client:
        v = view(client, gid, token)
        assert v["resigned"] == [0] and not v["terminal"]
        assert v["clocks"]["seats"][0]["standin"] == "resigned"


def test_a_resign_reaches_another_process(pg_url: str) -> None:
    """With two processes on PostgreSQL, the other one learns of the resignation on its next
    refresh (the stand-in and the lost seat travel with the stored clocks)."""
    from nightsky.server.rooms import NewGame
    from tests.server.test_cluster import manager, stop

    a, b = manager(pg_url, start=False), manager(pg_url, start=False)
    try:
        made = a.create(NewGame("star-fire", ["human", "human", "human"], players=3))
        gid = made.room.id
        room_b = b.get(gid)
        with a.hold(a.get(gid)) as room:
            room.resign(0)
        assert b.refresh(room_b)
        assert room_b.clock.resigned() == [0] and room_b.payload(None)["resigned"] == [0]
        assert room_b.clock.stand_in(0)
    finally:
        stop(a, b)
