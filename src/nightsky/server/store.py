"""Persistence: every game is stored as its record (SQLAlchemy 2; SQLite by default).

Two tables. ``games`` holds what the record cannot say (the seed of the server's chance and bots,
the seats with their agent specs and token hashes, the version counter); ``moves`` holds the
history, one row per action, chance outcomes included (seat -1). A game is rebuilt by replaying
its moves through the rules, so after a crash or a restart it resumes exactly where it was.

Every change (one action plus the chance it triggers, an undo, a join) is committed before the
client hears about it: an acknowledged move is never lost. Changes that wait for the process's
write lock at the same moment share one transaction (group commit), each with its own version
check and its own error.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from nightsky._extras import missing

log = logging.getLogger("nightsky.server")


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The undo chain: [[seat, history length after the action], ...] (null: empty).
    undo: Mapped[list[list[int]] | None] = mapped_column(JSON, nullable=True)
    # "client": the creator chose the seed (allowed where at most one seat is human);
    # "server": a secret seed, its chance keyed by the server secret; null: before 0.2.
    seed_source: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # Who created the game (a hash of the client's address), for the per-client table cap.
    client: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # What happened to the table besides moves (an invite renewed, a player left): a list of
    # {"version", "text"} shown to everyone.
    notices: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    # Shown in the lobby (its creator opened it); null (a game from before private tables)
    # or false: reached only by its links.
    listed: Mapped[bool | None] = mapped_column(Boolean, nullable=True, index=True)
    # The table's clocks (``server/clocks.py``: settings, per seat the time left and since
    # when it runs, stand-in bots, which moves bots made); null: untimed, from before clocks.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The earliest time a running clock runs out (null: none runs): the clock driver loads
    # the games whose deadline passed.
    deadline: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    # A rated table (``server/club``): accounts only, humans only, a clock; null: unrated.
    rated: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # The tournament whose round made the table (``server/club``); null: none.
    tournament: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(200))


@dataclass
class StoredGame:
    """One game as the database holds it."""

    id: str
    game: str
    params: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    version: int
    status: str
    created_at: datetime
    history: list[tuple[int, str]] = field(default_factory=list)
    undo: list[tuple[int, int]] = field(default_factory=list)
    seed_source: str | None = None
    client: str | None = None
    notices: list[dict[str, Any]] = field(default_factory=list)
    listed: bool = False
    clock: dict[str, Any] | None = None
    deadline: datetime | None = None
    rated: bool = False
    tournament: int | None = None


@dataclass
class _Change:
    """One change waiting for the write lock (``Store.commit_change``)."""

    game_id: str
    values: dict[str, Any]
    expect: int | None
    truncate_to: int | None
    rows: list[dict[str, Any]]
    version: int
    done: bool = False
    error: BaseException | None = None
    result: list[int] | None = None  # each seat's place, when the change ends a rated game


class VersionConflict(Exception):
    """A conditional commit found another version stored: someone else changed the game."""


def now() -> datetime:
    return datetime.now(UTC)


def default_url(path: str = "nightsky.sqlite3") -> str:
    return f"sqlite:///{path}"


class Store:
    """The database behind the server. Thread-safe: writes are serialized by one lock."""

    def __init__(self, url: str) -> None:
        url = driver_url(url)
        self.url = url
        # Called inside every committing transaction with (session, [(game id, new version)
        # of each change in it]): the PostgreSQL cluster (server/cluster.py) sends its NOTIFY
        # from there.
        self.on_commit: Callable[[Session, list[tuple[str, int]]], None] | None = None
        # Called inside the transaction of a change that carries the result of a rated or
        # tournament game, with (session, game id, each seat's place): the club's ratings and
        # standings (server/club) are settled in the game's own last transaction, or not at all.
        self.on_result: Callable[[Session, str, list[int]], None] | None = None
        # A database error never carries the statement's values (nonces, token hashes) into
        # an exception message, hence into a traceback in the log.
        kwargs: dict[str, Any] = {"hide_parameters": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        try:
            self.engine: Engine = create_engine(url, **kwargs)
        except ModuleNotFoundError as exc:
            # The driver of a PostgreSQL URL comes with the `postgres` extra.
            raise missing(exc, "postgres", f"the database {url.split(':', 1)[0]}") from exc
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        from nightsky.server.migrations import upgrade

        with self.engine.begin() as conn:
            # Alembic brings any earlier schema up to date (on PostgreSQL under an advisory
            # lock: several server processes may start at once, one upgrades).
            upgrade(conn)
        # The write lock (one transaction at a time per process: racing commits cost
        # PostgreSQL more than they save, docs/server.md) and the queue of changes waiting
        # for it (group commit, ``commit_change``).
        self._lock = threading.Lock()
        self._queue_lock = threading.Lock()
        self._queue: list[_Change] = []
        self.closed = False  # set by ``close``: no write is made after it

    def close(self, wait: float = 5.0) -> None:
        """Close the database cleanly, once: wait (at most ``wait`` seconds) for the write in
        progress, refuse every write from then on, fold SQLite's write-ahead log back into the
        database file (``wal_checkpoint(TRUNCATE)``), and close the connections."""
        got = self._lock.acquire(timeout=wait)
        try:
            if self.closed:
                return
            self.closed = True
            if self.engine.dialect.name == "sqlite":
                try:
                    with self.engine.connect() as conn:
                        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                except Exception:  # a closing server still closes its connections
                    log.warning("the SQLite checkpoint at close failed", exc_info=True)
            self.engine.dispose()
        finally:
            if got:
                self._lock.release()

    def ping(self) -> None:
        """Read one row id of ``games``: raises if the database cannot be reached or read."""
        with Session(self.engine) as s:
            s.execute(select(GameRow.id).limit(1)).all()

    # ------------------------------------------------------------------ writes
    def create(self, g: StoredGame) -> None:
        with self._lock, Session(self.engine) as s, s.begin():
            s.add(
                GameRow(
                    id=g.id,
                    game=g.game,
                    params=g.params,
                    seed=g.seed,
                    seats=g.seats,
                    version=g.version,
                    status=g.status,
                    created_at=g.created_at,
                    updated_at=g.created_at,
                    seed_source=g.seed_source,
                    client=g.client,
                    notices=g.notices,
                    listed=g.listed,
                    clock=g.clock,
                    deadline=g.deadline,
                    rated=g.rated or None,
                    tournament=g.tournament,
                )
            )
            for i, (seat, text) in enumerate(g.history):
                s.add(MoveRow(game_id=g.id, idx=i, seat=seat, notation=text))
            if self.on_commit is not None:
                s.flush()
                self.on_commit(s, [(g.id, g.version)])

    def commit_change(
        self,
        game_id: str,
        *,
        start: int,
        moves: list[tuple[int, str]],
        truncate_to: int | None = None,
        version: int,
        status: str,
        seats: list[dict[str, Any]] | None = None,
        undo: list[tuple[int, int]] | None = None,
        notices: list[dict[str, Any]] | None = None,
        clock: tuple[dict[str, Any], datetime | None] | None = None,
        expect: int | None = None,
        result: list[int] | None = None,
    ) -> None:
        """One atomic change: drop moves from ``truncate_to`` on (undo), append ``moves`` at
        ``start``, set the version and status (and the seats and undo chain when given);
        ``result``: each seat's place in a rated or tournament game that ended (``on_result``).

        ``expect``: the version the change was made on. The game row is updated first, only
        where it still has that version (the row lock makes a second writer wait, then find
        the new version): otherwise nothing is written and ``VersionConflict`` is raised, so
        two processes never both commit a change on one version.

        Group commit: the changes that other threads queue while one transaction is being
        written go together into the next one (each with its own version check), so a busy
        process pays one commit, and one round of NOTIFY, for several moves. The call returns
        only once its own change is committed (or raises its own error)."""
        values: dict[str, Any] = {"version": version, "status": status, "updated_at": now()}
        if seats is not None:
            values["seats"] = seats
        if undo is not None:
            values["undo"] = [list(x) for x in undo]
        if notices is not None:
            values["notices"] = list(notices)
        if clock is not None:  # the clocks and their next deadline
            values["clock"], values["deadline"] = clock
        rows = [
            {"game_id": game_id, "idx": start + i, "seat": seat, "notation": text}
            for i, (seat, text) in enumerate(moves)
        ]
        change = _Change(game_id, values, expect, truncate_to, rows, version, result=result)
        with self._queue_lock:
            self._queue.append(change)
        with self._lock:
            # Whoever holds the write lock writes everything queued so far: a change queued
            # while another transaction was written finds itself done when its turn comes.
            if not change.done:
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._write(batch)
        if change.error is not None:
            raise change.error
        if not change.done:  # its writer died of something no change should survive
            raise RuntimeError(f"the change of game {game_id} was not written")

    def _write(self, batch: list[_Change]) -> None:
        """Commit ``batch`` in one transaction; if that fails, each change on its own (so
        that one change's failure is only that change's error). Under the write lock."""
        try:
            if self.closed:
                raise RuntimeError("the database is closed: the server is stopping")
            self._write_all(batch)
        finally:
            for c in batch:
                if not c.done:
                    c.error = c.error or RuntimeError(f"the change of game {c.game_id} failed")
                    c.done = True

    def _write_all(self, batch: list[_Change]) -> None:
        if len(batch) > 1:
            try:
                with Session(self.engine) as s, s.begin():
                    self._apply(s, batch)
            except Exception:  # noqa: BLE001 - retried one by one below, errors kept there
                for c in batch:
                    c.error = None
            else:
                for c in batch:
                    c.done = True
                return
        for c in batch:
            try:
                with Session(self.engine) as s, s.begin():
                    self._apply(s, [c])
            except Exception as exc:  # noqa: BLE001 - handed to the change's own caller
                c.error = exc
            c.done = True

    def _apply(self, s: Session, batch: list[_Change]) -> None:
        """Write ``batch`` in the open transaction ``s``. A change whose version check fails
        writes nothing and gets ``VersionConflict`` (raised at once when it is alone)."""
        rows: list[dict[str, Any]] = []
        written: list[tuple[str, int]] = []
        for c in batch:
            where = [GameRow.id == c.game_id]
            if c.expect is not None:
                where.append(GameRow.version == c.expect)
            done = s.execute(update(GameRow).where(*where).values(**c.values))
            if c.expect is not None and getattr(done, "rowcount", 1) != 1:
                c.error = VersionConflict(c.game_id)
                if len(batch) == 1:
                    raise c.error
                continue
            c.error = None
            if c.truncate_to is not None:
                if rows:  # moves of an earlier change of the batch go in before the undo
                    s.execute(insert(MoveRow), rows)
                    rows = []
                s.execute(
                    delete(MoveRow).where(
                        MoveRow.game_id == c.game_id, MoveRow.idx >= c.truncate_to
                    )
                )
            rows.extend(c.rows)
            written.append((c.game_id, c.version))
            if c.result is not None and self.on_result is not None:
                self.on_result(s, c.game_id, c.result)
        if rows:
            s.execute(insert(MoveRow), rows)
        if self.on_commit is not None and written:
            self.on_commit(s, written)

    # ------------------------------------------------------------------ reads
    def load(self, game_id: str, since: int = 0) -> StoredGame | None:
        """The game with its moves (only those from index ``since`` on, when given)."""
        with Session(self.engine) as s, s.begin():
            if self.engine.dialect.name == "postgresql":
                # one snapshot: the row's version and the moves agree while others commit
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            moves = s.execute(
                select(MoveRow.seat, MoveRow.notation)
                .where(MoveRow.game_id == game_id, MoveRow.idx >= since)
                .order_by(MoveRow.idx)
            ).all()
            return _stored(row, [(int(a), str(b)) for a, b in moves])

    def versions(self, ids: list[str]) -> dict[str, int]:
        """The stored version of each game of ``ids`` that exists."""
        if not ids:
            return {}
        with Session(self.engine) as s:
            q = select(GameRow.id, GameRow.version).where(GameRow.id.in_(ids))
            return {gid: int(v) for gid, v in s.execute(q).all()}

    def ids(self, *, status: str | None = None) -> list[str]:
        with Session(self.engine) as s:
            q = select(GameRow.id).order_by(GameRow.created_at)
            if status is not None:
                q = q.where(GameRow.status == status)
            return [r for (r,) in s.execute(q).all()]

    def count_playing(self, *, client: str | None = None) -> int:
        """How many unfinished games there are (of one ``client`` when given)."""
        with Session(self.engine) as s:
            q = select(func.count()).select_from(GameRow).where(GameRow.status == "playing")
            if client is not None:
                q = q.where(GameRow.client == client)
            return int(s.execute(q).scalar_one())

    def recent(self, limit: int = 50, *, listed: bool | None = None) -> list[StoredGame]:
        """The most recently active games, without their moves (for the lobby); with
        ``listed=True`` only those shown in the lobby."""
        with Session(self.engine) as s:
            q = select(GameRow)
            if listed is not None:
                q = q.where(GameRow.listed.is_(True) if listed else GameRow.listed.is_not(True))
            rows = s.scalars(q.order_by(GameRow.updated_at.desc()).limit(limit))
            return [_stored(r, []) for r in rows]

    def due(self, when: datetime, limit: int = 100) -> list[str]:
        """Unfinished games whose stored clock deadline is ``when`` or earlier."""
        with Session(self.engine) as s:
            q = (
                select(GameRow.id)
                .where(GameRow.status == "playing", GameRow.deadline <= when)
                .order_by(GameRow.deadline)
                .limit(limit)
            )
            return [r for (r,) in s.execute(q).all()]

    def some(self, ids: list[str]) -> list[StoredGame]:
        """The games of ``ids`` that exist, most recently active first, without their moves."""
        if not ids:
            return []
        with Session(self.engine) as s:
            q = select(GameRow).where(GameRow.id.in_(ids)).order_by(GameRow.updated_at.desc())
            return [_stored(r, []) for r in s.scalars(q)]


def driver_url(url: str) -> str:
    """``url`` with psycopg 3 as the PostgreSQL driver when it names none
    (``postgresql://...``, SQLAlchemy's default would be psycopg2, which nightsky never pins)."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


def _stored(row: GameRow, history: list[tuple[int, str]]) -> StoredGame:
    return StoredGame(
        id=row.id,
        game=row.game,
        params=dict(row.params),
        seed=int(row.seed),
        seats=[dict(x) for x in row.seats],
        version=row.version,
        status=row.status,
        created_at=row.created_at,
        history=history,
        undo=[(int(a), int(b)) for a, b in row.undo or []],
        seed_source=row.seed_source,
        client=row.client,
        notices=[dict(x) for x in row.notices or []],
        listed=bool(row.listed),
        clock=dict(row.clock) if row.clock else None,
        deadline=row.deadline,
        rated=bool(row.rated),
        tournament=row.tournament,
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL + synchronous=NORMAL survives a killed process (not a power cut) and keeps commits
    # cheap; foreign keys make the cascade real.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
