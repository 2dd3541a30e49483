"""The web server: FastAPI app over the game contract, SQLAlchemy persistence, bots, push.

``create_app(db_url)`` builds the application; ``nightsky serve`` runs it with uvicorn.

The names below are imported on first use (PEP 562), so that ``nightsky.server.settings``
(which the CLI reads to build ``serve``'s options) can be imported without the server's
dependencies: ``nightsky simulate`` and ``nightsky balance`` then run where FastAPI is absent.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from nightsky.server.app import create_app
    from nightsky.server.rooms import Manager, ServerError
    from nightsky.server.store import Store

__all__ = ["Manager", "ServerError", "Store", "create_app"]

_WHERE = {
    "create_app": "nightsky.server.app",
    "Manager": "nightsky.server.rooms",
    "ServerError": "nightsky.server.rooms",
    "Store": "nightsky.server.store",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
