"""The HTTP API: create, view, act, stale versions, errors, undo, record, replay, lobby."""

from __future__ import annotations

from nightsky.core.record import replay
from tests.server.conftest import auth, create, seat_tokens, settle


def view(client, gid, token=None):
    r = client.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def test_play_a_whole_game_against_a_bot_and_download_its_record(client):
    made = create(client, "toy-secret-sum", ["human", "greedy"], seed=7)
    gid, tok = made["id"], made["tokens"][0]["token"]
    assert made["you"] == 0 and made["tokens"][0]["invite"].endswith(f"/g/{gid}#token={tok}")
    assert client.get(f"/api/games/{gid}/record").json()["error"]["code"] == "game_not_over"
    for _ in range(20):
        settle(client, gid)
        v = view(client, gid, tok)
        if v["terminal"]:
            break
        assert v["seat"] == 0 and v["legal"], v
        assert {c["action"] for c in v["legal"]} <= {"keep", "swap0", "swap1"}
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=auth(tok),
            json={"action": v["legal"][-1]["action"], "version": v["version"]},
        )
        assert r.status_code == 200, r.text
        assert r.json()["version"] > v["version"]
    assert v["terminal"] and v["status"] == "over"
    assert v["scores"] and v["breakdown"][0]["total"] == v["scores"][0]
    rec = client.get(f"/api/games/{gid}/record").json()
    final = replay(rec)  # checks the recorded result
    assert final.scores() == v["scores"] and final.winners() == v["winners"]
    step = client.get(f"/api/games/{gid}/replay", params={"step": 3}).json()
    assert step["step"] == 3 and len(step["log"]) == 3 and step["legal"] == []
    assert client.get(f"/api/games/{gid}/replay", params={"step": 999}).status_code == 422


def test_stale_version_is_409_with_the_current_version_and_changes_nothing(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid, tok = made["id"], made["tokens"][0]["token"]
    v = view(client, gid, tok)
    r = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(tok),
        json={"action": "keep", "version": v["version"] - 1},
    )
    assert r.status_code == 409
    assert r.json()["error"] == {
        "code": "stale_version",
        "message": r.json()["error"]["message"],
        "current_version": v["version"],
    }
    assert view(client, gid, tok)["log"] == v["log"]


def test_illegal_action_is_422_naming_the_rule(client):
    # Three seats deal six of the eight cards; two swaps empty the deck, then swaps are illegal.
    made = create(client, "toy-secret-sum", ["human", "human", "human"])
    gid = made["id"]
    toks = list(seat_tokens(client, made).values())
    for seat in (0, 1):
        v = view(client, gid, toks[seat])
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=auth(toks[seat]),
            json={"action": "swap0", "version": v["version"]},
        )
        assert r.status_code == 200, r.text
    v = view(client, gid, toks[2])
    assert [c["action"] for c in v["legal"]] == ["keep"]
    r = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(toks[2]),
        json={"action": "swap1", "version": v["version"]},
    )
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "illegal_action" and r.json()["error"]["rule"] == "TOY-2"
    assert view(client, gid, toks[2])["version"] == v["version"]


def test_spectators_see_view_none_and_cannot_act(client):
    made = create(client, "toy-secret-sum", ["human", "random"])
    gid = made["id"]
    v = view(client, gid)
    assert v["seat"] is None and v["legal"] == [] and v["view"]["viewer"] is None
    assert all(isinstance(h, int) for h in v["view"]["hands"])  # counts only
    assert not any(line["text"].startswith("draw") for line in v["log"])
    r = client.post(f"/api/games/{gid}/actions", json={"action": "keep", "version": v["version"]})
    assert r.status_code == 401 and r.json()["error"]["code"] == "token_required"
    assert r.headers["www-authenticate"] == "Bearer"


