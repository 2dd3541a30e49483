"""Moves over the WebSocket: ``{"type": "act", ...}`` after the hello, played exactly as
``POST .../actions`` and answered by an ``ack`` or an ``error`` with the same codes."""

from __future__ import annotations

from typing import Any

import pytest

from nightsky.server.settings import Settings
from tests.server.conftest import auth, create, seat_tokens, ws_connect


def answer(ws: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read up to the next ack or error: it, and the views pushed before it."""
    views = []
    while True:
        msg = ws.receive_json()
        if msg["type"] == "view":
            views.append(msg["data"])
        elif msg["type"] in ("ack", "error"):
            return msg, views


def two_humans(client: Any) -> tuple[str, str, str]:
    made = create(client, "toy-secret-sum", ["human", "human"])
    t0, t1 = seat_tokens(client, made).values()
    return made["id"], t0, t1


def history(client: Any, gid: str) -> list[Any]:
    return list(client.app.state.manager.get(gid).state.history)


def test_a_move_over_the_socket_is_acknowledged_and_pushed_to_every_seat(client):
    gid, t0, t1 = two_humans(client)
    with ws_connect(client, gid, t0) as ws0, ws_connect(client, gid, t1) as ws1:
        first = ws0.receive_json()["data"]
        ws1.receive_json()
        ws0.send_json({"type": "act", "id": 7, "action": "keep", "version": first["version"]})
        ack, views = answer(ws0)
        assert ack == {"type": "ack", "id": 7, "version": first["version"] + 1}
        assert views[-1]["version"] == ack["version"] and views[-1]["log"][-1]["seat"] == 0
        # The other seat gets its own view of it, and nothing of seat 0's answer.
        other = ws1.receive_json()
        assert other["type"] == "view" and other["data"]["seat"] == 1
        assert other["data"]["version"] == ack["version"]
    # The same as the HTTP view says.
    r = client.get(f"/api/games/{gid}/view", headers=auth(t0))
    assert r.json()["version"] == ack["version"]


def test_a_socket_move_without_a_version_plays_on_the_current_one(client):
    gid, t0, _ = two_humans(client)
    with ws_connect(client, gid, t0) as ws:
        v = ws.receive_json()["data"]["version"]
        ws.send_json({"type": "act", "id": 1, "action": "keep"})
        ack, _ = answer(ws)
        assert ack["type"] == "ack" and ack["version"] == v + 1


def test_a_repeated_move_with_its_stale_version_is_refused_and_changes_nothing(client):
    gid, t0, _ = two_humans(client)
    with ws_connect(client, gid, t0) as ws:
        v = ws.receive_json()["data"]["version"]
        msg = {"type": "act", "id": 1, "action": "keep", "version": v}
        ws.send_json(msg)
        assert answer(ws)[0]["type"] == "ack"
        before = history(client, gid)
        ws.send_json({**msg, "id": 2})  # the same message again (a client retrying it)
        err, _ = answer(ws)
        assert err["type"] == "error" and err["id"] == 2
        assert err["status"] == 409 and err["code"] == "stale_version"
        assert history(client, gid) == before


def test_socket_errors_carry_the_http_status_and_code_and_the_socket_stays_open(client):
    gid, t0, _ = two_humans(client)
    with ws_connect(client, gid, t0) as ws:
        v = ws.receive_json()["data"]["version"]
        before = history(client, gid)
        cases: list[tuple[Any, int, str, str | None]] = [
            ("not json", 400, "malformed_json", None),
            ([1, 2], 422, "validation_error", None),
            ({"type": "chat", "id": 1, "action": "keep"}, 422, "validation_error", "type"),
            ({"type": "act", "action": "keep", "version": v}, 422, "validation_error", "id"),
            ({"type": "act", "id": "x", "action": "keep"}, 422, "validation_error", "id"),
            ({"type": "act", "id": 1, "version": v}, 422, "validation_error", "action"),
            ({"type": "act", "id": 1, "action": 5}, 422, "validation_error", "action"),
            ({"type": "act", "id": 1, "action": "keep", "version": "x"}, 422,
             "validation_error", "version"),
            ({"type": "act", "id": 1, "action": "keep", "extra": 1}, 422,
             "validation_error", "extra"),
            ({"type": "act", "id": 1, "action": "x" * 300}, 422, "validation_error", "action"),
            ({"type": "act", "id": 1, "action": "fly", "version": v}, 422, None, None),
            ({"type": "act", "id": 1, "action": "keep", "version": v + 5}, 409,
             "stale_version", None),
        ]
        for msg, status, code, field in cases:
            if isinstance(msg, str):
                ws.send_text(msg)
            else:
                ws.send_json(msg)
            err, _ = answer(ws)
            assert err["type"] == "error" and err["status"] == status, (msg, err)
            if code is not None:
                assert err["code"] == code, (msg, err)
            if field is not None:
                assert err["field"] == field and field in err["message"], (msg, err)
            if isinstance(msg, dict) and type(msg.get("id")) is int:
                assert err["id"] == msg["id"]
        ws.send_text("x" * 5000)
        assert answer(ws)[0]["code"] == "message_too_large"
        assert history(client, gid) == before
        # Still open, and still playing.
        ws.send_json({"type": "act", "id": 9, "action": "keep", "version": v})
        assert answer(ws)[0] == {"type": "ack", "id": 9, "version": v + 1}


def test_a_refused_move_names_its_rule_as_over_http(client):
    gid, t0, _ = two_humans(client)
    with ws_connect(client, gid, t0) as ws:
        v = ws.receive_json()["data"]["version"]
        ws.send_json({"type": "act", "id": 3, "action": "fly", "version": v})
        err, _ = answer(ws)
    r = client.post(
        f"/api/games/{gid}/actions", headers=auth(t0), json={"action": "fly", "version": v}
    )
    assert r.status_code == err["status"] == 422
    assert {k: err[k] for k in r.json()["error"]} == r.json()["error"]


def test_a_seat_acting_out_of_turn_gets_the_post_answer(client):
    gid, t0, t1 = two_humans(client)
    with ws_connect(client, gid, t1) as ws:
        v = ws.receive_json()["data"]["version"]
        ws.send_json({"type": "act", "id": 4, "action": "keep", "version": v})
        err, _ = answer(ws)
    r = client.post(
        f"/api/games/{gid}/actions", headers=auth(t1), json={"action": "keep", "version": v}
    )
    assert err["type"] == "error" and err["status"] == r.status_code
    assert err["code"] == r.json()["error"]["code"]


def test_a_spectator_socket_cannot_act(client):
    gid, _, _ = two_humans(client)
    with ws_connect(client, gid) as ws:
        v = ws.receive_json()["data"]["version"]
        before = history(client, gid)
        ws.send_json({"type": "act", "id": 1, "action": "keep", "version": v})
        err, _ = answer(ws)
        assert err["status"] == 403 and err["code"] == "spectators_read_only"
        assert history(client, gid) == before


def test_a_seat_that_left_cannot_act_through_its_open_socket(client):
    gid, t0, t1 = two_humans(client)
    with ws_connect(client, gid, t1) as ws:
        v = ws.receive_json()["data"]["version"]
        assert client.post(f"/api/games/{gid}/leave", headers=auth(t1)).status_code == 200
        ws.send_json({"type": "act", "id": 1, "action": "keep", "version": v})
        err, _ = answer(ws)
        assert err["status"] == 401 and err["code"] == "bad_token"


def test_socket_moves_count_against_the_request_rate(db_url):
    from fastapi.testclient import TestClient

    from nightsky.server import create_app

    settings = Settings(rate_requests="12/minute")
    with TestClient(create_app(db_url, settings=settings)) as client:
        gid, t0, _ = two_humans(client)  # create, claim, plus the socket: 3 requests
        with ws_connect(client, gid, t0) as ws:
            ws.receive_json()
            codes = []
            for i in range(12):
                ws.send_json({"type": "act", "id": i, "action": "nope"})
                codes.append(answer(ws)[0].get("code"))
        assert "rate_limited" in codes and codes[0] != "rate_limited"


@pytest.mark.parametrize("seat", [0, 1])
def test_a_socket_never_hears_another_seats_answer(client, seat):
    gid, t0, t1 = two_humans(client)
    tokens = [t0, t1]
    with ws_connect(client, gid, tokens[seat]) as mine, ws_connect(
        client, gid, tokens[1 - seat]
    ) as other:
        v = mine.receive_json()["data"]["version"]
        other.receive_json()
        mine.send_json({"type": "act", "id": 5, "action": "keep", "version": v})
        answer(mine)
        # The other socket's next message is an answer to its own act, after any views.
        other.send_json({"type": "act", "id": 6, "action": "nope"})
        got, views = answer(other)
        assert got["id"] == 6 and all(x["seat"] == 1 - seat for x in views)
