"""Live games on the server: the rules engine, seats and tokens, chance, bots, undo, push.

A ``Room`` is one game in memory: its ``State`` (rebuilt from the stored record), its seats and
a version counter that grows with every change. Every mutation runs under the room's lock and
is committed to the database before anyone hears of it. Chance is resolved here, from the game's
secret seed and the history length, so a game replays from its record and never depends on
timing. Bot seats play in a small thread pool, from a resampled state (their own view) unless
their spec says ``cheat=true``.

Nothing here is game-specific: everything goes through the game contract.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
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


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def game_error(exc: GameError) -> ServerError:
    """Map a rules error to the API's error (422 for a refused action, 409 when over)."""
    status = 409 if isinstance(exc, GameOverError) else 422
    return ServerError(status, exc.code, str(exc), rule=exc.rule)


@dataclass
class Subscriber:
    seat: int | None
    push: Callable[[dict[str, Any]], None]


@dataclass
class Room:
    """One game in memory."""

    id: str
    game_id: str
    params: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    state: State
    version: int
    created_at: Any
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

    @property
    def status(self) -> str:
        return "over" if self.state.is_terminal() else "playing"

    def mark_seats(self) -> None:
        """Record, for each human seat whose legal actions changed, the current version."""
        current = self.state.current_players()
        for i, s in enumerate(self.seats):
            if s["kind"] != "human":
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
        return [i for i, s in enumerate(self.seats) if s["kind"] == "human" and not s.get("joined")]

    def public_seats(self) -> list[dict[str, Any]]:
        out = []
        for i, s in enumerate(self.seats):
            out.append(
                {
                    "seat": i,
                    "kind": s["kind"],
                    "name": s["name"],
                    "spec": s.get("spec"),
                    "joined": bool(s.get("joined")) or s["kind"] != "human",
                }
            )
        # Seats the game adds itself (Starlight's Starbots) are played by the rules.
        for i in range(len(self.seats), self.state.game.num_seats):
            out.append(
                {
                    "seat": i,
                    "kind": "game",
                    "name": self.state.game.seat_name(i),
                    "spec": None,
                    "joined": True,
                }
            )
        return out


