"""Profiles and moderation (issue 53 items 2 and 6): a member's games played and won per
game, recent games with replays each viewer sees as they may, the ratings slot; a club admin
made by ``nightsky admin create`` hides a chat line and suspends an account, every act in
``moderation_log``, nobody else may."""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from nightsky.cli import _load_commands
from nightsky.cli.app import app as cli
from tests.server.conftest import auth, ws_connect
from tests.server.test_accounts import PASSWORD, csrf, second, sign_in, sign_up


def two_members_finish_a_game(client) -> tuple[Any, str, str, str, dict[str, Any]]:
    """Ada (``client``) creates a two-seat table, Bob claims the other seat, they play it
    out. (Bob's client, the game id, both CSRF tokens, the seat tokens and the winners.)"""
    ada = sign_up(client, "Ada")
    bob_client = second(client)
    bob = sign_up(bob_client, "Bob")
    made = client.post(
        "/api/games", json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"]},
        headers=csrf(ada),
    ).json()
    gid = made["id"]
    r = bob_client.post(f"/api/games/{gid}/claim", json={"invite": made["invites"][0]["code"]},
                        headers=csrf(bob))
    tokens = {"ada": made["tokens"][0]["token"], "bob": r.json()["token"]}
    for _ in range(40):  # each plays "keep" when it can: the game ends
        views = [client.get(f"/api/games/{gid}/view", headers=auth(t)).json()
                 for t in tokens.values()]
        if views[0]["terminal"]:
            break
        for v, t in zip(views, tokens.values(), strict=True):
            if v["legal"]:
                act = "keep" if any(x["action"] == "keep" for x in v["legal"]) else \
                    v["legal"][0]["action"]
                r = client.post(f"/api/games/{gid}/actions", headers=auth(t),
                                json={"action": act, "version": v["version"]})
                assert r.status_code == 200, r.text
                break
    assert views[0]["terminal"]
    tokens["winners"] = views[0]["winners"]
    return bob_client, gid, ada, bob, tokens


def test_a_profile_counts_games_and_shows_each_viewer_what_they_may_see(client):
    bob_client, gid, ada, _bob, tokens = two_members_finish_a_game(client)
    private = client.post(
        "/api/games", json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"]},
        headers=csrf(ada),
    ).json()["id"]
    anon = second(client)
    seen = anon.get("/api/users/ADA").json()  # names ignore case
    assert seen["name"] == "Ada" and seen["member_since"]
    ada_won, bob_won = int(0 in tokens["winners"]), int(1 in tokens["winners"])
    assert seen["games"] == [
        {"game": "toy-secret-sum", "title": seen["games"][0]["title"], "played": 1,
         "won": ada_won}
    ]
    assert [g["id"] for g in seen["recent"]] == [gid]  # the private table in play is hidden
    assert seen["recent"][0]["won"] is bool(ada_won) and seen["recent"][0]["replay"]
    assert [p["member"] for p in seen["recent"][0]["players"]] == ["Ada", "Bob"]
    assert seen["ratings"] == []
    own = client.get("/api/users/ada").json()
    assert {g["id"] for g in own["recent"]} == {gid, private}
    bobs = anon.get("/api/users/bob").json()
    assert bobs["games"][0]["played"] == 1 and bobs["games"][0]["won"] == bob_won
    assert anon.get("/api/users/nobody").status_code == 404

    # The replay: Ada signed in on a new device (no token) sees her own seat, like her token;
    # a stranger sees the spectator's replay.
    steps = anon.get(f"/api/games/{gid}/replay").json()["steps"]
    laptop = second(client)
    assert sign_in(laptop).status_code == 200
    hers = laptop.get(f"/api/games/{gid}/replay", params={"step": steps}).json()
    by_token = anon.get(f"/api/games/{gid}/replay", params={"step": steps},
                        headers=auth(tokens["ada"])).json()
    stranger = anon.get(f"/api/games/{gid}/replay", params={"step": steps}).json()
    assert hers["seat"] == 0 and hers == by_token
    assert stranger["seat"] is None and stranger["view"] != hers["view"]
    assert bob_client.get(f"/api/games/{gid}/replay").json()["seat"] == 1


