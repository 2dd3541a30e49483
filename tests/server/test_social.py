"""Your games, chat and rematch (issue 20, items 3 and 4): the API, what it never shows, and
what survives a restart."""

from __future__ import annotations

import random
import warnings
from dataclasses import replace

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.core.registry import game_class, game_ids, load_game
from nightsky.server import create_app
from nightsky.server.chat import CHAT_MAX, clean_text
from nightsky.server.mine import turn_of
from nightsky.server.rematch import new_token
from nightsky.server.rooms import ServerError
from nightsky.server.settings import Settings
from tests.server.conftest import auth, create, seat_tokens, settle, ws_connect
from tests.server.test_security import walk


def view(client, gid, token=None):
    r = client.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def mine(client, pairs):
    r = client.post("/api/mine", json={"games": [{"id": g, "token": t} for g, t in pairs]})
    assert r.status_code == 200, r.text
    return r.json()["games"]


def finish(client, gid, tokens, seed=0):
    """Play every human seat at random until the game is over."""
    rng = random.Random(seed)
    for _ in range(500):
        settle(client, gid)
        for tok in tokens.values():
            v = view(client, gid, tok)
            if v["terminal"]:
                return v
            if v["legal"]:
                r = client.post(
                    f"/api/games/{gid}/actions",
                    headers=auth(tok),
                    json={"action": rng.choice(v["legal"])["action"], "version": v["version"]},
                )
                assert r.status_code in (200, 409), r.text
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------- your games
def test_your_games_says_per_token_whose_move_it_is_and_if_it_is_yours(client):
    made = create(client, "toy-secret-sum", ["human", "human"], names=["Ann", "Bob"])
    gid = made["id"]
    t0, t1 = seat_tokens(client, made).values()
    solo = create(client, "toy-secret-sum", ["human", "greedy"])
    ts = solo["tokens"][0]["token"]
    v0 = view(client, gid, t0)
    first = v0["current_players"][0]
    a, b, s = mine(client, [(gid, t0), (gid, t1), (solo["id"], ts)])
    assert a["known"] and b["known"] and s["known"]
    assert (a["seat"], b["seat"]) == (0, 1) and (a["name"], b["name"]) == ("Ann", "Bob")
    assert a["to_move"] == b["to_move"] == v0["current_players"]
    assert a["to_move_names"] == [["Ann", "Bob"][first]]
    assert a["your_move"] == (first == 0) and b["your_move"] == (first == 1)
    assert a["status"] == "playing" and a["version"] == v0["version"]
    assert a["title"] == game_class("toy-secret-sum").info.title and a["updated_at"]
    assert s["your_move"] is True  # the bot waits for the human
    # Played out: over, nobody's move.
    finish(client, gid, {0: t0, 1: t1})
    a, b = mine(client, [(gid, t0), (gid, t1)])
    assert a["status"] == b["status"] == "over"
    assert not a["your_move"] and not b["your_move"] and a["to_move"] == []


