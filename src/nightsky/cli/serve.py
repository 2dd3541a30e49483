"""``nightsky serve``: the web app (lobby, games with friends or bots) on uvicorn.

Every field of ``nightsky.server.settings.Settings`` is an option named after it
(``think_seconds``: ``--think-seconds``) that also reads the environment variable
``NIGHTSKY_<FIELD>`` (``NIGHTSKY_THINK_SECONDS``); a flag on the command line wins over the
variable. ``tests/server/test_ops.py`` checks that no field is left out.
"""

from __future__ import annotations

import signal
from dataclasses import fields
from enum import StrEnum
from typing import Annotated, Any

import typer

from nightsky.cli.app import app, console
from nightsky.server.settings import Settings

ENV = "NIGHTSKY_"
DEFAULTS = Settings(secret="")

SERVER = "Server"
BOTS = "Bots"
LIMITS = "Limits per client and in all"
FAIR = "Fair play"
STUDIO = "Design studio"
ACCOUNTS = "Accounts"
CLUB = "Club"


class LogLevel(StrEnum):
    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"


def _rates(value: str) -> str:
    """A ``limits`` rate string (``"3000/minute;100/second"``), refused early when malformed."""
    from limits import parse_many

    try:
        parse_many(value)
    except ValueError as exc:
        raise typer.BadParameter(f"{value!r} is not a rate such as 20/minute;200/day") from exc
    return value


def setting(name: str, help: str, panel: str, *aliases: str, **extra: Any) -> Any:
    """The option of the ``Settings`` field ``name``: ``--name-with-dashes`` (and
    ``aliases``), read from ``NIGHTSKY_NAME`` too."""
    return typer.Option(
        f"--{name.replace('_', '-')}",
        *aliases,
        envvar=ENV + name.upper(),
        help=help,
        rich_help_panel=panel,
        **extra,
    )


