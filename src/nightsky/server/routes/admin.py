"""Moderation by club admins (made with ``nightsky admin create NAME``): hide a chat line,
suspend or reinstate an account, read the moderation log. Every act is written to
``moderation_log``; every change needs the session's CSRF token (``deps.Admin``). Closing a
tournament is the tournaments' own route, with the same ``Admin`` dependency and log."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from nightsky.server.chat import broadcast
from nightsky.server.rooms import ServerError
from nightsky.server.routes.deps import ERRORS, AccountsDep, Admin, Member, Tables

router = APIRouter(tags=["admin"])


class Suspension(BaseModel):
    suspended: bool = True


@router.post("/api/admin/chat/{line_id}/hide", responses=ERRORS)
def hide_chat_line(
    line_id: int, admin: Admin, accounts: AccountsDep, manager: Tables
) -> dict[str, Any]:
    """Hide a chat line from everyone (it stays stored; the log says who hid it). The
    table's sockets hear `{"type": "chat_hidden", "data": {"id"}}`."""
    gid = accounts.hide_chat_line(admin, line_id)
    with contextlib.suppress(ServerError):  # a table gone: readers skip the line anyway
        broadcast(manager.get(gid), "chat_hidden", {"id": line_id})
    return {"id": line_id, "hidden": True}


@router.post("/api/admin/accounts/{name}/suspend", responses=ERRORS)
def suspend_account(
    name: str, req: Suspension, admin: Admin, accounts: AccountsDep
) -> dict[str, Any]:
    """Suspend an account (`suspended: false` reinstates it): its sessions end at once
    and signing in answers 403 `suspended`."""
    member = accounts.suspend(admin, name[:64], req.suspended)
    return {"name": member.name, "suspended": member.suspended}


@router.get("/api/admin/log", responses=ERRORS)
def moderation_log(member: Member, accounts: AccountsDep) -> dict[str, Any]:
    """The newest 100 moderation acts (admins only)."""
    if not member.is_admin:
        raise ServerError(403, "not_admin", "this needs a club admin")
    return {"entries": accounts.moderation_log()}