def test_your_games_answers_the_same_unknown_for_a_bad_id_and_a_bad_token(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    t0 = made["tokens"][0]["token"]
    other = create(client, "toy-secret-sum", ["human", "random"])
    asked = [
        (gid, "not-a-token"),  # a real game, a wrong token
        (gid, other["tokens"][0]["token"]),  # a real token of another game
        ("0123456789ab", t0),  # no such game, a real token
        ("../../etc", t0),  # not even an id
        (gid, ""),
    ]
    answers = mine(client, asked)
    for (gid_asked, _), ans in zip(asked, answers, strict=True):
        assert ans == {
            "id": gid_asked, "known": False, "game": None, "title": None, "seat": None,
            "name": None, "to_move": [], "to_move_names": [], "your_move": False,
            "status": None, "version": None, "updated_at": None,
        }
    # Tokens never travel in a URL: the route takes a POST body only.
    assert client.get("/api/mine").status_code == 405
    too_many = [{"id": gid, "token": t0}] * 101
    assert client.post("/api/mine", json={"games": too_many}).status_code == 422


@pytest.mark.parametrize(
    "game_id", [g for g in game_ids() if game_class(g).info.hidden_information]
)
def test_your_games_shows_nothing_a_seat_cannot_see(game_id):
    """Whose move and whether it is yours are the same on every state the seat cannot tell
    from the true one (the leak test of the views, for the your-games answer)."""
    game = load_game(game_id, players=2)
    rng = random.Random(3)
    checked = 0
    for state in walk(game, seed=7):
        for seat in range(game.num_players):
            mine_now = turn_of(state, seat)
            for _ in range(2):
                assert turn_of(state.resample(seat, rng), seat) == mine_now
                checked += 1
    assert checked >= 4


# ---------------------------------------------------------------------- chat
def test_chat_posts_as_the_seat_and_everyone_reads_it(client):
    made = create(client, "toy-secret-sum", ["human", "human"], names=["Ann", "Bob"])
    gid = made["id"]
    t0, t1 = seat_tokens(client, made).values()
    colors = [s["color"] for s in view(client, gid)["seats"]]
    with ws_connect(client, gid) as spectator:
        spectator.receive_json()  # the view
        r = client.post(f"/api/games/{gid}/chat", headers=auth(t1),
                        json={"text": "  <b>hi</b>\u202e\x00 &amp;\n there  "})
        assert r.status_code == 200, r.text
        line = r.json()
        assert line["seat"] == 1 and line["name"] == "Bob" and line["color"] == colors[1]
        # Control and bidi characters dropped, whitespace folded; markup kept as text
        # (the client shows it with textContent).
        assert line["text"] == "<b>hi</b> &amp; there"
        pushed = spectator.receive_json()
        assert pushed == {"type": "chat", "data": line}
    lines = client.get(f"/api/games/{gid}/chat").json()
    assert lines["lines"] == [line] and lines["max_chars"] == CHAT_MAX
    # The game itself did not move.
    assert view(client, gid)["version"] == view(client, gid, t0)["version"]


def test_chat_refuses_spectators_bad_tokens_empty_and_long_lines(client):
    made = create(client, "toy-secret-sum", ["human", "random"])
    gid = made["id"]
    tok = made["tokens"][0]["token"]
    url = f"/api/games/{gid}/chat"
    r = client.post(url, json={"text": "hello"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "spectators_read_only"
    r = client.post(url, headers=auth("forged"), json={"text": "hello"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    for text in ("", "   ", "\x00\x01\u200b"):
        r = client.post(url, headers=auth(tok), json={"text": text})
        assert r.status_code == 422 and r.json()["error"]["code"] == "empty_message"
    r = client.post(url, headers=auth(tok), json={"text": "x" * (CHAT_MAX + 1)})
    assert r.status_code == 422 and r.json()["error"]["code"] == "message_too_long"
    assert client.post(url, headers=auth(tok), json={"text": "x" * CHAT_MAX}).status_code == 200
    r = client.post("/api/games/0123456789ab/chat", headers=auth(tok), json={"text": "hi"})
    assert r.status_code == 404
    assert client.get(url).json()["lines"][-1]["text"] == "x" * CHAT_MAX
    assert len(client.get(url).json()["lines"]) == 1  # nothing refused was kept


def test_clean_text_keeps_words_and_drops_invisible_characters():
    assert clean_text("a\tb\r\nc") == "a b c"
    assert clean_text("étoile ✦ 星") == "étoile ✦ 星"
    with pytest.raises(ServerError):
        clean_text("\u2066\u2069")


def test_chat_is_rate_limited_per_seat_with_retry_after(db_url):
    settings = Settings(rate_chat="2/minute")
    with TestClient(create_app(db_url, settings=settings)) as client:
        made = create(client, "toy-secret-sum", ["human", "human"])
        gid = made["id"]
        t0, t1 = seat_tokens(client, made).values()
        url = f"/api/games/{gid}/chat"
        for i in range(2):
            assert client.post(url, headers=auth(t0), json={"text": f"m{i}"}).status_code == 200
        r = client.post(url, headers=auth(t0), json={"text": "one too many"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        # Per seat: the other seat still talks.
        assert client.post(url, headers=auth(t1), json={"text": "me too"}).status_code == 200
        assert [x["text"] for x in client.get(url).json()["lines"]] == ["m0", "m1", "me too"]


def test_chat_survives_a_restart(db_url):
    with TestClient(create_app(db_url)) as c:
        made = create(c, "toy-secret-sum", ["human", "random"])
        gid, tok = made["id"], made["tokens"][0]["token"]
        c.post(f"/api/games/{gid}/chat", headers=auth(tok), json={"text": "see you"})
        before = c.get(f"/api/games/{gid}/chat").json()
    with TestClient(create_app(db_url)) as c:
        assert c.get(f"/api/games/{gid}/chat").json() == before
        assert before["lines"][0]["text"] == "see you"


# ---------------------------------------------------------------------- rematch
def test_a_rematch_against_a_bot_is_made_at_once_with_the_same_seats(client):
    made = create(client, "toy-secret-sum", ["human", "greedy"], names=["Ann", ""])
    gid, tok = made["id"], made["tokens"][0]["token"]
    url = f"/api/games/{gid}/rematch"
    r = client.post(url, headers=auth(tok))
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
    old = finish(client, gid, {0: tok})
    assert client.get(url).json()["state"] == "none"
    r = client.post(url, headers=auth(tok))
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["state"] == "done" and got["accepted"] == [0, 1] and got["seat"] == 0
    new_id, new_tok = got["new_id"], got["token"]
    assert new_id != gid and new_tok and new_tok != tok
    v = view(client, new_id, new_tok)
    assert v["seat"] == 0 and v["game"] == old["game"] and v["params"] == old["params"]
    assert [(s["kind"], s["spec"], s["name"]) for s in v["seats"]] == [
        (s["kind"], s["spec"], s["name"]) for s in old["seats"]
    ]
    room, old_room = (client.app.state.manager.get(x) for x in (new_id, gid))
    assert room.seed_source == "server" and room.seed != old_room.seed
    # Everyone sees the link, only the seat holder its token; the new table links back.
    spectator = client.get(url).json()
    assert spectator["new_id"] == new_id and spectator["token"] is None
    assert client.get(url, headers=auth(tok)).json()["token"] == new_tok
    assert client.get(f"/api/games/{new_id}/rematch").json()["rematch_of"] == gid
    # The old token is not a token of the new table.
    assert client.get(f"/api/games/{new_id}/view", headers=auth(tok)).status_code == 401
    r = client.post(url, headers=auth(tok))
    assert r.status_code == 409 and r.json()["error"]["code"] == "rematch_made"


def test_a_rematch_keeps_the_tables_clock(client):
    clock = {"mode": "turnbased", "move_seconds": 3600, "on_timeout": "bot:random"}
    made = create(client, "toy-secret-sum", ["human", "greedy"], clock=clock)
    gid, tok = made["id"], made["tokens"][0]["token"]
    finish(client, gid, {0: tok})
    got = client.post(f"/api/games/{gid}/rematch", headers=auth(tok)).json()
    new = client.app.state.manager.get(got["new_id"])
    assert new.clock.config.public() == client.app.state.manager.get(gid).clock.config.public()
    assert new.clock.config.move_seconds == 3600 and new.clock.config.bot_spec == "random"


def test_every_human_accepts_a_rematch_and_a_decline_or_leaving_cancels_it(client):
    made = create(client, "toy-secret-sum", ["human", "human", "random"],
                  names=["Ann", "Bob", ""])
    gid = made["id"]
    toks = seat_tokens(client, made)
    t0, t1 = toks[0], toks[1]
    finish(client, gid, toks)
    url = f"/api/games/{gid}/rematch"
    with ws_connect(client, gid) as spectator:
        spectator.receive_json()
        got = client.post(url, headers=auth(t0)).json()
        assert got["state"] == "open" and got["by"] == 0
        assert got["accepted"] == [0, 2] and got["waiting"] == [1] and got["token"] is None
        assert spectator.receive_json()["type"] == "rematch"
    # Bob declines: over. Ann offers again; Bob accepts.
    r = client.post(f"{url}/decline", headers=auth(t1))
    assert r.json()["state"] == "declined" and r.json()["declined_by"] == 1
    r = client.post(f"{url}/decline", headers=auth(t1))
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_rematch_offer"
    assert client.post(url, headers=auth(t0)).json()["state"] == "open"
    done = client.post(url, headers=auth(t1)).json()
    assert done["state"] == "done" and done["seat"] == 1
    new_id, n1 = done["new_id"], done["token"]
    n0 = client.get(url, headers=auth(t0)).json()["token"]
    assert n0 and n1 and len({n0, n1, t0, t1}) == 4
    assert view(client, new_id, n0)["seat"] == 0 and view(client, new_id, n1)["seat"] == 1
    assert [s["name"] for s in view(client, new_id)["seats"]][:2] == ["Ann", "Bob"]
    assert all(s["joined"] for s in view(client, new_id)["seats"])
    assert client.get(url).json()["token"] is None
    # The derived token is what the server checks: no one else can make it.
    nonce = client.app.state.rematches
    assert nonce is not None and new_token("n", 0, t0) != new_token("n", 1, t0)


def test_leaving_cancels_an_open_rematch(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    toks = seat_tokens(client, made)
    finish(client, gid, toks)
    url = f"/api/games/{gid}/rematch"
    assert client.post(url, headers=auth(toks[0])).json()["state"] == "open"
    assert client.post(f"/api/games/{gid}/leave", headers=auth(toks[1])).status_code == 200
    got = client.get(url).json()
    assert got["state"] == "cancelled" and got["declined_by"] == 1 and got["new_id"] is None


def test_rematch_and_chat_need_a_seat(client):
    made = create(client, "toy-secret-sum", ["human", "random"])
    gid = made["id"]
    r = client.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 401 and r.json()["error"]["code"] == "token_required"
    r = client.post(f"/api/games/{gid}/rematch", headers=auth("forged"))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"


def test_rematch_state_survives_a_restart(db_url):
    settings = replace(Settings(), allow_client_seed=True)
    with TestClient(create_app(db_url, settings=settings)) as c:
        made = create(c, "toy-secret-sum", ["human", "human"])
        gid = made["id"]
        toks = seat_tokens(c, made)
        finish(c, gid, toks)
        assert c.post(f"/api/games/{gid}/rematch", headers=auth(toks[0])).json()["waiting"] == [1]
    with TestClient(create_app(db_url, settings=settings)) as c:
        done = c.post(f"/api/games/{gid}/rematch", headers=auth(toks[1])).json()
        assert done["state"] == "done"
        n0 = c.get(f"/api/games/{gid}/rematch", headers=auth(toks[0])).json()["token"]
        assert view(c, done["new_id"], n0)["seat"] == 0


def test_chat_and_rematch_news_are_the_same_for_every_viewer_and_hold_nothing_of_the_game(
    client,
):
    """The leak test for chat: a line is pushed byte for byte the same to each seat and to
    spectators, and holds only the seat's public identity, the text and the time; a rematch's
    news holds no token."""
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    t0, t1 = seat_tokens(client, made).values()
    with (
        ws_connect(client, gid, t0) as s0,
        ws_connect(client, gid, t1) as s1,
        ws_connect(client, gid) as watcher,
    ):
        for ws in (s0, s1, watcher):
            ws.receive_json()
        client.post(f"/api/games/{gid}/chat", headers=auth(t0), json={"text": "gg"})
        got = [ws.receive_text() for ws in (s0, s1, watcher)]
        assert got[0] == got[1] == got[2]
    line = client.get(f"/api/games/{gid}/chat").json()["lines"][0]
    assert set(line) == {"id", "seat", "name", "color", "text", "at"}
    public = view(client, gid)["seats"][0]
    assert (line["name"], line["color"]) == (public["name"], public["color"])
    finish(client, gid, {0: t0, 1: t1})
    with ws_connect(client, gid) as watcher:
        watcher.receive_json()
        client.post(f"/api/games/{gid}/rematch", headers=auth(t0))
        news = watcher.receive_json()
        assert news["type"] == "rematch" and news["data"]["token"] is None
        assert t0 not in str(news) and "nonce" not in str(news)
