"""The bot runner: plays the bot seats of tables (their own bots and the stand-ins of away or
timed-out seats), one move of one table at a time per job.

Every bot move is a job in one ``FairQueue`` keyed by the table's creating client (a stand-in
for an away human counts against the creator): a dispatcher thread starts jobs by deficit
round robin, each client under its budget of thinking seconds a minute (``think_budget``), a
job needing a worker process only when one is free, so its clock starts when its work starts.
A bot is handed a state it cannot tell from the true one (``resample``, drawn once here) unless
its spec says ``cheat=true``; every agent but ``random`` thinks in the ``ThinkPool``'s worker
processes under the wall-clock guard, with a time budget it keeps (an anytime agent plays its
best move so far). A failing, illegal or killed choice falls back to a one-ply ``greedy`` move
(logged); only a seat whose spec the bounds refuse plays random legal moves. In a game with
hidden information a chosen move is held on a timer until the cadence's next step
(``bot_cadence``), so its push time tells nothing of how long the bot thought.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from nightsky.agents.base import AgentSpec, make_agent
from nightsky.core.errors import GameError
from nightsky.core.game import Action, State
from nightsky.server.bounds import BotPlan, plan_bot
from nightsky.server.rooms.errors import StorageFailure
from nightsky.server.rooms.fair import FairQueue
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
    """Plays the bot seats of rooms: one job per bot move, started fairly across clients
    (``FairQueue``) by a dispatcher thread; thinking happens in the ``ThinkPool``'s
    processes under the wall-clock guard, the move is committed in a runner thread."""

    def __init__(
        self,
        *,
        workers: int,
        delay: float,
        settings: Settings,
        forget: Callable[[Room], None],
        may_drive: Callable[[Room], bool] = lambda room: True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        # Threads: ``workers`` for cheap moves besides one per worker process, so a cheap bot
        # never waits behind a search.
        self.threads = workers + settings.bot_processes
        self.pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="bots")
        self.think = ThinkPool(settings.bot_processes, memory_mb=settings.bot_memory_mb)
        self.settings = settings
        self.delay = delay
        self.forget = forget  # called when a bot's move could not be stored
        # Asked before every bot move: with several processes, whether this one still holds
        # the table's lease (another may have taken it since this loop started).
        self.may_drive = may_drive
        self.closing = False
        self.queue: FairQueue[Room] = FairQueue(budget=settings.think_budget, clock=clock)
        self.cond = threading.Condition()
        self.running = 0  # jobs started and not done
        self.thinking = 0  # of them, those holding a worker process
        self.dispatcher: threading.Thread | None = None

    def close(self) -> None:
        """Stop now: searches in progress are abandoned (their moves are never played)."""
        with self.cond:
            self.closing = True
            self.cond.notify_all()
        self.think.close()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def kick(self, room: Room) -> None:
        """Queue the room's next bot move if a bot is to act and none is queued or running."""
        with room.lock:
            if self.closing or room.bot_busy or not room.bot_seats():
                return
            room.bot_busy = True
        self._schedule(room)

    def _schedule(self, room: Room) -> None:
        if self.delay > 0:
            # Wait on a timer, not in a worker: a pause must not hold up other games' bots.
            timer = threading.Timer(self.delay, self._enqueue, args=(room,))
            timer.daemon = True
            timer.start()
        else:
            self._enqueue(room)

    def _enqueue(self, room: Room) -> None:
        with room.lock:
            seats = room.bot_seats()
            plan = self._plan(room, seats[0]) if seats else None
        with self.cond:
            if self.closing:
                room.bot_busy = False
                return
            self.queue.push(room.client or "", room, pooled=bool(plan and plan.pooled))
            if self.dispatcher is None:
                self.dispatcher = threading.Thread(
                    target=self._dispatch, name="bots-dispatch", daemon=True
                )
                self.dispatcher.start()
            self.cond.notify()

    def _dispatch(self) -> None:
        """Start queued jobs as threads and worker processes come free, fairly."""
        with self.cond:
            while not self.closing:
                got = None
                if self.running < self.threads:
                    got = self.queue.take(processes=self.thinking < max(1, self.think.size))
                if got is None:
                    self.cond.wait(self.queue.wake_in() if len(self.queue) else None)
                    continue
                key, room, pooled = got
                self.running += 1
                self.thinking += pooled
                try:
                    self.pool.submit(self._run, room, key, pooled)
                except RuntimeError:  # shutting down
                    room.bot_busy = False
                    return

    def _run(self, room: Room, key: str, pooled: bool) -> None:
        ok, thought, move = False, 0.0, None
        try:
            thought, move = self._think(room, key)
            ok = True
        except Exception:
            log.exception("bot loop of game %s stopped", room.id)
        finally:
            with self.cond:
                self.queue.done(key, thought)
                self.running -= 1
                self.thinking -= pooled
                self.cond.notify()
        wait = self._pad(room) if ok and move is not None else 0.0
        if wait > 0:
            # Hold the move back to the cadence's grid on a timer, not in a runner thread:
            # the room stays ``bot_busy`` meanwhile, so nothing else moves its bots.
            timer = threading.Timer(wait, self._play, args=(room, move, ok))
            timer.daemon = True
            timer.start()
        else:
            self._play(room, move, ok)

    def _play(self, room: Room, move: tuple[BotTurn, Action | None] | None, ok: bool) -> None:
        """Commit the move chosen (if still due), then queue the room's next bot move."""
        try:
            if ok and move is not None:
                self._commit(room, *move)
        except StorageFailure:
            ok = False
            self.forget(room)
        except Exception:
            ok = False
            log.exception("bot loop of game %s stopped", room.id)
        finally:
            self._next(room, ok)

    def _pad(self, room: Room) -> float:
        """Seconds to hold a bot's move so that it is pushed on the cadence's grid: a whole
        number (at least one) of ``bot_cadence`` after the table's last change. Only in games
        with hidden information (the game's metadata says so): there how long a bot thought
        could tell how many choices it had."""
        cadence = self.settings.bot_cadence
        if cadence <= 0 or not room.state.game.info.hidden_information:
            return 0.0
        return cadence_wait(time.monotonic() - room.changed_at, cadence)

    def _next(self, room: Room, ok: bool) -> None:
        """Queue the room's next bot move, if one is due (a human move may have come in)."""
        with room.lock:
            due = ok and not self.closing and bool(room.bot_seats())
            if not due:
                room.bot_busy = False  # a human move from now on kicks the room itself
        if not due:
            return
        if self.may_drive(room):  # (another process may have taken the table over)
            self._schedule(room)  # ``bot_busy`` stays set: the room's next job is pending
        else:
            with room.lock:
                room.bot_busy = False

    def _think(self, room: Room, key: str) -> tuple[float, tuple[BotTurn, Action | None] | None]:
        """Choose one bot move of ``room``: the seconds its bot thought, and the turn with
        its choice (None when no bot is to move)."""
        if self.closing:
            return 0.0, None
        turn = self._turn(room)
        if turn is None:
            return 0.0, None
        with self.cond:
            allowance = min(self.settings.think_seconds, self.queue.left(key))
        start = time.monotonic()
        action = self._choose(room, turn, allowance)
        return time.monotonic() - start, (turn, action)

    def _commit(self, room: Room, turn: BotTurn, action: Action | None) -> None:
        """Play the bot's choice, or the fallback move, if the table is where it chose."""
        with room.lock:
            if room.version != turn.version or self.closing or not self.may_drive(room):
                return
            if action is None or not room.state.is_legal(action, turn.seat):
                if action is not None:
                    log.warning("bot chose an illegal %s in game %s", action, room.id)
                action = self._fallback(room, turn)
            with room.timings.measure("bot"):
                room.commit_action(turn.seat, action, human=False)

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

    def _choose(self, room: Room, turn: BotTurn, allowance: float) -> Action | None:
        """The bot's choice within ``allowance`` seconds (its budget shrunk to what its client
        has left this minute); None when it failed or was killed."""
        plan = turn.plan
        if plan is None:
            return None
        if plan.pooled:
            bot = within(plan.bot, allowance)
            deadline = (bot.kwargs.get("seconds") or allowance) + self.settings.think_grace
            return self.think.choose(
                bot, turn.base, turn.seat, turn.rng, deadline,
                home=type(plan.agent).__module__,
            )
        try:
            return plan.agent.choose(turn.base, turn.seat, turn.rng)
        except Exception:
            log.exception("bot %s failed in game %s", plan.spec, room.id)
            return None

    def _fallback(self, room: Room, turn: BotTurn) -> Action:
        """The move of a seat whose bot failed: random for a refused spec (it never runs),
        else a one-ply ``greedy`` move (never a random one)."""
        if turn.plan is not None:
            log.warning("bot %s gave no move in game %s; greedy plays", turn.plan.spec, room.id)
            try:
                action = make_agent(FALLBACK).choose(turn.base, turn.seat, turn.rng)
                if room.state.is_legal(action, turn.seat):
                    return action
            except Exception:
                log.exception("fallback bot failed in game %s", room.id)
        return turn.rng.choice(room.state.legal_actions(turn.seat))


FALLBACK = AgentSpec.parse("greedy")


def cadence_wait(elapsed: float, cadence: float) -> float:
    """Seconds still to wait after ``elapsed`` so the wait ends on the next whole multiple
    (at least the first) of ``cadence``."""
    steps = max(1, math.ceil(elapsed / cadence - 1e-9))
    return max(0.0, steps * cadence - elapsed)


def within(bot: AgentSpec, allowance: float) -> AgentSpec:
    """``bot`` with its time budget (``seconds``) cut to ``allowance`` when that is less,
    rounded to tenths so the workers' agent caches stay small (at least 0.1 s)."""
    seconds = bot.kwargs.get("seconds")
    if not isinstance(seconds, int | float) or seconds <= allowance:
        return bot
    return bot.with_options(seconds=max(0.1, round(allowance, 1)))


