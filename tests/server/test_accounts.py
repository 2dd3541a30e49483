"""Accounts (issue 53 item 1): sign up and in with argon2id passwords, server-side sessions
behind an HttpOnly SameSite cookie, CSRF on every cookie-authenticated change, sign-in
back-off, one answer for unknown names and wrong passwords, sign out everywhere, change
password, no session fixation, and seats that belong to the account ("your games" on any
device, no token)."""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.accounts import SESSION_COOKIE
from nightsky.server.accounts.tables import AccountRow, SessionRow
from nightsky.server.settings import Settings
from tests.server.conftest import auth, create

PASSWORD = "correct horse battery"


def sign_up(client: TestClient, name: str = "Ada", password: str = PASSWORD) -> str:
    """Sign ``client`` up as ``name``; its CSRF token."""
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf"])


def sign_in(client: TestClient, name: str = "Ada", password: str = PASSWORD) -> Any:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def csrf(token: str) -> dict[str, str]:
    return {"X-CSRF-Token": token}


def second(client: TestClient) -> TestClient:
    """Another browser on the same server (its own cookie jar)."""
    return TestClient(client.app)


def test_sign_up_sets_an_httponly_samesite_cookie_and_stores_only_hashes(client):
    token = sign_up(client)
    cookie = client.cookies.get(SESSION_COOKIE)
    assert cookie and token
    r = client.post("/api/account/signup", json={"name": "Eve", "password": PASSWORD})
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    store = client.app.state.manager.store
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    with Session(store.engine) as s:
        row = s.scalars(select(AccountRow).where(AccountRow.name == "Ada")).one()
        assert row.password_hash.startswith("$argon2id$")  # type: ignore[union-attr]
        assert PASSWORD not in row.password_hash  # type: ignore[operator]
        secrets_kept = [x.id_hash for x in s.scalars(select(SessionRow))]
    assert cookie not in secrets_kept  # only its SHA-256


def test_cookie_is_secure_under_https(db_url):
    with TestClient(create_app(db_url), base_url="https://club.example") as c:
        r = c.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD})
        assert r.status_code == 201
        assert "secure" in r.headers["set-cookie"].lower()


