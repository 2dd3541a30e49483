"""What the routes share, as FastAPI dependencies: the seat's token, the table manager, the
settings and limits, the chat and the rematches (each made once by ``create_app`` and kept on
``app.state``), and the error responses every route documents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Security
from fastapi.responses import Response
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from nightsky.server import models as m
from nightsky.server.chat import Chat
from nightsky.server.guards import Rates, SocketCaps
from nightsky.server.rematch import Rematches
from nightsky.server.rooms import Manager
from nightsky.server.settings import Settings

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": m.ErrorBody, "description": "Malformed JSON (`malformed_json`)."},
    401: {
        "model": m.ErrorBody,
        "description": "No seat token where one is needed (`token_required`), or a token of "
        "no seat of this game (`bad_token`); with `WWW-Authenticate: Bearer`.",
    },
    403: {
        "model": m.ErrorBody,
        "description": "A valid token without the right to this (`not_creator`).",
    },
    404: {"model": m.ErrorBody, "description": "No such game (`game_not_found`)."},
    409: {"model": m.ErrorBody, "description": "Stale version, game over, or undo refused."},
    410: {"model": m.ErrorBody, "description": "Invite already used or renewed."},
    413: {"model": m.ErrorBody, "description": "Body larger than 64 KiB."},
    422: {"model": m.ErrorBody, "description": "Illegal/unknown action (with `rule`), bad field."},
    429: {"model": m.ErrorBody, "description": "Too many requests or tables (`Retry-After`)."},
    503: {"model": m.ErrorBody, "description": "The database refused a commit, or busy."},
}
"""The error answers every table route documents (the OpenAPI ``responses``)."""

# The two ways to send a seat token, declared as OpenAPI security schemes (the Authorize
# button of /docs). Neither refuses a request by itself (auto_error=False): a spectator sends
# none, and the handlers answer 401/403 with this API's own error body.
BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="SeatToken",
    description="The seat's secret token: `Authorization: Bearer <token>`.",
)
SEAT_HEADER = APIKeyHeader(
    name="X-Seat-Token",
    auto_error=False,
    scheme_name="SeatTokenHeader",
    description="The same token in an `X-Seat-Token` header.",
)


async def bearer(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)],
    x_seat_token: Annotated[str | None, Security(SEAT_HEADER)],
) -> str | None:
    """The seat token: ``Authorization: Bearer <token>`` or ``X-Seat-Token: <token>``."""
    if x_seat_token:
        return x_seat_token
    return credentials.credentials.strip() if credentials else None


def on_app(name: str) -> Callable[[HTTPConnection], Any]:
    """A dependency: the object ``create_app`` made once and keeps as ``app.state.<name>``."""

    def shared(conn: HTTPConnection) -> Any:
        return getattr(conn.app.state, name)

    shared.__name__ = f"{name}_of"
    return shared


Token = Annotated[str | None, Security(bearer)]
"""The seat token of the request, if any (None: a spectator)."""
Tables = Annotated[Manager, Depends(on_app("manager"))]
"""The table manager."""
Limits = Annotated[Settings, Depends(on_app("settings"))]
"""The server's settings: every limit and policy."""
RatesDep = Annotated[Rates, Depends(on_app("rates"))]
"""The per-client rate limits (shared with the rate-limit middleware)."""
SocketsDep = Annotated[SocketCaps, Depends(on_app("sockets"))]
"""The caps on open WebSockets, per table and per client."""
ChatDep = Annotated[Chat, Depends(on_app("chat"))]
RematchesDep = Annotated[Rematches, Depends(on_app("rematches"))]


def view_response(body: bytes) -> Response:
    """A seat's view as the server encoded it: its cached JSON sent as it is (the views are
    built by the server itself, so they skip re-validation against ``SeatView``)."""
    return Response(body, media_type="application/json")
