"""Rematch: once a game is over, its players may play it again at a new table.

Any seated player offers (``POST /api/games/{id}/rematch`` with its token; the offer is its own
acceptance); every other human seat accepts the same way, bots accept at once. When every human
seat has accepted, a new table is created: the same game and options, the same seats (bots with
the same specs, humans in their own seats under their names), the same listing, and a new secret
server seed. Declining (``/rematch/decline``) or leaving the seat cancels the offer.

Each accepting human gets a token of the new table, and only they can: the token is
``sha256("nightsky-rematch:" + nonce + ":" + seat + ":" + old token)`` (the nonce drawn when the
offer is made), so the server stores only its hash (taken when the seat accepts) and hands it
out again to whoever presents that seat's old token. Anyone at the table, spectators included,
sees the state of the offer and, once made, the new table's id; the new table links back.

Offers live in their own table ``rematches`` (one row per finished game), so they survive a
restart without a change to the games' tables.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import threading
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import JSON, DateTime, Integer, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from nightsky.server.chat import broadcast
from nightsky.server.rooms import Manager, NewGame, Room, ServerError, hash_token
from nightsky.server.store import Base, now


class RematchRow(Base):
    """The rematch offer of one finished game (the latest one)."""

    __tablename__ = "rematches"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    nonce: Mapped[str] = mapped_column(String(64))
    by: Mapped[int] = mapped_column(Integer)
    # "open", "done", "declined", "cancelled"
    state: Mapped[str] = mapped_column(String(16))
    # {seat: hash of the seat's new token} for each human seat that accepted
    accepted: Mapped[dict[str, str]] = mapped_column(JSON)
    declined_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    new_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RematchStatus(BaseModel):
    """A table's rematch as its viewer may know it."""

    state: str = Field(description="`none`, `open`, `done`, `declined` or `cancelled`.")
    by: int | None = Field(None, description="The seat that offered.")
    accepted: list[int] = Field(default_factory=list, description="Seats that accepted (bots too).")
    waiting: list[int] = Field(default_factory=list, description="Human seats still to answer.")
    declined_by: int | None = None
    new_id: str | None = Field(None, description="The new table, once every seat accepted.")
    rematch_of: str | None = Field(None, description="The table this one is a rematch of.")
    seat: int | None = Field(None, description="Your seat (with your token).")
    token: str | None = Field(
        None, description="Your token at the new table: only for a seat that accepted."
    )


def new_token(nonce: str, seat: int, old_token: str) -> str:
    """The new table's token of ``seat``, from its old token (only its holder can make it)."""
    raw = hashlib.sha256(f"nightsky-rematch:{nonce}:{seat}:{old_token}".encode()).digest()
    return base64.urlsafe_b64encode(raw[:18]).decode()


