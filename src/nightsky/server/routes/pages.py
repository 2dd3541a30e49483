"""Catalog and pages: every game's info and options, the lobby and table pages (static files of
the web client), and the pages about each game (``nightsky.server.pages``: rules, tutorials)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from nightsky.agents.base import agent_names
from nightsky.core.registry import game_class, game_ids
from nightsky.server import models as m
from nightsky.server.learn import router as learn_router
from nightsky.server.pages import router as about_router

WEB_DIR = Path(str(resources.files("nightsky").joinpath("web")))
"""The browser client's files (served under ``/static``)."""

router = APIRouter()


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html")


@router.get("/g/{gid}", include_in_schema=False)
def game_page(gid: str) -> FileResponse:
    return FileResponse(WEB_DIR / "game.html")


@router.get("/api/catalog", response_model=m.Catalog, tags=["games"])
def get_catalog() -> dict[str, Any]:
    """Every game with its player counts and options (the new-game form), and agents."""
    games = []
    for gid in game_ids():
        info = game_class(gid).info
        d = info.describe()
        d["default_players"] = info.default_players or info.min_players
        games.append(d)
    return {"games": games, "agents": agent_names()}


# The pages about each game (rules, tutorials) and their JSON.
router.include_router(about_router)
# Guided tutorials and How to play (``nightsky.server.learn``).
router.include_router(learn_router)
