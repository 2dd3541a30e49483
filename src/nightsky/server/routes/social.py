"""Social: your games (the page and its API), the table's chat and its rematch. The seat token
comes the same ways as everywhere (``Authorization: Bearer`` or ``X-Seat-Token``); your games
take the browser's tokens in the body, never in a URL."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from nightsky.server.chat import ChatLine, ChatLog, ChatPost, broadcast
from nightsky.server.guards import client_of
from nightsky.server.mine import MineAnswer, MineRequest, your_games
from nightsky.server.rematch import RematchStatus
from nightsky.server.rooms import ServerError
from nightsky.server.routes.deps import ERRORS, ChatDep, Limits, RematchesDep, Tables, Token
from nightsky.server.routes.pages import WEB_DIR

router = APIRouter()


@router.get("/me", include_in_schema=False)
def mine_page() -> FileResponse:
    return FileResponse(WEB_DIR / "me.html")


@router.post("/api/mine", response_model=MineAnswer, tags=["games"], responses=ERRORS)
def get_your_games(req: MineRequest, manager: Tables) -> dict[str, Any]:
    """For each (game id, seat token) this browser holds: your seat, whose move it is,
    whether it is yours, the status and the last change. A game that does not exist and
    a token of no seat of it answer the same `known: false`."""
    return {"games": your_games(manager, [(p.id, p.token) for p in req.games])}


@router.get("/api/games/{gid}/chat", response_model=ChatLog, tags=["chat"], responses=ERRORS)
def get_chat(gid: str, manager: Tables, chat: ChatDep) -> dict[str, Any]:
    """The table's chat, oldest line first (the newest 200): anyone at the table reads it."""
    manager.get(gid)
    return {"lines": chat.lines(gid)}


@router.post("/api/games/{gid}/chat", response_model=ChatLine, tags=["chat"], responses=ERRORS)
def post_chat(
    gid: str,
    req: ChatPost,
    request: Request,
    token: Token,
    manager: Tables,
    chat: ChatDep,
    settings: Limits,
) -> dict[str, Any]:
    """Post a line as your seat (spectators read only: 403 `spectators_read_only`).
    Plain text, at most 300 characters once control characters are dropped; a few lines
    per seat every few seconds (setting `rate_chat`) and per address over every table
    (`rate_chat_client`, `rate_chat_chars`): 429 with `Retry-After`."""
    room = manager.get(gid)
    if not token:
        raise ServerError(
            403, "spectators_read_only", "spectators read the chat; only seated players post"
        )
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    who = room.public_seats()[seat]
    line = chat.post(
        room.id, seat, who["name"], who["color"], req.text, client_of(request.scope, settings)
    )
    broadcast(room, "chat", line)
    return line


@router.get(
    "/api/games/{gid}/rematch", response_model=RematchStatus, tags=["games"], responses=ERRORS
)
def get_rematch(
    gid: str, token: Token, manager: Tables, rematches: RematchesDep
) -> dict[str, Any]:
    """The table's rematch: its state, who accepted, the new table once made, and the
    table this one is a rematch of. With your token: your own token at the new table."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=False)
    return rematches.status(room, seat, token)


@router.post(
    "/api/games/{gid}/rematch", response_model=RematchStatus, tags=["games"], responses=ERRORS
)
def offer_rematch(
    gid: str,
    request: Request,
    token: Token,
    manager: Tables,
    rematches: RematchesDep,
    settings: Limits,
) -> dict[str, Any]:
    """Offer a rematch of a finished game, or accept the open offer. When every human
    seat accepted (bots always do), the new table is made and each accepting seat gets
    its token there (in this answer, or from `GET /rematch` with its old token)."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None and token is not None
    return rematches.offer(
        room, seat, token, client=client_of(request.scope, settings, hashed=True)
    )


@router.post(
    "/api/games/{gid}/rematch/decline",
    response_model=RematchStatus,
    tags=["games"],
    responses=ERRORS,
)
def decline_rematch(
    gid: str, token: Token, manager: Tables, rematches: RematchesDep
) -> dict[str, Any]:
    """Decline the open rematch offer (anyone may offer again later)."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    rematches.decline(room, seat)
    return rematches.status(room, seat, token)
