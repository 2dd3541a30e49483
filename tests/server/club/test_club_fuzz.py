"""The club's endpoints under generated input (issue 53 item 7): bodies, names, ids and CSRF
tokens from hypothesis, sent by a signed-in member. Never a 5xx; every refusal is the
documented error body and changes neither the member's friends nor any tournament."""

from __future__ import annotations

import json
import string
import warnings
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.settings import Settings

ENDPOINTS = [
    ("GET", "/api/leaderboards/{name}"),
    ("GET", "/api/users/{name}/ratings"),
    ("GET", "/api/friends"),
    ("POST", "/api/friends"),
    ("POST", "/api/friends/{name}/accept"),
    ("POST", "/api/friends/{name}/remove"),
    ("POST", "/api/games/{gid}/invite-friend"),
    ("POST", "/api/invitations/{num}/accept"),
    ("POST", "/api/invitations/{num}/decline"),
    ("GET", "/api/tournaments"),
    ("POST", "/api/tournaments"),
    ("GET", "/api/tournaments/{num}"),
    ("POST", "/api/tournaments/{num}/enter"),
    ("POST", "/api/tournaments/{num}/withdraw"),
    ("POST", "/api/tournaments/{num}/start"),
    ("POST", "/api/tournaments/{num}/close"),
    ("POST", "/api/games"),
]
FIELDS = ["name", "seat", "kind", "game", "players", "rounds", "clock", "rated", "options",
          "seats", "mode", "bank_seconds"]
scalars = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
    | st.sampled_from(["fuzzy", "pal", "swiss", "round-robin", "toy-secret-sum", "human",
                       "realtime", "untimed"])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(FIELDS) | st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
bodies = (
    st.dictionaries(st.sampled_from(FIELDS), values, max_size=6).map(lambda d: json.dumps(d))
    | values.map(json.dumps)
    | st.binary(max_size=100)
)


@pytest.fixture(scope="module")
def member(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz-club") / "g.sqlite3"
    lifted = Settings(rate_requests="1000000/minute", rate_create="1000000/minute",
                      max_open_tables_per_client=1_000_000, bot_processes=0)
    with TestClient(create_app(f"sqlite:///{db}", settings=lifted)) as client:
        pal = TestClient(client.app)
        pal.post("/api/account/signup", json={"name": "pal", "password": "p" * 12})
        r = client.post("/api/account/signup", json={"name": "fuzzy", "password": "p" * 12})
        token = r.json()["csrf"]
        made = client.post("/api/games", json={"game": "toy-secret-sum", "players": 2,
                                               "seats": ["human", "human"]},
                           headers={"X-CSRF-Token": token}).json()
        yield client, made["id"], token


def state(client):
    return client.get("/api/friends").json(), client.get("/api/tournaments").json()


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    body=bodies,
    csrf=st.sampled_from(["right", "none"]) | st.text(alphabet=string.printable.strip(),
                                                      max_size=40),
    name=st.sampled_from(["fuzzy", "pal", "PAL", "nobody", "shooting-star"]) | st.text(max_size=30),
    num=st.integers(-3, 10**12).map(str) | st.text(max_size=12),
    gid=st.none() | st.text(max_size=20),
)
def test_no_generated_club_request_gets_a_5xx(member, endpoint, body, csrf, name, num, gid):
    client, real, token = member
    before = state(client)
    method, path = endpoint
    url = path.format(name=quote(name, safe="") or "x", num=quote(num, safe="") or "0",
                      gid=real if gid is None else quote(gid, safe="") or "x")
    headers = {"content-type": "application/json"}
    if csrf == "right":
        headers["x-csrf-token"] = token
    elif csrf != "none":
        headers["x-csrf-token"] = csrf
    content = body.encode() if isinstance(body, str) else body
    r = client.request(method, url, content=content if method == "POST" else None,
                       headers=headers)
    assert r.status_code < 500, (url, body, r.text)
    if r.status_code >= 400:
        err = r.json()["error"]
        assert isinstance(err["code"], str) and isinstance(err["message"], str)
        assert state(client) == before
