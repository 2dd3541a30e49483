"""WebSocket push after every change, and games surviving a server restart intact."""

from __future__ import annotations

import json
import random
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from starlette.websockets import WebSocketDisconnect

from nightsky.core.record import replay
from nightsky.server import create_app
from nightsky.server.views import redacted_log, seat_payload
from tests.server.conftest import auth, create, seat_tokens, settle, ws_connect


def test_websocket_pushes_each_seat_its_own_new_view(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    t0, t1 = seat_tokens(client, made).values()
    with (
        ws_connect(client, gid, t1) as ws1,
        ws_connect(client, gid) as spectator,
    ):
        first = ws1.receive_json()["data"]
        assert first["seat"] == 1 and spectator.receive_json()["data"]["seat"] is None
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=auth(t0),
            json={"action": "keep", "version": first["version"]},
        )
        assert r.status_code == 200
        pushed = ws1.receive_json()["data"]
        assert pushed["version"] == r.json()["version"] and pushed["seat"] == 1
        assert pushed["legal"] and pushed["log"][-1] == {
            "n": len(pushed["log"]),
            "index": len(room_history(client, gid)) - 1,
            "seat": 0,
            "text": "Player 1 kept (toy).",
            "notation": "keep",
        }
        assert spectator.receive_json()["data"]["version"] == pushed["version"]
        # What seat 1 is pushed is what any state it cannot tell apart would give it.
        room = client.app.state.manager.get(gid)
        other = room.state.resample(1, random.Random(0))
        names = [x["name"] for x in pushed["seats"]]
        colors = [x["color"] for x in pushed["seats"]]
        expect = json.loads(
            json.dumps(
                {
                    **seat_payload(other, 1, names, colors),
                    "log": redacted_log(other, 1, names=names),
                }
            )
        )
        assert {k: pushed[k] for k in expect} == expect


def room_history(client, gid):
    return client.app.state.manager.get(gid).state.history


def test_websocket_with_a_wrong_token_is_refused(client):
    gid = create(client, "toy-secret-sum", ["human", "random"])["id"]
    with (
        pytest.raises(WebSocketDisconnect) as err,
        ws_connect(client, gid, "forged") as ws,
    ):
        ws.receive_json()
    assert err.value.code == 4401


def test_every_game_resumes_exactly_after_a_restart(db_url):
    games = [
        ("toy-secret-sum", ["human", "random"]),
        ("shooting-star", ["human", "greedy"]),
        ("star-fire", ["human", "random"]),
        ("starlight", ["human", "random"]),
    ]
    before = {}
    with TestClient(create_app(db_url)) as c:
        rng = random.Random(1)
        for game, seats in games:
            made = create(c, game, seats, seed=rng.randrange(1000))
            gid, tok = made["id"], made["tokens"][0]["token"]
            for _ in range(3):
                settle(c, gid)
                v = c.get(f"/api/games/{gid}/view", headers=auth(tok)).json()
                if not v["legal"]:
                    break
                c.post(
                    f"/api/games/{gid}/actions",
                    headers=auth(tok),
                    json={"action": rng.choice(v["legal"])["action"], "version": v["version"]},
                )
            settle(c, gid)
            before[gid] = (tok, c.get(f"/api/games/{gid}/view", headers=auth(tok)).json())
    # A new server process on the same database: the same games, the same views, still playable.
    with TestClient(create_app(db_url)) as c:
        for gid, (tok, old) in before.items():
            new = c.get(f"/api/games/{gid}/view", headers=auth(tok)).json()
            assert new == old
            assert c.get(f"/api/games/{gid}/view").json()["version"] == old["version"]
            if new["legal"]:
                r = c.post(
                    f"/api/games/{gid}/actions",
                    headers=auth(tok),
                    json={"action": new["legal"][0]["action"], "version": new["version"]},
                )
                assert r.status_code == 200, r.text
        # The stored record replays through the rules.
        for gid in before:
            room = c.app.state.manager.get(gid)
            rec = {
                "format": "nightsky-record/1",
                "game": room.game_id,
                "params": room.params,
                "history": [[s, str(a)] for s, a in room.state.history],
            }
            assert replay(rec).history == room.state.history


def test_push_never_sends_an_older_view_than_one_already_sent():
    from nightsky.server.app import newest_view

    v = [{"version": n, "n": n} for n in range(4)]
    assert newest_view([v[3], v[2]], sent=-1) is v[3]  # a late first view loses to a newer push
    assert newest_view([v[1]], sent=2) is None
    joined = {"version": 2, "n": "joined"}
    assert newest_view([v[2], joined], sent=2) is joined  # same version, newer news: sent
    assert newest_view([None], sent=0) is None
    assert newest_view([v[1], None], sent=0) is v[1]


def test_finished_unwatched_games_leave_memory_and_reload_on_demand(db_url: str) -> None:
    from fastapi.testclient import TestClient

    from nightsky.server import create_app

    from .conftest import create, settle

    with TestClient(create_app(db_url, keep_finished=2)) as client:
        mgr = client.app.state.manager  # type: ignore[attr-defined]
        ids = []
        for _ in range(5):
            gid = create(client, "shooting-star", ["random", "random"])["id"]
            settle(client, gid)
            ids.append(gid)
        finished = [g for g in ids if client.get(f"/api/games/{g}/view").json()["terminal"]]
        assert len(finished) == 5
        mgr.trim()
        in_memory = [g for g in ids if g in mgr.rooms]
        assert len(in_memory) <= 2
        # An evicted game is still served in full, rebuilt from the database.
        gone = next(g for g in ids if g not in mgr.rooms)
        body = client.get(f"/api/games/{gone}/view").json()
        assert body["terminal"] and body["winners"]
        assert client.get(f"/api/games/{gone}/record").json()["history"]


def test_undo_survives_a_restart(db_url):
    with TestClient(create_app(db_url)) as client:
        made = create(client, "toy-secret-sum", ["human", "human"])
        gid = made["id"]
        t0 = made["tokens"][0]["token"]
        v = client.get(f"/api/games/{gid}/view", headers=auth(t0)).json()
        after = client.post(
            f"/api/games/{gid}/actions", headers=auth(t0),
            json={"action": "keep", "version": v["version"]},
        ).json()
        assert after["can_undo"]
    with TestClient(create_app(db_url)) as client:
        again = client.get(f"/api/games/{gid}/view", headers=auth(t0)).json()
        assert again["can_undo"] and again["version"] == after["version"]
        back = client.post(
            f"/api/games/{gid}/undo", headers=auth(t0), json={"version": again["version"]}
        )
        assert back.status_code == 200, back.text
        assert back.json()["view"] == v["view"] and not back.json()["can_undo"]


def test_a_database_from_before_the_undo_column_is_brought_up_to_date(tmp_path):
    import sqlalchemy as sa

    from nightsky.server.store import Store

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = sa.create_engine(url)
    with engine.begin() as conn:  # the games table as nightsky 0.1 made it
        conn.execute(sa.text(
            "CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64), params JSON, "
            "seed BIGINT, seats JSON, version INTEGER, status VARCHAR(16), "
            "created_at DATETIME, updated_at DATETIME)"
        ))
    engine.dispose()
    store = Store(url)
    cols = {c["name"] for c in sa.inspect(store.engine).get_columns("games")}
    store.close()
    assert "undo" in cols
    with TestClient(create_app(url)) as client:  # and the server works on it
        made = create(client, "toy-secret-sum", ["human", "random"])
        assert client.get(f"/api/games/{made['id']}/view").status_code == 200
