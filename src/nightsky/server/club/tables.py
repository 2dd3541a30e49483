"""The club's own tables (SQLAlchemy models on the store's ``Base``; created by the Alembic
revision ``0003_club``, ``server/migrations``).

- ``ratings``: one row per account, game and player-count family (openskill mu, sigma);
- ``rating_events``: one row per rated game that ended (its primary key, the game id, is what
  makes a game count exactly once, whatever process commits its end), with every seat's
  rating before and after;
- ``friends``: a friendship request (``state`` "requested") or a friendship, one row per
  direction once accepted;
- ``seat_invites``: a friend invited by name to a seat of a table;
- ``tournaments``, ``entrants``, ``tournament_tables``: a tournament, its players and the
  tables of its rounds (with each table's result once it ended).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from nightsky.server.store import Base

TZ = DateTime(timezone=True)


def _account() -> ForeignKey:
    return ForeignKey("accounts.id", ondelete="CASCADE")


class RatingRow(Base):
    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(Integer, _account(), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(8), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    # mu - 3 sigma, kept for the leaderboard's ORDER BY
    ordinal: Mapped[float] = mapped_column(Float, index=True)
    updated_at: Mapped[datetime] = mapped_column(TZ)


class RatingEventRow(Base):
    __tablename__ = "rating_events"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(64))
    family: Mapped[str] = mapped_column(String(8))
    at: Mapped[datetime] = mapped_column(TZ, index=True)
    # [{"seat", "account_id", "place", "before", "after", "mu", "sigma"}, ...]; empty with
    # ``unrated`` saying why a rated table did not count (a seat without an account...).
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    unrated: Mapped[str | None] = mapped_column(String(200), nullable=True)


class FriendRow(Base):
    __tablename__ = "friends"

    account_id: Mapped[int] = mapped_column(Integer, _account(), primary_key=True)
    friend_id: Mapped[int] = mapped_column(Integer, _account(), primary_key=True)
    # "requested" (account asked friend) or "friends" (both rows exist then)
    state: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(TZ)

    __table_args__ = (Index("ix_friends_friend", "friend_id", "state"),)


class SeatInviteRow(Base):
    __tablename__ = "seat_invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    from_id: Mapped[int] = mapped_column(Integer, _account(), index=True)
    to_id: Mapped[int] = mapped_column(Integer, _account(), index=True)
    # "open", "accepted", "declined", "gone" (the seat was taken another way)
    state: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(TZ, index=True)


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80))
    organiser_id: Mapped[int] = mapped_column(Integer, _account())
    kind: Mapped[str] = mapped_column(String(16))  # "swiss" or "round-robin"
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)  # per table
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(default=False)
    rounds: Mapped[int] = mapped_column(Integer)
    # "open" (taking entrants), "playing", "finished", "closed" (by an admin)
    state: Mapped[str] = mapped_column(String(16), index=True)
    round: Mapped[int] = mapped_column(Integer, default=0)  # the round being played
    created_at: Mapped[datetime] = mapped_column(TZ)
    updated_at: Mapped[datetime] = mapped_column(TZ)


class EntrantRow(Base):
    __tablename__ = "entrants"

    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(Integer, _account(), primary_key=True)
    entry: Mapped[int] = mapped_column(Integer)  # entry order, the last tie-break
    at: Mapped[datetime] = mapped_column(TZ)


class TournamentTableRow(Base):
    __tablename__ = "tournament_tables"

    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0.. per round; byes too
    # the account ids in seat order (one for a bye)
    players: Mapped[list[int]] = mapped_column(JSON)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # each seat's place once the table ended (a bye: [1] at once)
    places: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)

    __table_args__ = (UniqueConstraint("game_id", name="uq_tournament_tables_game"),)
