"""Issue 52's low items on sockets and chat: a table's spectators have their own socket quota
(per table and per client) and never lock a seated player out; chat lines are bounded per
client (lines and characters) and kept only as long as the retention settings say."""

from __future__ import annotations

import warnings
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from nightsky.server import create_app
from nightsky.server.chat import ChatRow
from nightsky.server.settings import Settings
from nightsky.server.store import now
from tests.server.conftest import auth, create, seat_tokens, ws_connect

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def at(address: str) -> dict[str, Any]:
    """Request headers of a client at ``address`` (the app trusts the proxy's header)."""
    return {"headers": {"X-Forwarded-For": address}}


def refused(client: TestClient, gid: str, token: str | None = None, **kw: Any) -> int:
    """The close code of a socket the server turns away after its hello."""
    with pytest.raises(WebSocketDisconnect) as err, ws_connect(client, gid, token, **kw) as ws:
        ws.receive_json()
    return err.value.code


# ---------------------------------------------------------------------- sockets
def test_spectators_fill_their_quota_and_the_seated_player_still_connects_and_plays(db_url):
    settings = Settings(
        trust_proxy=True, max_sockets_per_table=3, max_spectators_per_client=2,
        max_sockets_per_seat=2,
    )
    with TestClient(create_app(db_url, settings=settings)) as client:
        made = create(client, "toy-secret-sum", ["human", "human"])
        gid = made["id"]
        creator, friend = seat_tokens(client, made).values()
        with (
            ws_connect(client, gid, **at("203.0.113.1")) as s1,
            ws_connect(client, gid, **at("203.0.113.1")) as s2,
        ):
            s1.receive_json(), s2.receive_json()
            # The same address may keep no third spectator socket at this table...
            assert refused(client, gid, **at("203.0.113.1")) == 4429
            with ws_connect(client, gid, **at("203.0.113.2")) as s3:
                s3.receive_json()  # ...another may, until the table's quota (3) is full.
                assert refused(client, gid, **at("203.0.113.3")) == 4429
                # The quota is full: both seated players connect all the same, and play.
                with (
                    ws_connect(client, gid, creator, **at("198.51.100.1")) as mine,
                    ws_connect(client, gid, friend, **at("198.51.100.2")) as theirs,
                ):
                    view = mine.receive_json()["data"]
                    assert view["seat"] == 0 and theirs.receive_json()["data"]["seat"] == 1
                    mine.send_json(
                        {"type": "act", "id": 1, "action": "keep", "version": view["version"]}
                    )
                    msgs = [mine.receive_json(), mine.receive_json()]
                    assert msgs[0]["type"] == "view" and msgs[0]["data"]["version"] > 0
                    assert msgs[1] == {"type": "ack", "id": 1, "version": view["version"] + 1}
                    assert s3.receive_json()["data"]["version"] == view["version"] + 1
                    # A seat's own slots are bounded too (two tabs here), by the seat alone.
                    with ws_connect(client, gid, creator, **at("198.51.100.1")) as tab:
                        tab.receive_json()
                        assert refused(client, gid, creator, **at("198.51.100.1")) == 4429
        # Every socket closed gives its place back.
        with ws_connect(client, gid, **at("203.0.113.3")) as later:
            assert later.receive_json()["type"] == "view"
        sockets = client.app.state.sockets  # type: ignore[attr-defined]
    assert not sockets.clients and not sockets.seats and not sockets.watchers


def test_a_bad_token_takes_no_slot_and_the_client_cap_counts_every_socket(db_url):
    settings = Settings(trust_proxy=True, max_sockets_per_client=2)
    with TestClient(create_app(db_url, settings=settings)) as client:
        gid = create(client, "toy-secret-sum", ["human", "random"])["id"]
        assert refused(client, gid, "not-a-token", **at("203.0.113.9")) == 4401
        with ws_connect(client, gid, **at("203.0.113.9")) as a, ws_connect(
            client, gid, **at("203.0.113.9")
        ) as b:
            a.receive_json(), b.receive_json()
            assert refused(client, gid, **at("203.0.113.9")) == 4429
        sockets = client.app.state.sockets  # type: ignore[attr-defined]
        assert not sockets.clients and not sockets.watchers


