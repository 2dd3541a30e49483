"""Invites and claims: spend a one-time invite for its seat, hand a seat over to the browser
that opened its link, and the creator's new invite for a seat never claimed or whose player
left."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from nightsky.server import models as m
from nightsky.server.routes.deps import (
    ERRORS,
    SeatAccount,
    Tables,
    Token,
    bind_seat,
    check_rated_seat,
)

router = APIRouter()


@router.post("/api/games/{gid}/claim", response_model=m.Joined, tags=["games"], responses=ERRORS)
def claim_seat(
    gid: str, req: m.ClaimRequest, manager: Tables, request: Request, account: SeatAccount
) -> dict[str, Any]:
    """Spend a one-time invite code: the seat and its token (410 once spent); signed in,
    the seat is the account's."""
    check_rated_seat(request, manager.get(gid), account)
    with manager.hold(manager.get(gid)) as room:
        seat, token = room.claim(req.invite, req.name)
    bind_seat(request, gid, seat, account)
    return {"seat": seat, "token": token}


@router.post(
    "/api/games/{gid}/handover", response_model=m.Joined, tags=["games"], responses=ERRORS
)
def hand_over_seat(
    gid: str, token: Token, manager: Tables, request: Request, account: SeatAccount
) -> dict[str, Any]:
    """A seat link was opened: a fresh token for this browser; the link's token is retired
    (401 ``bad_token`` from then on) and the table's log says the seat moved."""
    room = manager.get(gid)
    seat = manager.seat_for(room, token, required=True)
    assert seat is not None
    with manager.hold(room) as room:
        fresh = room.hand_over(seat)
    bind_seat(request, gid, seat, account)
    return {"seat": seat, "token": fresh}


@router.post(
    "/api/games/{gid}/invites", response_model=m.Renewed, tags=["games"], responses=ERRORS
)
def renew_invite(
    gid: str, req: m.RenewRequest, token: Token, request: Request, manager: Tables
) -> dict[str, Any]:
    """The creator's new invite for a seat never claimed or whose player left (the old
    code is spent; the table's log says so to everyone)."""
    room = manager.get(gid)
    by = manager.seat_for(room, token, required=True)
    assert by is not None
    with manager.hold(room) as room:
        code = room.renew(by, req.seat)
    base = str(request.base_url).rstrip("/")
    return {"seat": req.seat, "code": code, "invite": f"{base}/g/{gid}#invite={code}"}
