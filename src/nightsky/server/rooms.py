"""Live games on the server: the rules engine, seats and tokens, chance, bots, undo, push.

A ``Room`` is one game in memory: its ``State`` (rebuilt from the stored record), its ``Seat``s
and a version counter that grows with every change. Every change (``Room.act``, ``Room.undo``,
``Room.join``) runs under the room's lock and is committed to the database before anyone hears
of it. Chance is resolved here, from the game's secret seed and the history length, so a game
replays from its record and never depends on timing.

The ``BotRunner`` plays bot seats in a small thread pool: a bot is handed a state it cannot
tell from the true one (``resample``, drawn once by the room) unless its spec says
``cheat=true``. The ``Manager`` owns the rooms (load, create, evict) and the runner.

Nothing here is game-specific: everything goes through the game contract.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from nightsky.agents.base import Agent, make_agent, parse_spec
from nightsky.core.errors import GameError, GameOverError, OptionError, RecordError
from nightsky.core.game import CHANCE, Action, State
from nightsky.core.record import make_record, parse_record, replay
from nightsky.core.registry import game_class, load_game
from nightsky.server.store import Store, StoredGame, now
from nightsky.server.views import log_line, seat_payload

log = logging.getLogger("nightsky.server")

MAX_CHANCE_CHAIN = 10_000
UNDO_PROBES = 4


class ServerError(Exception):
    """An error the API reports with a stable ``code`` and an HTTP status."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


class StorageFailure(ServerError):
    """The database refused a commit: the room in memory no longer matches what is stored."""

    def __init__(self) -> None:
        super().__init__(503, "storage_error", "the move could not be saved; try again")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def game_error(exc: GameError) -> ServerError:
    """Map a rules error to the API's error (422 for a refused action, 409 when over)."""
    status = 409 if isinstance(exc, GameOverError) else 422
    return ServerError(status, exc.code, str(exc), rule=exc.rule)


class Timings:
    """Server-side work per move, milliseconds, kept apart from the game logic.

    ``human``/``bot``/``post``: wall-clock time (waits for the CPU, the GIL and the database
    included); ``*_cpu``: CPU time of the thread doing it (the work itself).
    """

    KINDS = ("human", "bot", "post")

    def __init__(self, keep: int = 200_000) -> None:
        self.samples: dict[str, deque[float]] = {}
        for kind in self.KINDS:
            self.samples[kind] = deque(maxlen=keep)
            self.samples[f"{kind}_cpu"] = deque(maxlen=keep)

    @contextlib.contextmanager
    def measure(self, kind: str) -> Iterator[None]:
        """Time the block as one ``kind`` sample (wall and CPU); a refused block is not one."""
        t0, c0 = time.perf_counter(), time.thread_time()
        yield
        self.samples[kind].append((time.perf_counter() - t0) * 1000)
        self.samples[f"{kind}_cpu"].append((time.thread_time() - c0) * 1000)

    def items(self) -> Iterator[tuple[str, deque[float]]]:
        return iter(self.samples.items())

    def __getitem__(self, kind: str) -> deque[float]:
        return self.samples[kind]


@dataclass
class Seat:
    """One seat of a game: a human (with the hash of its secret token) or a bot (a spec)."""

    kind: str  # "human" or "bot"
    name: str
    spec: str | None = None
    token_hash: str | None = None
    joined: bool = False

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Seat:
        return cls(
            kind=row["kind"],
            name=row["name"],
            spec=row.get("spec"),
            token_hash=row.get("token_hash"),
            joined=bool(row.get("joined")),
        )

    def row(self) -> dict[str, Any]:
        """The JSON stored in the ``games.seats`` column."""
        return {
            "kind": self.kind,
            "spec": self.spec,
            "name": self.name,
            "token_hash": self.token_hash,
            "joined": self.joined,
        }

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def public(self, index: int) -> dict[str, Any]:
        """What anyone may know of the seat."""
        return {
            "seat": index,
            "kind": self.kind,
            "name": self.name,
            "spec": self.spec,
            "joined": self.joined or not self.human,
        }

    def owns(self, token_hash: str) -> bool:
        return bool(self.token_hash) and hmac.compare_digest(self.token_hash or "", token_hash)

    def new_token(self) -> str:
        """Give the seat a fresh secret (the old one stops working); returns it."""
        token = secrets.token_urlsafe(18)
        self.token_hash = hash_token(token)
        return token