# ---------------------------------------------------------------------- chat
def chat_app(db_url: str, **limits: Any) -> TestClient:
    settings = Settings(trust_proxy=True, rate_chat="100/minute", **limits)
    return TestClient(create_app(db_url, settings=settings))


def stored(client: TestClient, gid: str | None = None) -> int:
    """Chat rows in the database (of ``gid``, or of every table)."""
    engine = client.app.state.manager.store.engine  # type: ignore[attr-defined]
    with Session(engine) as s:
        q = select(func.count()).select_from(ChatRow)
        return int(s.scalar(q if gid is None else q.where(ChatRow.game_id == gid)) or 0)


def say(client: TestClient, gid: str, token: str, text: str, address: str) -> Any:
    return client.post(
        f"/api/games/{gid}/chat", json={"text": text},
        headers={**auth(token), "X-Forwarded-For": address},
    )


def test_one_address_posts_a_bounded_number_of_lines_over_all_its_tables(db_url):
    with chat_app(db_url, rate_chat_client="5/minute") as client:
        tables = [create(client, "toy-secret-sum", ["human", "random"]) for _ in range(3)]
        tokens = [(t["id"], t["tokens"][0]["token"]) for t in tables]
        codes = [say(client, g, tok, "hello", "203.0.113.5").status_code
                 for g, tok in tokens for _ in range(2)]
        # Two lines at each of three tables: each seat is well under its own rate, the
        # address is over its 5 lines a minute at the sixth.
        assert codes == [200] * 5 + [429]
        r = say(client, *tokens[2], "hello", "203.0.113.5")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert stored(client) == 5  # nothing refused was stored
        # Another address is not held back by it.
        assert say(client, *tokens[2], "hello", "198.51.100.5").status_code == 200


def test_one_address_stores_a_bounded_number_of_characters(db_url):
    with chat_app(db_url, rate_chat_chars="700/minute") as client:
        made = create(client, "toy-secret-sum", ["human", "random"])
        gid, tok = made["id"], made["tokens"][0]["token"]
        assert say(client, gid, tok, "x" * 300, "203.0.113.6").status_code == 200
        assert say(client, gid, tok, "y" * 300, "203.0.113.6").status_code == 200
        r = say(client, gid, tok, "z" * 300, "203.0.113.6")  # 900 > 700 characters
        assert r.status_code == 429 and "chat text" in r.json()["error"]["message"]
        assert say(client, gid, tok, "short", "203.0.113.6").status_code == 200  # 605 <= 700
        texts = [line["text"] for line in client.get(f"/api/games/{gid}/chat").json()["lines"]]
        assert texts == ["x" * 300, "y" * 300, "short"]


def test_a_table_keeps_its_newest_lines_and_old_lines_are_pruned(db_url):
    with chat_app(db_url, chat_keep_lines=3, chat_keep_days=1.0) as client:
        made = create(client, "toy-secret-sum", ["human", "random"])
        gid, tok = made["id"], made["tokens"][0]["token"]
        other = create(client, "toy-secret-sum", ["human", "random"])
        for i in range(5):
            assert say(client, gid, tok, f"line {i}", "203.0.113.7").status_code == 200
        assert stored(client, gid) == 3  # the retention per table, in the database too
        lines = client.get(f"/api/games/{gid}/chat").json()["lines"]
        assert [x["text"] for x in lines] == ["line 2", "line 3", "line 4"]
        say(client, other["id"], other["tokens"][0]["token"], "elsewhere", "203.0.113.8")
        # Age: lines of two days ago are hidden at once and pruned by the next sweep.
        engine = client.app.state.manager.store.engine  # type: ignore[attr-defined]
        with Session(engine) as s, s.begin():
            s.execute(update(ChatRow).where(ChatRow.game_id == gid)
                      .values(at=now() - timedelta(days=2)))
        assert client.get(f"/api/games/{gid}/chat").json()["lines"] == []
        chat = client.app.state.chat  # type: ignore[attr-defined]
        assert chat.prune() == 3
        assert stored(client, gid) == 0 and stored(client, other["id"]) == 1
        # A post sweeps once the sweep interval has passed.
        with Session(engine) as s, s.begin():
            s.execute(update(ChatRow).values(at=now() - timedelta(days=2)))
        chat.swept -= chat.PRUNE_EVERY
        assert say(client, gid, tok, "fresh", "203.0.113.7").status_code == 200
        assert stored(client) == 1