def test_undo_own_last_action_only_when_nothing_was_revealed(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    t0, t1 = seat_tokens(client, made).values()
    v = view(client, gid, t0)
    assert not v["can_undo"]
    after = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(t0),
        json={"action": "keep", "version": v["version"]},
    ).json()
    assert after["can_undo"]
    # The other seat may not undo it.
    r = client.post(f"/api/games/{gid}/undo", headers=auth(t1), json={"version": after["version"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_unsafe"
    back = client.post(
        f"/api/games/{gid}/undo", headers=auth(t0), json={"version": after["version"]}
    )
    assert back.status_code == 200, back.text
    back = back.json()
    assert (
        back["log"] == v["log"] and back["view"] == v["view"] and back["version"] > after["version"]
    )
    # A swap draws a card (chance): nothing to take back afterwards.
    drew = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(t0),
        json={"action": "swap0", "version": back["version"]},
    ).json()
    assert not drew["can_undo"]
    r = client.post(f"/api/games/{gid}/undo", headers=auth(t0), json={"version": drew["version"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_unsafe"


def test_lobby_lists_open_seats_and_join_gives_a_working_token(client):
    made = create(
        client, "toy-secret-sum", ["human", "human", "random"], names=["Ann"], listed=True
    )
    gid = made["id"]
    entry = next(g for g in client.get("/api/lobby").json() if g["id"] == gid)
    assert entry["open_seats"] == [1] and entry["seats"][0]["name"] == "Ann"
    j = client.post(f"/api/games/{gid}/join", json={"name": "Bob"}).json()
    assert j["seat"] == 1
    assert view(client, gid, j["token"])["seat"] == 1
    assert view(client, gid)["seats"][1]["name"] == "Bob"
    # The seat's invite is spent by the join; the seat is no longer open.
    code = made["invites"][0]["code"]
    r = client.post(f"/api/games/{gid}/claim", json={"invite": code})
    assert r.status_code == 410 and r.json()["error"]["code"] == "invite_spent"
    assert client.post(f"/api/games/{gid}/join", json={}).json()["error"]["code"] == "no_free_seat"
    entry = next(g for g in client.get("/api/lobby").json() if g["id"] == gid)
    assert entry["open_seats"] == []


def test_create_refuses_bad_games_options_and_agents(client):
    cases = [
        ({"game": "nope", "seats": ["human"]}, "bad_option"),
        ({"game": "toy-secret-sum", "players": 9, "seats": ["human"] * 9}, "bad_option"),
        ({"game": "toy-secret-sum", "players": 2, "seats": ["human"]}, "bad_seats"),
        ({"game": "toy-secret-sum", "players": 2, "seats": ["human", "wizard"]}, "bad_option"),
        (
            {
                "game": "toy-secret-sum",
                "players": 2,
                "seats": ["human", "random"],
                "options": {"colour": 1},
            },
            "bad_option",
        ),
        ({"game": "toy-secret-sum", "seats": ["human", "random"], "bogus": 1}, "validation_error"),
    ]
    for body, code in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] == code, (body, r.json())
    assert client.get("/api/lobby").json() == []


def test_catalog_lists_every_game_with_options_and_agents(client):
    cat = client.get("/api/catalog").json()
    ids = {g["id"] for g in cat["games"]}
    assert {"shooting-star", "starlight", "toy-secret-sum"} <= ids
    toy = next(g for g in cat["games"] if g["id"] == "toy-secret-sum")
    assert toy["options"][0]["name"] == "label" and toy["default_players"] == 2
    assert {"random", "greedy"} <= set(cat["agents"])


def test_catalog_gives_each_game_its_levels_and_a_level_seats_a_bot(client):
    cat = client.get("/api/catalog").json()
    star = next(g for g in cat["games"] if g["id"] == "shooting-star")
    assert [lvl["name"] for lvl in star["levels"]] == ["easy", "medium", "hard", "expert"]
    assert all(lvl["strength"] and lvl["spec"] for lvl in star["levels"])
    made = create(client, "shooting-star", ["human", "medium"], seed=3)
    assert view(client, made["id"])["seats"][1]["name"] == "medium bot 1"
    r = client.post(
        "/api/games", json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "hard"]}
    )
    assert r.status_code == 422
    assert "has no difficulty level 'hard'" in r.json()["error"]["message"]


def test_plan_bot_runs_a_level_as_its_games_spec():
    from nightsky.core.registry import load_game
    from nightsky.server.bounds import plan_bot
    from nightsky.server.settings import Settings

    level = load_game("star-fire").info.level("hard")
    assert level is not None and level.spec.startswith("ismcts:")
    plan = plan_bot("hard", Settings(), "star-fire")
    # The level's own spec (a search), not the word "hard" nor a default search.
    assert plan.spec == level.spec and plan.pooled


def test_openapi_documents_the_routes_and_models(client):
    spec = client.get("/openapi.json").json()
    assert "/api/games/{gid}/actions" in spec["paths"]
    schemas = spec["components"]["schemas"]
    assert {"SeatView", "CreateGame", "ErrorBody", "LegalChoice"} <= set(schemas)
    post = spec["paths"]["/api/games/{gid}/actions"]["post"]
    assert {"401", "403", "409", "422"} <= set(post["responses"])


def test_api_docs_load_their_assets_from_this_server_only(client):
    """/docs (Swagger UI) and /redoc name only this server's files (fastapi-offline), so they
    work without internet; the browser test renders them with the network blocked."""
    import re

    for page in ("/docs", "/redoc"):
        r = client.get(page)
        assert r.status_code == 200
        refs = re.findall(r'(?:src|href)="([^"]+)"', r.text)
        assert refs and all(u.startswith("/") for u in refs), refs
        for u in refs:
            assert client.get(u).status_code == 200, u
        assert "'self'" in r.headers["content-security-policy"]


def test_static_client_is_served(client):
    assert client.get("/").status_code == 200
    assert client.get("/g/abc").status_code == 200
    assert client.get("/api/games/zzz/view").json()["error"]["code"] == "game_not_found"


def test_serve_command_is_offered():
    from typer.testing import CliRunner

    from nightsky.cli import _load_commands, app

    _load_commands()
    out = CliRunner().invoke(app, ["serve", "--help"])
    assert out.exit_code == 0
    assert "--port" in out.output and "--db" in out.output


def _post(client, gid, tok, action, version):
    return client.post(
        f"/api/games/{gid}/actions", headers=auth(tok), json={"action": action, "version": version}
    )


def test_simultaneous_turns_a_move_that_leaves_my_choices_alone_does_not_make_mine_stale(client):
    """Mihi Anguli: both seats choose at once. Seat 1 moving bumps the version but not seat 0's
    choices, so seat 0's action on the older version is applied; a seat posting again on the
    version its own move replaced is refused (409)."""
    made = create(client, "mihi-anguli", ["human", "human"])
    gid = made["id"]
    toks = list(seat_tokens(client, made).values())
    v0 = view(client, gid, toks[0])
    v1 = view(client, gid, toks[1])
    assert {0, 1} <= set(v0["current_players"]), "both seats act at once here"
    seen = v0["version"]
    assert _post(client, gid, toks[1], v1["legal"][0]["action"], seen).status_code == 200
    now = view(client, gid, toks[0])
    assert now["version"] > seen
    assert [c["action"] for c in now["legal"]] == [c["action"] for c in v0["legal"]]
    r = _post(client, gid, toks[0], v0["legal"][0]["action"], seen)
    assert r.status_code == 200, r.json()
    assert len(view(client, gid, toks[0])["log"]) == len(now["log"]) + 1
    # Seat 1's own choices changed with its move: its second post on the old version is stale.
    again = _post(client, gid, toks[1], v1["legal"][0]["action"], seen)
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale_version"
    # A version from the future is refused too.
    later = view(client, gid, toks[0])
    if later["legal"]:
        future = _post(client, gid, toks[0], later["legal"][0]["action"], later["version"] + 5)
        assert future.status_code == 409
