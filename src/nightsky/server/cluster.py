"""Several server processes on one PostgreSQL database: pushes, leases, fresh caches.

On a PostgreSQL database (``Manager`` makes a ``Cluster`` by itself there) any number of
server processes, on one machine or many, serve every game; the database is the only truth:

* **Moves.** Every change is one transaction that updates the game row only where it still
  has the version the change was made on (``Store.commit_change(expect=...)``), then appends
  the moves. The row lock serializes two writers; the second finds the new version, writes
  nothing and its client gets the usual 409 ``stale_version`` (its room is reloaded).
* **Pushes.** The same transaction sends ``NOTIFY nightsky_games, '<id> <version> <holder>'``
  (delivered on commit). Each process LISTENs on a connection of its own (a thread); a game it
  holds in memory with sockets on it, and that another process changed, is brought up to date
  (the moves it lacks are applied) and its WebSockets get the new view at once. Every request
  also compares the cached version with the stored one (one indexed read; not for a move on a
  socket-watched game at the version it names), so a client never sees a process lag behind a
  move it was acknowledged; every ``tick`` seconds the versions of every watched game are
  compared too (a notification lost with a dropped connection costs at most a tick).
* **Leases.** A table moves by itself (its bots; clocks will join ``Manager.drive``) only in the
  process holding its row of ``leases`` (holder, expiry; ``ttl`` seconds, renewed every
  ``tick``). A process that dies stops renewing; once the lease expires, or once it has not
  been renewed for two ticks and its holder's LISTEN connection (``application_name`` = the
  holder) is gone from ``pg_stat_activity`` (kill -9 closes it at once), the next tick of any
  other process takes the table over (loads it, drives it): about ``2 tick + tick`` seconds
  after a crash, at most ``ttl + tick``. A process with a socket on the table, or that has
  just accepted a move on it, takes the lease from a holder without a socket there and tells
  it at once (NOTIFY ``lease <id> <holder> <watched>``): a table's moves, bots and pushes
  stay in one process, and a process with no socket on a table never replays its moves (it
  marks it stale and catches up on its next use). The version check, not the lease, is what
  makes two bot moves for one turn impossible.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import secrets
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy import text
from sqlalchemy.orm import Session

if TYPE_CHECKING:
    from nightsky.server.rooms import Manager, Room
    from nightsky.server.settings import Settings
    from nightsky.server.store import Store

log = logging.getLogger("nightsky.server.cluster")

CHANNEL = "nightsky_games"
SCHEMA_LOCK = 74951  # the advisory lock under which the tables are created (store.py too)
LEASES = """
CREATE TABLE IF NOT EXISTS leases (
    game_id VARCHAR(32) PRIMARY KEY,
    holder VARCHAR(128) NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    watched BOOLEAN NOT NULL DEFAULT false
)
"""


def ensure_schema(store: Store) -> None:
    """Create the ``leases`` table (once, whoever starts first)."""
    with store.engine.begin() as conn:
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
        conn.execute(text(LEASES))


class Cluster:
    """This process's part in a multi-process deployment (see the module's docstring)."""

    def __init__(self, manager: Manager, *, ttl: float = 3.0, tick: float = 0.5) -> None:
        self.manager = manager
        self.store = manager.store
        self.ttl = ttl
        self.tick = tick
        # host:pid:random, at most 63 characters: also the ``application_name`` of this
        # process's LISTEN connection, by which the others see that it is alive.
        self.holder = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        ensure_schema(self.store)
        self.store.on_commit = self._notify
        # Leases this process holds: game id -> monotonic time until which it may trust it;
        # and leases another process held when last asked: game id -> (when to ask again,
        # whether that holder had a socket on the table).
        self.held: dict[str, float] = {}
        self.elsewhere: dict[str, tuple[float, bool]] = {}
        # Games cached here that another process changed since (no socket here and not
        # driven here, so not replayed at once): game id -> the newest version heard of;
        # caught up on their next use. Marked and cleared under ``_stale_lock``, each after a
        # look at the room's version, so a notification heard while a catch-up runs can never
        # leave an up-to-date room marked.
        self.stale: dict[str, int] = {}
        self._stale_lock = threading.Lock()
        self._held_lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._listen_conn: Any = None
        self._work = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cluster")

    # ------------------------------------------------------------------ life cycle
    def start(self) -> None:
        """Start the listener and the ticker threads."""
        for name, target in (("listen", self._listen), ("tick", self._ticker)):
            t = threading.Thread(target=target, name=f"cluster-{name}", daemon=True)
            t.start()
            self._threads.append(t)

    def close(self) -> None:
        """Stop the threads and give up every lease (another process takes over at once)."""
        self._stop.set()
        conn = self._listen_conn
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.cancel_safe(timeout=1.0)
        for t in self._threads:
            t.join(timeout=3)
        self._work.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(Exception), self.store.engine.begin() as c:
            c.execute(text("DELETE FROM leases WHERE holder = :h"), {"h": self.holder})

    # ------------------------------------------------------------------ notify
    def _notify(self, session: Session, changes: list[tuple[str, int]]) -> None:
        """Inside a committing transaction: tell the other processes (sent on commit), one
        notification per changed game, all in one statement."""
        session.execute(
            text("SELECT pg_notify(:c, p) FROM unnest(CAST(:ps AS text[])) AS p"),
            {"c": CHANNEL, "ps": [f"{gid} {version} {self.holder}" for gid, version in changes]},
        )

    def _connect(self) -> Any:
        import psycopg

        engine = self.store.engine
        cargs, cparams = engine.dialect.create_connect_args(engine.url)
        return psycopg.connect(
            *cargs, **{**cparams, "application_name": self.holder}, autocommit=True
        )

    def _gone(self, lease: str) -> str:
        """SQL: the lease row ``lease`` may be taken: expired, or its holder is dead (it has
        not renewed it for two ticks and its LISTEN connection is gone: a process killed
        with -9 loses its connections at once, so its tables are taken over within about a
        second instead of the whole ``ttl``). Uses the parameter ``:quiet``."""
        return (
            f"({lease}.expires_at < now() OR ({lease}.expires_at < now() + "
            f"make_interval(secs => :quiet) AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a "
            f"WHERE a.application_name = {lease}.holder)))"
        )

    @property
    def quiet(self) -> float:
        return max(0.0, self.ttl - 2 * self.tick)

    def _listen(self) -> None:
        """The listener thread: LISTEN on a connection of its own; reconnect when it drops
        (then compare every cached game, since notifications may have been missed)."""
        while not self._stop.is_set():
            try:
                with self._connect() as conn:
                    self._listen_conn = conn
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._work.submit(self._compare_all)
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._heard(note.payload)
            except Exception:
                if self._stop.is_set():
                    return
                log.warning("cluster: the LISTEN connection failed; reconnecting", exc_info=True)
                self._stop.wait(0.5)
            finally:
                self._listen_conn = None

    def _heard(self, payload: str) -> None:
        parts = payload.split(" ")
        if len(parts) == 4 and parts[0] == "lease":
            self._lease_taken(parts[1], parts[2], parts[3] == "1")
            return
        try:
            game_id, version, holder = payload.split(" ", 2)
            v = int(version)
        except ValueError:
            return
        if holder == self.holder:
            return
        room = self.manager.rooms.get(game_id)
        if room is None or room.version >= v:
            return
        if self._watched(room):
            self._refresh(room)  # here: one thread hop less per move
        else:
            # Nobody here watches it: no replay now (the process that took the move has it);
            # its next use here catches up (``fresh``, ``hold``).
            with self._stale_lock:
                if room.version < v:  # a catch-up may have passed ``v`` meanwhile
                    self.stale[game_id] = max(v, self.stale.get(game_id, v))

    def _lease_taken(self, game_id: str, holder: str, watched: bool) -> None:
        """Another process took the lease of ``game_id``: stop driving it at once (a bot move
        under way here would lose the version check anyway)."""
        if holder == self.holder:
            return
        with self._held_lock:
            self.held.pop(game_id, None)
            self.elsewhere[game_id] = (time.monotonic() + self.tick, watched)

    def _watched(self, room: Room) -> bool:
        """Whether a cached game is kept fresh as others change it: it has sockets here (its
        watchers are pushed every change). Others catch up on their next use (``fresh``)."""
        return bool(room.subscribers)

    def holds(self, game_id: str) -> bool:
        """Whether this process may drive ``game_id`` now (its lease, as last renewed or
        taken; no database read): the bot runner asks before every bot move."""
        return self.held.get(game_id, 0.0) > time.monotonic()

    def _refresh(self, room: Room, full: bool = False) -> None:
        try:
            self.manager.refresh(room, full=full)
            self.manager.drive(room)
        except Exception:
            log.exception("cluster: game %s could not be refreshed", room.id)

    def current(self, room: Room, seen: int | None) -> bool:
        """Whether ``room`` may be trusted without a read for a change chosen on version
        ``seen``: it has sockets here (every notification about it is applied at once), the
        listener is connected, and it is at ``seen`` or later."""
        return (
            seen is not None
            and seen <= room.version
            and bool(room.subscribers)
            and self._listen_conn is not None
            and room.id not in self.stale
        )

    def fresh(self, room: Room) -> None:
        """Bring ``room`` up to date if the stored version moved on (every request)."""
        stored = self.store.versions([room.id]).get(room.id)
        if stored is not None and stored != room.version:
            self.manager.refresh(room)
        with self._stale_lock:
            if room.version >= self.stale.get(room.id, -1):
                self.stale.pop(room.id, None)

    def _compare_all(self) -> None:
        rooms = [r for r in self.manager.rooms.values() if self._watched(r)]
        stored = self.store.versions([r.id for r in rooms])
        for room in rooms:
            v = stored.get(room.id)
            if v is not None and v != room.version:
                self._refresh(room)

    # ------------------------------------------------------------------ leases
    def hold(self, game_id: str, *, accepted: bool = False) -> bool:
        """Whether this process holds (or now takes) the lease of ``game_id``. A free or
        expired lease is taken; so is one whose holder has no socket on the table when this
        process has one, or when this process just accepted a move on it (``accepted``): a
        table's moves, bots and pushes then stay in one process, and the others never replay
        it. Taking a lease from another process tells it at once (NOTIFY), so that it stops
        driving the table before its next tick."""
        room = self.manager.rooms.get(game_id)
        watched = room is not None and bool(room.subscribers)
        now = time.monotonic()
        with self._held_lock:
            until = self.held.get(game_id)
            mine = until is not None and until > now
            other = self.elsewhere.get(game_id)
            busy = other is not None and other[0] > now and (other[1] or not (watched or accepted))
            if not mine and busy:
                return False  # held by another process a moment ago: do not ask every move
        if mine:
            if room is not None and game_id in self.stale:
                self.fresh(room)
            return True
        with self.store.engine.begin() as c:
            row = c.execute(
                text(
                    "INSERT INTO leases (game_id, holder, expires_at, watched) "
                    "VALUES (:g, :h, now() + make_interval(secs => :ttl), :w) "
                    "ON CONFLICT (game_id) DO UPDATE SET holder = EXCLUDED.holder, "
                    "expires_at = EXCLUDED.expires_at, watched = EXCLUDED.watched "
                    "WHERE leases.holder = EXCLUDED.holder "
                    "OR ((EXCLUDED.watched OR :a) AND NOT leases.watched) "
                    f"OR {self._gone('leases')} "
                    "RETURNING holder"
                ),
                {
                    "g": game_id, "h": self.holder, "ttl": self.ttl, "w": watched,
                    "a": accepted, "quiet": self.quiet,
                },
            ).first()
            if row is None:
                got = c.execute(
                    text("SELECT watched FROM leases WHERE game_id = :g"), {"g": game_id}
                ).first()
                holder_watched = bool(got[0]) if got is not None else False
            elif until is None:
                # newly taken: whoever held it stops driving it now
                c.execute(
                    text("SELECT pg_notify(:c, :p)"),
                    {"c": CHANNEL, "p": f"lease {game_id} {self.holder} {int(watched)}"},
                )
        with self._held_lock:
            if row is None:
                self.held.pop(game_id, None)
                self.elsewhere[game_id] = (now + self.tick, holder_watched)
                return False
            self.held[game_id] = self._trust_until()
            self.elsewhere.pop(game_id, None)
        if room is not None and (until is None or game_id in self.stale):
            # newly taken (its holder died, let go or had no socket): catch up with it
            self.fresh(room)
        return True

    def _trust_until(self) -> float:
        # A lease is trusted locally a tick less than it lasts (renewals come every tick).
        return time.monotonic() + max(0.1, self.ttl - self.tick - 0.5)

    def _ticker(self) -> None:
        while not self._stop.wait(self.tick):
            try:
                self.beat()
            except Exception:
                log.warning("cluster: tick failed", exc_info=True)

    def beat(self) -> None:
        """One tick: renew the leases of live tables in memory (give up the others); compare
        cached versions; drive tables whose bots are due; take over tables whose lease
        expired (their holder died)."""
        rooms = list(self.manager.rooms.values())
        live = [r.id for r in rooms if not r.over]
        seen = [r.id for r in rooms if r.subscribers]
        with self.store.engine.begin() as c:
            kept = c.execute(
                text(
                    "UPDATE leases SET expires_at = now() + make_interval(secs => :ttl), "
                    "watched = (game_id = ANY(:seen)) "
                    "WHERE holder = :h AND game_id = ANY(:ids) RETURNING game_id"
                ),
                {"h": self.holder, "ttl": self.ttl, "ids": live, "seen": seen},
            ).all()
            c.execute(
                text("DELETE FROM leases WHERE holder = :h AND NOT (game_id = ANY(:ids))"),
                {"h": self.holder, "ids": live},
            )
            orphans = c.execute(
                text(
                    "SELECT l.game_id FROM leases l JOIN games g ON g.id = l.game_id "
                    f"WHERE g.status = 'playing' AND l.holder <> :h AND {self._gone('l')} "
                    "LIMIT 500"
                ),
                {"h": self.holder, "quiet": self.quiet},
            ).all()
        until, now = self._trust_until(), time.monotonic()
        with self._held_lock:
            self.held = {gid: until for (gid,) in kept}
            self.elsewhere = {g: t for g, t in self.elsewhere.items() if t[0] > now}
        self._compare_all()
        for room in rooms:
            if room.id in self.stale and not self.holds(room.id):
                continue  # another process moves it on (its state here is old); orphans below
            if not room.bot_busy and room.bot_seats():
                self.manager.drive(room)
        # Tables with sockets here first (players who just reconnected wait on them), then
        # the others cached here, then those to load.
        def order(gid: str) -> int:
            room = self.manager.rooms.get(gid)
            return 2 if room is None else (0 if room.subscribers else 1)

        for gid in sorted((g for (g,) in orphans), key=order):
            with self._held_lock:
                self.elsewhere.pop(gid, None)  # its holder is gone: ask at once
            cached = self.manager.rooms.get(gid)
            try:
                if cached is None:
                    self.manager.get(gid)  # loads it and drives it
                else:
                    self.manager.drive(cached)
            except Exception:
                log.warning("cluster: could not take over game %s", gid, exc_info=True)


# ---------------------------------------------------------------------- several processes
WORKER_ENV = "NIGHTSKY_WORKER_CONFIG"


def worker_config(db: str, settings: Settings) -> str:
    """Prepare ``nightsky serve --workers N``: create the tables once, hand every process the
    database URL and the settings (through the environment, which the processes inherit; one
    random secret for all when none is set) and return the app factory's import string."""
    from nightsky.server.store import Store

    store = Store(db)
    try:
        ensure_schema(store)
    finally:
        store.close()
    values = dataclasses.asdict(settings)
    values["secret"] = settings.secret or secrets.token_hex(32)
    os.environ[WORKER_ENV] = json.dumps({"db": db, "settings": values})
    return "nightsky.server.cluster:worker_app"


def worker_app() -> Any:
    """The app of one server process of ``nightsky serve --workers N`` (uvicorn's factory)."""
    from nightsky.server import create_app
    from nightsky.server.settings import Settings

    config = json.loads(os.environ[WORKER_ENV])
    values = config["settings"]
    for f in dataclasses.fields(Settings):
        if isinstance(values.get(f.name), list):  # JSON has no tuples
            values[f.name] = tuple(values[f.name])
    return create_app(config["db"], settings=Settings(**values))
