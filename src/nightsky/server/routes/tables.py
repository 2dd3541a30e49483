"""Tables and seats: create a table, the lobby, a seat's view, join, leave, the record and the
replay of a finished game."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from nightsky.core.record import Record
from nightsky.server import models as m
from nightsky.server.guards import client_of
from nightsky.server.rooms import NewGame, ServerError
from nightsky.server.routes.deps import (
    ERRORS,
    AccountsDep,
    Limits,
    RematchesDep,
    SeatAccount,
    Tables,
    Token,
    Viewer,
    bind_seat,
    check_rated_seat,
    view_response,
)

router = APIRouter()


@router.get("/api/lobby", response_model=list[m.LobbyGame], tags=["games"])
def get_lobby(
    manager: Tables,
    ids: Annotated[str | None, Query(max_length=2000)] = None,
) -> list[dict[str, Any]]:
    """The open tables (those their creators listed), most recently active first;
    `open_seats` lists seats free to join. With `ids` (comma-separated game ids, e.g. the
    games this browser plays): those games, listed or not."""
    wanted = [x for x in ids.split(",") if x] if ids is not None else None
    return manager.lobby(ids=wanted)


@router.post(
    "/api/games",
    response_model=m.CreatedGame,
    status_code=201,
    tags=["games"],
    responses=ERRORS,
)
def create_game(
    req: m.CreateGame, request: Request, manager: Tables, settings: Limits, account: SeatAccount
) -> dict[str, Any]:
    """Create a game. Returns your token (the first human seat) and a one-time invite
    code per other human seat."""
    if req.rated and account is None:
        raise ServerError(401, "sign_in_required", "rated: sign in to open a rated table",
                          field="rated")
    made = manager.create(
        NewGame(
            req.game, req.seats, req.players, req.options, req.names, req.seed, req.listed,
            clock=req.clock.model_dump() if req.clock else None, rated=req.rated,
        ),
        client=client_of(request.scope, settings, hashed=True),
    )
    room = made.room
    base = str(request.base_url).rstrip("/")
    you = room.creator()
    bind_seat(request, room.id, you if made.token else None, account)
    return {
        "id": room.id,
        "version": room.version,
        "you": you,
        "tokens": [
            {"seat": you, "token": t, "invite": f"{base}/g/{room.id}#token={t}"}
            for t in [made.token]
            if t
        ],
        "invites": [
            {"seat": s, "code": c, "invite": f"{base}/g/{room.id}#invite={c}"}
            for s, c in sorted(made.invites.items())
        ],
    }


@router.get("/api/games/{gid}/view", response_model=m.SeatView, tags=["play"], responses=ERRORS)
def get_view(gid: str, token: Token, manager: Tables) -> Response:
    """Your seat's view (with a token) or the spectator's (without one)."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=False)
    return view_response(room.encoded(seat))


@router.post("/api/games/{gid}/join", response_model=m.Joined, tags=["games"], responses=ERRORS)
def join_seat(
    gid: str, req: m.JoinRequest, manager: Tables, request: Request, account: SeatAccount
) -> dict[str, Any]:
    """Take a free human seat; returns its (new) token (signed in: the seat is the
    account's)."""
    check_rated_seat(request, manager.get(gid), account)
    with manager.hold(manager.get(gid)) as room:
        seat, token = room.join(req.seat, req.name)
    bind_seat(request, gid, seat, account)
    return {"seat": seat, "token": token}


@router.post("/api/games/{gid}/leave", response_model=m.SeatView, tags=["games"],
             responses=ERRORS)
def leave_seat(
    gid: str, token: Token, manager: Tables, rematches: RematchesDep, request: Request
) -> Response:
    """Give up your seat: your token stops working and the creator may invite another (a
    finished table: anyone may leave it, the creator too)."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    with manager.hold(room) as room:
        room.leave(seat)
        over = room.state.is_terminal()
    if not over:  # no longer the account's game (a finished one stays in its history)
        request.app.state.accounts.unbind_seat(gid, seat)
    rematches.cancel(room, seat)  # leaving cancels an open rematch offer
    return view_response(room.encoded(None))


@router.post(
    "/api/games/{gid}/resign", response_model=m.SeatView, tags=["play"], responses=ERRORS
)
def resign(gid: str, token: Token, manager: Tables) -> Response:
    """Resign: your seat loses, by the game's ruling (`resign_rule`, a rule id of its
    catalogue). With two or more players left a stand-in bot plays your seat to the end;
    otherwise the game ends now. Your new view."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    with manager.hold(room) as room:
        room.resign(seat)
        body = room.encoded(seat)  # the view right after resigning, before any bot moves
    manager.drive(room, accepted=True)  # the stand-in bot, if the game goes on
    return view_response(body)


@router.get("/api/games/{gid}/record", response_model=Record, tags=["games"], responses=ERRORS)
def get_record(gid: str, manager: Tables) -> JSONResponse:
    """The game's `nightsky-record/1` (once it is over)."""
    rec = manager.get(gid).record()
    return JSONResponse(
        rec,
        headers={
            "content-disposition": f'attachment; filename="nightsky-{rec["game"]}-{gid}.json"'
        },
    )


@router.get(
    "/api/games/{gid}/replay", response_model=m.ReplayView, tags=["games"], responses=ERRORS
)
def get_replay(
    gid: str, token: Token, manager: Tables, viewer: Viewer, accounts: AccountsDep,
    step: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """What your seat saw (with its token, or signed in to the account that played it)
    after `step` entries of a finished game: your view, board and log; otherwise the
    spectator's."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=False)
    if seat is None and viewer is not None:
        seat = accounts.seat_of(gid, viewer.id)
    return room.replay_view(step, seat)
