"""The bot runner: plays the bot seats of tables (their own bots and the stand-ins of away or
timed-out seats) in a small thread pool, one loop per table at a time.

A bot is handed a state it cannot tell from the true one (``resample``, drawn once here) unless
its spec says ``cheat=true``; search seats think in the ``ThinkPool``'s worker processes under
the wall-clock guard. A failing, illegal or overrunning choice falls back to a random legal
action (and is logged).
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from nightsky.core.errors import GameError
from nightsky.core.game import Action, State
from nightsky.server.bounds import BotPlan, plan_bot
from nightsky.server.rooms.errors import StorageFailure
from nightsky.server.rooms.table import Room
from nightsky.server.settings import Settings
from nightsky.server.thinking import ThinkPool

log = logging.getLogger("nightsky.server")


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
            return self.think.choose(plan.bot, turn.base, turn.seat, turn.rng, deadline)
        try:
            return plan.agent.choose(turn.base, turn.seat, turn.rng)
        except Exception:
            log.exception("bot %s failed in game %s; playing at random", plan.spec, room.id)
            return None


