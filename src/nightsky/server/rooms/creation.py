"""What a new table is made of, checked before anything is stored: the game and its options,
the seats (the creator's token, one-time invites, bot specs read once against the server's
bounds), the clocks, the seed policy and the caps on open tables."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nightsky.core.errors import GameError, OptionError
from nightsky.core.registry import game_class, load_game
from nightsky.server.bounds import BotPlan, plan_bot
from nightsky.server.clocks import ClockConfig, ClockError, TableClock
from nightsky.server.rooms.errors import ServerError
from nightsky.server.rooms.seat import Seat, SeatKind, unique_name
from nightsky.server.settings import Settings
from nightsky.server.store import Store


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
    rated: bool = False  # a rated table (server/club): humans only, a clock
    tournament: int | None = None  # made by a tournament's round (server/club)
    game_id: str | None = None  # a fixed id (a tournament's table: made once, whoever makes it)


SHIPPED_COMPONENTS = {"": "", "default": ""}
"""``options.components`` from the web: names of the component sets the package ships (each
game's own data files). A path is never read for a web request."""


def new_game(game_id: str, players: int | None, options: dict[str, Any]) -> Any:
    """The game of a new table; 422 ``bad_option`` names what the server does not take."""
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




@dataclass
class NewSeats:
    """The seats of a new table: the creator's token, one invite code per other human seat,
    and each bot seat's checked plan (the spec read once, kept for its first move)."""

    rows: list[Seat]
    token: str | None
    invites: dict[int, str]
    plans: dict[int, BotPlan]


def new_seats(
    specs: list[str], names: list[str] | None, settings: Settings, game: Any = None
) -> NewSeats:
    """The seats of a new game: the creator's token (first human seat, joined) and an invite
    code for every other human seat. A bot's spec is checked against the server's bounds."""
    out = NewSeats([], None, {}, {})
    levels = [raw.strip().split(":")[0] for raw in specs]
    for i, raw in enumerate(specs):
        name = (names[i] if names and i < len(names) else "") or ""
        spec = raw.strip()
        if spec == SeatKind.HUMAN:
            seat = Seat(kind=SeatKind.HUMAN, name=name or f"Player {i + 1}")
            if out.token is None:
                out.token, seat.joined = seat.new_token(), True
            else:
                out.invites[i] = seat.new_invite()
        else:
            try:
                out.plans[i] = plan_bot(spec, settings, game)
            except GameError as exc:
                raise ServerError(422, exc.code, f"seat {i}: {exc}", field="seats") from None
            # Bots are called by their level and, among bots of that level, a number.
            number = levels[: i + 1].count(levels[i])
            seat = Seat(kind=SeatKind.BOT, name=name or f"{levels[i]} bot {number}", spec=spec)
            seat.joined = True
        seat.name = unique_name(seat.name, [r.name for r in out.rows])
        out.rows.append(seat)
    return out


def new_clock(
    raw: dict[str, Any] | None, rows: list[Seat], game: Any, settings: Settings
) -> tuple[TableClock, BotPlan]:
    """The clocks of a new table (``clock`` of the request) and the plan of its stand-in bot
    (its spec read and checked like a bot seat's); 422 ``bad_clock`` names the field."""
    try:
        config = ClockConfig.parse(raw)
    except ClockError as exc:
        raise ServerError(422, "bad_clock", str(exc), field=exc.field) from None
    try:
        plan = plan_bot(config.bot_spec, settings, game)
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
    return TableClock.new(config, [i for i, s in enumerate(rows) if s.human]), plan


def check_rated(req: NewGame, rows: list[Seat]) -> None:
    """A rated table seats only people and runs a clock (a player who stops moving is played
    by the stand-in and still counts); 422 ``not_rateable`` names the field. That every seat
    is a distinct account is checked as seats are taken (``server/club``)."""
    if not req.rated:
        return
    if any(not s.human for s in rows) or len(rows) < 2:
        raise ServerError(
            422, "not_rateable", "rated: a rated table seats two or more people and no bot",
            field="seats",
        )
    if not req.clock or req.clock.get("mode", "untimed") == "untimed":
        raise ServerError(
            422, "not_rateable", "rated: a rated table needs a clock", field="clock"
        )


def check_seed(seed: int | None, rows: list[Seat], settings: Settings) -> None:
    """A creator's seed only where at most one seat is human (else 422 ``seed_not_allowed``)."""
    humans = sum(s.human for s in rows)
    if seed is not None and humans >= 2 and not settings.allow_client_seed:
        raise ServerError(
            422,
            "seed_not_allowed",
            "a seed is accepted only on a table with at most one human seat: with it the "
            "creator could foresee every card the other players are dealt",
            field="seed",
        )


def check_caps(store: Store, client: str, settings: Settings) -> None:
    """Room for one more unfinished table: the client's and the server's caps (429)."""
    s = settings
    if client and store.count_playing(client=client) >= s.max_open_tables_per_client:
        raise ServerError(
            429,
            "too_many_tables",
            f"you have {s.max_open_tables_per_client} unfinished tables; finish one first",
            retry_after=60,
        )
    if store.count_playing() >= s.max_open_tables:
        raise ServerError(
            429, "server_full", "this server holds all the tables it can", retry_after=60
        )
