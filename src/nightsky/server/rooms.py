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
import copy
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
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from nightsky.core.errors import GameError, GameOverError, OptionError, RecordError
from nightsky.core.game import CHANCE, Action, State
from nightsky.core.narration import Narrator
from nightsky.core.record import make_record, parse_record, replay
from nightsky.core.registry import game_class, load_game
from nightsky.core.ui import turn_words
from nightsky.server.bounds import BotPlan, plan_bot
from nightsky.server.clocks import ClockConfig, ClockDriver, ClockError, TableClock
from nightsky.server.settings import Settings
from nightsky.server.store import Store, StoredGame, VersionConflict, now
from nightsky.server.thinking import ThinkPool
from nightsky.server.views import encode, seat_payload

if TYPE_CHECKING:
    from nightsky.server.cluster import Cluster

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


class Evicted(Exception):
    """The room was dropped from memory while a request held it: ask the manager again."""


class StorageFailure(ServerError):
    """The database refused a commit: the room in memory no longer matches what is stored."""

    def __init__(self) -> None:
        super().__init__(503, "storage_error", "the move could not be saved; try again")


class Conflict(StorageFailure):
    """Another server process committed a change on the same version first (the game in the
    database moved on): the same 409 as a stale version; the room is reloaded."""

    def __init__(self) -> None:
        ServerError.__init__(
            self,
            409,
            "stale_version",
            "the game has moved on (another change was saved first); look again and choose",
        )


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
    # One-time invite: the hash of the live code, and those of codes already spent or renewed.
    invite_hash: str | None = None
    spent: list[str] = field(default_factory=list)
    left: bool = False  # its player gave the seat up (the creator may invite someone else)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Seat:
        return cls(
            kind=row["kind"],
            name=row["name"],
            spec=row.get("spec"),
            token_hash=row.get("token_hash"),
            joined=bool(row.get("joined")),
            invite_hash=row.get("invite_hash"),
            spent=list(row.get("spent") or []),
            left=bool(row.get("left")),
        )

    def row(self) -> dict[str, Any]:
        """The JSON stored in the ``games.seats`` column."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "spec": self.spec,
            "name": self.name,
            "token_hash": self.token_hash,
            "joined": self.joined,
        }
        if self.human:
            out.update(invite_hash=self.invite_hash, spent=self.spent, left=self.left)
        return out

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def public(self, index: int, color: str) -> dict[str, Any]:
        """What anyone may know of the seat (``color``: its one colour, board and page)."""
        return {
            "seat": index,
            "kind": self.kind,
            "name": self.name,
            "spec": self.spec,
            "joined": self.joined or not self.human,
            "color": color,
        }

    def owns(self, token_hash: str) -> bool:
        return bool(self.token_hash) and hmac.compare_digest(self.token_hash or "", token_hash)

    def new_token(self) -> str:
        """Give the seat a fresh secret (the old one stops working); returns it."""
        token = secrets.token_urlsafe(18)
        self.token_hash = hash_token(token)
        return token

    def new_invite(self) -> str:
        """A fresh one-time invite code for the seat (a previous one is spent)."""
        self.spend_invite()
        code = secrets.token_urlsafe(12)
        self.invite_hash = hash_token(code)
        return code

    def spend_invite(self) -> None:
        if self.invite_hash:
            self.spent = [*self.spent, self.invite_hash][-16:]
        self.invite_hash = None

    def invite_state(self, code_hash: str) -> str | None:
        """"live" or "spent" when ``code_hash`` is this seat's invite, else None."""
        if self.invite_hash and hmac.compare_digest(self.invite_hash, code_hash):
            return "live"
        if any(hmac.compare_digest(h, code_hash) for h in self.spent):
            return "spent"
        return None


