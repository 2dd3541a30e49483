"""Private and open tables, one identity per seat, the log in words, and each seat's replay."""

from __future__ import annotations

from tests.server.conftest import auth, create, seat_tokens, settle


def view(client, gid, token=None):
    r = client.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def lobby_ids(client, **params):
    return [g["id"] for g in client.get("/api/lobby", params=params).json()]


def test_a_friends_table_is_private_by_default_and_its_invited_seat_needs_the_link(client):
    made = create(client, "toy-secret-sum", ["human", "human"], names=["Ann"])
    gid = made["id"]
    assert gid not in lobby_ids(client)
    # Join (the lobby's button, or anyone who learns the id) is refused: the seat is reserved.
    r = client.post(f"/api/games/{gid}/join", json={"name": "Mallory"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "seat_reserved"
    assert "invite link" in r.json()["error"]["message"]
    assert view(client, gid)["seats"][1]["joined"] is False
    # The invite link still takes it.
    code = made["invites"][0]["code"]
    r = client.post(f"/api/games/{gid}/claim", json={"invite": code, "name": "Bob"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert view(client, gid)["seats"][1]["name"] == "Bob"
    # Whoever holds the id (a player's own browser) still finds the game by it.
    mine = client.get("/api/lobby", params={"ids": f"{gid},nope,{'f' * 12}"}).json()
    assert [g["id"] for g in mine] == [gid] and mine[0]["listed"] is False
    assert mine[0]["open_seats"] == [] and mine[0]["free_seats"] == []


def test_an_open_table_is_listed_and_its_free_seats_may_be_joined(client):
    made = create(client, "toy-secret-sum", ["human", "human"], listed=True)
    gid = made["id"]
    entry = next(g for g in client.get("/api/lobby").json() if g["id"] == gid)
    assert entry["listed"] and entry["open_seats"] == [1] and entry["free_seats"] == [1]
    assert view(client, gid)["listed"] is True
    r = client.post(f"/api/games/{gid}/join", json={"name": "Vega"})
    assert r.status_code == 200 and r.json()["seat"] == 1


def test_every_seat_has_one_name_and_one_colour_and_bots_are_numbered_by_level(client):
    made = create(client, "star-fire", ["human", "greedy", "greedy", "random"], names=["Ann"])
    seats = view(client, made["id"])["seats"]
    assert [s["name"] for s in seats] == ["Ann", "greedy bot 1", "greedy bot 2", "random bot 1"]
    colors = [s["color"] for s in seats]
    assert len(set(colors)) == 4 and all(c.startswith("#") for c in colors)
    # Two players may not share a name: the second is told apart.
    twin = create(client, "toy-secret-sum", ["human", "human"], names=["Ann", "Ann"])
    assert [s["name"] for s in view(client, twin["id"])["seats"]] == ["Ann", "Ann (2)"]


def test_the_board_and_the_log_use_the_seat_names_and_colours(client):
    made = create(client, "shooting-star", ["human", "greedy"], names=["Ann"], seed=3)
    gid, tok = made["id"], made["tokens"][0]["token"]
    settle(client, gid)
    v = view(client, gid, tok)
    assert "Ann \u00b7 " in v["svg"] and "greedy bot 1 \u00b7 " in v["svg"]
    assert "Seat 0" not in v["svg"]
    for s in v["seats"]:
        assert s["color"] in v["svg"]
    r = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(tok),
        json={"action": v["legal"][0]["action"], "version": v["version"]},
    )
    assert r.status_code == 200
    settle(client, gid)
    log = view(client, gid, tok)["log"]
    assert [x["n"] for x in log] == list(range(1, len(log) + 1))
    assert any(x["text"].startswith("Ann placed ") for x in log)
    assert any(x["text"].startswith("greedy bot 1 placed a card face down") for x in log)
    assert all(x["notation"] for x in log)


def test_after_the_game_each_player_replays_their_own_view(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    toks = seat_tokens(client, made)
    for _ in range(40):
        v = view(client, gid)
        if v["terminal"]:
            break
        seat = v["current_players"][0]
        mine = view(client, gid, toks[seat])
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=auth(toks[seat]),
            json={"action": mine["legal"][0]["action"], "version": mine["version"]},
        )
        assert r.status_code == 200, r.text
    assert v["terminal"]
    step = 3
    spectator = client.get(f"/api/games/{gid}/replay", params={"step": step}).json()
    assert spectator["seat"] is None and isinstance(spectator["view"]["hands"][0], int)
    for seat, tok in toks.items():
        r = client.get(f"/api/games/{gid}/replay", params={"step": step}, headers=auth(tok))
        assert r.status_code == 200, r.text
        own = r.json()
        assert own["seat"] == seat and own["legal"] == []
        assert isinstance(own["view"]["hands"][seat], list)
        assert isinstance(own["view"]["hands"][1 - seat], int)
        assert all(x["index"] < step for x in own["log"])
        assert [x["n"] for x in own["log"]] == list(range(1, len(own["log"]) + 1))
    bad = client.get(f"/api/games/{gid}/replay", params={"step": 1}, headers=auth("forged"))
    assert bad.status_code == 401  # a wrong token: the credentials are bad


def test_the_score_table_names_its_columns_and_keeps_counts_apart_from_points(client):
    # The short game (two reshuffles): the book's unlimited deck lets random bots play 1000
    # rounds, which is slow to settle on a loaded machine and tests nothing more here.
    made = create(
        client, "stars-are-right", ["random", "random"], seed=2, options={"reshuffles": 2}
    )
    gid = made["id"]
    settle(client, gid)
    v = view(client, gid)
    assert v["terminal"]
    parts = {p["key"]: p for p in v["score_parts"]}
    assert parts["creatures"]["points"] is False
    assert all(p["label"] and "_" not in p["label"] for p in parts.values())
    for row, total in zip(v["breakdown"], v["scores"], strict=True):
        assert sum(row[k] for k, p in parts.items() if p["points"]) == total


def test_a_name_taken_after_the_view_was_sent_reaches_the_cached_encoding(client):
    """The encoded view (cached per viewer) is made again when a seat gets its name: the
    seats, the board and the log in words all say the new name, on GET and on the socket."""
    made = create(client, "shooting-star", ["human", "human"], names=["Ann"])
    gid, tok = made["id"], made["tokens"][0]["token"]
    settle(client, gid)
    before = view(client, gid)  # the spectator's encoding is now cached
    assert before["seats"][1]["name"] != "Bob"
    # Seat 0 moves first while seat 1 still has its default name.
    v = view(client, gid, tok)
    assert v["current_players"] == [0]
    r = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(tok),
        json={"action": v["legal"][0]["action"], "version": v["version"]},
    )
    assert r.status_code == 200, r.text
    view(client, gid)
    code = made["invites"][0]["code"]
    r = client.post(f"/api/games/{gid}/claim", json={"invite": code, "name": "Bob"})
    assert r.status_code == 200, r.text
    after = view(client, gid)
    assert after["seats"][1]["name"] == "Bob"
    assert "Bob \u00b7 " in after["svg"]
    bob = r.json()["token"]
    mine = view(client, gid, bob)
    assert mine["seats"][1]["name"] == "Bob" and "Bob \u00b7 " in mine["svg"]
    assert mine["current_players"] == [1]
    r = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(bob),
        json={"action": mine["legal"][0]["action"], "version": mine["version"]},
    )
    assert r.status_code == 200, r.text
    assert any(x["text"].startswith("Bob ") for x in view(client, gid)["log"])
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({})
        pushed = ws.receive_json()["data"]
    assert pushed["seats"][1]["name"] == "Bob" and pushed == view(client, gid)