class Manager:
    """Owns the rooms, the store and the bot threads."""

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
        self._pool = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="bots")
        self._closing = False
        self.bot_delay = bot_delay
        # Server-side work per move (apply + chance + commit + push), milliseconds.
        # "human"/"bot": wall-clock time (waits for the CPU, the GIL and the database
        # included); "*_cpu": CPU time of the thread doing it (the work itself).
        self.timings: dict[str, deque[float]] = {
            k: deque(maxlen=200_000)
            for k in ("human", "bot", "human_cpu", "bot_cpu", "post", "post_cpu")
        }

    # ------------------------------------------------------------------ life cycle
    def start(self) -> int:
        """Load every unfinished game and let its bots resume; returns how many."""
        ids = self.store.ids(status="playing")
        for gid in ids:
            room = self.get(gid)
            self._kick_bots(room)
        return len(ids)

    def close(self) -> None:
        self._closing = True
        self._pool.shutdown(wait=True, cancel_futures=True)

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
            idle = [
                r for r in self.rooms.values()
                if not r.subscribers and not r.bot_busy and r.state.is_terminal()
            ]
            extra = len(idle) - self.keep_finished
            if extra <= 0:
                return 0
            idle.sort(key=lambda r: r.touched)
            gone = 0
            for room in idle:
                if gone >= extra:
                    break
                if not room.lock.acquire(blocking=False):
                    continue
                try:
                    if room.subscribers or room.bot_busy:
                        continue
                    room.undo_stack.clear()
                    del self.rooms[room.id]
                    gone += 1
                finally:
                    room.lock.release()
            return gone

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
        room = Room(
            id=g.id,
            game_id=g.game,
            params=g.params,
            seed=g.seed,
            seats=g.seats,
            state=state,
            version=g.version,
            created_at=g.created_at,
            undo_stack=list(g.undo),  # stored with every change: undo survives a restart
        )
        room.mark_seats()  # after a restart: what a seat saw before it is stale
        return room

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
        try:
            game_class(game_id)
            if "players" in options:
                raise OptionError("give the player count as 'players', not as an option")
            game = load_game(game_id, players=players, **options)
        except GameError as exc:
            raise ServerError(422, exc.code, str(exc), field="options") from None
        if len(seats) != game.num_players:
            raise ServerError(
                422,
                "bad_seats",
                f"{game.info.title} with {game.num_players} players needs {game.num_players} "
                f"seats, got {len(seats)}",
                field="seats",
            )
        seat_rows: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        first_human = True
        for i, spec in enumerate(seats):
            name = (names[i] if names and i < len(names) else "") or ""
            spec = spec.strip()
            if spec == "human":
                token = secrets.token_urlsafe(18)
                tokens[i] = token
                seat_rows.append(
                    {
                        "kind": "human",
                        "spec": None,
                        "name": name or f"Player {i + 1}",
                        "token_hash": hash_token(token),
                        "joined": first_human,
                    }
                )
                first_human = False
            else:
                try:
                    make_agent(spec)
                except GameError as exc:
                    raise ServerError(422, exc.code, f"seat {i}: {exc}", field="seats") from None
                seat_rows.append(
                    {
                        "kind": "bot",
                        "spec": spec,
                        "name": name or f"{spec.split(':')[0]} bot",
                        "token_hash": None,
                        "joined": True,
                    }
                )
        gid = secrets.token_hex(6)
        seed = seed if seed is not None else secrets.randbits(62)
        room = Room(
            id=gid,
            game_id=game_id,
            params=game.params,
            seed=int(seed),
            seats=seat_rows,
            state=game.new_initial_state(),
            version=0,
            created_at=now(),
        )
        with room.lock:
            self._resolve_chance(room)
            room.mark_seats()
            self.store.create(
                StoredGame(
                    id=gid,
                    game=game_id,
                    params=room.params,
                    seed=room.seed,
                    seats=seat_rows,
                    version=room.version,
                    status=room.status,
                    created_at=room.created_at,
                    history=[(s, str(a)) for s, a in room.state.history],
                )
            )
        with self._rooms_lock:
            self.rooms[gid] = room
        self.trim()
        self._kick_bots(room)
        return room, tokens

    # ------------------------------------------------------------------ seats and tokens
    def seat_for(self, room: Room, token: str | None, *, required: bool) -> int | None:
        """The seat a token belongs to (None: a spectator). A wrong token is refused (403)."""
        if not token:
            if required:
                raise ServerError(403, "token_required", "this needs your seat's token")
            return None
        h = hash_token(token)
        for i, s in enumerate(room.seats):
            th = s.get("token_hash")
            if th and hmac.compare_digest(th, h):
                if not s.get("joined"):
                    with room.lock:
                        s["joined"] = True
                        self._persist(
                            room, start=len(room.state.history), moves=[], seats_changed=True
                        )
                        self._changed(room)
                return i
        raise ServerError(403, "bad_token", "this token belongs to no seat of this game")

    def join(self, room: Room, seat: int | None, name: str | None) -> tuple[int, str]:
        """Take a free human seat (the lobby's Join); returns the seat and its new token."""
        with room.lock:
            free = room.open_seats()
            if room.state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            if seat is None:
                if not free:
                    raise ServerError(409, "no_free_seat", "every seat is taken")
                seat = free[0]
            if seat not in free:
                raise ServerError(409, "seat_taken", f"seat {seat} is not free")
            token = secrets.token_urlsafe(18)
            row = room.seats[seat]
            row["token_hash"] = hash_token(token)
            row["joined"] = True
            if name:
                row["name"] = name[:40]
            self._persist(
                room, start=len(room.state.history), moves=[], seats_changed=True, bump=True
            )
            self._changed(room)
            return seat, token

    # ------------------------------------------------------------------ acting
    def act(self, room: Room, seat: int, notation: str, version: int) -> None:
        with room.lock:
            self._check_seat_version(room, seat, version)
            state = room.state
            if state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            try:
                action = state.game.parse_action(notation)
            except GameError as exc:
                raise game_error(exc) from None
            # apply() validates first: a refused action changes nothing and names its rule.
            self._commit_action(room, seat, action, human=True)
        self._kick_bots(room)

    def undo(self, room: Room, seat: int, version: int) -> None:
        """Take back ``seat``'s last action when that reveals nothing (see ``undo_allowed``)."""
        with room.lock:
            self._check_version(room, version)
            if not self.undo_allowed(room, seat):
                raise ServerError(
                    409,
                    "undo_unsafe",
                    "nothing to undo: your last action is not the last thing that "
                    "happened, or it revealed something (chance, another seat)",
                )
            t0 = time.perf_counter()
            n = len(room.state.history) - 1
            room.undo_stack.pop()
            rec = make_record(room.state)
            rec["result"] = None
            room.state = replay(rec, check_result=False, upto=n)
            self._persist(room, start=n, moves=[], truncate_to=n, bump=True)
            self._changed(room)
            self.timings["human"].append((time.perf_counter() - t0) * 1000)

    def undo_allowed(self, room: Room, seat: int | None) -> bool:
        if seat is None or not room.undo_stack:
            return False
        top_seat, top_len = room.undo_stack[-1]
        hist = room.state.history
        return top_seat == seat and top_len == len(hist) and bool(hist) and hist[-1][0] == seat

    def _check_version(self, room: Room, version: int) -> None:
        if version != room.version:
            raise ServerError(
                409,
                "stale_version",
                f"the game has moved on (you saw version {version}, it is now "
                f"{room.version}); look again and choose",
                current_version=room.version,
            )

    def _check_seat_version(self, room: Room, seat: int, version: int) -> None:
        """Stale only if ``seat``'s own choices changed after ``version`` (simultaneous turns:
        another seat's move that leaves them alone does not void this one)."""
        if version > room.version or room.seat_version(seat) > version:
            raise ServerError(
                409,
                "stale_version",
                f"your choices changed since version {version} (the game is at "
                f"{room.version}); look again and choose",
                current_version=room.version,
            )

    def _commit_action(self, room: Room, seat: int, action: Action, *, human: bool) -> None:
        """Apply (validated), resolve the chance it triggers, commit, push. Under the lock."""
        t0 = time.perf_counter()
        c0 = time.thread_time()
        state = room.state
        start = len(state.history)
        before = state.clone() if human else None
        try:
            state.apply(action, seat)
        except GameError as exc:
            raise game_error(exc) from None
        self._resolve_chance(room)
        new = state.history[start:]
        if (
            human
            and len(new) == 1
            and before is not None
            and not _reveals(before, state, seat, action)
        ):
            room.undo_stack.append((seat, len(state.history)))
        else:
            room.undo_stack.clear()
        try:
            self._persist(room, start=start, moves=[(s, str(a)) for s, a in new], bump=True)
        except Exception as exc:
            # The database refused: forget the move so memory matches what is stored.
            log.exception("commit failed for game %s; reloading it", room.id)
            with self._rooms_lock:
                self.rooms.pop(room.id, None)
            raise ServerError(
                503, "storage_error", "the move could not be saved; try again"
            ) from exc
        self._changed(room)
        kind = "human" if human else "bot"
        self.timings[kind].append((time.perf_counter() - t0) * 1000)
        self.timings[f"{kind}_cpu"].append((time.thread_time() - c0) * 1000)

    def _resolve_chance(self, room: Room) -> None:
        state = room.state
        for _ in range(MAX_CHANCE_CHAIN):
            if state.current_players() != (CHANCE,):
                return
            rng = random.Random(f"{room.seed}:chance:{len(state.history)}")
            state.apply(state.sample_chance(rng), CHANCE)
        raise ServerError(500, "chance_loop", "chance did not settle")

    def _persist(
        self,
        room: Room,
        *,
        start: int,
        moves: list[tuple[int, str]],
        truncate_to: int | None = None,
        seats_changed: bool = False,
        bump: bool = False,
    ) -> None:
        version = room.version + 1 if bump else room.version
        self.store.commit_change(
            room.id,
            start=start,
            moves=moves,
            truncate_to=truncate_to,
            version=version,
            status=room.status,
            seats=room.seats if seats_changed else None,
            undo=room.undo_stack,
        )
        room.version = version

    # ------------------------------------------------------------------ what is sent
    def payload(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The full view of ``seat`` (None: spectator) at the current version (cached)."""
        with room.lock:
            cached = room.cache.get(seat)
            if cached is not None and cached["version"] == room.version:
                return cached
            state = room.state
            body = seat_payload(state, seat)
            lines = room.logs.setdefault(seat, [])
            hist = state.history
            del lines[len(hist) :]
            for i in range(len(lines), len(hist)):
                lines.append(log_line(state, i, hist[i][0], hist[i][1], seat))
            body.update(
                {
                    "id": room.id,
                    "game": room.game_id,
                    "title": state.game.info.title,
                    "params": room.params,
                    "version": room.version,
                    "seat": seat,
                    "seats": room.public_seats(),
                    "status": room.status,
                    "can_undo": self.undo_allowed(room, seat),
                    "log": list(lines),
                }
            )
            room.cache[seat] = body
            return body

    def _changed(self, room: Room) -> None:
        """Push every subscriber its new view. Under the room lock."""
        for seat in list(room.logs):
            # An undo rewrites history: drop the cached log lines that changed.
            lines = room.logs[seat]
            hist = room.state.history
            if len(lines) > len(hist):
                del lines[len(hist) :]
        room.cache.clear()
        room.mark_seats()
        for sub in list(room.subscribers):
            try:
                sub.push(self.payload(room, sub.seat))
            except Exception:  # a closed socket must not stop the game
                log.debug("push failed", exc_info=True)

    def subscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            room.subscribers.append(sub)

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            if sub in room.subscribers:
                room.subscribers.remove(sub)
        if not room.subscribers and room.state.is_terminal():
            self.trim()

    def record(self, room: Room) -> dict[str, Any]:
        with room.lock:
            if not room.state.is_terminal():
                raise ServerError(
                    409, "game_not_over", "the record is available when the game is over"
                )
            return make_record(room.state)

    def replay_view(self, room: Room, step: int) -> dict[str, Any]:
        """The spectator's view after ``step`` entries of the record (finished games only)."""
        with room.lock:
            if not room.state.is_terminal():
                raise ServerError(409, "game_not_over", "replays open when the game is over")
            rec = make_record(room.state)
        n = len(rec["history"])
        if not 0 <= step <= n:
            raise ServerError(422, "bad_step", f"step must be within 0..{n}", field="step")
        parse_record(rec)
        state = replay(rec, check_result=False, upto=step)
        body = seat_payload(state, None)
        hist = state.history
        body.update(
            {
                "id": room.id,
                "game": room.game_id,
                "title": state.game.info.title,
                "step": step,
                "steps": n,
                "seats": room.public_seats(),
                "log": [log_line(state, i, s, a, None) for i, (s, a) in enumerate(hist)],
            }
        )
        return body

    def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        out = []
        for g in self.store.recent(limit):
            free = [
                i for i, s in enumerate(g.seats) if s["kind"] == "human" and not s.get("joined")
            ]
            try:
                title = game_class(g.game).info.title
            except GameError:
                continue
            out.append(
                {
                    "id": g.id,
                    "game": g.game,
                    "title": title,
                    "players": g.params.get("players"),
                    "status": g.status,
                    "open_seats": free,
                    "version": g.version,
                    "seats": [
                        {
                            "seat": i,
                            "kind": s["kind"],
                            "name": s["name"],
                            "joined": bool(s.get("joined")),
                        }
                        for i, s in enumerate(g.seats)
                    ],
                    "created_at": g.created_at.isoformat(),
                }
            )
        return out

    # ------------------------------------------------------------------ bots
    def _bot_seats(self, room: Room) -> list[int]:
        return [
            p
            for p in room.state.current_players()
            if 0 <= p < len(room.seats) and room.seats[p]["kind"] == "bot"
        ]

    def _kick_bots(self, room: Room) -> None:
        with room.lock:
            if self._closing or room.bot_busy or not self._bot_seats(room):
                return
            room.bot_busy = True
        if self.bot_delay > 0:
            # Wait on a timer, not in a worker: a pause must not hold up other games' bots.
            timer = threading.Timer(self.bot_delay, self._submit_bots, args=(room,))
            timer.daemon = True
            timer.start()
        else:
            self._submit_bots(room)

    def _submit_bots(self, room: Room) -> None:
        try:
            self._pool.submit(self._bot_loop, room)
        except RuntimeError:  # shutting down
            room.bot_busy = False

    def _bot_loop(self, room: Room) -> None:
        try:
            while not self._closing:
                with room.lock:
                    bots = self._bot_seats(room)
                    if not bots:
                        room.bot_busy = False
                        return
                    seat = bots[0]
                    snap = room.state.clone()
                    version = room.version
                    agent = room.agents.get(seat)
                    if agent is None:
                        agent = room.agents[seat] = make_agent(room.seats[seat]["spec"])
                    cheat = bool(parse_spec(room.seats[seat]["spec"])[1].get("cheat"))
                rng = random.Random(f"{room.seed}:bot{seat}:{len(snap.history)}")
                # A bot sees only its own view: a state it cannot tell from the true one.
                base = (
                    snap
                    if cheat or not snap.game.info.hidden_information
                    else snap.resample(seat, rng)
                )
                try:
                    action = agent.choose(base, seat, rng)
                except Exception:
                    log.exception(
                        "bot %s failed in game %s; playing at random",
                        room.seats[seat]["spec"],
                        room.id,
                    )
                    action = rng.choice(snap.legal_actions(seat))
                with room.lock:
                    if room.version != version or self._closing:
                        continue
                    if not room.state.is_legal(action, seat):
                        log.warning("bot chose an illegal %s in game %s", action, room.id)
                        action = rng.choice(room.state.legal_actions(seat))
                    self._commit_action(room, seat, action, human=False)
                    if self.bot_delay > 0:  # the next bot move waits its turn on a timer
                        room.bot_busy = False
                        break
            else:
                return
            self._kick_bots(room)
            return
        except Exception:
            log.exception("bot loop of game %s stopped", room.id)
            with room.lock:
                room.bot_busy = False
        finally:
            if self._closing:
                room.bot_busy = False

    def wait_idle(self, room: Room, timeout: float = 10.0) -> bool:
        """Wait until no bot of ``room`` is to act (tests and scripts)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with room.lock:
                if not room.bot_busy and not self._bot_seats(room):
                    return True
            time.sleep(0.005)
        return False


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
