"""Every bad input is a 4xx in the documented error shape, never a 5xx, and changes nothing
(issue 26): hypothesis throws generated bodies, tokens and paths at every endpoint."""

from __future__ import annotations

import json
import string
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


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "g.sqlite3"
    lifted = Settings(rate_requests="1000000/minute", rate_create="1000000/minute",
                      rate_claim="1000000/minute", max_open_tables_per_client=1_000_000)
    with TestClient(create_app(f"sqlite:///{db}", settings=lifted)) as client:
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
