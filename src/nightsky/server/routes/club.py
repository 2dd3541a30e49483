"""The club's ratings and friends: leaderboards (page and JSON), an account's ratings,
friendships by name, inviting a friend to a seat by name and answering an invitation, and
what your friends play."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from nightsky.core.registry import game_ids
from nightsky.server.club.service import Club
from nightsky.server.rooms import ServerError
from nightsky.server.routes.deps import (
    ERRORS,
    AccountsDep,
    Member,
    MemberChange,
    Tables,
    bind_seat,
    on_app,
)
from nightsky.server.routes.pages import WEB_DIR

router = APIRouter()
ClubDep = Annotated[Club, Depends(on_app("club"))]
"""The club's services (``nightsky.server.club.service.Club``)."""

FAMILIES = ("duel", "multi")


class NameRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=32, description="The other player's user name.")


class InviteFriend(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=15)
    name: str = Field(min_length=1, max_length=32, description="Your friend's user name.")


@router.get("/leaderboard/{game}", include_in_schema=False)
def leaderboard_page(game: str) -> FileResponse:
    return FileResponse(WEB_DIR / "leaderboard.html")


@router.get("/friends", include_in_schema=False)
def friends_page() -> FileResponse:
    return FileResponse(WEB_DIR / "friends.html")


@router.get("/api/leaderboards/{game}", tags=["club"], responses=ERRORS)
def get_leaderboard(
    game: str, club: ClubDep,
    family: Annotated[str, Query(pattern="^(duel|multi)$")] = "duel",
) -> dict[str, Any]:
    """A game's rated players (at least `min_games` rated games), best first, with the bot
    levels' fixed reference ratings (duels) to read them by: "about as strong as hard"."""
    if game not in game_ids():
        raise ServerError(404, "no_such_game", f"no game {game!r}", field="game")
    board = club.ratings.leaderboard(game, family)
    return {"game": game, "family": family, "min_games": board.min_games,
            "players": board.rows, "bots": board.bots}


@router.get("/api/users/{name}/ratings", tags=["club"], responses=ERRORS)
def get_ratings(name: str, club: ClubDep, accounts: AccountsDep) -> dict[str, Any]:
    """A player's ratings (per game and family) and their recent rated games."""
    account = accounts.by_name(name)
    if account is None or account.suspended:
        raise ServerError(404, "no_such_player", f"no player is called {name!r}", field="name")
    return {"name": account.name, "ratings": club.ratings.of_account(account.id),
            "recent": club.ratings.events_of(account.id)}


# ---------------------------------------------------------------- friends
@router.get("/api/friends", tags=["club"], responses=ERRORS)
def get_friends(member: Member, club: ClubDep, manager: Tables) -> dict[str, Any]:
    """Your friends, friend requests both ways, the seat invitations you were sent, and
    your friends' unfinished tables (open seats listed for the lobby's)."""
    out: dict[str, Any] = dict(club.friends.listing(member))
    out["invitations"] = club.friends.invitations(member)
    playing = club.friends.friends_games(member)
    who: dict[str, list[str]] = {}
    for gid, name in playing:
        who.setdefault(gid, []).append(name)
    games = manager.lobby(ids=list(who))
    out["games"] = [{**g, "friends": who.get(g["id"], [])} for g in games]
    return out


@router.post("/api/friends", tags=["club"], responses=ERRORS)
def befriend(req: NameRequest, member: MemberChange, club: ClubDep) -> dict[str, str]:
    """Ask a player by name to be friends (if they asked you first, you are friends now)."""
    return {"state": club.friends.request(member, req.name)}


@router.post("/api/friends/{name}/accept", tags=["club"], responses=ERRORS)
def accept_friend(name: str, member: MemberChange, club: ClubDep) -> dict[str, str]:
    """Accept a player's friend request."""
    club.friends.accept(member, name)
    return {"state": "friends"}


@router.post("/api/friends/{name}/remove", tags=["club"], responses=ERRORS)
def remove_friend(name: str, member: MemberChange, club: ClubDep) -> dict[str, str]:
    """End a friendship, withdraw your request or decline theirs."""
    club.friends.remove(member, name)
    return {"state": "none"}


@router.post("/api/games/{gid}/invite-friend", tags=["club"], responses=ERRORS)
def invite_friend(
    gid: str, req: InviteFriend, member: MemberChange, club: ClubDep, accounts: AccountsDep,
    manager: Tables,
) -> dict[str, Any]:
    """The table's creator (signed in) invites a friend by name to a free seat: it shows on
    their games page and friends page; accepting gives them the seat, no link needed."""
    room = manager.get(gid)
    if accounts.seat_of(gid, member.id) != room.creator() or room.creator() is None:
        raise ServerError(403, "not_creator", "only the table's creator invites to its seats")
    if req.seat not in room.open_seats():
        raise ServerError(409, "seat_taken", f"seat {req.seat} is not free", field="seat")
    if room.over:
        raise ServerError(409, "game_over", "the game is over")
    return {"id": club.friends.invite(member, gid, req.seat, req.name)}


@router.post("/api/invitations/{iid}/accept", tags=["club"], responses=ERRORS)
def accept_invitation(
    iid: int, request: Request, member: MemberChange, club: ClubDep, manager: Tables,
    accounts: AccountsDep,
) -> dict[str, Any]:
    """Take the seat a friend invited you to: it is your account's (its token comes back
    for this browser; any other device gets one with `POST /api/games/{id}/seat`)."""
    gid, seat = club.friends.open_invitation(member, iid)
    room = manager.get(gid)
    if room.rated and accounts.seat_of(gid, member.id) is not None:
        raise ServerError(409, "already_seated", "rated: one account plays one seat",
                          field="rated")
    with manager.hold(room) as room:
        token = room.take_invited(seat, member.display_name)
    bind_seat(request, gid, seat, member)
    club.friends.close_invitation(iid, "accepted")
    return {"game_id": gid, "seat": seat, "token": token}


@router.post("/api/invitations/{iid}/decline", tags=["club"], responses=ERRORS)
def decline_invitation(iid: int, member: MemberChange, club: ClubDep) -> dict[str, str]:
    """Decline a seat invitation."""
    club.friends.open_invitation(member, iid)
    club.friends.close_invitation(iid, "declined")
    return {"state": "declined"}