def _words(values: list[str] | None) -> tuple[str, ...] | None:
    """Repeated values, each possibly a comma list (a variable's value is split on spaces);
    None when the option was not given (click passes an empty list then)."""
    if not values:
        return None
    return tuple(w.strip() for v in values for w in v.split(",") if w.strip())


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option(envvar="NIGHTSKY_HOST", help="Interface to listen on.",
                          rich_help_panel=SERVER)
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(envvar="NIGHTSKY_PORT", min=0, max=65535, help="TCP port.",
                          rich_help_panel=SERVER)
    ] = 8000,
    db: Annotated[
        str,
        typer.Option(
            envvar="NIGHTSKY_DB",
            help="SQLAlchemy URL (postgresql+psycopg://... needs the postgres extra).",
            rich_help_panel=SERVER,
        ),
    ] = "sqlite:///nightsky.sqlite3",
    workers: Annotated[
        int,
        typer.Option(
            envvar="NIGHTSKY_WORKERS",
            min=1,
            help="Server processes sharing the port (above 1 needs a PostgreSQL --db; see "
            "docs/server.md, several processes).",
            rich_help_panel=SERVER,
        ),
    ] = 1,
    log_level: Annotated[
        LogLevel,
        typer.Option(envvar="NIGHTSKY_LOG_LEVEL", case_sensitive=False,
                     help="Level of the server's log (stderr).", rich_help_panel=SERVER),
    ] = LogLevel.info,
    access_log: Annotated[
        bool,
        typer.Option(envvar="NIGHTSKY_ACCESS_LOG",
                     help="One line per request on stdout (tokens never written).",
                     rich_help_panel=SERVER),
    ] = False,
    ws_per_message_deflate: Annotated[
        bool,
        typer.Option(envvar="NIGHTSKY_WS_PER_MESSAGE_DEFLATE",
                     help="Compress WebSocket pushes (permessage-deflate) for clients that "
                     "offer it.", rich_help_panel=SERVER),
    ] = True,
    # ---- every Settings field, in the order of settings.py
    bot_workers: Annotated[
        int, setting("bot_workers", "Threads driving bot turns.", BOTS, min=1)
    ] = DEFAULTS.bot_workers,
    bot_delay: Annotated[
        float,
        setting("bot_delay", "Seconds a bot waits before moving (to follow its play).", BOTS,
                min=0),
    ] = 0.3,
    think_seconds: Annotated[
        float,
        setting("think_seconds", "Per-move thinking cap of a bot (specs above it are refused).",
                BOTS, min=0),
    ] = DEFAULTS.think_seconds,
    think_grace: Annotated[
        float,
        setting("think_grace", "A worker still thinking this long after the cap is killed.",
                BOTS, min=0),
    ] = DEFAULTS.think_grace,
    think_budget: Annotated[
        float,
        setting("think_budget", "Thinking seconds a minute the bots of one client's tables "
                "may use together (0: no budget).", BOTS, min=0),
    ] = DEFAULTS.think_budget,
    bot_processes: Annotated[
        int,
        setting("bot_processes", "Worker processes for search bots (0: in threads, no guard).",
                BOTS, min=0),
    ] = DEFAULTS.bot_processes,
    inline_agents: Annotated[
        list[str] | None,
        setting("inline_agents", "Agents played in the server's threads, not in worker "
                "processes (repeat, or a comma list).", BOTS,
                show_default=",".join(DEFAULTS.inline_agents)),
    ] = None,
    bot_memory_mb: Annotated[
        int, setting("bot_memory_mb", "Address-space limit of a search worker (MB).", BOTS,
                     min=64)
    ] = DEFAULTS.bot_memory_mb,
    spec_max_chars: Annotated[
        int, setting("spec_max_chars", "Longest agent spec accepted.", BOTS, min=1)
    ] = DEFAULTS.spec_max_chars,
    bot_cadence: Annotated[
        float,
        setting("bot_cadence", "Games with hidden information: a bot's move is pushed a whole "
                "number of these seconds after the previous change (0: at once).", BOTS,
                min=0),
    ] = 1.0,
    allow_client_seed: Annotated[
        bool,
        setting("allow_client_seed", "Accept a client's seed on tables with several human "
                "seats (tests only).", FAIR),
    ] = DEFAULTS.allow_client_seed,
    secret: Annotated[
        str,
        setting("secret", "Server secret keying shared tables' chance (default: a random one "
                "per process); prefer the variable: a command line is visible to the host's "
                "other users.", FAIR, show_default=False),
    ] = "",
    rate_requests: Annotated[
        str, setting("rate_requests", "API requests and sockets per client (limits syntax).",
                     LIMITS, callback=_rates)
    ] = DEFAULTS.rate_requests,
    rate_create: Annotated[
        str, setting("rate_create", "Games created per client.", LIMITS, callback=_rates)
    ] = DEFAULTS.rate_create,
    rate_claim: Annotated[
        str, setting("rate_claim", "Invite claims and joins per client.", LIMITS,
                     callback=_rates)
    ] = DEFAULTS.rate_claim,
    rate_chat: Annotated[
        str, setting("rate_chat", "Chat lines per seat of a table.", LIMITS, callback=_rates)
    ] = DEFAULTS.rate_chat,
    rate_chat_client: Annotated[
        str, setting("rate_chat_client", "Chat lines per client over all its tables.", LIMITS,
                     callback=_rates)
    ] = DEFAULTS.rate_chat_client,
    rate_chat_chars: Annotated[
        str, setting("rate_chat_chars", "Chat characters per client over all its tables.",
                     LIMITS, callback=_rates)
    ] = DEFAULTS.rate_chat_chars,
    chat_keep_lines: Annotated[
        int, setting("chat_keep_lines", "Chat lines kept per table (older ones pruned).",
                     LIMITS, min=1)
    ] = DEFAULTS.chat_keep_lines,
    chat_keep_days: Annotated[
        float, setting("chat_keep_days", "Chat lines older than this many days are pruned "
                       "(0: kept).", LIMITS, min=0)
    ] = DEFAULTS.chat_keep_days,
    max_open_tables_per_client: Annotated[
        int,
        setting("max_open_tables_per_client", "Unfinished tables one client may hold.", LIMITS,
                "--max-tables-per-client", min=1),
    ] = DEFAULTS.max_open_tables_per_client,
    max_open_tables: Annotated[
        int, setting("max_open_tables", "Unfinished tables in all.", LIMITS, "--max-tables",
                     min=1)
    ] = DEFAULTS.max_open_tables,
    idle_seconds: Annotated[
        float,
        setting("idle_seconds", "An unfinished table untouched this long leaves memory "
                "(reloaded on demand).", LIMITS, min=0),
    ] = DEFAULTS.idle_seconds,
    keep_finished: Annotated[
        int,
        setting("keep_finished", "Finished games nobody watches kept in memory.", LIMITS, min=0),
    ] = DEFAULTS.keep_finished,
    max_sockets_per_table: Annotated[
        int, setting("max_sockets_per_table", "Spectator WebSockets per table (seated "
                     "players' never count against it).", LIMITS, min=1)
    ] = DEFAULTS.max_sockets_per_table,
    max_spectators_per_client: Annotated[
        int, setting("max_spectators_per_client", "Spectator WebSockets one client keeps "
                     "open at one table.", LIMITS, min=1)
    ] = DEFAULTS.max_spectators_per_client,
    max_sockets_per_seat: Annotated[
        int, setting("max_sockets_per_seat", "WebSockets of one seat of a table (kept for "
                     "the seat).", LIMITS, min=1)
    ] = DEFAULTS.max_sockets_per_seat,
    max_sockets_per_client: Annotated[
        int, setting("max_sockets_per_client", "Open WebSockets per client.", LIMITS, min=1)
    ] = DEFAULTS.max_sockets_per_client,
    ws_auth_seconds: Annotated[
        float, setting("ws_auth_seconds", "Time a WebSocket has to send its hello.", LIMITS,
                       min=0)
    ] = DEFAULTS.ws_auth_seconds,
    allowed_origins: Annotated[
        list[str] | None,
        setting("allowed_origins", "Browser origins allowed on the WebSocket besides the "
                "server's own (repeat, or a comma list).", SERVER),
    ] = None,
    trust_proxy: Annotated[
        bool, setting("trust_proxy", "Read the client's address from X-Forwarded-For (only "
                      "behind your own proxy).", SERVER)
    ] = DEFAULTS.trust_proxy,
    session_days: Annotated[
        float, setting("session_days", "Days a sign-in lasts.", ACCOUNTS, min=0.001)
    ] = DEFAULTS.session_days,
    sign_in_tries: Annotated[
        int, setting("sign_in_tries", "Wrong passwords (per name or client) before sign-in "
                     "is refused with 429.", ACCOUNTS, min=1)
    ] = DEFAULTS.sign_in_tries,
    sign_in_lock_seconds: Annotated[
        float, setting("sign_in_lock_seconds", "First refusal after too many wrong "
                       "passwords (doubles with each further one).", ACCOUNTS, min=0)
    ] = DEFAULTS.sign_in_lock_seconds,
    leaderboard_min_games: Annotated[
        int, setting("leaderboard_min_games", "Rated games before an account is on a "
                     "leaderboard.", CLUB, min=0)
    ] = DEFAULTS.leaderboard_min_games,
    friend_invites_per_hour: Annotated[
        int, setting("friend_invites_per_hour", "Friend requests and seat invitations an "
                     "account may send in an hour.", CLUB, min=1)
    ] = DEFAULTS.friend_invites_per_hour,
    tournament_max_players: Annotated[
        int, setting("tournament_max_players", "Entrants one tournament takes.", CLUB,
                     min=2)
    ] = DEFAULTS.tournament_max_players,
    tournament_poll_seconds: Annotated[
        float, setting("tournament_poll_seconds", "Seconds between looks for a finished "
                       "tournament round.", CLUB, min=0.05)
    ] = DEFAULTS.tournament_poll_seconds,
    gzip_min_bytes: Annotated[
        int, setting("gzip_min_bytes", "Gzip HTTP responses at least this large.", SERVER,
                     min=0)
    ] = DEFAULTS.gzip_min_bytes,
    studio: Annotated[
        bool, setting("studio", "Serve the design studio at /studio (balance, compare and "
                      "sweep jobs in the browser).", STUDIO)
    ] = DEFAULTS.studio,
    studio_dir: Annotated[
        str, setting("studio_dir", "Folder of the studio's jobs and uploads (kept across "
                     "restarts).", STUDIO)
    ] = DEFAULTS.studio_dir,
    studio_max_bytes: Annotated[
        int, setting("studio_max_bytes", "Largest components file the studio accepts (bytes).",
                     STUDIO, min=1, max=60 * 1024)
    ] = DEFAULTS.studio_max_bytes,
    studio_max_games: Annotated[
        int, setting("studio_max_games", "Games one studio job may play in all.", STUDIO,
                     min=2)
    ] = DEFAULTS.studio_max_games,
    studio_jobs_per_client: Annotated[
        int, setting("studio_jobs_per_client", "Unfinished studio jobs per client.", STUDIO,
                     min=1)
    ] = DEFAULTS.studio_jobs_per_client,
    studio_max_jobs: Annotated[
        int, setting("studio_max_jobs", "Unfinished studio jobs in all.", STUDIO, min=1)
    ] = DEFAULTS.studio_max_jobs,
    studio_workers: Annotated[
        int, setting("studio_workers", "Worker processes playing the studio's games.", STUDIO,
                     min=1)
    ] = DEFAULTS.studio_workers,
    studio_ray_address: Annotated[
        str, setting("studio_ray_address", "Play the studio's games on Ray: auto, "
                     "ray://host:10001, or local (default: the worker processes).", STUDIO)
    ] = DEFAULTS.studio_ray_address,
) -> None:
    """Serve the web app: open http://HOST:PORT in a browser. Every limit has a default a
    public server can run on (see docs/server.md, threat model). Probes: /healthz, /readyz."""
    import uvicorn
    from sqlalchemy.engine import make_url

    from nightsky.server import create_app
    from nightsky.server.logs import log_config

    settings = settings_from(ctx.params)
    shown = make_url(db).render_as_string(hide_password=True)
    if workers > 1 and make_url(db).get_backend_name() != "postgresql":
        raise typer.BadParameter(
            f"--workers {workers}: several server processes need a PostgreSQL database "
            f"(--db postgresql://...), not {make_url(db).get_backend_name()}; SQLite serves "
            "from one process",
            param_hint="'--workers'",
        )
    if workers > 1 and studio:
        raise typer.BadParameter(
            "--studio keeps its jobs in one server process: serve it with --workers 1",
            param_hint="'--studio'",
        )
    console.print(
        f"nightsky web app on [bold cyan]http://{host}:{port}[/] (database {shown}"
        + (f", {workers} processes)" if workers > 1 else ")"),
        highlight=False,
        soft_wrap=True,
    )
    target: Any = create_app(db, settings=settings) if workers == 1 else None
    if target is None:
        from nightsky.server.cluster import worker_config

        # Each process builds its own app (its own connections, rooms, LISTEN thread and
        # lease holder) from this configuration; the tables are made here, once.
        target = worker_config(db, settings)
    if workers == 1:
        # uvicorn stops gracefully on SIGTERM (sockets, then the app's shutdown: bots, think
        # workers, the database), then raises the signal again under the handler it found:
        # this one makes a stop asked for a clean exit, status 0.
        signal.signal(signal.SIGTERM, _stopped)
    uvicorn.run(
        target,
        factory=workers > 1,
        workers=workers if workers > 1 else None,
        host=host,
        port=port,
        log_config=log_config(log_level.value, access_log),
        log_level=log_level.value,
        access_log=False,  # uvicorn's would show query strings: ours redacts (server/logs.py)
        ws_per_message_deflate=ws_per_message_deflate,
        timeout_keep_alive=30,
        # SIGTERM: open sockets get this long to close before the server stops anyway.
        timeout_graceful_shutdown=2,
    )


def _stopped(signum: int, frame: Any) -> None:
    """SIGTERM once uvicorn has shut the app down: exit with status 0. Later SIGTERMs are
    ignored from here on (the interpreter's exit would otherwise put back the default
    action, and a signal sent again meanwhile would kill the exiting process)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise SystemExit(0)


def settings_from(params: dict[str, Any]) -> Settings:
    """The ``Settings`` of ``serve``'s parsed options (a field with no option: KeyError)."""
    values: dict[str, Any] = {f.name: params[f.name] for f in fields(Settings)}
    for name in ("inline_agents", "allowed_origins"):
        words = _words(values[name])
        values[name] = getattr(DEFAULTS, name) if words is None else words
    return Settings(**values)
