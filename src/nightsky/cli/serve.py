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
) -> None:
    """Serve the web app: open http://HOST:PORT in a browser."""
    import uvicorn

    from nightsky.server import create_app

    console.print(f"nightsky web app on [bold cyan]http://{host}:{port}[/] (database {db})")
    uvicorn.run(
        create_app(db, bot_delay=bot_delay),
        host=host,
        port=port,
        log_level="warning",
        timeout_keep_alive=30,
    )
