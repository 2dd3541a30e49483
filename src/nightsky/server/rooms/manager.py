"""The table manager: owns the tables in memory (loaded from and created in the store, evicted
when idle), drives them (clock deadlines and bots) and answers who holds a token.

Requests change a table under ``Manager.hold``, which hands them the live room under its lock;
the room's own methods make the change. Nothing here is game-specific.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from nightsky.core.errors import GameError, RecordError
from nightsky.core.game import State
from nightsky.core.record import replay
from nightsky.core.registry import game_class
from nightsky.server.clocks import ClockDriver, TableClock
from nightsky.server.rooms.bots import BotRunner
from nightsky.server.rooms.creation import (
    NewGame,
    check_caps,
    check_rated,
    check_seed,
    new_clock,
    new_game,
    new_seats,
)
from nightsky.server.rooms.errors import ServerError, StorageFailure
from nightsky.server.rooms.seat import Seat
from nightsky.server.rooms.table import Room, Subscriber
from nightsky.server.rooms.timings import Timings
from nightsky.server.settings import Settings
from nightsky.server.store import Store, StoredGame, now

if TYPE_CHECKING:
    from nightsky.server.cluster import Cluster

log = logging.getLogger("nightsky.server")


@dataclass
class Created:
    """A new game: the room, the creator's token and one invite code per other human seat."""

    room: Room
    token: str | None
    invites: dict[int, str]


