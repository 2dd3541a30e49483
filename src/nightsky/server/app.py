"""The FastAPI application: ``create_app`` makes the table manager and what the routes share,
stacks the middleware, maps errors and includes the routers (``nightsky.server.routes``, one
per resource) and the static client."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from nightsky._version import __version__
from nightsky.server.accounts import Accounts
from nightsky.server.chat import Chat
from nightsky.server.club.service import Club
from nightsky.server.guards import Rates, SocketCaps
from nightsky.server.handlers import install_handlers
from nightsky.server.middleware import MAX_BODY, BodyLimit, ServerTiming, add_middleware
from nightsky.server.rematch import Rematches
from nightsky.server.rooms import Manager
from nightsky.server.routes import ROUTERS
from nightsky.server.routes.deps import ERRORS, bearer
from nightsky.server.routes.pages import WEB_DIR
from nightsky.server.routes.push import newest_view, ws_message
from nightsky.server.settings import Settings
from nightsky.server.store import Store, default_url
from nightsky.server.studio import mount as mount_studio

log = logging.getLogger("nightsky.server")

__all__ = [
    "ERRORS",
    "MAX_BODY",
    "WEB_DIR",
    "BodyLimit",
    "ServerTiming",
    "bearer",
    "create_app",
    "newest_view",
    "operation_id",
    "ws_message",
]

DESCRIPTION = (
    "Each human seat has a secret token (send `Authorization: Bearer <token>`); without "
    'a token you are a spectator. Every error body is `{"error": {"code", '
    '"message", ...}}` with a stable code. Push: `WS /api/games/{id}/ws?token=...` '
    "sends the seat's whole view after every change (send `{\"token\": ...}` first), and "
    "takes moves as `{\"type\": \"act\", \"id\", \"action\", \"version\"}` messages."
)


def operation_id(route: APIRoute) -> str:
    """The OpenAPI operation id of a route: its name (``act``, ``get_view``)."""
    return route.name


def _lifespan(manager: Manager, store: Store) -> Callable[[FastAPI], Any]:
    """Start-up (resume the unfinished tables, start the tournaments' driver) and shut-down
    (studio jobs, the driver, the bots, then the database, closed whatever went before)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        resumed = await run_in_threadpool(manager.start)
        log.info("nightsky server: %d unfinished games resumed", resumed)
        app.state.club.start()
        yield
        try:
            if app.state.studio is not None:
                app.state.studio.close()
            await run_in_threadpool(app.state.club.close)  # the tournaments' driver
            await run_in_threadpool(manager.close)
        finally:  # the database is closed (and SQLite's log checkpointed) whatever happened
            await run_in_threadpool(store.close)

    return lifespan


def create_app(
    db_url: str | None = None,
    *,
    bot_workers: int | None = None,
    bot_delay: float | None = None,
    keep_finished: int | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """Build the application on a database URL (default: ``nightsky.sqlite3`` here).

    ``settings``: limits and policies (``nightsky.server.settings.Settings``; its defaults
    suit a public server). ``bot_workers``, ``bot_delay`` and ``keep_finished``, when given,
    replace those fields of ``settings``."""
    given: dict[str, Any] = {
        "bot_workers": bot_workers, "bot_delay": bot_delay, "keep_finished": keep_finished
    }
    settings = replace(
        settings or Settings(), **{k: v for k, v in given.items() if v is not None}
    )
    store = Store(db_url or default_url())
    manager = Manager(
        store, bot_workers=settings.bot_workers, bot_delay=settings.bot_delay,
        keep_finished=settings.keep_finished, settings=settings,
    )


    lifespan = _lifespan(manager, store)
    # FastAPIOffline: /docs (Swagger UI) and /redoc served from the fastapi-offline package's
    # own copy of their assets, so the API docs work without internet.
    app = FastAPIOffline(
        title="nightsky",
        version=__version__,
        summary="Play the five nightsky games in the browser, with friends or bots.",
        description=DESCRIPTION,
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
    )
    # What the routes share (``routes.deps``): made once here.
    app.state.manager, app.state.settings = manager, settings
    app.state.rates, app.state.sockets = Rates(settings), SocketCaps(settings)
    app.state.chat = Chat(manager.store, settings.rate_chat, settings=settings)
    app.state.rematches = Rematches(manager)
    app.state.accounts = accounts = Accounts(manager.store, settings)
    app.state.club = app.state.ratings = Club(manager, accounts, settings)  # profiles read it
    add_middleware(app, settings, app.state.rates)
    install_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.state.studio = mount_studio(app, settings)  # ``--studio`` only: otherwise its paths 404
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app