@dataclass
class Subscriber:
    seat: int | None
    push: Callable[[dict[str, Any]], None]  # gets Room.message(seat)


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
    # "server": the seed is the server's secret and chance is keyed by ``secret`` too;
    # "client": the creator chose it (a table with at most one human seat); None: legacy.
    seed_source: str | None = None
    secret: bytes = b""
    notices: list[dict[str, Any]] = field(default_factory=list)
    # Listed in the lobby (anyone may watch it there and join its free seats); a private
    # table's invited seats are taken only with their invite links.
    listed: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: list[Subscriber] = field(default_factory=list)
    # (seat, history length after the action): a contiguous run of undoable human actions.
    undo_stack: list[tuple[int, int]] = field(default_factory=list)
    bot_busy: bool = False
    agents: dict[int, BotPlan | None] = field(default_factory=dict)
    narrator: Narrator | None = None  # the log in words, per viewer (built on first use)
    cache: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    # Per viewer: the cached payload, its JSON, and its WebSocket message (made on demand).
    wire: dict[int | None, tuple[dict[str, Any], bytes, str | None]] = field(
        default_factory=dict
    )
    # Per human seat: (the version at which its legal-action list last changed, that list).
    # A seat's POST is stale only when its own choices changed since the version it saw.
    seat_marks: dict[int, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)  # last fetched (for eviction)
    gone: bool = False  # evicted: the store (and a rebuilt room) is the truth now
    # Clocks and stand-in bots (server/clocks.py); ``now``: the server's time, injectable.
    clock: TableClock = field(default_factory=lambda: TableClock(ClockConfig()))
    now: Callable[[], float] = time.time
    clock_stored: dict[str, Any] | None = None  # the clocks as last written

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
        return [
            p
            for p in now
            if 0 <= p < n and (self.seats[p].kind == "bot" or self.clock.stand_in(p))
        ]

    def bot_spec(self, seat: int) -> str:
        """The spec of the bot that plays ``seat``: its own, or the table's stand-in's."""
        row = self.seats[seat]
        return (row.spec or "") if row.kind == "bot" else self.clock.config.bot_spec

    def public_seats(self) -> list[dict[str, Any]]:
        """Every seat as anyone may see it, with its one name and colour."""
        game = self.state.game
        colors = game.ui.seat_colors()
        out = [s.public(i, colors[i]) for i, s in enumerate(self.seats)]
        # Seats the game adds itself (Starlight's Starbots) are played by the rules.
        for i in range(len(self.seats), game.num_seats):
            out.append(
                {
                    "seat": i,
                    "kind": "game",
                    "name": game.seat_name(i),
                    "spec": None,
                    "joined": True,
                    "color": colors[i],
                }
            )
        return out

    def creator(self) -> int | None:
        """The creator's seat: the first human seat."""
        return next((i for i, s in enumerate(self.seats) if s.human), None)

    def rng(self, stream: str) -> random.Random:
        """The random generator of one ``stream`` (``chance:N``, ``botS:N``) of this game.

        A shared table's streams are keyed by the server's secret as well as the seed, so
        nobody without both can tell what chance will bring."""
        key = f"{self.seed}:{stream}"
        if self.seed_source == "server":
            key = hmac.new(self.secret, key.encode(), hashlib.sha256).hexdigest()
        return random.Random(key)

    def notice(self, text: str) -> None:
        """Write a line in the table's log for everyone (persisted with the next change)."""
        self.notices.append({"version": self.version + 1, "text": text})
        del self.notices[:-100]

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
        """Take a free human seat (the lobby's Join); returns the seat and its new token.
        Only an open table's seats may be joined: a private table's are reserved for the
        players its creator invited (their links claim them, ``claim``)."""
        with self.lock:
            free = self.open_seats()
            if self.state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            if not self.listed:
                raise ServerError(
                    403,
                    "seat_reserved",
                    "this table is private: its free seats are reserved for the players its "
                    "creator invited, and only an invite link takes one",
                )
            if seat is None:
                if not free:
                    raise ServerError(409, "no_free_seat", "every seat is taken")
                seat = free[0]
            if seat not in free:
                raise ServerError(409, "seat_taken", f"seat {seat} is not free")
            return seat, self._take_seat(seat, name)

    def _take_seat(self, seat: int, name: str | None) -> str:
        """Give ``seat`` to a new player: a fresh token, its invite spent. Under the lock."""
        row = self.seats[seat]
        token = row.new_token()
        row.spend_invite()
        row.joined, row.left = True, False
        if name:
            row.name = unique_name(name, [s.name for i, s in enumerate(self.seats) if i != seat])
        self.persist(seats_changed=True, bump=True)
        self.changed()
        return token

    def claim(self, code: str, name: str | None) -> tuple[int, str]:
        """Spend a one-time invite: the seat and its new token (410 when already spent)."""
        h = hash_token(code)
        with self.lock:
            found = [(i, s.invite_state(h)) for i, s in enumerate(self.seats) if s.human]
            hits = [(i, st) for i, st in found if st is not None]
            if not hits:
                raise ServerError(404, "invite_not_found", "no such invite for this game")
            seat, state = hits[0]
            if state != "live":
                raise ServerError(410, "invite_spent", "this invite was already used or renewed")
            if self.state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            return seat, self._take_seat(seat, name)

    def renew(self, by: int, seat: int) -> str:
        """The creator's new invite for ``seat`` (never claimed, or its player left)."""
        with self.lock:
            if by != self.creator():
                raise ServerError(403, "not_creator", "only the table's creator renews invites")
            if not (0 <= seat < len(self.seats)) or not self.seats[seat].human or seat == by:
                raise ServerError(422, "bad_seat", f"seat {seat} takes no invite", field="seat")
            row = self.seats[seat]
            if row.joined and not row.left:
                raise ServerError(409, "seat_taken", f"seat {seat} is played; it keeps its token")
            if self.state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            code = row.new_invite()
            row.token_hash = None
            self.notice(f"The creator renewed the invite of seat {seat + 1} ({row.name}).")
            self.persist(seats_changed=True, bump=True)
            self.changed()
            return code

    def leave(self, seat: int) -> None:
        """A player gives up its seat: its token stops working, the seat is open again."""
        with self.lock:
            row = self.seats[seat]
            if seat == self.creator():
                raise ServerError(409, "creator_stays", "the creator's seat cannot be left")
            row.token_hash, row.joined, row.left = None, False, True
            row.spend_invite()
            self.notice(f"{row.name} left seat {seat + 1}.")
            self.persist(seats_changed=True, bump=True)
            self.changed()

    # ------------------------------------------------------------------ clocks
    def sync_clocks(self) -> tuple[dict[str, Any], Any] | None:
        """Start and stop the clocks after a change (``TableClock.sync``); what to store: the
        clocks and their next deadline, or None when they are as last stored. Under the lock."""
        state = self.state
        self.clock.sync(self.now(), set(state.current_players()), state.is_terminal())
        row = self.clock.row()
        if row == self.clock_stored:
            return None
        self.clock_stored = row
        nxt = self.clock.next_deadline()
        return row, (None if nxt is None else datetime.fromtimestamp(nxt, UTC))

    def set_away(self, seat: int, away: bool) -> None:
        """The seat's player is away (a stand-in bot plays the seat) or back."""
        with self.lock:
            if not self.seats[seat].human:
                raise ServerError(422, "bad_seat", f"seat {seat} is a bot", field="seat")
            if self.state.is_terminal():
                raise ServerError(409, "game_over", "the game is over")
            if self.clock.set_away(seat, away, self.now()):
                name = self.seats[seat].name
                self.notice(
                    f"{name} is away: a {self.clock.config.bot_spec} bot plays the seat."
                    if away
                    else f"{name} is back."
                )
                self.persist(seats_changed=True, bump=True)
                self.changed()

    def time_out(self) -> bool:
        """Fire the deadlines that passed: each such seat is handed to a stand-in bot, or
        dropped where the table says ``forfeit`` and the rules allow it. Whether any fired."""
        with self.lock:
            if self.gone or self.state.is_terminal():
                return False
            now = self.now()
            due = self.clock.due(now)
            if not due:
                return False
            forfeit = self.clock.config.on_timeout == "forfeit"
            drop: list[tuple[int, Action]] = []
            for seat in due:
                self.clock.time_out(seat, now)
                name = self.seats[seat].name
                resign = self.state.game.resign_action(self.state, seat) if forfeit else None
                if resign is not None and self.state.is_legal(resign, seat):
                    drop.append((seat, resign))
                    self.notice(f"{name}'s time ran out: the seat is out of the game.")
                else:
                    self.notice(
                        f"{name}'s time ran out: a {self.clock.config.bot_spec} bot plays the "
                        "seat until they take it back."
                    )
            self.persist(seats_changed=True, bump=True)
            self.changed()
            for seat, resign in drop:
                if self.state.is_terminal() or not self.state.is_legal(resign, seat):
                    continue
                self.clock.seats[seat].forfeited = True
                self.clock.by[len(self.state.history)] = "forfeit"
                self.commit_action(seat, resign, human=False)
            return True

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
            if seat not in (acting := self.state.current_players()):  # said with the names
                names = [row.name for row in self.seats]
                raise ServerError(422, "not_your_turn", turn_words(names, acting))
            # A legal move takes the seat back from a stand-in bot (timed out or away).
            saved = copy.copy(self.clock.seats.get(seat))
            self.clock.take_back(seat)
            # apply() validates first: a refused action changes nothing and names its rule.
            try:
                with self.timings.measure("human"):
                    self.commit_action(seat, action, human=True)
            except ServerError:
                if saved is not None:
                    self.clock.seats[seat] = saved
                raise

    def commit_action(self, seat: int, action: Action, *, human: bool) -> None:
        """Apply (validated), resolve the chance it triggers, commit, push. Under the lock."""
        state = self.state
        start = len(state.history)
        before = state.clone() if human else None
        try:
            state.apply(action, seat)
        except GameError as exc:
            raise game_error(exc) from None
        if not human and self.clock.stand_in(seat):
            self.clock.by.setdefault(start, "bot")  # the log says a bot played it
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
            rng = self.rng(f"chance:{len(state.history)}")
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
                self.clock.undo(seat)
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
        if self.gone:
            raise Evicted(self.id)
        version = self.version + 1 if bump else self.version
        clock = self.sync_clocks()
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
                notices=self.notices if seats_changed else None,
                clock=clock,
                expect=self.version,
            )
        except VersionConflict:
            raise Conflict() from None
        except Exception as exc:
            log.exception("commit failed for game %s; reloading it", self.id)
            raise StorageFailure() from exc
        self.version = version

    def changed(self) -> None:
        """Push every subscriber its new view. Under the lock."""
        if self.narrator is not None:
            # an undo rewrites history: the lines from there on are told again
            self.narrator.truncate(len(self.state.history))
        self.clock.truncate(len(self.state.history))
        self.cache.clear()
        self.wire.clear()
        self.mark_seats()
        for sub in list(self.subscribers):
            try:
                sub.push(self.message(sub.seat))
            except Exception:  # a closed socket must not stop the game
                log.debug("push failed", exc_info=True)

    # ------------------------------------------------------------------ what is sent
    def payload(self, seat: int | None) -> dict[str, Any]:
        """The full view of ``seat`` (None: spectator) at the current version (cached)."""
        with self.lock:
            cached = self.cache.get(seat)
            if cached is not None and cached["version"] == self.version:
                return cached
            seats = self.public_seats()
            names = [x["name"] for x in seats]
            colors = [x["color"] for x in seats]
            body = seat_payload(self.state, seat, names, colors)
            body.update(
                {
                    "id": self.id,
                    "game": self.game_id,
                    "title": self.state.game.info.title,
                    "params": self.params,
                    "version": self.version,
                    "seat": seat,
                    "seats": seats,
                    "status": self.status,
                    "listed": self.listed,
                    "can_undo": self.undo_allowed(seat),
                    "log": self.clock.mark_log(self.log_for(seat, names)),
                    "notices": list(self.notices),
                    "clocks": self.clock.public(len(self.seats)),
                }
            )
            self.cache[seat] = body
            return body

    def encoded(self, seat: int | None) -> bytes:
        """``payload(seat)`` as JSON, encoded once per version for every reader of it."""
        with self.lock:
            body = self.payload(seat)
            hit = self.wire.get(seat)
            if hit is None or hit[0] is not body:
                hit = (body, encode(body), None)
                self.wire[seat] = hit
            return hit[1]

    def message(self, seat: int | None) -> dict[str, Any]:
        """What a WebSocket of ``seat`` is pushed: ``{"version", "text"}``, the text being
        ``{"type": "view", "data": <payload>}``, encoded once for every socket of that viewer
        (by the thread that made the change, never the event loop)."""
        with self.lock:
            data = self.encoded(seat)
            body, _, text = self.wire[seat]
            if text is None:
                text = (b'{"type":"view","data":' + data + b"}").decode()
                self.wire[seat] = (body, data, text)
            return {"version": body["version"], "text": text}

    def log_for(self, seat: int | None, names: list[str] | None = None) -> list[dict[str, Any]]:
        """The log in words as ``seat`` may read it (told once per entry for every viewer)."""
        with self.lock:
            if names is None:
                names = [x["name"] for x in self.public_seats()]
            if self.narrator is None:
                self.narrator = Narrator(self.state.game, names)
            else:
                self.narrator.rename(names)
            return self.narrator.lines(self.state, seat)

    def record(self) -> dict[str, Any]:
        with self.lock:
            if not self.state.is_terminal():
                raise ServerError(
                    409, "game_not_over", "the record is available when the game is over"
                )
            return make_record(self.state)

    def replay_view(self, step: int, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) saw after ``step`` entries of the record: its
        own view, board and log (finished games only)."""
        with self.lock:
            if not self.state.is_terminal():
                raise ServerError(409, "game_not_over", "replays open when the game is over")
            rec = make_record(self.state)
            seats = self.public_seats()
            names = [x["name"] for x in seats]
            colors = [x["color"] for x in seats]
            lines = self.log_for(seat, names)
        n = len(rec["history"])
        if not 0 <= step <= n:
            raise ServerError(422, "bad_step", f"step must be within 0..{n}", field="step")
        parse_record(rec)
        state = replay(rec, check_result=False, upto=step)
        body = seat_payload(state, seat, names, colors)
        body["legal"] = []  # a replay is watched, not played
        body.update(
            {
                "id": self.id,
                "game": self.game_id,
                "title": state.game.info.title,
                "step": step,
                "steps": n,
                "seat": seat,
                "seats": seats,
                "log": self.clock.mark_log([line for line in lines if line["index"] < step]),
            }
        )
        return body


@dataclass
class BotTurn:
    """What a bot needs to choose, taken under the room's lock."""

    seat: int
    version: int
    plan: BotPlan | None  # None: the server's bounds refuse the seat's spec
    base: State  # what the bot looks at: a resample of the true state (or the state itself)
    rng: random.Random