class Manager:
    """Owns the rooms (in memory, loaded from and created in the store) and the bot runner."""

    def __init__(
        self,
        store: Store,
        *,
        bot_workers: int = 4,
        bot_delay: float = 0.0,
        keep_finished: int = 64,
        settings: Settings | None = None,
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.secret = (self.settings.secret or secrets.token_hex(32)).encode()
        # Finished games nobody watches are dropped from memory beyond this many (least
        # recently fetched first); the store still has them and ``get`` reloads on demand.
        self.keep_finished = keep_finished
        self.rooms: dict[str, Room] = {}
        self._rooms_lock = threading.Lock()
        self.bots = BotRunner(
            workers=bot_workers,
            delay=bot_delay,
            settings=self.settings,
            forget=self._lost,
            may_drive=self._may_drive,
        )
        self.timings = Timings()
        # The server's time, seconds since the epoch (tests put a fake clock here), when this
        # process started (a clock running before that runs again from then), and the thread
        # that fires deadlines.
        self.clock: Callable[[], float] = time.time
        self.started_at: float | None = None
        self.driver = ClockDriver(self.tick)
        self.trimmed = time.monotonic()  # when ``tick`` last dropped idle tables
        # On PostgreSQL several processes serve the same games (server/cluster.py): pushes
        # across processes, leases on driving tables, cached rooms kept fresh.
        self.cluster: Cluster | None = None
        if store.engine.dialect.name == "postgresql":
            from nightsky.server.cluster import Cluster

            self.cluster = Cluster(self)

    def now(self) -> float:
        """The server's time (``clock``), seconds since the epoch."""
        return self.clock()

    def _may_drive(self, room: Room) -> bool:
        """Whether this process still drives ``room`` (its lease; always with one process)."""
        return self.cluster is None or self.cluster.holds(room.id)

    @property
    def bot_delay(self) -> float:
        return self.bots.delay

    # ------------------------------------------------------------------ life cycle
    def start(self) -> int:
        """How many unfinished games the store holds. They are loaded lazily, on their next
        request (their bots resume then), so a restart costs nothing per game."""
        self.started_at = self.now()
        self.driver.start()
        if self.cluster is not None:
            self.cluster.start()
        return self.store.count_playing()

    def close(self) -> None:
        self.driver.stop()
        if self.cluster is not None:
            self.cluster.close()
        self.bots.close()

    # ------------------------------------------------------------------ driving
    def drive(self, room: Room, *, accepted: bool = False) -> None:
        """Move a table on by itself: fire its clocks' deadlines that passed, then start its
        bots (bot seats and stand-ins) if any is to act. The one place where the server acts
        without a request: with several processes only the holder of the table's lease runs it
        (server/cluster.py); ``accepted``: this process just accepted a move on the table (it
        takes the lease from a holder without a socket on it)."""
        if self.cluster is not None and not self.cluster.hold(room.id, accepted=accepted):
            return
        room.time_out()
        self.bots.kick(room)

    def tick(self) -> int:
        """Drive every table whose clock deadline passed: those in memory, and those the
        store holds with a passed deadline (loaded now; ``get`` drives them). How many."""
        t = self.now()
        count = 0
        with self._rooms_lock:
            rooms = list(self.rooms.values())
        for room in rooms:
            if room.clock.due(t):
                try:
                    self.drive(room)
                    count += 1
                except Exception:
                    log.exception("clock of game %s", room.id)
        # Idle tables leave memory on a timer too, not only on the next request.
        if time.monotonic() - self.trimmed >= min(30.0, self.settings.idle_seconds / 4):
            self.trimmed = time.monotonic()
            self.trim()
        when = datetime.fromtimestamp(t, UTC)
        for gid in self.store.due(when):
            if gid in self.rooms:
                continue
            try:
                self.get(gid)
                count += 1
            except Exception:
                log.exception("clock of game %s", gid)
        return count

    # ------------------------------------------------------------------ rooms
    def get(self, gid: str, *, seen: int | None = None) -> Room:
        """The game ``gid`` (404 when there is none), loaded on first use; with several
        processes, brought up to date first (one indexed read). ``seen``: the version a
        client's change was chosen on; a room this process keeps up to date as others change
        it (a socket here) and already at that version is not read again (a change whose
        notification is still on its way fails the commit's version check, as a stale move)."""
        room = self.rooms.get(gid)
        if room is not None:
            room.touched = time.monotonic()
            if self.cluster is not None and not self.cluster.current(room, seen):
                self.cluster.fresh(room)  # another process may have changed it
            return room
        with self._rooms_lock:
            room = self.rooms.get(gid)
            if room is not None:
                return room
            stored = self.store.load(gid) if _plausible_id(gid) else None
            if stored is None:
                raise ServerError(404, "game_not_found", f"no game {gid!r}")
            room = self._rebuild(stored)
            self.rooms[gid] = room
        self.trim(keep=room)
        self.drive(room)  # a game loaded again: its clocks and bots resume
        return room

    def trim(self, keep: Room | None = None) -> int:
        """Drop idle games from memory; how many went. The store keeps them and ``get``
        rebuilds them on their next request.

        Unfinished games go once nobody touched them for ``idle_seconds``; finished ones
        beyond ``keep_finished``, least recently fetched first. Only a game with no open
        socket, no bot at work or due, and a free lock goes; a request still holding the old
        room is refused by it (``Evicted``) and tried again on the rebuilt one.
        """
        cutoff = time.monotonic() - self.settings.idle_seconds
        with self._rooms_lock:
            rooms = [r for r in self.rooms.values() if r is not keep]
            stale = [r for r in rooms if not _finished(r) and r.touched < cutoff]
            gone = sum(self._evict(r) for r in stale)
            done = sorted((r for r in rooms if _finished(r)), key=lambda r: r.touched)
            for room in done[: max(0, len(done) - self.keep_finished)]:
                gone += self._evict(room)
            return gone

    def _evict(self, room: Room) -> bool:
        """Drop ``room`` from memory if it is still idle and its lock is free. Rooms lock held."""
        if not room.lock.acquire(blocking=False):
            return False
        try:
            if room.subscribers or room.bot_busy or room.bot_seats():
                return False
            room.gone = True
            room.undo_stack = list(room.undo_stack)  # the stored chain is the truth now
            del self.rooms[room.id]
            return True
        finally:
            room.lock.release()

    def _rebuild(self, g: StoredGame) -> Room:
        rec = {
            "format": "nightsky-record/1",
            "game": g.game,
            "params": g.params,
            "history": [list(h) for h in g.history],
            "result": None,
        }
        try:
            state = replay(rec, check_result=False)
        except RecordError as exc:
            raise ServerError(
                500, "corrupt_game", f"game {g.id} cannot be replayed: {exc}"
            ) from None
        room = self._room(g, state)
        humans = [i for i, s in enumerate(room.seats) if s.human]
        room.clock = TableClock.from_row(g.clock, humans, restarted=self.started_at)
        room.clock_stored = g.clock
        room.undo_stack = list(g.undo)  # stored with every change: undo survives a restart
        room.mark_seats()  # after a restart: what a seat saw before it is stale
        return room

    def _room(self, g: StoredGame, state: State) -> Room:
        return Room(
            id=g.id,
            game_id=g.game,
            params=g.params,
            seed=g.seed,
            seats=[Seat.from_row(r) for r in g.seats],
            state=state,
            version=g.version,
            created_at=g.created_at,
            store=self.store,
            timings=self.timings,
            seed_source=g.seed_source,
            client=g.client,
            secret=self.secret,
            notices=list(g.notices),
            listed=bool(g.listed),
            rated=g.rated,
            tournament=g.tournament,
            now=self.now,
        )

    def create(self, req: NewGame, client: str = "") -> Created:
        """Create a game: the creator gets the first human seat's token, every other human
        seat a one-time invite code."""
        game = new_game(req.game, req.players, req.options)
        n = game.num_players
        if len(req.seats) != n:
            raise ServerError(
                422,
                "bad_seats",
                f"{game.info.title} with {n} players needs {n} seats, got {len(req.seats)}",
                field="seats",
            )
        seats = new_seats(req.seats, req.names, self.settings, game)
        clock, standin = new_clock(req.clock, seats.rows, game, self.settings)
        check_seed(req.seed, seats.rows, self.settings)
        check_rated(req, seats.rows)
        check_caps(self.store, client, self.settings)
        stored = StoredGame(
            id=req.game_id or secrets.token_hex(6),
            game=req.game,
            params=game.params,
            seed=int(req.seed if req.seed is not None else secrets.randbits(62)),
            seats=[s.row() for s in seats.rows],
            version=0,
            status="playing",
            created_at=now(),
            seed_source="server" if req.seed is None else "client",
            client=client or None,
            listed=bool(req.listed),
            rated=req.rated,
            tournament=req.tournament,
        )
        room = self._room(stored, game.new_initial_state())
        room.clock = clock
        # The specs read at the edge play the moves: the bot seats' own, the stand-in's for
        # the human seats (away, timed out, resigned).
        room.agents.update({i: standin for i, s in enumerate(seats.rows) if s.human})
        room.agents.update(seats.plans)
        with room.lock:
            room.resolve_chance()
            room.mark_seats()
            stored.status = room.status
            stored.history = [(s, str(a)) for s, a in room.state.history]
            stored.clock, stored.deadline = room.sync_clocks() or (None, None)
            self.store.create(stored)
        with self._rooms_lock:
            self.rooms[room.id] = room
        self.trim(keep=room)
        self.drive(room)
        return Created(room, seats.token, seats.invites)

    # ------------------------------------------------------------------ requests
    def seat_for(self, room: Room, token: str | None, *, required: bool) -> int | None:
        """The seat a token belongs to (None: a spectator). No token where one is required,
        or a token of no seat of this game: 401 (the credentials are missing or wrong). The
        first use of a seat's token marks the seat taken."""
        if not token:
            if required:
                raise ServerError(401, "token_required", "this needs your seat's token")
            return None
        seat = room.seat_of_token(token)
        if seat is None:
            raise ServerError(401, "bad_token", "this token belongs to no seat of this game")
        if not room.seats[seat].joined:
            with self.hold(room) as held:
                held.mark_joined(seat)
        return seat

    def act(self, room: Room, seat: int, notation: str, version: int) -> Room:
        """A human seat's move, the whole of it: the change (``Room.act``: version check,
        rules, clocks, commit, push), then the table driven on (its bots). The room that
        took the move (the rebuilt one when ``room`` was evicted meanwhile)."""
        with self.hold(room) as held:
            held.act(seat, notation, version)
        self.drive(held, accepted=True)
        return held

    def subscribe(self, room: Room, sub: Subscriber) -> None:
        """Push ``sub`` the table's new view after every change (until ``unsubscribe``)."""
        with room.lock:
            room.subscribers.append(sub)

    @contextlib.contextmanager
    def hold(self, room: Room) -> Iterator[Room]:
        """The table under its lock, for one change: ``with manager.hold(room) as room:
        room.act(...)``. A room evicted since the request fetched it is swapped for the
        rebuilt one (a held room is never evicted). A refused commit leaves memory ahead of
        the store: the room is reloaded (``StorageFailure`` goes on to the caller)."""
        for _ in range(3):
            room.lock.acquire()
            if not room.gone:
                break
            room.lock.release()
            room = self.get(room.id)
        else:
            raise ServerError(503, "busy", "the table is being reloaded; try again")
        try:
            try:
                yield room
            finally:
                room.lock.release()
        except StorageFailure:
            self._lost(room)
            raise

    def _lost(self, room: Room) -> None:
        """A commit was refused: memory is ahead of the store. Reload the room in place from
        the store (its sockets stay); when even that fails, drop it (``get`` reloads)."""
        try:
            self.refresh(room, full=True)
        except Exception:
            log.warning("game %s could not be reloaded; dropped from memory", room.id)
            self._forget(room)

    def refresh(self, room: Room, *, full: bool = False) -> bool:
        """Bring a room in memory up to the stored game when another process changed it (or
        ``full``: rebuild it from the store whatever its version): the moves it lacks are
        applied (the whole record is replayed when its history is no longer a prefix), then
        its watchers are pushed the new view. Whether anything changed."""
        with room.lock:
            if room.gone:
                return False
            n = len(room.state.history)
            since = 0 if full else max(0, n - 1)
            g = self.store.load(room.id, since=since)
            if g is None or (not full and g.version <= room.version):
                return False
            state: State | None = None
            if since:
                seat, action = room.state.history[since]
                if g.history[:1] == [(seat, str(action))]:
                    state = room.state  # a failure below rebuilds it from the record
                    try:
                        for s, text in g.history[1:]:
                            state.apply(state.game.parse_action(text), s)
                    except GameError:
                        state = None
            if state is None:
                if since:
                    g = self.store.load(room.id)
                    if g is None:
                        return False
                state = self._rebuild(g).state
                room.narrator = None
            room.state, room.version = state, g.version
            room.seats = [Seat.from_row(r) for r in g.seats]
            room.undo_stack = list(g.undo)
            room.notices, room.listed = list(g.notices), bool(g.listed)
            if g.clock is not None and g.clock != room.clock_stored:
                # the other process's clocks, stand-ins and resignations
                humans = [i for i, s in enumerate(room.seats) if s.human]
                room.clock, room.clock_stored = TableClock.from_row(g.clock, humans), g.clock
            room.changed()
        return True

    def _forget(self, room: Room) -> None:
        with self._rooms_lock:
            if self.rooms.get(room.id) is room:
                del self.rooms[room.id]

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        """A socket closed: forget it, and drop finished tables nobody watches any more."""
        with room.lock:
            if sub in room.subscribers:
                room.subscribers.remove(sub)
        if not room.subscribers and room.over:
            self.trim()

    def lobby(self, limit: int = 50, ids: list[str] | None = None) -> list[dict[str, Any]]:
        """The open tables, most recently active first; with ``ids``, those games instead
        (listed or not: whoever holds a game's link may watch it)."""
        out = []
        if ids is not None:
            games = self.store.some([g for g in ids if _plausible_id(g)][:limit])
        else:
            games = self.store.recent(limit, listed=True)
        for g in games:
            with contextlib.suppress(GameError):
                out.append(_lobby_entry(g))
        return out

    def wait_idle(self, room: Room, timeout: float = 10.0) -> bool:
        """Wait until no bot of ``room`` is to act (tests and scripts)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with room.lock:
                if not room.bot_busy and not room.bot_seats():
                    return True
            time.sleep(0.005)
        return False


def _lobby_entry(g: StoredGame) -> dict[str, Any]:
    seats = [Seat.from_row(r) for r in g.seats]
    return {
        "id": g.id,
        "game": g.game,
        "title": game_class(g.game).info.title,
        "players": g.params.get("players"),
        "status": g.status,
        "listed": bool(g.listed),
        # only a listed table's free seats may be joined from the lobby
        "open_seats": [i for i, s in enumerate(seats) if s.human and not s.joined]
        if g.listed
        else [],
        "free_seats": [i for i, s in enumerate(seats) if s.human and not s.joined],
        "version": g.version,
        "seats": [
            {"seat": i, "kind": s.kind.value, "name": s.name, "joined": s.joined}
            for i, s in enumerate(seats)
        ],
        "created_at": g.created_at.isoformat(),
    }


def _finished(room: Room) -> bool:
    return room.over


def _plausible_id(gid: str) -> bool:
    """Whether ``gid`` looks like a table id (the store is not asked about anything else)."""
    return 0 < len(gid) <= 32 and all(c in "0123456789abcdef" for c in gid)

