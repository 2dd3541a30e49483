"""``nightsky serve``: the web app (lobby, games with friends or bots) on uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer

from nightsky.cli.app import app, console


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    db: Annotated[
        str,
        typer.Option(help="SQLAlchemy URL (postgresql+psycopg://... needs the postgres extra)."),
    ] = "sqlite:///nightsky.sqlite3",
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before moving (to follow its play).")
    ] = 0.3,
    think_seconds: Annotated[
        float, typer.Option(help="Per-move thinking cap of a bot (specs above it are refused).")
    ] = 5.0,
    bot_processes: Annotated[
        int, typer.Option(help="Worker processes for search bots (0: in threads, no guard).")
    ] = 2,
    rate_requests: Annotated[
        str, typer.Option(help="API requests per client (limits syntax).")
    ] = "3000/minute;100/second",
    rate_create: Annotated[str, typer.Option(help="Games created per client.")] = (
        "20/minute;200/day"
    ),
    max_tables_per_client: Annotated[
        int, typer.Option(help="Unfinished tables one client may hold.")
    ] = 20,
    max_tables: Annotated[int, typer.Option(help="Unfinished tables in all.")] = 5000,
    trust_proxy: Annotated[
        bool, typer.Option(help="Read the client's address from X-Forwarded-For.")
    ] = False,
) -> None:
    """Serve the web app: open http://HOST:PORT in a browser. Every limit has a default a
    public server can run on (see docs/server.md, threat model)."""
    import uvicorn

    from nightsky.server import create_app
    from nightsky.server.settings import Settings

    settings = Settings(
        think_seconds=think_seconds,
        bot_processes=bot_processes,
        rate_requests=rate_requests,
        rate_create=rate_create,
        max_open_tables_per_client=max_tables_per_client,
        max_open_tables=max_tables,
        trust_proxy=trust_proxy,
    )
    console.print(f"nightsky web app on [bold cyan]http://{host}:{port}[/] (database {db})")
    uvicorn.run(
        create_app(db, bot_delay=bot_delay, settings=settings),
        host=host,
        port=port,
        log_level="warning",
        timeout_keep_alive=30,
        # SIGTERM: open sockets get this long to close before the server stops anyway.
        timeout_graceful_shutdown=2,
    )
