"""Every bad input is a 4xx in the documented error shape, never a 5xx, and changes nothing
(issue 26): hypothesis throws generated bodies, tokens and paths at every endpoint."""

from __future__ import annotations

import json
import string
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nightsky.server import create_app
from nightsky.server.settings import Settings
from tests.server.conftest import auth, create, seat_tokens

FIELDS = ["game", "players", "options", "seats", "names", "seed", "action", "version",
          "invite", "name", "seat", "components", "token", "text", "games", "id"]
scalars = (
    st.none() | st.booleans() | st.integers() | st.floats()
    | st.text(max_size=40) | st.sampled_from(["human", "random", "ismcts:seconds=inf",
                                              "toy-secret-sum", "keep", "/etc/passwd"])
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)
bodies = (
    st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=8), values, max_size=6)
    .map(lambda d: json.dumps(d).encode())
    | values.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=200)
)
tokens = st.none() | st.text(alphabet=string.printable.strip(), max_size=40)
ENDPOINTS = [
    ("POST", "/api/games"),
    ("POST", "/api/games/{gid}/actions"),
    ("POST", "/api/games/{gid}/undo"),
    ("POST", "/api/games/{gid}/join"),
    ("POST", "/api/games/{gid}/claim"),
    ("POST", "/api/games/{gid}/invites"),
    ("POST", "/api/games/{gid}/leave"),
    ("GET", "/api/games/{gid}/view"),
    ("GET", "/api/games/{gid}/record"),
    ("GET", "/api/games/{gid}/replay?step={step}"),
    ("POST", "/api/mine"),
    ("GET", "/api/games/{gid}/chat"),
    ("POST", "/api/games/{gid}/chat"),
    ("GET", "/api/games/{gid}/rematch"),
    ("POST", "/api/games/{gid}/rematch"),
    ("POST", "/api/games/{gid}/rematch/decline"),
]


LIFTED: dict[str, Any] = {
    "rate_requests": "1000000/minute", "rate_create": "1000000/minute",
    "rate_claim": "1000000/minute", "max_open_tables_per_client": 1_000_000,
}
"""The limits lifted: the fuzzer's thousands of requests come from one client."""


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "g.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", settings=Settings(**LIFTED))) as client:
        made = create(client, "toy-secret-sum", ["human", "human"])
        toks = seat_tokens(client, made)  # every seat taken, every invite spent
        yield client, made["id"], toks


def views(client, gid, toks):
    return [client.get(f"/api/games/{gid}/view", headers=auth(t) if t else {}).json()
            for t in (None, *toks.values())]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    body=bodies,
    token=tokens,
    gid=st.none() | st.text(max_size=40),
    step=st.integers() | st.text(max_size=10),
)
def test_no_generated_request_gets_a_5xx_or_changes_a_view(table, endpoint, body, token, gid,
                                                           step):
    client, real, toks = table
    before = views(client, real, toks)
    method, path = endpoint
    url = path.format(gid=quote(gid, safe="") or "x" if gid is not None else real,
                      step=quote(str(step), safe=""))
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    r = client.request(method, url, content=body if method == "POST" else None, headers=headers)
    assert r.status_code < 500, (url, body, r.text)
    if r.status_code >= 400:
        err = r.json()["error"]
        assert isinstance(err["code"], str) and isinstance(err["message"], str)
    assert views(client, real, toks) == before


# ---- the accounts' endpoints (issue 53): a signed-in member's browser sends generated
# bodies with a missing or wrong CSRF token; nothing 5xx, nothing of the member changes.
ACCOUNT_FIELDS = ["name", "password", "display_name", "old", "new", "challenge_id",
                  "credential", "suspended", "id", "rawId", "response", "type"]
account_bodies = (
    st.dictionaries(st.sampled_from(ACCOUNT_FIELDS) | st.text(max_size=8), values, max_size=6)
    .map(lambda d: json.dumps(d).encode())
    | values.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=200)
)
ACCOUNT_ENDPOINTS = [
    ("POST", "/api/account/signup"),
    ("POST", "/api/account/signin"),
    ("POST", "/api/account/signout"),
    ("POST", "/api/account/signout-everywhere"),
    ("POST", "/api/account/password"),
    ("GET", "/api/account"),
    ("GET", "/api/account/games"),
    ("POST", "/api/games/{gid}/seat"),
    ("POST", "/api/account/passkeys/options"),
    ("POST", "/api/account/passkeys"),
    ("POST", "/api/account/passkey/options"),
    ("POST", "/api/account/passkey/signin"),
    ("GET", "/api/users/{name}"),
    ("GET", "/api/games/{gid}/replay"),
    ("POST", "/api/admin/chat/{name}/hide"),
    ("POST", "/api/admin/accounts/{name}/suspend"),
    ("GET", "/api/admin/log"),
]


@pytest.fixture(scope="module")
def member(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz-accounts") / "g.sqlite3"
    lifted = Settings(**LIFTED, sign_in_tries=1_000_000)
    with TestClient(create_app(f"sqlite:///{db}", settings=lifted)) as client:
        r = client.post("/api/account/signup", json={"name": "Fuzzy", "password": "p" * 12})
        token = r.json()["csrf"]
        made = client.post(
            "/api/games", json={"game": "toy-secret-sum", "players": 2,
                                "seats": ["human", "random"]},
            headers={"X-CSRF-Token": token},
        ).json()
        yield client, made["id"], token


def member_state(client, gid):
    return (client.get("/api/account").json(), client.get("/api/users/Fuzzy").json(),
            client.get("/api/account/games").json())


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    endpoint=st.sampled_from(ACCOUNT_ENDPOINTS),
    body=account_bodies,
    csrf=st.none() | st.text(alphabet=string.printable.strip(), max_size=50),
    gid=st.none() | st.text(max_size=40),
    name=st.sampled_from(["Fuzzy", "fuzzy", "nobody", ""]) | st.text(max_size=30),
)
def test_no_generated_account_request_gets_a_5xx_or_changes_the_member(member, endpoint, body,
                                                                       csrf, gid, name):
    client, real, token = member
    before = member_state(client, real)
    method, path = endpoint
    url = path.format(gid=quote(gid, safe="") or "x" if gid is not None else real,
                      name=quote(name, safe="") or "x")
    headers = {"content-type": "application/json"}
    if csrf is not None and csrf != token:
        headers["x-csrf-token"] = csrf
    sign_in = path in ("/api/account/signin", "/api/account/passkey/signin",
                       "/api/account/signup")
    # a sign-in would (rightly) replace the browser's session: send those from a stranger
    sender = TestClient(client.app) if sign_in else client
    r = sender.request(method, url, content=body if method == "POST" else None,
                       headers=headers)
    assert r.status_code < 500, (url, body, r.text)
    if r.status_code >= 400:
        err = r.json()["error"]
        assert isinstance(err["code"], str) and isinstance(err["message"], str)
    assert member_state(client, real) == before