class BotRunner:
    """Plays the bot seats of rooms: one loop per room at a time, in a thread pool; search
    seats think in the ``ThinkPool``'s processes under the wall-clock guard."""

    def __init__(
        self,
        *,
        workers: int,
        delay: float,
        settings: Settings,
        forget: Callable[[Room], None],
        may_drive: Callable[[Room], bool] = lambda room: True,
    ) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bots")
        self.think = ThinkPool(settings.bot_processes, memory_mb=settings.bot_memory_mb)
        self.settings = settings
        self.delay = delay
        self.forget = forget  # called when a bot's move could not be stored
        # Asked before every bot move: with several processes, whether this one still holds
        # the table's lease (another may have taken it since this loop started).
        self.may_drive = may_drive
        self.closing = False

    def close(self) -> None:
        """Stop now: searches in progress are abandoned (their moves are never played)."""
        self.closing = True
        self.think.close()
        self.pool.shutdown(wait=False, cancel_futures=True)

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
            again = again and self.may_drive(room)  # (another process took the table over)
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
                if not self.may_drive(room):
                    return
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
            if not bots or not self.may_drive(room):
                return None
            seat = bots[0]
            plan = self._plan(room, seat)
            state = room.state
            rng = room.rng(f"bot{seat}:{len(state.history)}")
            # A bot sees only its own view: a state it cannot tell from the true one,
            # drawn once here (no copy of the true state is made for it).
            hidden = state.game.info.hidden_information and not (plan and plan.cheat)
            base = state.resample(seat, rng) if hidden else state.clone()
            if hidden:
                base.redrawn_for = seat  # the agent uses this draw as it is
            return BotTurn(seat, room.version, plan, base, rng)

    def _plan(self, room: Room, seat: int) -> BotPlan | None:
        """The seat's checked spec (cached), or None when the bounds refuse it: then the seat
        plays random legal moves, and the refused spec never runs (after a restart too)."""
        if seat not in room.agents:
            spec = room.bot_spec(seat)
            try:
                room.agents[seat] = plan_bot(spec, self.settings, room.state.game)
            except GameError as exc:
                log.warning("game %s seat %d: spec %r refused (%s)", room.id, seat, spec, exc)
                room.agents[seat] = None
        return room.agents[seat]

    def _choose(self, room: Room, turn: BotTurn) -> Action | None:
        """The bot's choice; None when it failed (a random legal action is played instead)."""
        plan = turn.plan
        if plan is None:
            return None
        if plan.pooled:
            deadline = self.settings.think_seconds + self.settings.think_grace
            return self.think.choose(plan.spec, turn.base, turn.seat, turn.rng, deadline)
        try:
            return plan.agent.choose(turn.base, turn.seat, turn.rng)
        except Exception:
            log.exception("bot %s failed in game %s; playing at random", plan.spec, room.id)
            return None


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
        # On PostgreSQL several processes serve the same games (server/cluster.py): pushes
        # across processes, leases on driving tables, cached rooms kept fresh.
        self.cluster: Cluster | None = None
        if store.engine.dialect.name == "postgresql":
            from nightsky.server.cluster import Cluster

            self.cluster = Cluster(self)

    def now(self) -> float:
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
            secret=self.secret,
            notices=list(g.notices),
            listed=bool(g.listed),
            now=self.now,
        )

    def create(self, req: NewGame, client: str = "") -> Created:
        """Create a game: the creator gets the first human seat's token, every other human
        seat a one-time invite code."""
        game = _new_game(req.game, req.players, req.options)
        n = game.num_players
        if len(req.seats) != n:
            raise ServerError(
                422,
                "bad_seats",
                f"{game.info.title} with {n} players needs {n} seats, got {len(req.seats)}",
                field="seats",
            )
        rows, token, invites = _new_seats(req.seats, req.names, self.settings, game)
        clock = self._new_clock(req.clock, rows, game)
        self._check_seed(req.seed, rows)
        self._check_caps(client)
        stored = StoredGame(
            id=secrets.token_hex(6),
            game=req.game,
            params=game.params,
            seed=int(req.seed if req.seed is not None else secrets.randbits(62)),
            seats=[s.row() for s in rows],
            version=0,
            status="playing",
            created_at=now(),
            seed_source="server" if req.seed is None else "client",
            client=client or None,
            listed=bool(req.listed),
        )
        room = self._room(stored, game.new_initial_state())
        room.clock = clock
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
        return Created(room, token, invites)

    def _new_clock(self, raw: dict[str, Any] | None, rows: list[Seat], game: Any) -> TableClock:
        """The clocks of a new table (``clock`` of the request), its stand-in's spec checked
        like a bot seat's; 422 ``bad_clock`` names the field."""
        try:
            config = ClockConfig.parse(raw)
        except ClockError as exc:
            raise ServerError(422, "bad_clock", str(exc), field=exc.field) from None
        try:
            plan = plan_bot(config.bot_spec, self.settings, game)
        except GameError as exc:
            raise ServerError(
                422, exc.code, f"clock.on_timeout: {exc}", field="clock.on_timeout"
            ) from None
        if plan.cheat:
            raise ServerError(
                422,
                "bad_clock",
                "clock.on_timeout: a stand-in bot plays from the seat's own view (no cheat)",
                field="clock.on_timeout",
            )
        return TableClock.new(config, [i for i, s in enumerate(rows) if s.human])

    def _check_seed(self, seed: int | None, rows: list[Seat]) -> None:
        humans = sum(s.human for s in rows)
        if seed is not None and humans >= 2 and not self.settings.allow_client_seed:
            raise ServerError(
                422,
                "seed_not_allowed",
                "a seed is accepted only on a table with at most one human seat: with it the "
                "creator could foresee every card the other players are dealt",
                field="seed",
            )

    def _check_caps(self, client: str) -> None:
        s = self.settings
        if client and self.store.count_playing(client=client) >= s.max_open_tables_per_client:
            raise ServerError(
                429,
                "too_many_tables",
                f"you have {s.max_open_tables_per_client} unfinished tables; finish one first",
                retry_after=60,
            )
        if self.store.count_playing() >= s.max_open_tables:
            raise ServerError(
                429, "server_full", "this server holds all the tables it can", retry_after=60
            )

    # ------------------------------------------------------------------ requests
    def seat_for(self, room: Room, token: str | None, *, required: bool) -> int | None:
        """The seat a token belongs to (None: a spectator). No token where one is required,
        or a token of no seat of this game: 401 (the credentials are missing or wrong)."""
        if not token:
            if required:
                raise ServerError(401, "token_required", "this needs your seat's token")
            return None
        seat = room.seat_of_token(token)
        if seat is None:
            raise ServerError(401, "bad_token", "this token belongs to no seat of this game")
        self._change(room, lambda r: r.mark_joined(seat))
        return seat

    def act(self, room: Room, seat: int, notation: str, version: int) -> None:
        room = self._change(room, lambda r: r.act(seat, notation, version))
        self.drive(room, accepted=True)

    def away(self, room: Room, seat: int, away: bool) -> None:
        """The seat's player is away (a stand-in bot plays) or back."""
        room = self._change(room, lambda r: r.set_away(seat, away))
        self.drive(room, accepted=True)

    def undo(self, room: Room, seat: int, version: int) -> None:
        self._change(room, lambda r: r.undo(seat, version))

    def join(self, room: Room, seat: int | None, name: str | None) -> tuple[int, str]:
        out: list[tuple[int, str]] = []
        self._change(room, lambda r: out.append(r.join(seat, name)))
        return out[0]

    def claim(self, room: Room, code: str, name: str | None) -> tuple[int, str]:
        out: list[tuple[int, str]] = []
        self._change(room, lambda r: out.append(r.claim(code, name)))
        return out[0]

    def renew(self, room: Room, by: int, seat: int) -> str:
        out: list[str] = []
        self._change(room, lambda r: out.append(r.renew(by, seat)))
        return out[0]

    def leave(self, room: Room, seat: int) -> None:
        self._change(room, lambda r: r.leave(seat))

    def _change(self, room: Room, change: Callable[[Room], Any]) -> Room:
        """Run ``change`` on the room; on one just evicted, again on the rebuilt one. A refused
        commit leaves memory ahead of the store: the room is dropped (``get`` reloads)."""
        try:
            for _ in range(3):
                try:
                    change(room)
                    return room
                except Evicted:
                    room = self.get(room.id)
            raise ServerError(503, "busy", "the table is being reloaded; try again")
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
            room.changed()
        return True

    def _forget(self, room: Room) -> None:
        with self._rooms_lock:
            if self.rooms.get(room.id) is room:
                del self.rooms[room.id]

    def payload(self, room: Room, seat: int | None) -> dict[str, Any]:
        return room.payload(seat)

    def encoded(self, room: Room, seat: int | None) -> bytes:
        return room.encoded(seat)

    def message(self, room: Room, seat: int | None) -> dict[str, Any]:
        return room.message(seat)

    def undo_allowed(self, room: Room, seat: int | None) -> bool:
        return room.undo_allowed(seat)

    def record(self, room: Room) -> dict[str, Any]:
        return room.record()

    def replay_view(self, room: Room, step: int, seat: int | None = None) -> dict[str, Any]:
        return room.replay_view(step, seat)

    def subscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            room.subscribers.append(sub)

    def unsubscribe(self, room: Room, sub: Subscriber) -> None:
        with room.lock:
            if sub in room.subscribers:
                room.subscribers.remove(sub)
        if not room.subscribers and room.state.is_terminal():
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