def test_the_profile_reads_ratings_when_the_club_provides_them(client):
    sign_up(client, "Ada")

    class Ratings:
        def for_account(self, account_id: int) -> list[dict[str, Any]]:
            return [{"game": "shooting-star", "players": 2, "rating": 1500 + account_id}]

    client.app.state.ratings = Ratings()
    got = client.get("/api/users/ada").json()["ratings"]
    assert got and got[0]["rating"] > 1500


def make_admin(db_url: str, name: str) -> Any:
    _load_commands()
    return CliRunner().invoke(cli, ["admin", "create", name, "--db", db_url],
                              env={"NIGHTSKY_ADMIN_PASSWORD": PASSWORD})


def test_admin_create_makes_an_admin_and_logs_it(client, db_url):
    sign_up(client, "Ada")
    result = make_admin(db_url, "Root")
    assert result.exit_code == 0, result.output
    assert "Root is a club admin (made)" in result.output
    assert make_admin(db_url, "ada").exit_code == 0  # an existing account is promoted
    root = second(client)
    assert sign_in(root, "Root").json()["account"]["is_admin"] is True
    assert client.get("/api/account").json()["account"]["is_admin"] is True
    log = root.get("/api/admin/log").json()["entries"]
    assert [e["action"] for e in log] == ["make_admin", "make_admin"]
    bad = make_admin(db_url, "no spaces allowed")
    assert bad.exit_code != 0 and "user name" in bad.output
    printed = CliRunner().invoke(cli, ["admin", "log", "--db", db_url])
    assert printed.exit_code == 0 and printed.output.count("make_admin") == 2


def test_an_admin_hides_a_chat_line_and_suspends_an_account(client, db_url):
    bob_client, gid, ada, bob, tokens = two_members_finish_a_game(client)
    r = bob_client.post(f"/api/games/{gid}/chat", json={"text": "rude words"},
                        headers=auth(tokens["bob"]))
    assert r.status_code == 200, r.text
    line = r.json()["id"]
    # Ada is no admin: refused, nothing hidden
    r = client.post(f"/api/admin/chat/{line}/hide", headers=csrf(ada))
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_admin"
    assert make_admin(db_url, "Root").exit_code == 0
    root = second(client)
    root_csrf = sign_in(root, "Root").json()["csrf"]
    r = root.post(f"/api/admin/chat/{line}/hide")  # no CSRF token
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    assert [x["text"] for x in client.get(f"/api/games/{gid}/chat").json()["lines"]] == [
        "rude words"
    ]
    with ws_connect(second(client), gid) as watcher:
        watcher.receive_json()  # the view
        r = root.post(f"/api/admin/chat/{line}/hide", headers=csrf(root_csrf))
        assert r.status_code == 200
        assert watcher.receive_json() == {"type": "chat_hidden", "data": {"id": line}}
    assert client.get(f"/api/games/{gid}/chat").json()["lines"] == []
    assert root.post("/api/admin/chat/999999/hide", headers=csrf(root_csrf)).status_code == 404

    r = root.post("/api/admin/accounts/bob/suspend", json={}, headers=csrf(root_csrf))
    assert r.status_code == 200 and r.json() == {"name": "Bob", "suspended": True}
    assert bob_client.get("/api/account").json()["account"] is None  # its session ended
    r = sign_in(second(client), "Bob")
    assert r.status_code == 403 and r.json()["error"]["code"] == "suspended"
    assert second(client).get("/api/users/bob").json()["suspended"] is True
    r = root.post("/api/admin/accounts/bob/suspend", json={"suspended": False},
                  headers=csrf(root_csrf))
    assert r.status_code == 200 and sign_in(second(client), "Bob").status_code == 200
    assert bob  # (Bob's own token is gone with the session; a new sign-in works)

    actions = [(e["action"], e["target"]) for e in root.get("/api/admin/log").json()["entries"]]
    bob_target = actions[0][1]
    assert bob_target.startswith("account:")
    assert actions[:3] == [
        ("unsuspend", bob_target), ("suspend", bob_target), ("hide_chat", f"chat:{gid}:{line}")
    ]
    assert client.get("/api/admin/log").status_code == 403
