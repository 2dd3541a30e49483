"""Migrations (issue 53): Alembic brings any database up to date at start-up. A database
written by the release before accounts (``data/release-0.1.0.sqlite3``, made by
``data/make_release_db.py`` with that release's code) opens with every game intact: moves,
versions, each seat's view through its old token, the spectator's view, records, chat, an
invite never claimed. The models and the revisions agree (no drift), an upgrade twice is a
no-op, and several PostgreSQL processes starting at once do not race it."""

from __future__ import annotations

import json
import shutil
import threading
import warnings
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, select, text

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.migrations import HEAD, current, upgrade
from nightsky.server.settings import Settings
from nightsky.server.store import Base, Store
from tests.server.conftest import auth
from tests.server.data.make_release_db import kept

DATA = Path(__file__).parent / "data"
EXPECTED: dict[str, Any] = json.loads((DATA / "release-0.1.0.json").read_text())
SETTINGS = Settings(bot_processes=0, secret="release-fixture")
OLD_TABLES = ("games", "moves", "chat", "rematches")


def release_db(tmp_path: Path) -> str:
    target = tmp_path / "old.sqlite3"
    shutil.copy(DATA / "release-0.1.0.sqlite3", target)
    return f"sqlite:///{target}"


def check_every_game(c: TestClient) -> None:
    """Each game of the release's database answers as it did under that release."""
    for g in EXPECTED["games"]:
        gid = g["id"]
        for seat, token in g["tokens"].items():
            r = c.get(f"/api/games/{gid}/view", headers=auth(token))
            assert r.status_code == 200, (g["game"], r.text)
            assert kept(r.json()) == g["views"][seat], (g["game"], seat)
        assert kept(c.get(f"/api/games/{gid}/view").json()) == g["spectator"], g["game"]
        lines = c.get(f"/api/games/{gid}/chat").json()["lines"]
        assert [x["text"] for x in lines] == g["chat"]
        assert c.get(f"/api/games/{gid}/record").json() == g["record"]
    # the invite made before the upgrade still gives its seat
    (waiting,) = [g for g in EXPECTED["games"] if g["invites"]]
    seat, code = next(iter(waiting["invites"].items()))
    r = c.post(f"/api/games/{waiting['id']}/claim", json={"invite": code})
    assert r.status_code == 200 and r.json()["seat"] == int(seat)


def test_the_fixture_is_a_database_from_before_alembic():
    engine = create_engine(f"sqlite:///{DATA / 'release-0.1.0.sqlite3'}")
    try:
        names = set(inspect(engine).get_table_names())
        assert names == set(OLD_TABLES)
        with engine.connect() as conn:
            n_moves = conn.execute(text("SELECT count(*) FROM moves")).scalar_one()
        assert n_moves > 100 and len(EXPECTED["games"]) == 5
    finally:
        engine.dispose()


def test_a_release_database_upgrades_with_every_game_intact(tmp_path):
    url = release_db(tmp_path)
    with TestClient(create_app(url, settings=SETTINGS)) as c:
        store = c.app.state.manager.store
        with store.engine.connect() as conn:
            assert current(conn) == HEAD
        assert {"accounts", "seat_accounts", "moderation_log"} <= set(
            inspect(store.engine).get_table_names()
        )
        check_every_game(c)
        # and the new features work on it
        r = c.post("/api/account/signup", json={"name": "Ada", "password": "correct horse"})
        assert r.status_code == 201


def test_upgrading_twice_changes_nothing(tmp_path):
    url = release_db(tmp_path)
    Store(url).close()
    before = _schema(url)
    Store(url).close()
    assert _schema(url) == before


def _schema(url: str) -> dict[str, Any]:
    engine = create_engine(url)
    try:
        insp = inspect(engine)
        return {
            t: (sorted(c["name"] for c in insp.get_columns(t)),
                sorted(str(i["name"]) for i in insp.get_indexes(t)))
            for t in insp.get_table_names()
        }
    finally:
        engine.dispose()


def _drift(url: str) -> list[Any]:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    store = Store(url)
    try:
        with store.engine.connect() as conn:
            return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))
    finally:
        store.close()


def test_the_revisions_build_exactly_the_models(tmp_path):
    """A new database and an upgraded one both match the SQLAlchemy models: a model change
    without its revision fails here."""
    assert _drift(f"sqlite:///{tmp_path / 'new.sqlite3'}") == []
    assert _drift(release_db(tmp_path)) == []


def _copy_release_into(url: str) -> None:
    """The release's rows in a PostgreSQL database with that release's schema (the baseline
    revision's tables, no Alembic stamp): as a server of that release left it."""
    engine = create_engine(url)
    old = create_engine(f"sqlite:///{DATA / 'release-0.1.0.sqlite3'}")
    try:
        with engine.begin() as conn:
            upgrade(conn, "0001_baseline")
            conn.execute(text("DROP TABLE alembic_version"))
        with old.connect() as src, engine.begin() as dst:
            for name in OLD_TABLES:
                table = Base.metadata.tables[name]
                # the release's columns only: later revisions add columns the old file lacks
                have = {c["name"] for c in inspect(old).get_columns(name)}
                columns = [c for c in table.c if c.name in have]
                rows = [dict(r._mapping) for r in src.execute(select(*columns))]
                if rows:
                    dst.execute(table.insert(), rows)
            dst.execute(text("SELECT setval('chat_id_seq', (SELECT max(id) FROM chat))"))
    finally:
        engine.dispose()
        old.dispose()


@pytest.mark.slow
def test_a_release_database_on_postgresql_upgrades_once_under_racing_starts(pg_url):
    _copy_release_into(pg_url)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            Store(pg_url).close()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    racers = [threading.Thread(target=start) for _ in range(4)]
    for t in racers:
        t.start()
    for t in racers:
        t.join()
    assert errors == []
    assert _drift(pg_url) == []
    with TestClient(create_app(pg_url, settings=SETTINGS)) as c:
        check_every_game(c)
