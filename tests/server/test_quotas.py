"""Issue 52's low items on sockets and chat: a table's spectators have their own socket quota
(per table and per client) and never lock a seated player out; chat lines are bounded per
client (lines and characters) and kept only as long as the retention settings say."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from nightsky.server import create_app
from nightsky.server.settings import Settings
from tests.server.conftest import create, seat_tokens, ws_connect

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