class Rematches:
    """Offers, answers and the new tables they make."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager
        RematchRow.__table__.create(  # type: ignore[attr-defined]
            manager.store.engine, checkfirst=True
        )
        self._lock = threading.Lock()

    def _row(self, s: Session, gid: str) -> RematchRow | None:
        return s.get(RematchRow, gid)

    def status(self, room: Room, seat: int | None, token: str | None) -> dict[str, Any]:
        """The offer of ``room`` as ``seat`` may know it (its new token only with its own)."""
        with Session(self.manager.store.engine) as s:
            row = self._row(s, room.id)
            back = s.execute(
                select(RematchRow.game_id).where(
                    RematchRow.new_id == room.id, RematchRow.state == "done"
                )
            ).scalar_one_or_none()
            out = _public(room, row)
            out["rematch_of"] = back
            out["seat"] = seat
            if row is not None and row.state == "done" and seat is not None and token:
                mine = new_token(row.nonce, seat, token)
                if row.accepted.get(str(seat)) == hash_token(mine):
                    out["token"] = mine
            return out

    def offer(self, room: Room, seat: int, token: str, client: str = "") -> dict[str, Any]:
        """Offer a rematch, or accept the open offer; the last acceptance makes the table.

        Every process agrees through the database: the offer's row is read under a row lock
        (``FOR UPDATE``), and the acceptance that completes it moves it to ``making`` in the
        same transaction, so exactly one caller, in any process, makes the new table."""
        if not room.over:
            raise ServerError(409, "game_not_over", "a rematch is offered once the game is over")
        with self._lock:
            for attempt in range(3):
                try:
                    accepted, make = self._accept(room, seat, token)
                    break
                except IntegrityError:
                    # Two processes made the first offer at once (no row to lock yet): the
                    # other's row is there now, so the next try locks it and accepts.
                    if attempt == 2:
                        raise
            if make:
                self._finish(room, accepted, client)
        self.push(room)
        return self.status(room, seat, token)

    def _accept(self, room: Room, seat: int, token: str) -> tuple[dict[str, str], bool]:
        """Record ``seat``'s acceptance; whether this caller is to make the table."""
        with Session(self.manager.store.engine) as s, s.begin():
            row = s.get(RematchRow, room.id, with_for_update=True)
            if row is not None and row.state == "done":
                raise ServerError(
                    409, "rematch_made", f"the rematch is already at /g/{row.new_id}",
                    new_id=row.new_id,
                )
            stuck = row is not None and row.state == MAKING and _age(row.at) > MAKING_SECONDS
            if row is None or row.state not in ("open", MAKING) or stuck:
                if row is not None:
                    s.delete(row)
                    s.flush()
                row = RematchRow(
                    game_id=room.id, nonce=secrets.token_urlsafe(12), by=seat, state="open",
                    accepted={}, at=now(),
                )
                s.add(row)
            accepted = dict(row.accepted)
            accepted[str(seat)] = hash_token(new_token(row.nonce, seat, token))
            make = row.state == "open" and not _waiting(room, accepted)
            row.accepted, row.at = accepted, now()
            if make:
                row.state = MAKING  # this caller alone makes the table
            return accepted, make

    def _finish(self, room: Room, accepted: dict[str, str], client: str) -> None:
        """Make the new table and mark the offer done; if making fails (the server is full),
        the offer is open again, every answer kept."""
        try:
            new_id = self._make(room, accepted, client)
        except BaseException:
            with Session(self.manager.store.engine) as s, s.begin():
                row = s.get(RematchRow, room.id, with_for_update=True)
                if row is not None and row.state == MAKING:
                    row.state = "open"
            raise
        with Session(self.manager.store.engine) as s, s.begin():
            done = s.get(RematchRow, room.id, with_for_update=True)
            assert done is not None
            done.new_id, done.state, done.at = new_id, "done", now()

    def decline(self, room: Room, seat: int) -> None:
        """Decline the open offer (it is over; anyone may offer again)."""
        self._close(room, seat, "declined", strict=True)

    def cancel(self, room: Room, seat: int) -> None:
        """The seat's player left: an open offer is cancelled."""
        self._close(room, seat, "cancelled", strict=False)

    def _close(self, room: Room, seat: int, state: str, *, strict: bool) -> None:
        with self._lock, Session(self.manager.store.engine) as s, s.begin():
            row = self._row(s, room.id)
            if row is None or row.state != "open":
                if strict:
                    raise ServerError(409, "no_rematch_offer", "no rematch offer is open")
                return
            row.state, row.declined_by, row.at = state, seat, now()
        self.push(room)

    def _make(self, old: Room, accepted: dict[str, str], client: str) -> str:
        """The new table: same game, options, seats, clock and listing; a new server seed."""
        params = dict(old.params)
        players = params.pop("players", None)
        specs = ["human" if s.human else (s.spec or "random") for s in old.seats]
        made = self.manager.create(
            NewGame(
                old.game_id,
                specs,
                players,
                params,
                [s.name for s in old.seats],
                None,
                old.listed,
                # The same clock settings (untimed stays absent: the API's default).
                old.clock.config.public() if old.clock.config.timed else None,
            ),
            client=client,
        )
        room = made.room
        with room.lock:
            for i, row in enumerate(room.seats):
                if row.human:
                    row.token_hash = accepted[str(i)]
                    row.spend_invite()
                    row.joined, row.left = True, False
            room.notice(f"A rematch of table {old.id}.")
            room.persist(seats_changed=True)
            room.changed()
        return room.id

    def push(self, room: Room) -> None:
        """Tell every socket of ``room`` that its rematch changed (they ask again)."""
        with Session(self.manager.store.engine) as s:
            public = _public(room, self._row(s, room.id))
        broadcast(room, "rematch", public)


MAKING = "making"
MAKING_SECONDS = 60.0
"""An offer left ``making`` this long (its process died while making the table) opens again."""


def _age(at: datetime | None) -> float:
    if at is None:
        return float("inf")
    stamp = now()
    if at.tzinfo is None and stamp.tzinfo is not None:
        stamp = stamp.replace(tzinfo=None)
    return (stamp - at).total_seconds()


def _waiting(room: Room, accepted: dict[str, str]) -> list[int]:
    return [i for i, s in enumerate(room.seats) if s.human and str(i) not in accepted]


def _public(room: Room, row: RematchRow | None) -> dict[str, Any]:
    if row is None:
        return {"state": "none", "accepted": [], "waiting": [], "token": None, "new_id": None}
    accepted = dict(row.accepted)
    return {
        "state": "open" if row.state == MAKING else row.state,  # (made in a moment)
        "by": row.by,
        "accepted": [i for i, s in enumerate(room.seats) if not s.human or str(i) in accepted],
        "waiting": _waiting(room, accepted) if row.state == "open" else [],
        "declined_by": row.declined_by,
        "new_id": row.new_id if row.state == "done" else None,
        "token": None,
    }
