"""Group commit in ``Store.commit_change``: changes that queue while a transaction is written go
together into the next one, each with its own version check and its own error.

The store's write lock is held by the test while the changes queue, so which changes share a
transaction is certain, not a matter of thread timing.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from nightsky.server.store import GameRow, MoveRow, Store, StoredGame, VersionConflict, now


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLite, and a fresh database of the throw-away PostgreSQL cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'batch.sqlite3'}"
    return str(request.getfixturevalue("pg_url"))


def _store(url: str, games: int) -> Store:
    store = Store(url)
    for i in range(games):
        store.create(
            StoredGame(
                id=f"g{i}", game="shooting-star", params={}, seed=i, seats=[], version=0,
                status="playing", created_at=now(), history=[(0, "first")],
            )
        )
    return store


def _commits(store: Store) -> list[int]:
    count = [0]

    @event.listens_for(store.engine, "commit")
    def _on_commit(_conn: Any) -> None:
        count[0] += 1

    return count


def _queued(store: Store, changes: list[dict[str, Any]]) -> list[BaseException | None]:
    """Run each change in its own thread while the test holds the write lock, wait until all
    are queued, then let them go; each thread's error (None: committed)."""
    errors: list[BaseException | None] = [None] * len(changes)

    def one(i: int, kw: dict[str, Any]) -> None:
        try:
            store.commit_change(**kw)
        except Exception as exc:  # noqa: BLE001 - the test reads it
            errors[i] = exc

    threads = [threading.Thread(target=one, args=(i, kw)) for i, kw in enumerate(changes)]
    with store._lock:
        for t in threads:
            t.start()
        deadline = time.monotonic() + 10
        while len(store._queue) < len(changes):
            assert time.monotonic() < deadline, "the changes never queued"
            time.sleep(0.005)
    for t in threads:
        t.join(10)
    return errors


def _move(gid: str, text: str, *, expect: int | None = 0, start: int = 1) -> dict[str, Any]:
    return {
        "game_id": gid, "start": start, "moves": [(0, text)], "version": 1,
        "status": "playing", "expect": expect,
    }


def _history(store: Store, gid: str) -> list[str]:
    game = store.load(gid)
    assert game is not None
    return [t for _, t in game.history]


def test_queued_changes_share_one_transaction(url: str) -> None:
    store = _store(url, 5)
    seen: list[list[tuple[str, int]]] = []
    store.on_commit = lambda _s, changes: seen.append(list(changes))
    commits = _commits(store)
    errors = _queued(store, [_move(f"g{i}", f"move {i}") for i in range(5)])
    assert errors == [None] * 5
    assert commits[0] == 1  # five changes, one transaction
    assert sorted(seen[0]) == [(f"g{i}", 1) for i in range(5)]
    for i in range(5):
        assert _history(store, f"g{i}") == ["first", f"move {i}"]
        loaded = store.load(f"g{i}")
        assert loaded is not None and loaded.version == 1


def test_a_stale_version_in_a_batch_fails_alone(url: str) -> None:
    store = _store(url, 3)
    commits = _commits(store)
    changes = [_move("g0", "a"), _move("g1", "b", expect=7), _move("g2", "c")]
    errors = _queued(store, changes)
    assert errors[0] is None and errors[2] is None
    assert isinstance(errors[1], VersionConflict)
    assert commits[0] == 1
    assert _history(store, "g1") == ["first"]  # nothing written for the stale change
    assert _history(store, "g0") == ["first", "a"] and _history(store, "g2") == ["first", "c"]


def test_a_failing_change_does_not_sink_its_batch(url: str) -> None:
    store = _store(url, 3)
    # g1's change has no version check and writes a move index that exists: the database
    # refuses it, the batch's transaction rolls back, and each change is written alone.
    changes = [_move("g0", "a"), _move("g1", "dup", expect=None, start=0), _move("g2", "c")]
    errors = _queued(store, changes)
    assert errors[0] is None and errors[2] is None
    assert isinstance(errors[1], IntegrityError)
    assert _history(store, "g1") == ["first"]
    with Session(store.engine) as s:
        assert s.execute(select(GameRow.version).where(GameRow.id == "g1")).scalar_one() == 0
        assert s.execute(select(MoveRow.notation).where(MoveRow.game_id == "g0")).all()[-1][
            0
        ] == "a"
    assert _history(store, "g2") == ["first", "c"]


def test_two_changes_of_one_game_in_a_batch_apply_in_order(url: str) -> None:
    store = _store(url, 1)
    first = _move("g0", "a")
    # the second change was made on the first's version and undoes to one move, then appends
    second = {
        "game_id": "g0", "start": 1, "moves": [(1, "b")], "truncate_to": 1, "version": 2,
        "status": "playing", "expect": 1,
    }
    errors: list[BaseException | None] = [None, None]

    def run(i: int, kw: dict[str, Any]) -> None:
        try:
            store.commit_change(**kw)
        except Exception as exc:  # noqa: BLE001
            errors[i] = exc

    with store._lock:
        t1 = threading.Thread(target=run, args=(0, first))
        t1.start()
        while len(store._queue) < 1:
            time.sleep(0.005)
        t2 = threading.Thread(target=run, args=(1, second))
        t2.start()
        while len(store._queue) < 2:
            time.sleep(0.005)
    t1.join(10)
    t2.join(10)
    assert errors == [None, None]
    assert _history(store, "g0") == ["first", "b"]
    loaded = store.load("g0")
    assert loaded is not None and loaded.version == 2


def test_a_lone_stale_change_raises_version_conflict(url: str) -> None:
    store = _store(url, 1)
    with pytest.raises(VersionConflict):
        store.commit_change(**_move("g0", "a", expect=3))
    assert _history(store, "g0") == ["first"]
    store.commit_change(**_move("g0", "a"))
    assert _history(store, "g0") == ["first", "a"]
