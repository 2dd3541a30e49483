"""Issue 26: a public server no anonymous client can break or cheat on.

Each test is one line of the threat model in docs/server.md."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from nightsky.core.record import replay
from nightsky.server import create_app
from nightsky.server.settings import Settings
from tests.server.conftest import auth, create, seat_tokens, settle, ws_connect

WEB = Path(__file__).resolve().parents[2] / "src" / "nightsky" / "web"


def post_game(client, seats, game="toy-secret-sum", **extra):
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    return client.post("/api/games", json=body)


def view(client, gid, token=None):
    r = client.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


# ---------------------------------------------------------------------- 1 bounded bots
@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:seconds=inf",
        "ismcts:seconds=nan",
        "ismcts:seconds=1e308",
        "mcts:c=nan",
        "greedy:samples=nan",
        "greedy:samples=inf",
        "tsar-planner:depth=nan",
        "ismcts:seconds=6",  # above the 5 s default cap
        "random:" + "x=1," * 80,  # too long
    ],
)
def test_unbounded_bot_specs_are_refused_naming_the_seat(client, spec):
    game = "stars-are-right" if spec.startswith("tsar") else "toy-secret-sum"
    r = post_game(client, ["human", spec], game=game)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["field"] in ("seats", "seats.1")  # ours, or the schema's length check
    assert err["message"].startswith(("seat 1:", "seats.1:"))
    assert client.get("/api/lobby").json() == []  # nothing was created


def test_a_search_without_a_time_budget_gets_the_cap_and_plays_its_best_move_so_far(db_url):
    settings = Settings(think_seconds=0.3, think_grace=1.0)
    with TestClient(create_app(db_url, settings=settings)) as client:
        made = create(client, "shooting-star", ["mcts:iterations=1000000", "random"])
        t0 = time.monotonic()
        settle(client, made["id"])
        room = client.app.state.manager.get(made["id"])
        plan = room.agents[0]
        assert plan is not None and plan.pooled and plan.spec.endswith("seconds=0.3")
        moves = sum(1 for s, _ in room.state.history if s == 0)
        assert moves >= 1
        assert time.monotonic() - t0 < moves * 1.5 + 5


def test_a_worker_that_overruns_the_wall_clock_guard_is_stopped():
    import random

    from nightsky import load_game
    from nightsky.server.thinking import ThinkPool

    state = load_game("shooting-star", players=2).new_initial_state()
    while state.current_players() == (-1,):
        state.apply(state.sample_chance(random.Random(0)), -1)
    seat = state.current_players()[0]
    pool = ThinkPool(1)
    try:
        t0 = time.monotonic()
        # No time budget and no end in sight: the guard kills the worker at the deadline.
        spec = "mcts:iterations=1000000,early=false"
        assert pool.choose(spec, state, seat, random.Random(1), deadline=1.0) is None
        assert time.monotonic() - t0 < 4
        # The pool starts a fresh worker for the next choice.
        action = pool.choose("random", state, seat, random.Random(1), deadline=30)
        assert state.is_legal(action, seat)
    finally:
        pool.close()


def test_restart_never_resumes_a_spec_the_bounds_refuse(db_url):
    # Created under a 5 s cap; the server comes back with a 1 s cap.
    first = Settings(think_seconds=5)
    with TestClient(create_app(db_url, bot_delay=600, settings=first)) as client:
        gid = create(client, "shooting-star", ["mcts:seconds=4", "random"])["id"]
    with TestClient(create_app(db_url, settings=Settings(think_seconds=1))) as client:
        t0 = time.monotonic()
        view(client, gid)  # loads the table: its bots resume
        settle(client, gid)
        room = client.app.state.manager.get(gid)
        assert room.agents[0] is None  # refused: the seat plays random legal moves
        assert any(s == 0 for s, _ in room.state.history)
        assert time.monotonic() - t0 < 8


def test_agent_option_errors_answer_422_naming_the_seat(client, monkeypatch):
    from nightsky.core.errors import OptionError
    from nightsky.server import bounds

    def refuse(spec):
        raise OptionError("samples must be at most 10000, got 100000000")

    monkeypatch.setattr(bounds, "make_agent", refuse)
    r = post_game(client, ["human", "greedy:samples=100000000"])
    assert r.status_code == 422
    assert r.json()["error"]["message"] == (
        "seat 1: samples must be at most 10000, got 100000000"
    )


# ---------------------------------------------------------------------- 2 fair seeds
def test_a_seed_is_refused_where_two_seats_are_human(client):
    r = post_game(client, ["human", "human"], seed=5)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "seed_not_allowed"
    assert r.json()["error"]["field"] == "seed"
    assert post_game(client, ["human", "random"], seed=5).status_code == 201
    assert post_game(client, ["random", "random"], seed=5).status_code == 201


def test_a_setting_allows_client_seeds_for_tests(db_url):
    with TestClient(create_app(db_url, settings=Settings(allow_client_seed=True))) as client:
        assert post_game(client, ["human", "human"], seed=5).status_code == 201


def test_shared_tables_draw_chance_from_the_server_secret_and_still_replay(db_url):
    deals = set()
    for secret in ("one", "two"):
        settings = Settings(secret=secret)
        with TestClient(create_app(db_url, settings=settings)) as client:
            made = create(client, "toy-secret-sum", ["human", "human"])
            room = client.app.state.manager.get(made["id"])
            room.seed = 1  # the same seed under two secrets: two different streams
            deals.add(room.rng("chance:0").random())
            toks = seat_tokens(client, made)
            for _ in range(40):
                v = view(client, made["id"])
                if v["terminal"]:
                    break
                seat = v["current_players"][0]
                mine = view(client, made["id"], toks[seat])
                client.post(
                    f"/api/games/{made['id']}/actions",
                    headers=auth(toks[seat]),
                    json={"action": mine["legal"][0]["action"], "version": mine["version"]},
                )
            rec = client.get(f"/api/games/{made['id']}/record").json()
            final = replay(rec)  # checks the result too
            assert final.scores() == view(client, made["id"])["scores"]
    assert len(deals) == 2
    import random

    assert random.Random("1:chance:0").random() not in deals  # not the plain seed's stream


# ---------------------------------------------------------------------- 3 one-time invites
def test_invites_are_one_time_and_the_creator_keeps_only_its_own_seat(client):
    made = create(client, "toy-secret-sum", ["human", "human", "random"], names=["Ann"])
    gid = made["id"]
    assert [t["seat"] for t in made["tokens"]] == [0]  # the creator's own seat only
    assert [i["seat"] for i in made["invites"]] == [1]
    code = made["invites"][0]["code"]
    assert made["invites"][0]["invite"].endswith(f"/g/{gid}#invite={code}")
    r = client.post(f"/api/games/{gid}/claim", json={"invite": code, "name": "Bob"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    bob = r.json()["token"]
    # Spent: a second claim (the creator's copy of the code) is 410.
    again = client.post(f"/api/games/{gid}/claim", json={"invite": code})
    assert again.status_code == 410 and again.json()["error"]["code"] == "invite_spent"
    assert client.post(f"/api/games/{gid}/claim", json={"invite": "x" * 16}).status_code == 404
    # Only the new token reads seat 1; the creator's token reads seat 0 only.
    ann = made["tokens"][0]["token"]
    assert view(client, gid, bob)["seat"] == 1
    creator_view = view(client, gid, ann)
    assert creator_view["seat"] == 0 and isinstance(creator_view["view"]["hands"][1], int)
    assert view(client, gid)["seats"][1]["name"] == "Bob"


def test_the_creator_renews_an_unclaimed_or_left_seat_and_everyone_is_told(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid, ann = made["id"], made["tokens"][0]["token"]
    old = made["invites"][0]["code"]
    r = client.post(f"/api/games/{gid}/invites", headers=auth(ann), json={"seat": 1})
    assert r.status_code == 200
    new = r.json()["code"]
    assert client.post(f"/api/games/{gid}/claim", json={"invite": old}).status_code == 410
    notices = view(client, gid)["notices"]  # the spectator's log says so, like everyone's
    assert notices and "renewed the invite of seat 2" in notices[-1]["text"]
    bob = client.post(f"/api/games/{gid}/claim", json={"invite": new}).json()["token"]
    # Not the creator: 403; a played seat keeps its token: 409.
    r = client.post(f"/api/games/{gid}/invites", headers=auth(bob), json={"seat": 1})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = client.post(f"/api/games/{gid}/invites", headers=auth(ann), json={"seat": 1})
    assert r.status_code == 409
    # Bob leaves: his token stops working, the creator may invite someone else.
    assert client.post(f"/api/games/{gid}/leave", headers=auth(bob)).status_code == 200
    assert client.get(f"/api/games/{gid}/view", headers=auth(bob)).status_code == 401
    r = client.post(f"/api/games/{gid}/invites", headers=auth(ann), json={"seat": 1})
    assert r.status_code == 200
    assert "left seat 2" in view(client, gid, ann)["notices"][-2]["text"]


# ---------------------------------------------------------------------- 4 no filesystem
def test_components_from_the_web_never_touch_the_filesystem(client):
    messages = set()
    for path in ("/etc/passwd", "/root", "/nonexistent", "/dev/zero", "a\x00b", "x" * 5000):
        r = post_game(client, ["human", "random"], game="shooting-star",
                      options={"components": path})
        assert r.status_code == 422, (path, r.text)
        err = r.json()["error"]
        assert err["field"] == "options.components" and path not in err["message"]
        messages.add(err["message"])
    assert len(messages) == 1  # /root and /nonexistent alike: nothing about the file system
    for shipped in ("", "default", None):
        r = post_game(client, ["human", "random"], game="shooting-star",
                      options={"components": shipped})
        assert r.status_code == 201, r.text


def test_component_paths_from_the_command_line_are_read_only_as_small_regular_files(tmp_path):
    from nightsky import load_game
    from nightsky.core.errors import ComponentError

    big = tmp_path / "big.toml"
    big.write_text("a = 1\n" + "#" * (1024 * 1024))
    secret = tmp_path / "secret.toml"
    secret.write_text("root:x:0:0:hunter2\n")
    for path, words in (
        ("/dev/zero", "regular file"),
        (str(tmp_path), "regular file"),
        (str(big), "larger than 1 MB"),
        ("a\x00b", "cannot read"),
        ("x" * 5000, "cannot read"),
        (str(secret), "not valid TOML"),
    ):
        with pytest.raises(ComponentError) as err:
            load_game("star-fire", components=path)
        assert words in str(err.value) and "hunter2" not in str(err.value)


# ---------------------------------------------------------------------- 5 limits
def test_a_burst_of_creates_is_rate_limited_with_retry_after(client):
    codes = [post_game(client, ["random", "random"]).status_code for _ in range(60)]
    assert 429 in codes
    r = post_game(client, ["random", "random"])
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert r.json()["error"]["code"] == "rate_limited"


def test_unfinished_tables_are_capped_per_client(db_url):
    with TestClient(create_app(db_url, settings=Settings(max_open_tables_per_client=2))) as c:
        for _ in range(2):
            assert post_game(c, ["human", "human"]).status_code == 201
        r = post_game(c, ["human", "human"])
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
        assert "retry-after" in r.headers


def test_idle_tables_leave_memory_and_come_back_on_demand(db_url):
    with TestClient(create_app(db_url, settings=Settings(idle_seconds=0))) as client:
        made = create(client, "toy-secret-sum", ["human", "human"])
        gid, tok = made["id"], made["tokens"][0]["token"]
        before = view(client, gid, tok)
        mgr = client.app.state.manager
        mgr.trim()
        assert gid not in mgr.rooms
        assert view(client, gid, tok) == before
        r = client.post(f"/api/games/{gid}/actions", headers=auth(tok),
                        json={"action": "keep", "version": before["version"]})
        assert r.status_code == 200


def test_names_are_short_and_plain(client):
    for name in ("x" * 41, "evil\x1b[2J", "abc\u202edef", "a\nb"):
        r = post_game(client, ["human", "random"], names=[name])
        assert r.status_code == 422 and r.json()["error"]["field"].startswith("names"), name
    assert post_game(client, ["human", "random"], names=["Ann " * 10]).status_code == 201


def test_websocket_token_goes_in_the_first_message_and_origin_is_checked(client):
    made = create(client, "toy-secret-sum", ["human", "random"])
    gid, tok = made["id"], made["tokens"][0]["token"]
    with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(
        f"/api/games/{gid}/ws?token={tok}"
    ):
        pass
    assert err.value.code == 4400
    evil = {"origin": "https://evil.example"}
    with pytest.raises(WebSocketDisconnect) as err, ws_connect(client, gid, tok, headers=evil):
        pass
    assert err.value.code == 4403
    same = {"origin": "http://testserver"}
    with ws_connect(client, gid, tok, headers=same) as ws:
        assert ws.receive_json()["data"]["seat"] == 0


def test_websockets_are_capped_per_table(db_url):
    with TestClient(create_app(db_url, settings=Settings(max_sockets_per_table=2))) as client:
        gid = create(client, "toy-secret-sum", ["human", "random"])["id"]
        with ws_connect(client, gid) as a, ws_connect(client, gid) as b:
            a.receive_json(), b.receive_json()
            with pytest.raises(WebSocketDisconnect) as err, ws_connect(client, gid) as c:
                c.receive_json()  # (turned away after its hello, once it is a spectator)
            assert err.value.code == 4429
        with ws_connect(client, gid) as c:  # a socket that closed gives its place back
            assert c.receive_json()["type"] == "view"


def test_security_headers_and_no_inline_script(client):
    r = client.get("/")
    csp = r.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'"  # no inline script, no eval
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in csp
    import re

    for page in WEB.glob("*.html"):
        html = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), page
        assert not re.search(r"\son[a-z]+\s*=", html), page
    for js in (WEB / "js").glob("*.js"):
        text = js.read_text()
        assert "innerHTML = `" not in text or "<script" not in text
        assert not re.search(r"setAttribute\(\s*[\"']on", text), js


# ---------------------------------------------------------------------- 6 bad input
def test_thirty_thousand_nested_brackets_are_malformed_json(client):
    gid = create(client, "toy-secret-sum", ["human", "random"])["id"]
    body = "[" * 30_000 + "]" * 30_000
    for url in (f"/api/games/{gid}/actions", "/api/games", f"/api/games/{gid}/claim"):
        r = client.post(url, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "malformed_json", url



def test_a_worker_is_killed_once_however_many_threads_ask():
    # Server shutdown (ThinkPool.close) races a choice whose pipe it just broke: the failing
    # choice drops the same worker, so both reach kill. Closing the pipe twice raced into
    # EBADF on CI (and could close a descriptor another thread had opened since).
    import threading
    from unittest import mock

    from nightsky.server.thinking import ThinkPool, _Worker

    pool = ThinkPool(1)
    worker = _Worker(pool._context(), 256)
    real = worker.conn
    closes = []
    worker.conn = mock.Mock(close=lambda: (closes.append(1), time.sleep(0.05), real.close()))
    threads = [threading.Thread(target=worker.kill) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert closes == [1]
    assert not worker.proc.is_alive()
    pool.close()
