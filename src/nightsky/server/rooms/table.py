"""A table in memory (``Room``): its ``State`` (rebuilt from the stored record), its seats and
a version counter that grows with every change.

Every change (``act``, ``undo``, ``join``, ``claim``, ``renew``, ``leave``, ``set_away``,
``time_out``) runs under the room's lock and is committed to the database before anyone hears
of it (``persist``, then ``changed`` pushes every subscriber its new view). Chance is resolved
here, from the game's secret seed and the history length, so a game replays from its record and
never depends on timing. Nothing here is game-specific: everything goes through the game
contract.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import nightsky.server.rooms as package  # the package's ``encode``: see ``Room.encoded``
from nightsky.core.errors import GameError
from nightsky.core.game import CHANCE, Action, State
from nightsky.core.narration import Narrator
from nightsky.core.record import make_record, parse_record, replay
from nightsky.core.ui import turn_words
from nightsky.server.bounds import BotPlan
from nightsky.server.clocks import ClockConfig, TableClock
from nightsky.server.club.events import rating_event
from nightsky.server.club.rating import ranks
from nightsky.server.patches import EARLIER, view_patch
from nightsky.server.rooms.errors import Conflict, Evicted, ServerError, StorageFailure, game_error
from nightsky.server.rooms.seat import Seat, SeatKind, hash_token, unique_name
from nightsky.server.rooms.timings import Timings
from nightsky.server.store import Store, VersionConflict
from nightsky.server.views import seat_payload

log = logging.getLogger("nightsky.server")

MAX_CHANCE_CHAIN = 10_000
UNDO_PROBES = 4

@dataclass
class Subscriber:
    """A socket watching a table as ``seat`` (None: a spectator)."""

    seat: int | None
    push: Callable[[dict[str, Any]], None]  # gets Room.message(seat)
    patches: bool = False  # it takes light updates (``server/patches.py``) after the first view


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
    # Who created the table (a hash of the client's address): its bots' work, stand-ins for
    # its away humans included, is scheduled and budgeted as this client's (rooms/fair.py).
    client: str | None = None
    notices: list[dict[str, Any]] = field(default_factory=list)
    # Listed in the lobby (anyone may watch it there and join its free seats); a private
    # table's invited seats are taken only with their invite links.
    listed: bool = False
    # A rated table (server/club): its end settles the players' ratings in the same commit.
    rated: bool = False
    tournament: int | None = None  # the tournament whose round made it (its result counts)
    rating_seen: dict[str, Any] | None = None  # its rating event, once read after the end
    lock: threading.RLock = field(default_factory=threading.RLock)
    subscribers: list[Subscriber] = field(default_factory=list)
    # (seat, history length after the action): a contiguous run of undoable human actions.
    undo_stack: list[tuple[int, int]] = field(default_factory=list)
    bot_busy: bool = False
    agents: dict[int, BotPlan | None] = field(default_factory=dict)
    narrator: Narrator | None = None  # the log in words, per viewer (built on first use)
    cache: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    # Per viewer: the payload before the last change, and the patch from it (made on demand).
    previous: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    patched: dict[int | None, str | None] = field(default_factory=dict)
    # Per viewer: a few payloads before ``previous`` (oldest first), for sections sent back.
    earlier: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    # Per viewer: the cached payload, its JSON, and its WebSocket message (made on demand).
    wire: dict[int | None, tuple[dict[str, Any], bytes, str | None]] = field(
        default_factory=dict
    )
    # Per human seat: (the version at which its legal-action list last changed, that list).
    # A seat's POST is stale only when its own choices changed since the version it saw.
    seat_marks: dict[int, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)  # last fetched (for eviction)
    changed_at: float = field(default_factory=time.monotonic)  # last pushed (bot cadence)
    gone: bool = False  # evicted: the store (and a rebuilt room) is the truth now
    # Clocks and stand-in bots (server/clocks.py); ``now``: the server's time, injectable.
    clock: TableClock = field(default_factory=lambda: TableClock(ClockConfig()))
    now: Callable[[], float] = time.time
    clock_stored: dict[str, Any] | None = None  # the clocks as last written

    # ------------------------------------------------------------------ seats
    @property
    def status(self) -> str:
        return "over" if self.over else "playing"

    @property
    def over(self) -> bool:
        """The game is over: the rules' end, or ended by resignations (``resign``)."""
        return self.clock.ended or self.state.is_terminal()

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
        if self.clock.ended:
            return []
        n = len(self.seats)
        now = self.state.current_players()
        return [
            p
            for p in now
            if 0 <= p < n and (self.seats[p].kind is SeatKind.BOT or self.clock.stand_in(p))
        ]

    def bot_spec(self, seat: int) -> str:
        """The spec of the bot that plays ``seat``: its own, or the table's stand-in's."""
        row = self.seats[seat]
        return (row.spec or "") if row.kind is SeatKind.BOT else self.clock.config.bot_spec

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
                    "kind": SeatKind.GAME.value,
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
            if self.over:
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

    def take_invited(self, seat: int, name: str | None) -> str:
        """A friend invited by name takes ``seat`` (``server/club``): its new token."""
        with self.lock:
            if self.over:
                raise ServerError(409, "game_over", "the game is over")
            if seat not in self.open_seats():
                raise ServerError(409, "seat_taken", f"seat {seat} is not free")
            return self._take_seat(seat, name)

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

    def hand_over(self, seat: int) -> str:
        """A seat's link (``/g/ID#token=...``) was opened in a browser: that browser gets a
        fresh token and the link's token stops working, so whoever held the link before (a
        creator who claimed the seat for a friend) loses the seat; everyone is told in words.
        The seat's sockets opened with the old token hear nothing more."""
        with self.lock:  # (a finished table too: its seats still answer rematches)
            row = self.seats[seat]
            token = row.new_token()
            row.joined, row.left = True, False
            self.subscribers = [s for s in self.subscribers if s.seat != seat]
            self.notice(f"{row.name} took seat {seat + 1} on a new device.")
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
            if self.over:
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
            if self.over:
                raise ServerError(409, "game_over", "the game is over")
            code = row.new_invite()
            row.token_hash = None
            self.notice(f"The creator renewed the invite of seat {seat + 1} ({row.name}).")
            self.persist(seats_changed=True, bump=True)
            self.changed()
            return code

    def leave(self, seat: int) -> None:
        """A player gives up its seat: its token stops working; the seat is open again while
        the game goes on (not the creator's). Anyone may leave a finished table."""
        with self.lock:
            row = self.seats[seat]
            over = self.over
            if seat == self.creator() and not over:
                raise ServerError(409, "creator_stays", "the creator's seat cannot be left")
            if (self.rated or self.tournament) and not over:
                # leaving would take the seat's account off the game, hence out of its rating
                raise ServerError(
                    409, "rated_stays",
                    "a rated or tournament game is left by resigning, which counts as a loss",
                )
            row.token_hash, row.joined, row.left = None, over, True
            row.spend_invite()
            self.notice(f"{row.name} left " + ("the table." if over else f"seat {seat + 1}."))
            self.persist(seats_changed=True, bump=True)
            self.changed()

    def resign(self, seat: int) -> None:
        """``seat``'s player resigns, by the game's ruling (``GameInfo.resign_rule``): the seat
        loses; while two or more players who did not resign are left a stand-in bot plays it
        to the end, else the table ends now. The table's log says so in words."""
        with self.lock:
            info = self.state.game.info
            if not info.resign_rule:
                raise ServerError(
                    422, "no_resign_rule", f"{info.title} has no ruling on resigning here"
                )
            self.check_playing(seat)
            if self.over:
                raise ServerError(409, "game_over", "the game is over")
            out = set(self.clock.resigned()) | {seat}
            left = [i for i in range(len(self.seats)) if i not in out]
            self.clock.resign(seat, self.now(), ended=len(left) < 2)
            self.undo_stack.clear()
            self.notice(self._resign_words(seat, left, info.resign_rule))
            self.persist(seats_changed=True, bump=True)
            self.changed()

    def _resign_words(self, seat: int, left: list[int], rule: str) -> str:
        name = self.seats[seat].name
        if len(left) >= 2:
            return (
                f"{name} resigned and loses ({rule}); a {self.clock.config.bot_spec} bot plays "
                "the seat to the end."
            )
        won = f"{self.seats[left[0]].name} wins" if left else "nobody wins"
        return f"{name} resigned and loses ({rule}): the game is over, {won}."

    def check_playing(self, seat: int) -> None:
        """Refuse a seat whose player resigned (409 ``resigned``): a bot plays it now."""
        if seat in self.clock.resigned():
            raise ServerError(
                409,
                "resigned",
                f"{self.seats[seat].name} resigned: a bot plays this seat to the end",
                rule=self.state.game.info.resign_rule or None,
            )

    def winners(self) -> list[int]:
        """Who won, by the resign ruling: the rules' winners that did not resign, else the
        best scores among the players who did not (a table that ended: the players left)."""
        out = self.clock.resigned()
        if self.clock.ended:
            return [i for i in range(len(self.seats)) if i not in out]
        won = [w for w in self.state.winners() if w not in out]
        rest = [i for i in range(len(self.seats)) if i not in out]
        if won or not out or not rest:
            return won
        scores = self.state.scores()
        best = max(scores[i] for i in rest)
        return [i for i in rest if scores[i] == best]

    def places(self) -> list[int]:
        """Each seat's place at the end (1 = best): the winners, then by score, and a seat
        that resigned last (``club.rating.ranks``)."""
        ended = self.clock.ended or not self.state.is_terminal()
        scores = None if ended else list(self.state.scores())
        return ranks(len(self.seats), self.winners(), scores, self.clock.resigned())

    def rating_view(self) -> dict[str, Any] | None:
        """A rated table's ``rating`` in the view: each seat's rating before and after once
        the game is over (null on an unrated table). Under the lock."""
        if not self.rated:
            return None
        if self.over and self.rating_seen is None:
            self.rating_seen = rating_event(self.store, self.id)
        return {"rated": True, **(self.rating_seen or {"changes": None, "unrated": None})}

    # ------------------------------------------------------------------ clocks
    def sync_clocks(self) -> tuple[dict[str, Any], Any] | None:
        """Start and stop the clocks after a change (``TableClock.sync``); what to store: the
        clocks and their next deadline, or None when they are as last stored. Under the lock."""
        state = self.state
        self.clock.sync(self.now(), set(state.current_players()), self.over)
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
            self.check_playing(seat)
            if self.over:
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
            if self.gone or self.over:
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
            self.check_playing(seat)
            self.check_seat_version(seat, version)
            if self.over:
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
                result=self.places() if self.over and (self.rated or self.tournament) else None,
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
        for seat, old in self.previous.items():  # the views a light update may edit from
            self.earlier[seat] = [*self.earlier.get(seat, [])[-(EARLIER - 1) :], old]
        self.previous, self.patched = dict(self.cache), {}
        self.cache.clear()
        self.wire.clear()
        self.mark_seats()
        self.changed_at = time.monotonic()
        for sub in list(self.subscribers):
            try:
                sub.push(self.message(sub.seat, patch=sub.patches))
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
                    "rating": self.rating_view(),
                }
            )
            self.resign_view(body, seat)
            self.cache[seat] = body
            return body

    def resign_view(self, body: dict[str, Any], seat: int | None) -> None:
        """What the resign ruling changes in a view: who resigned, the ruling's id, the
        winners; a table ended by resignation reads as over (no choices, no scores: the rules'
        end was not reached); a resigned seat is offered no choices (its bot plays)."""
        resigned = self.clock.resigned()
        body["resigned"] = resigned
        body["ended"] = "resigned" if self.clock.ended else None
        body["resign_rule"] = self.state.game.info.resign_rule or None
        if self.clock.ended:
            body.update(
                terminal=True, current_players=[], legal=[], scores=None, breakdown=None,
                score_parts=None, winners=self.winners(),
            )
        elif resigned and body["terminal"]:
            body["winners"] = self.winners()
        if seat in resigned:
            body["legal"] = []

    def encoded(self, seat: int | None) -> bytes:
        """``payload(seat)`` as JSON, encoded once per version for every reader of it."""
        with self.lock:
            body = self.payload(seat)
            hit = self.wire.get(seat)
            if hit is None or hit[0] is not body:
                # Through the package, where a test counts the encodings.
                hit = (body, package.encode(body), None)
                self.wire[seat] = hit
            return hit[1]

    def message(self, seat: int | None, *, patch: bool = False) -> dict[str, Any]:
        """What a WebSocket of ``seat`` is pushed: ``{"version", "text"}``, the text being
        ``{"type": "view", "data": <payload>}``, encoded once for every socket of that viewer
        (by the thread that made the change, never the event loop). ``patch``: also the light
        update from the view before the last change, when there was one (``"patch"``, the
        text of ``{"type": "patch", "data": ...}``, and its ``"base"`` version)."""
        with self.lock:
            data = self.encoded(seat)
            body, _, text = self.wire[seat]
            if text is None:
                text = (b'{"type":"view","data":' + data + b"}").decode()
                self.wire[seat] = (body, data, text)
            out = {"version": body["version"], "text": text}
            old = self.previous.get(seat)
            if patch and old is not None:
                if seat not in self.patched:
                    light = {"type": "patch",
                             "data": view_patch(old, body, self.earlier.get(seat, []))}
                    self.patched[seat] = package.encode(light).decode()
                out.update(patch=self.patched[seat], base=old["version"])
            return out

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
            if not self.over:
                raise ServerError(
                    409, "game_not_over", "the record is available when the game is over"
                )
            return make_record(self.state)

    def replay_view(self, step: int, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) saw after ``step`` entries of the record: its
        own view, board and log (finished games only)."""
        with self.lock:
            if not self.over:
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


