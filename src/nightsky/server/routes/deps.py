"""What the routes share, as FastAPI dependencies: the seat's token, the table manager, the
settings and limits, the chat and the rematches (each made once by ``create_app`` and kept on
``app.state``), and the error responses every route documents."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Security
from fastapi.responses import Response
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from nightsky.server import models as m
from nightsky.server.accounts import CSRF_HEADER, SESSION_COOKIE, Account, Accounts, SessionInfo
from nightsky.server.chat import Chat
from nightsky.server.guards import Rates, SocketCaps
from nightsky.server.rematch import Rematches
from nightsky.server.rooms import Manager, ServerError
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


AccountsDep = Annotated[Accounts, Depends(on_app("accounts"))]
"""The club's members and sessions (``nightsky.server.accounts.Accounts``)."""


def current_session(conn: HTTPConnection, accounts: AccountsDep) -> SessionInfo | None:
    """The signed-in session of the request's cookie (None: anonymous, or it ended)."""
    return accounts.session(conn.cookies.get(SESSION_COOKIE))


SessionDep = Annotated[SessionInfo | None, Depends(current_session)]


def current_account(info: SessionDep) -> Account | None:
    """The signed-in account (None: anonymous). Reading only: a change needs
    ``require_csrf`` too (``CsrfAccount``)."""
    return info.account if info else None


def require_account(info: SessionDep) -> Account:
    """The signed-in account, or 401 ``sign_in_required``."""
    if info is None:
        raise ServerError(401, "sign_in_required", "sign in first")
    return info.account


def require_csrf(conn: HTTPConnection, info: SessionDep) -> Account | None:
    """A change made with the session cookie must carry the session's CSRF token in
    ``X-CSRF-Token`` (403 ``csrf_failed``): another site's page can make the browser send the
    cookie, not read the token. Anonymous requests (no cookie) pass: the seat tokens they
    carry are not sent by browsers on their own. The account, if signed in."""
    if info is None:
        return None
    sent = conn.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode(), info.csrf.encode()):
        raise ServerError(403, "csrf_failed", f"missing or wrong {CSRF_HEADER} header")
    return info.account


def require_member(account: Annotated[Account | None, Depends(require_csrf)]) -> Account:
    """A signed-in account making a change (CSRF checked), or 401."""
    if account is None:
        raise ServerError(401, "sign_in_required", "sign in first")
    return account


def require_admin(account: Annotated[Account, Depends(require_member)]) -> Account:
    """A club admin making a change (CSRF checked): 403 ``not_admin`` for anyone else."""
    if not account.is_admin:
        raise ServerError(403, "not_admin", "this needs a club admin")
    return account


def seat_account(conn: HTTPConnection, info: SessionDep) -> Account | None:
    """The account a seat taken by this request goes to: the signed-in account when the
    request carries its CSRF token, else None (the seat is anonymous, as before accounts: a
    request without the token still plays, it only binds nothing to the account)."""
    if info is None:
        return None
    sent = conn.headers.get(CSRF_HEADER, "")
    return info.account if hmac.compare_digest(sent.encode(), info.csrf.encode()) else None


def bind_seat(conn: HTTPConnection, game_id: str, seat: int | None,
              account: Account | None) -> None:
    """Bind the seat to ``account`` (nothing for an anonymous seat)."""
    if account is not None and seat is not None:
        conn.app.state.accounts.bind_seat(game_id, seat, account.id)


def check_rated_seat(conn: HTTPConnection, room: Any, account: Account | None) -> None:
    """A seat of a rated table goes only to a signed-in account (401) that holds no other
    seat there (409): ratings are earned between distinct people (``server/club``)."""
    if not getattr(room, "rated", False):
        return
    if account is None:
        raise ServerError(401, "sign_in_required", "rated: sign in to take a seat of a rated "
                          "table", field="rated")
    if conn.app.state.accounts.seat_of(room.id, account.id) is not None:
        raise ServerError(409, "already_seated", "rated: one account plays one seat of a "
                          "rated table", field="rated")


Viewer = Annotated[Account | None, Depends(current_account)]
"""The signed-in account of a read (None: anonymous)."""
Member = Annotated[Account, Depends(require_account)]
"""A signed-in account (a read; 401 otherwise)."""
CsrfAccount = Annotated[Account | None, Depends(require_csrf)]
"""The account of a change, CSRF checked (None: anonymous, which passes)."""
MemberChange = Annotated[Account, Depends(require_member)]
"""A signed-in account making a change, CSRF checked."""
Admin = Annotated[Account, Depends(require_admin)]
"""A club admin making a change, CSRF checked."""
SeatAccount = Annotated[Account | None, Depends(seat_account)]
"""The account a seat taken now goes to (None: anonymous)."""


def view_response(body: bytes) -> Response:
    """A seat's view as the server encoded it: its cached JSON sent as it is (the views are
    built by the server itself, so they skip re-validation against ``SeatView``)."""
    return Response(body, media_type="application/json")
