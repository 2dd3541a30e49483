"""Rematches under the database's guarantees (issue 52): any number of concurrent accepts in
any number of processes make exactly one table; no secret reaches a log line or a traceback."""

from __future__ import annotations

import logging
import threading
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from nightsky.server.logs import RedactSecrets
from nightsky.server.rematch import Rematches, new_token
from nightsky.server.rooms import Manager, NewGame, ServerError
from nightsky.server.settings import Settings
from nightsky.server.store import GameRow, Store


def _manager(url: str) -> Manager:
    m = Manager(Store(url), bot_workers=1, bot_delay=0, settings=Settings(bot_processes=0))
    m.start()
    return m


def test_concurrent_accepts_over_two_processes_make_one_table(pg_url: str) -> None:
    """Two managers (two processes' worth of rooms, locks and connections) on one PostgreSQL
    database; 12 threads on each accept at once, for both seats."""
    a, b = _manager(pg_url), _manager(pg_url)
    try:
        made = a.create(NewGame("shooting-star", ["human", "human"], players=2), client="c")
        gid, tokens = made.room.id, {0: str(made.token)}
        assert made.token is not None
        for code in made.invites.values():
            seat, tok = made.room.claim(code, None)
            tokens[seat] = tok
        made.room.resign(1)  # two players: the table ends now
        assert made.room.over
        rematch = {"a": Rematches(a), "b": Rematches(b)}
        answers: list[Any] = []
        start = threading.Barrier(24)

        def accept(i: int) -> None:
            m, r = (a, rematch["a"]) if i % 2 else (b, rematch["b"])
            seat = (i // 2) % 2
            start.wait()
            try:
                answers.append(r.offer(m.get(gid), seat, tokens[seat]))
            except ServerError as exc:
                answers.append(exc)
            except Exception as exc:  # a 5xx
                answers.append(("crash", exc))

        threads = [threading.Thread(target=accept, args=(i,)) for i in range(24)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not [x for x in answers if isinstance(x, tuple)], answers
        assert all(x.status < 500 for x in answers if isinstance(x, ServerError))
        with Session(a.store.engine) as s:
            tables = s.execute(select(GameRow.id).where(GameRow.id != gid)).scalars().all()
        assert len(tables) == 1, tables
        new_ids = {x["new_id"] for x in answers if isinstance(x, dict) and x["new_id"]}
        new_ids |= {x.extra.get("new_id") for x in answers if isinstance(x, ServerError)}
        assert new_ids - {None} == set(tables)
        # Both seats hold their new token there, once.
        row = rematch["a"].status(a.get(gid), 0, tokens[0])
        assert row["state"] == "done" and row["token"]
    finally:
        for m in (a, b):
            m.close()
            m.store.close()


def test_no_secret_in_a_log_line_or_its_traceback(caplog: Any) -> None:
    nonce, token = "Zx81kLmn0PqRsTuv", "a1B2c3D4e5F6g7H8i9J0kLmN"
    secret = new_token(nonce, 0, token)
    log = logging.getLogger("nightsky.test.redact")
    handler = logging.Handler()
    lines: list[str] = []
    fmt = logging.Formatter()
    handler.emit = lambda record: lines.append(fmt.format(record))  # type: ignore[method-assign]
    handler.addFilter(RedactSecrets())
    log.addHandler(handler)
    try:
        try:
            raise RuntimeError(
                f"duplicate key: Key (nonce)=({nonce}) [parameters: ('{secret}', '{token}')]"
            )
        except RuntimeError:
            log.exception("rematch of game %s failed with %r", "abc123", token)
    finally:
        log.removeHandler(handler)
    text = "\n".join(lines)
    assert "Traceback" in text and "RuntimeError" in text and "abc123" in text
    for value in (nonce, token, secret):
        assert value not in text, value


def test_a_seat_link_changes_hands_once_and_the_log_says_so(client: Any) -> None:
    """The creator claims the friend's invite and sends the seat's own link: the friend's
    browser, opening it, gets a fresh token; the creator's copy stops working."""
    from tests.server.conftest import auth, create

    made = create(client, "shooting-star", ["human", "human"])
    gid = made["id"]
    kept = client.post(f"/api/games/{gid}/claim", json={"invite": made["invites"][0]["code"]})
    link = kept.json()["token"]  # the creator holds seat 1's token and sends /g/ID#token=...
    r = client.post(f"/api/games/{gid}/handover", headers=auth(link))
    assert r.status_code == 200 and r.json()["seat"] == 1
    fresh = r.json()["token"]
    assert client.get(f"/api/games/{gid}/view", headers=auth(link)).status_code == 401
    again = client.post(f"/api/games/{gid}/handover", headers=auth(link))
    assert again.status_code == 401 and again.json()["error"]["code"] == "bad_token"
    view = client.get(f"/api/games/{gid}/view", headers=auth(fresh)).json()
    assert view["seat"] == 1
    assert any("took seat 2 on a new device" in n["text"] for n in view["notices"]), view


def test_a_rematch_counts_as_a_create_against_the_rate(db_url: str) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from nightsky.server import create_app
    from tests.server.conftest import auth, create

    with TestClient(create_app(db_url, settings=Settings(rate_create="2/minute"))) as c:
        made = create(c, "shooting-star", ["human", "human"])
        gid, tok = made["id"], made["tokens"][0]["token"]
        assert c.post(f"/api/games/{gid}/resign", headers=auth(tok)).status_code == 200
        first = c.post(f"/api/games/{gid}/rematch", headers=auth(tok))  # the 2nd create
        assert first.status_code == 200, first.text
        again = c.post(f"/api/games/{gid}/rematch", headers=auth(tok))  # the 3rd: refused
        assert again.status_code == 429 and int(again.headers["Retry-After"]) >= 1