@dataclass
class NewGame:
    """What a creator asks for (the API's ``CreateGame``)."""

    game: str
    seats: list[str]
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    names: list[str] | None = None
    seed: int | None = None
    listed: bool = False  # shown in the lobby, its free seats open to anyone
    clock: dict[str, Any] | None = None  # the API's ``clock`` (None: untimed)


SHIPPED_COMPONENTS = {"": "", "default": ""}
"""``options.components`` from the web: names of the component sets the package ships (each
game's own data files). A path is never read for a web request."""


def _new_game(game_id: str, players: int | None, options: dict[str, Any]) -> Any:
    options = dict(options)
    if "components" in options:
        chosen = options.pop("components")
        if chosen is not None and (not isinstance(chosen, str) or chosen not in SHIPPED_COMPONENTS):
            raise ServerError(
                422,
                "bad_option",
                "options.components: this server plays only the component sets it ships "
                f"({', '.join(repr(k) for k in SHIPPED_COMPONENTS if k)}); your own files "
                "work with the command line",
                field="options.components",
            )
    try:
        game_class(game_id)
        if "players" in options:
            raise OptionError("give the player count as 'players', not as an option")
        return load_game(game_id, players=players, **options)
    except GameError as exc:
        raise ServerError(422, exc.code, str(exc), field="options") from None
    except (TypeError, ValueError, OverflowError, ArithmeticError, RecursionError) as exc:
        raise ServerError(
            422, "bad_option", f"options: not accepted ({type(exc).__name__})", field="options"
        ) from None