@dataclass
class Subscriber:
    seat: int | None
    push: Callable[[dict[str, Any]], None]


@dataclass
class Room:
    """One game in memory: its state, seats and version; every change goes through here."""

    id: str
    game_id: str
    params: dict[str, Any]
    seed: int
    seats: list[Seat]
    state: State
    version: int
    created_at: Any
    store: Store
    timings: Timings = field(default_factory=Timings)
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: list[Subscriber] = field(default_factory=list)
    # (seat, history length after the action): a contiguous run of undoable human actions.
    undo_stack: list[tuple[int, int]] = field(default_factory=list)
    bot_busy: bool = False
    agents: dict[int, Agent] = field(default_factory=dict)
    logs: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    cache: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    # Per human seat: (the version at which its legal-action list last changed, that list).
    # A seat's POST is stale only when its own choices changed since the version it saw.
    seat_marks: dict[int, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)  # last fetched (for eviction)

    # ------------------------------------------------------------------ seats
    @property
    def status(self) -> str:
        return "over" if self.state.is_terminal() else "playing"

    def mark_seats(self) -> None:
        """Record, for each human seat whose legal actions changed, the current version."""
        current = self.state.current_players()
        for i, s in enumerate(self.seats):
            if not s.human:
                continue
            legal = tuple(str(a) for a in self.state.legal_actions(i)) if i in current else ()
            old = self.seat_marks.get(i)
            if old is None or old[1] != legal:
                self.seat_marks[i] = (self.version, legal)

    def seat_version(self, seat: int) -> int:
        """The version at which ``seat``'s legal actions last changed."""
        mark = self.seat_marks.get(seat)
        return self.version if mark is None else mark[0]

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human and not s.joined]

    def bot_seats(self) -> list[int]:
        """The bot seats that are to act now."""
        n = len(self.seats)
        now = self.state.current_players()
        return [p for p in now if 0 <= p < n and self.seats[p].kind == "bot"]

    def public_seats(self) -> list[dict[str, Any]]:
        out = [s.public(i) for i, s in enumerate(self.seats)]
        # Seats the game adds itself (Starlight's Starbots) are played by the rules.
        for i in range(len(self.seats), self.state.game.num_seats):
            name = self.state.game.seat_name(i)
            out.append({"seat": i, "kind": "game", "name": name, "spec": None, "joined": True})
        return out

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        return next((i for i, s in enumerate(self.seats) if s.owns(h)), None)

    def mark_joined(self, seat: int) -> None:
        """A seat's token was used for the first time: the seat is taken."""
        with self.lock:
            if not self.seats[seat].joined:
                self.seats[seat].joined = True
                self.persist(seats_changed=True)
                self.changed()

    def join(self, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free human seat (the lobby's Join); returns the seat and its new token."""
        with self.lock:
            free = self.open_seats()
            if self.state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            if seat is None:
                if not free:
                    raise ServerError(409, "no_free_seat", "every seat is taken")
                seat = free[0]
            if seat not in free:
                raise ServerError(409, "seat_taken", f"seat {seat} is not free")
            row = self.seats[seat]
            token = row.new_token()
            row.joined = True
            if name:
                row.name = name[:40]
            self.persist(seats_changed=True, bump=True)
            self.changed()
            return seat, token

    # ------------------------------------------------------------------ acting
    def act(self, seat: int, notation: str, version: int) -> None:
        """A human seat's action, chosen on ``version``: validated, applied, committed, pushed."""
        with self.lock:
            self.check_seat_version(seat, version)
            if self.state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            try:
                action = self.state.game.parse_action(notation)
            except GameError as exc:
                raise game_error(exc) from None
            # apply() validates first: a refused action changes nothing and names its rule.
            with self.timings.measure("human"):
                self.commit_action(seat, action, human=True)

    def commit_action(self, seat: int, action: Action, *, human: bool) -> None:
        """Apply (validated), resolve the chance it triggers, commit, push. Under the lock."""
        state = self.state
        start = len(state.history)
        before = state.clone() if human else None
        try:
            state.apply(action, seat)
        except GameError as exc:
            raise game_error(exc) from None
        self.resolve_chance()
        new = state.history[start:]
        if before is not None and len(new) == 1 and not _reveals(before, state, seat, action):
            self.undo_stack.append((seat, len(state.history)))
        else:
            self.undo_stack.clear()
        self.persist(start=start, moves=[(s, str(a)) for s, a in new], bump=True)
        self.changed()

    def resolve_chance(self) -> None:
        state = self.state
        for _ in range(MAX_CHANCE_CHAIN):
            if state.current_players() != (CHANCE,):
                return
            rng = random.Random(f"{self.seed}:chance:{len(state.history)}")
            state.apply(state.sample_chance(rng), CHANCE)
        raise ServerError(500, "chance_loop", "chance did not settle")

    def check_version(self, version: int) -> None:
        if version != self.version:
            raise ServerError(
                409,
                "stale_version",
                f"the game has moved on (you saw version {version}, it is now "
                f"{self.version}); look again and choose",
                current_version=self.version,
            )

    def check_seat_version(self, seat: int, version: int) -> None:
        """Stale only if ``seat``'s own choices changed after ``version`` (simultaneous turns:
        another seat's move that leaves them alone does not void this one)."""
        if version > self.version or self.seat_version(seat) > version:
            raise ServerError(
                409,
                "stale_version",
                f"your choices changed since version {version} (the game is at "
                f"{self.version}); look again and choose",
                current_version=self.version,
            )

    # ------------------------------------------------------------------ undo
    def undo(self, seat: int, version: int) -> None:
        """Take back ``seat``'s last action when that reveals nothing (see ``undo_allowed``)."""
        with self.lock:
            self.check_version(version)
            if not self.undo_allowed(seat):
                raise ServerError(
                    409,
                    "undo_unsafe",
                    "nothing to undo: your last action is not the last thing that "
                    "happened, or it revealed something (chance, another seat)",
                )
            with self.timings.measure("human"):
                n = len(self.state.history) - 1
                self.undo_stack.pop()
                rec = make_record(self.state)
                rec["result"] = None
                self.state = replay(rec, check_result=False, upto=n)
                self.persist(start=n, truncate_to=n, bump=True)
                self.changed()

    def undo_allowed(self, seat: int | None) -> bool:
        if seat is None or not self.undo_stack:
            return False
        top_seat, top_len = self.undo_stack[-1]
        hist = self.state.history
        return top_seat == seat and top_len == len(hist) and bool(hist) and hist[-1][0] == seat

    # ------------------------------------------------------------------ storage and push
    def persist(
        self,
        *,
        start: int | None = None,
        moves: list[tuple[int, str]] | None = None,
        truncate_to: int | None = None,
        seats_changed: bool = False,
        bump: bool = False,
    ) -> None:
        """Commit one change (and then count it in the version); StorageFailure if refused."""
        version = self.version + 1 if bump else self.version
        try:
            self.store.commit_change(
                self.id,
                start=len(self.state.history) if start is None else start,
                moves=moves or [],
                truncate_to=truncate_to,
                version=version,
                status=self.status,
                seats=[s.row() for s in self.seats] if seats_changed else None,
                undo=self.undo_stack,
            )
        except Exception as exc:
            log.exception("commit failed for game %s; reloading it", self.id)
            raise StorageFailure() from exc
        self.version = version

    def changed(self) -> None:
        """Push every subscriber its new view. Under the lock."""
        hist = self.state.history
        for lines in self.logs.values():
            del lines[len(hist) :]  # an undo rewrites history: drop the lines that changed
        self.cache.clear()
        self.mark_seats()
        for sub in list(self.subscribers):
            try:
                sub.push(self.payload(sub.seat))
            except Exception:  # a closed socket must not stop the game
                log.debug("push failed", exc_info=True)

    # ------------------------------------------------------------------ what is sent
    def payload(self, seat: int | None) -> dict[str, Any]:
        """The full view of ``seat`` (None: spectator) at the current version (cached)."""
        with self.lock:
            cached = self.cache.get(seat)
            if cached is not None and cached["version"] == self.version:
                return cached
            body = seat_payload(self.state, seat)
            body.update(
                {
                    "id": self.id,
                    "game": self.game_id,
                    "title": self.state.game.info.title,
                    "params": self.params,
                    "version": self.version,
                    "seat": seat,
                    "seats": self.public_seats(),
                    "status": self.status,
                    "can_undo": self.undo_allowed(seat),
                    "log": self.log_for(seat),
                }
            )
            self.cache[seat] = body
            return body

    def log_for(self, seat: int | None) -> list[dict[str, Any]]:
        """The history as ``seat`` may read it (lines cached per viewer)."""
        lines = self.logs.setdefault(seat, [])
        hist = self.state.history
        del lines[len(hist) :]
        for i in range(len(lines), len(hist)):
            lines.append(log_line(self.state, i, hist[i][0], hist[i][1], seat))
        return list(lines)

    def record(self) -> dict[str, Any]:
        with self.lock:
            if not self.state.is_terminal():
                raise ServerError(
                    409, "game_not_over", "the record is available when the game is over"
                )
            return make_record(self.state)

    def replay_view(self, step: int) -> dict[str, Any]:
        """The spectator's view after ``step`` entries of the record (finished games only)."""
        with self.lock:
            if not self.state.is_terminal():
                raise ServerError(409, "game_not_over", "replays open when the game is over")
            rec = make_record(self.state)
        n = len(rec["history"])
        if not 0 <= step <= n:
            raise ServerError(422, "bad_step", f"step must be within 0..{n}", field="step")
        parse_record(rec)
        state = replay(rec, check_result=False, upto=step)
        body = seat_payload(state, None)
        hist = state.history
        body.update(
            {
                "id": self.id,
                "game": self.game_id,
                "title": state.game.info.title,
                "step": step,
                "steps": n,
                "seats": self.public_seats(),
                "log": [log_line(state, i, s, a, None) for i, (s, a) in enumerate(hist)],
            }
        )
        return body


@dataclass
class BotTurn:
    """What a bot needs to choose, taken under the room's lock."""

    seat: int
    version: int
    agent: Agent
    base: State  # what the bot looks at: a resample of the true state (or the state itself)
    rng: random.Random


class BotRunner:
    """Plays the bot seats of rooms in a small thread pool, one loop per room at a time."""

    def __init__(
        self, *, workers: int, delay: float, forget: Callable[[Room], None]
    ) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bots")
        self.delay = delay
        self.forget = forget  # called when a bot's move could not be stored
        self.closing = False

    def close(self) -> None:
        self.closing = True
        self.pool.shutdown(wait=True, cancel_futures=True)

    def kick(self, room: Room) -> None:
        """Start the room's bot loop if a bot is to act and none is running."""
        with room.lock:
            if self.closing or room.bot_busy or not room.bot_seats():
                return
            room.bot_busy = True
        if self.delay > 0:
            # Wait on a timer, not in a worker: a pause must not hold up other games' bots.
            timer = threading.Timer(self.delay, self._submit, args=(room,))
            timer.daemon = True
            timer.start()
        else:
            self._submit(room)

    def _submit(self, room: Room) -> None:
        try:
            self.pool.submit(self._run, room)
        except RuntimeError:  # shutting down
            room.bot_busy = False

    def _run(self, room: Room) -> None:
        ok = False
        try:
            self._play(room)
            ok = True
        except StorageFailure:
            self.forget(room)
        except Exception:
            log.exception("bot loop of game %s stopped", room.id)
        finally:
            with room.lock:
                room.bot_busy = False
                # The delay between moves, or a human move that came in as this loop ended.
                again = ok and not self.closing and bool(room.bot_seats())
        if again:
            self.kick(room)

    def _play(self, room: Room) -> None:
        """Play bot moves until none is due (or, with a delay, after one move)."""
        while not self.closing:
            turn = self._turn(room)
            if turn is None:
                return
            action = self._choose(room, turn)
            with room.lock:
                if room.version != turn.version or self.closing:
                    continue
                if action is None or not room.state.is_legal(action, turn.seat):
                    if action is not None:
                        log.warning("bot chose an illegal %s in game %s", action, room.id)
                    action = turn.rng.choice(room.state.legal_actions(turn.seat))
                with room.timings.measure("bot"):
                    room.commit_action(turn.seat, action, human=False)
            if self.delay > 0:  # the next bot move waits its turn on a timer
                return

    def _turn(self, room: Room) -> BotTurn | None:
        with room.lock:
            bots = room.bot_seats()
            if not bots:
                return None
            seat = bots[0]
            spec = room.seats[seat].spec or ""
            agent = room.agents.get(seat)
            if agent is None:
                agent = room.agents[seat] = make_agent(spec)
            cheat = bool(parse_spec(spec)[1].get("cheat"))
            state = room.state
            rng = random.Random(f"{room.seed}:bot{seat}:{len(state.history)}")
            # A bot sees only its own view: a state it cannot tell from the true one,
            # drawn once here (no copy of the true state is made for it).
            hidden = state.game.info.hidden_information and not cheat
            base = state.resample(seat, rng) if hidden else state.clone()
            return BotTurn(seat, room.version, agent, base, rng)

    def _choose(self, room: Room, turn: BotTurn) -> Action | None:
        """The bot's choice; None when it failed (a random legal action is played instead)."""
        try:
            return turn.agent.choose(turn.base, turn.seat, turn.rng)
        except Exception:
            spec = room.seats[turn.seat].spec
            log.exception("bot %s failed in game %s; playing at random", spec, room.id)
            return None


class Manager:
    """Owns the rooms (in memory, loaded from and created in the store) and the bot runner."""

    def __init__(
        self,
        store: Store,
        *,
        bot_workers: int = 4,
        bot_delay: float = 0.0,
        keep_finished: int = 64,
    ) -> None:
        self.store = store
        # Finished games nobody watches are dropped from memory beyond this many (least
        # recently fetched first); the store still has them and ``get`` reloads on demand.
        self.keep_finished = keep_finished
        self.rooms: dict[str, Room] = {}
        self._rooms_lock = threading.Lock()
        self.bots = BotRunner(workers=bot_workers, delay=bot_delay, forget=self._forget)
        self.timings = Timings()

    @property
    def bot_delay(self) -> float:
        return self.bots.delay

    # ------------------------------------------------------------------ life cycle
    def start(self) -> int:
        """Load every unfinished game and let its bots resume; returns how many."""
        ids = self.store.ids(status="playing")
        for gid in ids:
            self.bots.kick(self.get(gid))
        return len(ids)

    def close(self) -> None:
        self.bots.close()

    # ------------------------------------------------------------------ rooms
    def get(self, gid: str) -> Room:
        room = self.rooms.get(gid)
        if room is not None:
            room.touched = time.monotonic()
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
        self.trim()
        return room

    def trim(self) -> int:
        """Drop finished, unwatched games from memory beyond ``keep_finished``; how many went.

        Only a game that is over, has no open socket and no bot at work goes, and only if its
        lock is free: nothing can change it any more (a move or a join is refused as game
        over, and its undo history is cleared), so a request still holding the old room and
        the room ``get`` rebuilds from the store agree.
        """
        with self._rooms_lock:
            idle = [r for r in self.rooms.values() if _evictable(r)]
            extra = len(idle) - self.keep_finished
            idle.sort(key=lambda r: r.touched)
            gone = 0
            for room in idle:
                if gone >= extra:
                    break
                if self._evict(room):
                    gone += 1
            return gone

    def _evict(self, room: Room) -> bool:
        """Drop ``room`` from memory if it is still idle and its lock is free. Rooms lock held."""
        if not room.lock.acquire(blocking=False):
            return False
        try:
            if not _evictable(room):
                return False
            room.undo_stack.clear()
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
        )

    def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        seats: list[str],
        names: list[str] | None = None,
        seed: int | None = None,
    ) -> tuple[Room, dict[int, str]]:
        """Create a game; returns the room and a fresh token for every human seat."""
        game = _new_game(game_id, players, options)
        if len(seats) != game.num_players:
            n = game.num_players
            raise ServerError(
                422,
                "bad_seats",
                f"{game.info.title} with {n} players needs {n} seats, got {len(seats)}",
                field="seats",
            )
        rows, tokens = _new_seats(seats, names)
        stored = StoredGame(
            id=secrets.token_hex(6),
            game=game_id,
            params=game.params,
            seed=int(seed if seed is not None else secrets.randbits(62)),
            seats=[s.row() for s in rows],
            version=0,
            status="playing",
            created_at=now(),
        )
        room = self._room(stored, game.new_initial_state())
        with room.lock:
            room.resolve_chance()
            room.mark_seats()
            stored.status = room.status
            stored.history = [(s, str(a)) for s, a in room.state.history]
            self.store.create(stored)
        with self._rooms_lock:
            self.rooms[room.id] = room
        self.trim()
        self.bots.kick(room)
        return room, tokens

    # ------------------------------------------------------------------ requests
    def seat_for(self, room: Room, token: str | None, *, required: bool) -> int | None:
        """The seat a token belongs to (None: a spectator). A wrong token is refused (403)."""
        if not token:
            if required:
                raise ServerError(403, "token_required", "this needs your seat's token")
            return None
        seat = room.seat_of_token(token)
        if seat is None:
            raise ServerError(403, "bad_token", "this token belongs to no seat of this game")
        room.mark_joined(seat)
        return seat

    def act(self, room: Room, seat: int, notation: str, version: int) -> None:
        with self._forgetting_on_storage_failure(room):
            room.act(seat, notation, version)
        self.bots.kick(room)

    def undo(self, room: Room, seat: int, version: int) -> None:
        with self._forgetting_on_storage_failure(room):
            room.undo(seat, version)

    def join(self, room: Room, seat: int | None, name: str | None) -> tuple[int, str]:
        with self._forgetting_on_storage_failure(room):
            return room.join(seat, name)

    @contextlib.contextmanager
    def _forgetting_on_storage_failure(self, room: Room) -> Iterator[None]:
        try:
            yield
        except StorageFailure:
            self._forget(room)
            raise

    def _forget(self, room: Room) -> None:
        """A refused commit leaves memory ahead of the store: drop the room (``get`` reloads)."""
        with self._rooms_lock:
            self.rooms.pop(room.id, None)

    def payload(self, room: Room, seat: int | None) -> dict[str, Any]:
        return room.payload(seat)

    def undo_allowed(self, room: Room, seat: int | None) -> bool:
        return room.undo_allowed(seat)

    def record(self, room: Room) -> dict[str, Any]:
        return room.record()

    def replay_view(self, room: Room, step: int) -> dict[str, Any]:
        return room.replay_view(step)

    def subscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            room.subscribers.append(sub)

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            if sub in room.subscribers:
                room.subscribers.remove(sub)
        if not room.subscribers and room.state.is_terminal():
            self.trim()

    def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        out = []
        for g in self.store.recent(limit):
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


