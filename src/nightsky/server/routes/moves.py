"""Moves: take an action, take your last one back, say you are away or back. ``take_action``
is the one implementation of a move, for ``POST .../actions`` and the socket's ``act``."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from nightsky.server import models as m
from nightsky.server.rooms import Manager, Room
from nightsky.server.routes.deps import ERRORS, Tables, Token, view_response

router = APIRouter()


@router.post(
    "/api/games/{gid}/actions", response_model=m.SeatView, tags=["play"], responses=ERRORS
)
def act(gid: str, req: m.ActionRequest, token: Token, manager: Tables) -> Response:
    """Take an action chosen on view `version`. Returns your new view. (A seated
    WebSocket may send the same as an `act` message instead: see the socket.)"""
    # The whole request in its worker thread: wall time, and CPU time of the work itself.
    with manager.timings.measure("post"):
        room, seat = take_action(manager, gid, token, req.action, req.version)
        return view_response(room.encoded(seat))


def take_action(
    manager: Manager, gid: str, token: str | None, action: str, version: int | None
) -> tuple[Room, int]:
    """A move: the seat of ``token`` (401 without one), then ``Manager.act`` (version check,
    rules, clocks, commit, push, bots). ``version`` None (a socket message without one): the
    version the server holds now."""
    room = manager.get(gid, seen=version)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    room = manager.act(room, seat, action, room.version if version is None else version)
    return room, seat


@router.post("/api/games/{gid}/away", response_model=m.SeatView, tags=["play"], responses=ERRORS)
def set_away(gid: str, req: m.AwayRequest, token: Token, manager: Tables) -> Response:
    """Say you are away (a stand-in bot of the table's `on_timeout` spec plays your seat
    from your own view) or back (`away: false`; a legal move of yours also takes it back)."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    with manager.hold(room) as room:
        room.set_away(seat, req.away)
    manager.drive(room, accepted=True)
    return view_response(room.encoded(seat))


@router.post("/api/games/{gid}/undo", response_model=m.SeatView, tags=["play"], responses=ERRORS)
def undo(gid: str, req: m.UndoRequest, token: Token, manager: Tables) -> Response:
    """Take back your last action, when nothing happened since and it revealed nothing."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    with manager.hold(room) as room:
        room.undo(seat, req.version)
    return view_response(room.encoded(seat))
