"""Your games: for the (game id, seat token) pairs a browser holds, where it is your move.

A browser proves each seat with its token, sent in a POST body (never in a URL); a signed-in
account's seats need none (``GET /api/account/games``). Each answer says only what the seat's
own view says too (the seat, whose move it is, the status, the version, when the table last
changed); a game id that does not exist and a
token of no seat of it both answer the same ``{"id", "known": false}``, so the endpoint tells
nobody which games exist.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from nightsky.core.game import State
from nightsky.core.registry import game_class
from nightsky.server.rooms import Manager, Seat, ServerError, _plausible_id, hash_token
from nightsky.server.store import GameRow

Row = tuple[str, list[dict[str, Any]], str, datetime, int]
"""A stored game as this needs it: game, seats, status, last change, version."""

MINE_MAX = 100
"""Pairs one request may ask about."""


class MinePair(BaseModel):
    id: str = Field(max_length=32)
    token: str = Field(max_length=200)


class MineRequest(BaseModel):
    """The browser's seats: each game id with the token of its seat there."""

    games: list[MinePair] = Field(max_length=MINE_MAX)


class MineGame(BaseModel):
    """One of your tables (``known: false``: no such game, or not your token)."""

    id: str
    known: bool
    game: str | None = None
    title: str | None = None
    seat: int | None = None
    name: str | None = Field(None, description="Your seat's name.")
    to_move: list[int] = Field(default_factory=list, description="The seats to act now.")
    to_move_names: list[str] = Field(default_factory=list)
    your_move: bool = False
    status: str | None = Field(None, description="`playing` or `over`.")
    version: int | None = None
    updated_at: str | None = Field(None, description="The table's last change (ISO 8601).")


class MineAnswer(BaseModel):
    games: list[MineGame]


def turn_of(state: State, seat: int) -> dict[str, Any]:
    """Whose move it is and whether it is ``seat``'s: only what ``state.view(seat)``'s
    payload shows too (``current_players``, the legal actions' existence), so it is the same
    on every state ``seat`` cannot tell from the true one."""
    if state.is_terminal():
        return {"to_move": [], "your_move": False, "status": "over"}
    now = [p for p in state.current_players() if p >= 0]
    mine = seat in now and bool(state.legal_actions(seat))
    return {"to_move": now, "your_move": mine, "status": "playing"}


def your_games(
    manager: Manager, pairs: list[tuple[str, str]], *, seats: list[tuple[str, int]] | None = None
) -> list[dict[str, Any]]:
    """The answer for each (game id, token) pair, in the order asked; or, with ``seats``,
    for each (game id, seat) an account plays (no token: the account proves the seat)."""
    asked: list[tuple[str, str | None, int | None]] = (
        [(gid, None, seat) for gid, seat in seats]
        if seats is not None
        else [(gid, token, None) for gid, token in pairs]
    )
    ids = sorted({gid for gid, _, _ in asked if _plausible_id(gid)})
    rows: dict[str, Row] = {}
    if ids:
        with Session(manager.store.engine) as s:
            q = select(
                GameRow.id, GameRow.game, GameRow.seats, GameRow.status, GameRow.updated_at,
                GameRow.version,
            ).where(GameRow.id.in_(ids))
            for gid, game, seats_json, status, updated, version in s.execute(q).all():
                rows[gid] = (game, list(seats_json), status, updated, version)
    out = []
    for gid, token, seat in asked:
        entry = _entry(manager, gid, rows.get(gid), token=token, seat=seat)
        out.append(entry or {"id": gid, "known": False})
    return out


def _entry(
    manager: Manager,
    gid: str,
    row: Row | None,
    *,
    token: str | None,
    seat: int | None,
) -> dict[str, Any] | None:
    if row is None or not (token or seat is not None):
        return None
    game, seats_json, status, updated, version = row
    seats = [Seat.from_row(r) for r in seats_json]
    if token:
        h = hash_token(token)
        seat = next((i for i, s in enumerate(seats) if s.owns(h)), None)
    if seat is None or not 0 <= seat < len(seats):
        return None
    names = [s.name for s in seats]
    if status == "over":
        turn: dict[str, Any] = {"to_move": [], "your_move": False, "status": "over"}
    else:
        try:
            room = manager.get(gid)
        except ServerError:
            return None
        with room.lock:
            if token and room.seat_of_token(token) != seat:  # it changed hands meanwhile
                return None
            turn = turn_of(room.state, seat)
            if seat in room.clock.resigned():  # its bot plays the seat now
                turn["your_move"] = False
            names = [x["name"] for x in room.public_seats()]
            version = room.version
    return {
        "id": gid,
        "known": True,
        "game": game,
        "title": game_class(game).info.title,
        "seat": seat,
        "name": names[seat],
        "to_move": turn["to_move"],
        "to_move_names": [names[p] if p < len(names) else f"Seat {p + 1}" for p in turn["to_move"]],
        "your_move": turn["your_move"],
        "status": turn["status"],
        "version": version,
        "updated_at": _iso(updated),
    }


def _iso(at: datetime | None) -> str | None:
    if at is None:
        return None
    if at.tzinfo is None:  # SQLite keeps no zone: it was written in UTC
        at = at.replace(tzinfo=UTC)
    return at.isoformat()
