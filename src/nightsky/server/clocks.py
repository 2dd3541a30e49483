"""Clocks of a table and the stand-in bots of seats that time out or are away.

A table is ``untimed`` (no clock: today's default), ``realtime`` (chess style: a bank per seat,
``bank_seconds``, that runs while the seat is to act, plus ``increment_seconds`` each time its
turn ends) or ``turnbased`` (each turn of a seat has ``move_seconds``, typically hours or days).
A *turn* of a seat is a stretch of time during which the rules name it among the seats to act
(``State.current_players``): several actions in a row (a Starlight turn) share one turn, and
in simultaneous phases (Mihi Anguli) every seat still to act runs its own clock. Only human
seats have clocks; a seat a stand-in bot plays has a stopped clock.

When a seat's time runs out the table's ``on_timeout`` applies: ``bot:SPEC`` hands the seat to
a bot of that spec, which plays from the seat's own view until the player takes the seat back
(a legal move with its token, or ``away: false``); ``forfeit`` drops the seat where the game's
rules allow it (``Game.resign_action``), otherwise a ``greedy`` bot stands in. A player may also
mark its own seat away: a bot of the same spec plays until the player is back.

The server's time comes from an injectable callable (``Manager.clock``, seconds since the
epoch), so tests drive clocks with a fake one. What is stored per seat is the time it had left
when its clock last started (``left``) and when that was (``since``); on reload after a restart
a running clock starts again from the restart, so time while the server was down is not
charged (nor the time between its last start and the crash: the server cannot know when it
went down).

Nothing here is game-specific: it uses the game contract only (which seats are to act).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

MODES = ("untimed", "realtime", "turnbased")
DEFAULT_BANK = 600.0
DEFAULT_MOVE = 86_400.0
DEFAULT_ON_TIMEOUT = "bot:greedy"
FALLBACK_BOT = "greedy"
"""The stand-in of a seat whose table says ``forfeit`` where the game cannot drop the seat,
or whose player is away."""
REALTIME_GRACE = 60.0
"""Seconds of bank (at most ``bank_seconds``) a realtime seat gets back when its player takes
it back after a timeout, so the first move is not a second timeout."""
POLL_SECONDS = 0.25
"""How often the clock driver looks for deadlines that have passed."""


class ClockError(ValueError):
    """A clock setting that does not fit the mode; ``field`` names it (``clock.bank_seconds``)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name


def iso(t: float | None) -> str | None:
    """Seconds since the epoch as an ISO 8601 UTC time (None stays None)."""
    if t is None:
        return None
    return datetime.fromtimestamp(t, UTC).isoformat().replace("+00:00", "Z")


@dataclass
class ClockConfig:
    """The table's clock settings, checked (``ClockConfig.parse``)."""

    mode: str = "untimed"
    bank_seconds: float | None = None
    increment_seconds: float | None = None
    move_seconds: float | None = None
    on_timeout: str = DEFAULT_ON_TIMEOUT

    @classmethod
    def parse(cls, raw: dict[str, Any] | None) -> ClockConfig:
        """The settings of ``raw`` (the API's ``clock`` object, already typed by pydantic)
        with the defaults of its mode; ClockError names a setting the mode does not take."""
        raw = {k: v for k, v in (raw or {}).items() if v is not None}
        mode = raw.get("mode", "untimed")
        if mode not in MODES:
            raise ClockError("clock.mode", f"one of {', '.join(MODES)}")
        takes = {
            "untimed": set(),
            "realtime": {"bank_seconds", "increment_seconds"},
            "turnbased": {"move_seconds"},
        }[mode]
        for name in ("bank_seconds", "increment_seconds", "move_seconds"):
            if name in raw and name not in takes:
                raise ClockError(f"clock.{name}", f"a {mode} table takes no {name}")
        on_timeout = raw.get("on_timeout", DEFAULT_ON_TIMEOUT)
        if on_timeout != "forfeit" and not (
            on_timeout.startswith("bot:") and on_timeout[4:].strip()
        ):
            raise ClockError("clock.on_timeout", "'forfeit' or 'bot:SPEC' (e.g. 'bot:greedy')")
        cfg = cls(mode=mode, on_timeout=on_timeout)
        if mode == "realtime":
            cfg.bank_seconds = float(raw.get("bank_seconds", DEFAULT_BANK))
            cfg.increment_seconds = float(raw.get("increment_seconds", 0.0))
        elif mode == "turnbased":
            cfg.move_seconds = float(raw.get("move_seconds", DEFAULT_MOVE))
        return cfg

    @property
    def timed(self) -> bool:
        return self.mode != "untimed"

    @property
    def bot_spec(self) -> str:
        """The spec of the bot that stands in for a seat (timed out or away)."""
        if self.on_timeout.startswith("bot:"):
            return self.on_timeout[4:].strip()
        return FALLBACK_BOT

    def public(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "bank_seconds": self.bank_seconds,
            "increment_seconds": self.increment_seconds,
            "move_seconds": self.move_seconds,
            "on_timeout": self.on_timeout,
        }


