"""Tournaments: open one (an organiser, signed in), enter and withdraw, start it, an admin
closes it; the list, one tournament's rounds and standings (JSON, and the page that polls
it)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from nightsky.server.club.tournaments import TournamentSpec
from nightsky.server.models import ClockRequest
from nightsky.server.routes.club import ClubDep
from nightsky.server.routes.deps import ERRORS, Admin, MemberChange
from nightsky.server.routes.pages import WEB_DIR

router = APIRouter()


class NewTournament(BaseModel):
    """A tournament for one game and player count, with a clock (its stand-in plays for a
    player who does not come) and whether its games are rated."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)
    kind: Literal["swiss", "round-robin"] = "swiss"
    game: str = Field(max_length=64, examples=["shooting-star"])
    players: int = Field(2, ge=2, le=16, description="Players per table.")
    rounds: int = Field(3, ge=1, le=30, description="Swiss rounds (a round robin: all).")
    clock: ClockRequest
    rated: bool = False
    options: dict[str, Any] = Field(default_factory=dict)


@router.get("/tournaments", include_in_schema=False)
def tournaments_page() -> FileResponse:
    return FileResponse(WEB_DIR / "tournament.html")


@router.get("/tournaments/{tid}", include_in_schema=False)
def tournament_page(tid: int) -> FileResponse:
    return FileResponse(WEB_DIR / "tournament.html")


@router.get("/api/tournaments", tags=["tournaments"])
def list_tournaments(club: ClubDep) -> list[dict[str, Any]]:
    """The recent tournaments, open ones first."""
    return club.tournaments.listing()


@router.post("/api/tournaments", status_code=201, tags=["tournaments"], responses=ERRORS)
def create_tournament(req: NewTournament, member: MemberChange, club: ClubDep) -> dict[str, int]:
    """Open a tournament (you organise it); players enter until you start it."""
    spec = TournamentSpec(
        req.name, req.kind, req.game, req.players, req.clock.model_dump(exclude_none=True),
        rounds=req.rounds, rated=req.rated, options=req.options,
    )
    return {"id": club.tournaments.create(member, spec)}


@router.get("/api/tournaments/{tid}", tags=["tournaments"], responses=ERRORS)
def get_tournament(tid: int, club: ClubDep) -> dict[str, Any]:
    """Settings, entrants, each round's tables and results, standings with tie-breaks."""
    return club.tournaments.view(tid)


@router.post("/api/tournaments/{tid}/enter", tags=["tournaments"], responses=ERRORS)
def enter_tournament(tid: int, member: MemberChange, club: ClubDep) -> dict[str, Any]:
    """Enter an open tournament."""
    club.tournaments.enter(member, tid)
    return club.tournaments.view(tid)


@router.post("/api/tournaments/{tid}/withdraw", tags=["tournaments"], responses=ERRORS)
def withdraw_tournament(tid: int, member: MemberChange, club: ClubDep) -> dict[str, Any]:
    """Leave a tournament that has not started."""
    club.tournaments.withdraw(member, tid)
    return club.tournaments.view(tid)


@router.post("/api/tournaments/{tid}/start", tags=["tournaments"], responses=ERRORS)
def start_tournament(tid: int, member: MemberChange, club: ClubDep) -> dict[str, Any]:
    """The organiser starts it: entries close and round 1's tables are made."""
    club.tournaments.begin(member, tid)
    return club.tournaments.view(tid)


@router.post("/api/tournaments/{tid}/close", tags=["tournaments"], responses=ERRORS)
def close_tournament(tid: int, admin: Admin, club: ClubDep) -> dict[str, Any]:
    """A club admin closes it (no further rounds); logged in the moderation log."""
    club.tournaments.close(admin, tid)
    return club.tournaments.view(tid)
