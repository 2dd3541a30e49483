"""Fixtures of the server tests: an app on a fresh SQLite file, and helpers to play."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app


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
