"""A member's profile (``/u/{name}`` and ``GET /api/users/{name}``): display name, member
since, games played and won per game, recent games with their replays, current ratings.

Each viewer sees what they may see: others see only finished games and tables their creator
listed (a private table in progress stays private), the member sees every one of theirs; a
replay is served by the table's own replay route, which shows a viewer their own seat's view
(by token, or by the account that plays the seat) and a spectator's otherwise.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from nightsky.core.registry import game_class
from nightsky.server.accounts import Account, Accounts
from nightsky.server.accounts.tables import SeatAccountRow
from nightsky.server.mine import _iso
from nightsky.server.rooms import Manager, ServerError
from nightsky.server.store import GameRow

RECENT = 20
"""Recent games a profile lists."""
FILL_PER_REQUEST = 50
"""Finished games whose result one profile request may read (each is rebuilt once; the
result is kept in ``seat_accounts.won``)."""


def _fill_results(manager: Manager, account_id: int, pending: list[tuple[str, int]]) -> None:
    """Store whether the account's seat won each finished game of ``pending``."""
    for gid, seat in pending[:FILL_PER_REQUEST]:
        try:
            room = manager.get(gid)
        except ServerError:
            continue
        with room.lock:
            if not room.state.is_terminal():
                continue
            won = seat in room.state.winners()
        with Session(manager.store.engine) as s, s.begin():
            s.execute(
                update(SeatAccountRow)
                .where(SeatAccountRow.game_id == gid, SeatAccountRow.seat == seat,
                       SeatAccountRow.account_id == account_id)
                .values(won=won)
            )


def _rows(manager: Manager, account_id: int) -> list[Any]:
    with Session(manager.store.engine) as s:
        q = (
            select(SeatAccountRow.game_id, SeatAccountRow.seat, SeatAccountRow.won,
                   GameRow.game, GameRow.status, GameRow.listed, GameRow.updated_at,
                   GameRow.seats)
            .join(GameRow, GameRow.id == SeatAccountRow.game_id)
            .where(SeatAccountRow.account_id == account_id)
            .order_by(GameRow.updated_at.desc())
        )
        return list(s.execute(q).all())


def _ratings(ratings: Any, account_id: int) -> Any:
    """The ratings the club's rating service reports (``app.state.ratings``), if any."""
    reader = getattr(ratings, "for_account", None)
    return reader(account_id) if callable(reader) else []


def profile(
    accounts: Accounts, manager: Manager, name: str, viewer: Account | None,
    ratings: Any = None,
) -> dict[str, Any]:
    """The profile of ``name`` as ``viewer`` may see it (404 ``no_such_member``)."""
    member = accounts.by_name(name)
    if member is None:
        raise ServerError(404, "no_such_member", "no member of this name")
    rows = _rows(manager, member.id)
    pending = [(r.game_id, r.seat) for r in rows if r.status == "over" and r.won is None]
    if pending:
        _fill_results(manager, member.id, pending)
        rows = _rows(manager, member.id)
    own = viewer is not None and viewer.id == member.id
    per_game: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r.status != "over":
            continue
        g = per_game.setdefault(r.game, {"game": r.game, "title": game_class(r.game).info.title,
                                         "played": 0, "won": 0})
        g["played"] += 1
        g["won"] += int(bool(r.won))
    visible = [r for r in rows if own or r.status == "over" or r.listed]
    names = accounts.players_of([r.game_id for r in visible[:RECENT]])
    return {
        **member.public(),
        "suspended": member.suspended,
        "games": sorted(per_game.values(), key=lambda g: str(g["game"])),
        "recent": [_recent(r, names.get(r.game_id, {})) for r in visible[:RECENT]],
        "ratings": _ratings(ratings, member.id),
    }


def _recent(r: Any, members: dict[int, str]) -> dict[str, Any]:
    seats = list(r.seats)
    return {
        "id": r.game_id,
        "game": r.game,
        "title": game_class(r.game).info.title,
        "seat": r.seat,
        "status": r.status,
        "won": r.won if r.status == "over" else None,
        "updated_at": _iso(r.updated_at),
        "players": [
            {"seat": i, "name": str(x.get("name", "")), "member": members.get(i)}
            for i, x in enumerate(seats)
        ],
        "page": f"/g/{r.game_id}",
        "replay": f"/api/games/{r.game_id}/replay" if r.status == "over" else None,
    }