def _new_seats(
    specs: list[str], names: list[str] | None, settings: Settings, game: Any = None
) -> tuple[list[Seat], str | None, dict[int, str]]:
    """The seats of a new game: the creator's token (first human seat, joined) and an invite
    code for every other human seat. A bot's spec is checked against the server's bounds."""
    rows: list[Seat] = []
    token: str | None = None
    invites: dict[int, str] = {}
    levels = [raw.strip().split(":")[0] for raw in specs]
    for i, raw in enumerate(specs):
        name = (names[i] if names and i < len(names) else "") or ""
        spec = raw.strip()
        if spec == "human":
            seat = Seat(kind="human", name=name or f"Player {i + 1}")
            if token is None:
                token, seat.joined = seat.new_token(), True
            else:
                invites[i] = seat.new_invite()
        else:
            try:
                plan_bot(spec, settings, game)
            except GameError as exc:
                raise ServerError(422, exc.code, f"seat {i}: {exc}", field="seats") from None
            # Bots are called by their level and, among bots of that level, a number.
            level = levels[i]
            number = levels[: i + 1].count(level)
            seat = Seat(kind="bot", name=name or f"{level} bot {number}", spec=spec)
            seat.joined = True
        seat.name = unique_name(seat.name, [r.name for r in rows])
        rows.append(seat)
    return rows, token, invites


def unique_name(name: str, others: list[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... when another seat already goes by it: one
    name per seat, so the log and the board never mix two players up."""
    taken = {o.casefold() for o in others}
    if name.casefold() not in taken:
        return name
    k = 2
    while f"{name} ({k})".casefold() in taken:
        k += 1
    return f"{name} ({k})"


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
            {"seat": i, "kind": s.kind, "name": s.name, "joined": s.joined}
            for i, s in enumerate(seats)
        ],
        "created_at": g.created_at.isoformat(),
    }


def _finished(room: Room) -> bool:
    return room.state.is_terminal()


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
