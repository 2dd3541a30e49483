"""Fixtures of the server tests: an app on a fresh SQLite file, and helpers to play."""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from tests.support.pg import TempPostgres, pg_bin

IN_CI = bool(os.environ.get("CI"))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite file; or, with NIGHTSKY_TEST_DB_URL (e.g. a PostgreSQL URL), that
    database emptied first."""
    url = os.environ.get("NIGHTSKY_TEST_DB_URL")
    if not url:
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    from nightsky.server.store import Base, Store

    store = Store(url)
    Base.metadata.drop_all(store.engine)
    with store.engine.begin() as conn:  # the next Store upgrades it from scratch
        conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    store.close()
    return url


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    r = client.post(
        "/api/games", json={"game": game, "players": len(seats), "seats": seats, **extra}
    )
    assert r.status_code == 201, r.text
    return r.json()


def settle(client: TestClient, gid: str) -> None:
    """Wait until the bots of ``gid`` have nothing left to do."""
    mgr = client.app.state.manager  # type: ignore[attr-defined]
    assert mgr.wait_idle(mgr.get(gid))


def seat_tokens(client: TestClient, made: dict[str, Any]) -> dict[int, str]:
    """Every human seat's token, in the new flow: the creator's own, and the others claimed
    with their one-time invites (hot-seat play from one client)."""
    out = {t["seat"]: t["token"] for t in made["tokens"]}
    for inv in made["invites"]:
        r = client.post(f"/api/games/{made['id']}/claim", json={"invite": inv["code"]})
        assert r.status_code == 200, r.text
        out[r.json()["seat"]] = r.json()["token"]
    return dict(sorted(out.items()))


def ws_connect(client: TestClient, gid: str, token: str | None = None, **kwargs: Any) -> Any:
    """Open the push socket and send the hello (the token travels in it, never in the URL)."""
    ws = client.websocket_connect(f"/api/games/{gid}/ws", **kwargs)
    return _Hello(ws, token)


class _Hello:
    def __init__(self, ws: Any, token: str | None) -> None:
        self.ws, self.token = ws, token

    def __enter__(self) -> Any:
        sock = self.ws.__enter__()
        sock.send_json({"token": self.token} if self.token else {})
        return sock

    def __exit__(self, *exc: Any) -> Any:
        return self.ws.__exit__(*exc)


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    """One throw-away PostgreSQL cluster for the session (skipped only outside CI when no
    server binaries are installed: `make test` installs them)."""
    if pg_bin() is None and not IN_CI:
        pytest.skip("no PostgreSQL server binaries (initdb): `make test` installs them")
    if not IN_CI:
        pytest.importorskip("psycopg", reason="the postgres extra (psycopg) is not installed")
    with TempPostgres() as pg:
        yield pg


@pytest.fixture
def pg_url(postgres: TempPostgres) -> str:
    """A fresh database of the session's cluster."""
    import psycopg

    name = "t_" + secrets.token_hex(6)
    with psycopg.connect(postgres.url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres.url.rsplit("/", 1)[0] + "/" + name