@dataclass
class SeatClock:
    """One human seat's clock and who plays it."""

    left: float | None = None  # seconds left when the clock last started or stopped
    since: float | None = None  # when it started running (None: stopped)
    standin: str | None = None  # None: its player; "away", "timeout", "resigned": a bot plays it
    forfeited: bool = False
    resigned: bool = False  # its player resigned: it lost, and nobody takes it back
    inc: float = 0.0  # the increment its last turn earned (taken back if that turn is undone)
    resume: bool = False  # an undo reopened its turn: the turn goes on, it does not restart

    def deadline(self) -> float | None:
        if self.since is None or self.left is None:
            return None
        return self.since + max(0.0, self.left)


@dataclass
class TableClock:
    """The clocks of one table, the stand-ins, and which moves bots made for human seats."""

    config: ClockConfig
    seats: dict[int, SeatClock] = field(default_factory=dict)
    by: dict[int, str] = field(default_factory=dict)  # history index -> "bot" / "forfeit"
    # The table ended by resignations before the rules' end (fewer than two players left).
    ended: bool = False

    @classmethod
    def new(cls, config: ClockConfig, human_seats: list[int]) -> TableClock:
        clock = cls(config)
        for i in human_seats:
            left = config.bank_seconds if config.mode == "realtime" else config.move_seconds
            clock.seats[i] = SeatClock(left=left)
        return clock

    # ------------------------------------------------------------------ storage
    def row(self) -> dict[str, Any]:
        """The JSON stored in the ``games.clock`` column."""
        return {
            **self.config.public(),
            "seats": {
                str(i): {"left": s.left, "since": s.since, "standin": s.standin,
                         "forfeited": s.forfeited, "inc": s.inc, "resigned": s.resigned}
                for i, s in self.seats.items()
            },
            "by": {str(k): v for k, v in self.by.items()},
            "ended": self.ended,
        }

    @classmethod
    def from_row(
        cls, row: dict[str, Any] | None, human_seats: list[int], restarted: float | None = None
    ) -> TableClock:
        """The stored clock (None: an untimed table from before clocks). ``restarted``: when
        this server process started; a clock that was running before it runs again from then
        (the time the server was down is not charged)."""
        if not row:
            return cls.new(ClockConfig(), human_seats)
        config = ClockConfig(
            mode=row.get("mode", "untimed"),
            bank_seconds=row.get("bank_seconds"),
            increment_seconds=row.get("increment_seconds"),
            move_seconds=row.get("move_seconds"),
            on_timeout=row.get("on_timeout") or DEFAULT_ON_TIMEOUT,
        )
        clock = cls(config)
        for key, s in (row.get("seats") or {}).items():
            seat = SeatClock(
                left=s.get("left"),
                since=s.get("since"),
                standin=s.get("standin"),
                forfeited=bool(s.get("forfeited")),
                inc=float(s.get("inc") or 0.0),
                resigned=bool(s.get("resigned")),
            )
            if seat.since is not None and restarted is not None and seat.since < restarted:
                seat.since = restarted
            clock.seats[int(key)] = seat
        for i in human_seats:
            clock.seats.setdefault(i, SeatClock(left=None))
        clock.by = {int(k): str(v) for k, v in (row.get("by") or {}).items()}
        clock.ended = bool(row.get("ended"))
        return clock

    # ------------------------------------------------------------------ running
    def sync(self, now: float, to_act: set[int], over: bool) -> None:
        """After a change: stop the clocks of seats no longer to act (charging their time and,
        realtime, adding the increment), start those of seats now to act."""
        cfg = self.config
        for i, s in self.seats.items():
            should = cfg.timed and not over and i in to_act and s.standin is None
            running = s.since is not None
            if running and not should:
                self._charge(s, now)
                s.inc = 0.0
                if cfg.mode == "realtime" and not over and i not in to_act:
                    s.inc = cfg.increment_seconds or 0.0  # its turn ended
                    s.left = (s.left or 0.0) + s.inc
            elif should and not running:
                if cfg.mode == "turnbased" and not s.resume:
                    s.left = cfg.move_seconds
                s.since, s.inc, s.resume = now, 0.0, False

    def undo(self, seat: int) -> None:
        """``seat`` took its last action back: if that action ended its turn, the turn goes
        on where it was (no fresh turn-based time, the realtime increment taken back)."""
        s = self.seats.get(seat)
        if s is None or s.since is not None:
            return
        s.left = max(0.0, (s.left or 0.0) - s.inc)
        s.inc, s.resume = 0.0, True

    @staticmethod
    def _charge(s: SeatClock, now: float) -> None:
        if s.since is not None:
            s.left = max(0.0, (s.left or 0.0) - max(0.0, now - s.since))
        s.since = None

    def due(self, now: float) -> list[int]:
        """The seats whose time ran out (their clock still running)."""
        out = []
        for i, s in self.seats.items():
            d = s.deadline()
            if d is not None and d <= now:
                out.append(i)
        return out

    def next_deadline(self) -> float | None:
        times = [d for s in self.seats.values() if (d := s.deadline()) is not None]
        return min(times) if times else None

    def time_out(self, seat: int, now: float) -> None:
        """``seat``'s time ran out: its clock stops at zero and a bot stands in."""
        s = self.seats[seat]
        self._charge(s, now)
        s.left = 0.0
        s.standin = "timeout"

    def resign(self, seat: int, now: float, *, ended: bool) -> None:
        """``seat``'s player resigned: its clock stops for good and a bot plays the seat to
        the end (``ended``: no, the table ends now)."""
        s = self.seats[seat]
        self._charge(s, now)
        s.standin, s.resigned = "resigned", True
        self.ended = self.ended or ended

    def resigned(self) -> list[int]:
        """The seats whose players resigned."""
        return sorted(i for i, s in self.seats.items() if s.resigned)

    def stand_in(self, seat: int) -> bool:
        """Whether a bot plays this human seat now."""
        s = self.seats.get(seat)
        return s is not None and s.standin is not None and not s.forfeited

    def set_away(self, seat: int, away: bool, now: float) -> bool:
        """The player says it is away (a bot plays) or back; whether anything changed."""
        s = self.seats[seat]
        if away:
            if s.standin is not None:
                return False
            self._charge(s, now)
            s.standin = "away"
            return True
        return self.take_back(seat)

    def take_back(self, seat: int) -> bool:
        """The player plays its seat again (the clock starts at the next ``sync``); whether a
        bot was playing it. A realtime seat back from a timeout gets a little time."""
        s = self.seats.get(seat)
        if s is None or s.standin is None or s.resigned:
            return False
        if s.standin == "timeout" and self.config.mode == "realtime":
            grace = min(REALTIME_GRACE, self.config.bank_seconds or REALTIME_GRACE)
            s.left = max(s.left or 0.0, grace)
        s.standin = None
        return True

    # ------------------------------------------------------------------ what is sent
    def public(self, num_seats: int) -> dict[str, Any]:
        """What anyone may see of the clocks (a function of the times and of who is to act,
        which is public): per seat the seconds left when its clock last started or stopped,
        whether it runs, since when and until when (ISO times), and who plays it."""
        seats: list[dict[str, Any]] = []
        for i in range(num_seats):
            s = self.seats.get(i)
            if s is None:
                seats.append({"seat": i, "timed": False, "seconds_left": None, "running": False,
                              "since": None, "deadline": None, "standin": None,
                              "forfeited": False, "resigned": False})
                continue
            seats.append(
                {
                    "seat": i,
                    "timed": self.config.timed,
                    "seconds_left": None if s.left is None else round(s.left, 3),
                    "running": s.since is not None,
                    "since": iso(s.since),
                    "deadline": iso(s.deadline()),
                    "standin": s.standin,
                    "forfeited": s.forfeited,
                    "resigned": s.resigned,
                }
            )
        return {**self.config.public(), "seats": seats}

    def mark_log(self, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The log lines with ``"by": "bot"`` (or ``"forfeit"``) on entries a bot made for a
        human seat (new dicts: the narrator's own lines are shared)."""
        if not self.by:
            return lines
        return [{**x, "by": self.by[x["index"]]} if x["index"] in self.by else x for x in lines]

    def truncate(self, length: int) -> None:
        """History was cut back to ``length`` entries (undo): forget marks beyond it."""
        self.by = {k: v for k, v in self.by.items() if k < length}


class ClockDriver:
    """One thread that wakes every ``interval`` seconds and calls ``tick()`` (the manager's
    step that fires the deadlines that passed and starts the bots that must play)."""

    def __init__(self, tick: Callable[[], Any], interval: float = POLL_SECONDS) -> None:
        self.tick = tick
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None and self.interval > 0:
            self._thread = threading.Thread(target=self._loop, name="clocks", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _loop(self) -> None:
        import logging

        log = logging.getLogger("nightsky.server")
        while not self._stop.wait(self.interval):
            try:
                self.tick()
            except Exception:
                log.exception("clock driver step failed")
