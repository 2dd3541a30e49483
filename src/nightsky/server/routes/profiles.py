"""Profiles: ``GET /api/users/{name}`` (JSON) and the page ``/u/{name}``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from nightsky.server.profiles import profile
from nightsky.server.routes.deps import ERRORS, AccountsDep, Tables, Viewer
from nightsky.server.routes.pages import WEB_DIR

router = APIRouter(tags=["accounts"])


@router.get("/api/users/{name}", responses=ERRORS)
def get_profile(
    name: str, request: Request, accounts: AccountsDep, manager: Tables, viewer: Viewer
) -> dict[str, Any]:
    """A member's profile: display name, member since, games played and won per game,
    recent games (others see finished and listed ones; the member every one) with their
    replays, current ratings. 404 `no_such_member`."""
    ratings = getattr(request.app.state, "ratings", None)
    return profile(accounts, manager, name[:64], viewer, ratings)


@router.get("/u/{name}", include_in_schema=False)
def profile_page(name: str) -> FileResponse:
    return FileResponse(WEB_DIR / "profile.html")