def _new_game(game_id: str, players: int | None, options: dict[str, Any]) -> Any:
    try:
        game_class(game_id)
        if "players" in options:
            raise OptionError("give the player count as 'players', not as an option")
        return load_game(game_id, players=players, **options)
    except GameError as exc:
        raise ServerError(422, exc.code, str(exc), field="options") from None


def _new_seats(specs: list[str], names: list[str] | None) -> tuple[list[Seat], dict[int, str]]:
    """The seats of a new game, and a fresh token for every human seat (the first is joined:
    it is the creator's)."""
    rows: list[Seat] = []
    tokens: dict[int, str] = {}
    for i, raw in enumerate(specs):
        name = (names[i] if names and i < len(names) else "") or ""
        spec = raw.strip()
        if spec == "human":
            seat = Seat(kind="human", name=name or f"Player {i + 1}", joined=not tokens)
            tokens[i] = seat.new_token()
        else:
            try:
                make_agent(spec)
            except GameError as exc:
                raise ServerError(422, exc.code, f"seat {i}: {exc}", field="seats") from None
            seat = Seat(kind="bot", name=name or f"{spec.split(':')[0]} bot", spec=spec)
            seat.joined = True
        rows.append(seat)
    return rows, tokens


def _lobby_entry(g: StoredGame) -> dict[str, Any]:
    seats = [Seat.from_row(r) for r in g.seats]
    return {
        "id": g.id,
        "game": g.game,
        "title": game_class(g.game).info.title,
        "players": g.params.get("players"),
        "status": g.status,
        "open_seats": [i for i, s in enumerate(seats) if s.human and not s.joined],
        "version": g.version,
        "seats": [
            {"seat": i, "kind": s.kind, "name": s.name, "joined": s.joined}
            for i, s in enumerate(seats)
        ],
        "created_at": g.created_at.isoformat(),
    }


def _evictable(room: Room) -> bool:
    return not room.subscribers and not room.bot_busy and room.state.is_terminal()


def _reveals(before: State, after: State, seat: int, action: Action) -> bool:
    """Whether taking ``action`` showed ``seat`` anything it did not know.

    Probe: replay the action on states ``seat`` cannot tell from ``before``; if any gives the
    seat a different view than the true result, the action uncovered hidden information.
    """
    if not before.game.info.hidden_information:
        return False
    target = after.view(seat)
    for i in range(UNDO_PROBES):
        probe = before.resample(seat, random.Random(i))
        try:
            probe.apply(action, seat)
        except GameError:
            return True
        if probe.current_players() != after.current_players() or probe.view(seat) != target:
            return True
    return False


def _plausible_id(gid: str) -> bool:
    return 0 < len(gid) <= 32 and all(c in "0123456789abcdef" for c in gid)
