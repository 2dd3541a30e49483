"""The web server: FastAPI app over the game contract, SQLAlchemy persistence, bots, push.

``create_app(db_url)`` builds the application; ``nightsky serve`` runs it with uvicorn.
"""

from nightsky.server.app import create_app
from nightsky.server.rooms import Manager, ServerError
from nightsky.server.store import Store

__all__ = ["Manager", "ServerError", "Store", "create_app"]