def test_names_are_unique_ignoring_case_and_checked(client):
    sign_up(client, "Ada")
    r = second(client).post("/api/account/signup", json={"name": "ADA", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    for bad, field in [("a", "name"), ("no spaces", "name"), ("../x", "name")]:
        r = client.post("/api/account/signup", json={"name": bad, "password": PASSWORD})
        assert r.status_code == 422 and r.json()["error"]["field"] == field
    r = client.post("/api/account/signup", json={"name": "Bob", "password": "short"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_password"
    r = client.post("/api/account/signup", json={
        "name": "Bob", "password": PASSWORD, "display_name": "Bob\u202egnp.exe"})
    assert r.status_code == 422 and "display_name" in r.text  # a bidi override
    assert second(client).get("/api/users/bob").status_code == 404  # nothing was made


def test_unknown_name_and_wrong_password_get_the_same_answer_in_similar_time(client):
    sign_up(client, "Ada")
    anon = second(client)

    def timed(name: str) -> tuple[int, Any, float]:
        t = time.perf_counter()
        r = sign_in(anon, name, "wrong password!")
        return r.status_code, r.json(), time.perf_counter() - t

    wrong = [timed("Ada") for _ in range(3)]
    unknown = [timed("Nobody") for _ in range(3)]
    assert {(c, str(b)) for c, b, _ in wrong} == {(c, str(b)) for c, b, _ in unknown}
    assert wrong[0][0] == 401 and wrong[0][1]["error"]["code"] == "bad_credentials"
    # both verify an argon2 hash: the unknown name is not answered markedly faster
    fast = min(t for _, _, t in unknown)
    assert fast > 0.3 * min(t for _, _, t in wrong)


def test_ten_wrong_passwords_get_429_with_retry_after_then_back_off(db_url):
    settings = Settings(sign_in_tries=10, sign_in_lock_seconds=0.5, rate_claim="1000/minute")
    with TestClient(create_app(db_url, settings=settings)) as c:
        sign_up(c, "Ada")
        anon = second(c)
        codes = [sign_in(anon, "Ada", f"wrong {i} password").status_code for i in range(10)]
        assert codes == [401] * 9 + [429]
        r = sign_in(anon, "Ada")  # even the right password waits out the back-off
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        time.sleep(0.6)
        assert sign_in(anon, "Ada", "still wrong!").status_code == 429  # doubled: 1 s now
        time.sleep(1.1)
        assert sign_in(anon, "Ada").status_code == 200


def test_a_change_with_the_cookie_but_without_the_csrf_token_is_refused(client):
    token = sign_up(client)
    for path, body in [
        ("/api/account/signout", None),
        ("/api/account/signout-everywhere", None),
        ("/api/account/password", {"old": PASSWORD, "new": "another password"}),
    ]:
        r = client.post(path, json=body)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed", path
        r = client.post(path, json=body, headers=csrf("forged" + token[6:]))
        assert r.status_code == 403, path
    assert client.get("/api/account").json()["account"]["name"] == "Ada"  # nothing changed
    assert sign_in(second(client)).status_code == 200  # the password did not change


def test_sign_in_from_another_site_is_refused(client):
    sign_up(client)
    r = client.post(
        "/api/account/signin", json={"name": "Ada", "password": PASSWORD},
        headers={"origin": "https://evil.example"},
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_origin"
    r = client.post(
        "/api/account/signin", json={"name": "Ada", "password": PASSWORD},
        headers={"sec-fetch-site": "cross-site", "origin": "null"},
    )
    assert r.status_code == 403
    # a form can post no JSON body: another site's form gets nothing either
    r = client.post("/api/account/signin", data={"name": "Ada", "password": PASSWORD})
    assert r.status_code == 422 and SESSION_COOKIE not in r.headers.get("set-cookie", "")
    r = client.post(  # this server's own page
        "/api/account/signin", json={"name": "Ada", "password": PASSWORD},
        headers={"sec-fetch-site": "same-origin", "origin": "null"},
    )
    assert r.status_code == 200


def test_sign_in_starts_a_new_session_no_fixation(client):
    sign_up(client)
    planted = client.cookies.get(SESSION_COOKIE)
    r = sign_in(client)
    assert r.status_code == 200
    fresh = client.cookies.get(SESSION_COOKIE)
    assert fresh and fresh != planted
    other = second(client)
    other.cookies.set(SESSION_COOKIE, planted)  # whoever knew the old id has nothing
    assert other.get("/api/account").json()["account"] is None
    # an id the server never issued is not adopted either
    other = second(client)
    other.cookies.set(SESSION_COOKIE, "attacker-chosen-session-id")
    assert other.get("/api/account").json()["account"] is None
    r = sign_in(other)
    assert r.status_code == 200
    issued = r.cookies.get(SESSION_COOKIE)
    assert issued and issued != "attacker-chosen-session-id"


def test_sign_out_everywhere_ends_every_device(client):
    token = sign_up(client)
    phone = second(client)
    assert sign_in(phone).status_code == 200
    assert phone.get("/api/account").json()["account"]["name"] == "Ada"
    r = client.post("/api/account/signout-everywhere", headers=csrf(token))
    assert r.status_code == 200
    assert phone.get("/api/account").json()["account"] is None
    assert client.get("/api/account").json()["account"] is None


def test_sign_out_ends_only_this_session(client):
    token = sign_up(client)
    phone = second(client)
    assert sign_in(phone).status_code == 200
    assert client.post("/api/account/signout", headers=csrf(token)).status_code == 200
    assert client.get("/api/account").json()["account"] is None
    assert phone.get("/api/account").json()["account"]["name"] == "Ada"


def test_change_password_ends_the_other_sessions(client):
    token = sign_up(client)
    phone = second(client)
    assert sign_in(phone).status_code == 200
    r = client.post("/api/account/password", json={"old": "not it at all", "new": "x" * 12},
                    headers=csrf(token))
    assert r.status_code == 401
    r = client.post("/api/account/password", json={"old": PASSWORD, "new": "new password 1"},
                    headers=csrf(token))
    assert r.status_code == 200, r.text
    assert client.get("/api/account").json()["account"]["name"] == "Ada"  # this one stays
    assert phone.get("/api/account").json()["account"] is None
    assert sign_in(second(client)).status_code == 401
    assert sign_in(second(client), password="new password 1").status_code == 200


def test_a_signed_in_players_seats_follow_the_account_to_another_device(client):
    token = sign_up(client)
    made = client.post(
        "/api/games", json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"]},
        headers=csrf(token),
    ).json()
    gid = made["id"]
    # the friend claims the other seat anonymously: exactly as before accounts
    friend = second(client)
    r = friend.post(f"/api/games/{gid}/claim", json={"invite": made["invites"][0]["code"]})
    assert r.status_code == 200

    laptop = second(client)
    assert laptop.get("/api/account/games").status_code == 401
    assert sign_in(laptop).status_code == 200
    games = laptop.get("/api/account/games").json()["games"]
    assert [(g["id"], g["seat"], g["known"]) for g in games] == [(gid, 0, True)]
    laptop_csrf = laptop.get("/api/account").json()["csrf"]
    r = laptop.post(f"/api/games/{gid}/seat", headers=csrf(laptop_csrf))
    assert r.status_code == 200 and r.json()["seat"] == 0
    view = laptop.get(f"/api/games/{gid}/view", headers=auth(r.json()["token"])).json()
    assert view["seat"] == 0
    # the seat moved: the first device's token is retired, as when a seat link is opened
    old = made["tokens"][0]["token"]
    r = client.get(f"/api/games/{gid}/view", headers=auth(old))
    assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
    # the friend's account plays nothing there
    friend_csrf = sign_up(friend, "Bob")
    r = friend.post(f"/api/games/{gid}/seat", headers=csrf(friend_csrf))
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_your_game"


def test_a_change_without_the_csrf_token_plays_anonymously_and_binds_nothing(client):
    sign_up(client)
    made = create(client, "toy-secret-sum", ["human", "random"])  # no X-CSRF-Token
    assert made["tokens"][0]["token"]
    assert client.get("/api/account/games").json()["games"] == []


def test_leaving_an_unfinished_table_unbinds_the_seat(client):
    host = second(client)
    made = create(host, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    token = sign_up(client)
    r = client.post(f"/api/games/{gid}/claim", json={"invite": made["invites"][0]["code"]},
                    headers=csrf(token))
    assert r.status_code == 200
    games = client.get("/api/account/games").json()["games"]
    assert [(g["id"], g["seat"]) for g in games] == [(gid, 1)]
    r = client.post(f"/api/games/{gid}/leave", headers={**auth(r.json()["token"]), **csrf(token)})
    assert r.status_code == 200, r.text
    assert client.get("/api/account/games").json()["games"] == []


@pytest.mark.parametrize("path", ["/api/account/games", "/api/account"])
def test_a_forged_or_expired_cookie_is_nobody(client, path):
    client.cookies.set(SESSION_COOKIE, "x" * 43)
    r = client.get(path)
    assert r.status_code in (200, 401)
    if r.status_code == 200:
        assert r.json()["account"] is None


@pytest.mark.slow
def test_two_server_processes_share_sessions_and_the_back_off(pg_url):
    """Two apps on one PostgreSQL database (as two processes of `serve --workers 2`): a
    session made by one is good on the other, signing out on one ends it on both, and wrong
    passwords sent to both count together."""
    settings = Settings(rate_claim="1000/minute")
    with TestClient(create_app(pg_url, settings=settings)) as a, \
            TestClient(create_app(pg_url, settings=settings)) as b:
        token = sign_up(a)
        b.cookies.set(SESSION_COOKIE, a.cookies.get(SESSION_COOKIE) or "")
        assert b.get("/api/account").json()["account"]["name"] == "Ada"
        assert b.post("/api/account/signout", headers=csrf(token)).status_code == 200
        assert a.get("/api/account").json()["account"] is None
        codes = [sign_in(c, "Ada", "wrong password").status_code
                 for c in [TestClient(a.app), TestClient(b.app)] * 5]
        assert codes == [401] * 9 + [429]
