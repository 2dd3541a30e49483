"""The club's tables (SQLAlchemy models on the store's ``Base``; created by the Alembic
revision ``0002_accounts``, ``server/migrations``).

- ``accounts``: one row per member (name unique ignoring case, through ``name_key``);
- ``account_sessions``: server-side sessions (only the SHA-256 of the cookie's secret is kept);
- ``passkeys``: WebAuthn credentials of an account;
- ``webauthn_challenges``: the challenge of a ceremony in progress (server-side, one use);
- ``sign_in_failures``: wrong passwords per name and per client, for the back-off;
- ``seat_accounts``: which account plays a seat of a game (a game's seats stay JSON on
  ``games``; this row is what "your games" and profiles query);
- ``moderation_log``: every act of a club admin;
- ``hidden_chat``: chat lines an admin hid (the line stays in ``chat``, readers skip it).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from nightsky.server.store import Base


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # As typed at sign-up (shown in /u/{name}); ``name_key`` is its case-folded form, unique.
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    display_name: Mapped[str] = mapped_column(String(64))
    # argon2id hash (argon2-cffi); null: a passkey-only account.
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    suspended: Mapped[bool] = mapped_column(Boolean, default=False)
    # The WebAuthn user handle (random, not the id: it must reveal nothing).
    user_handle: Mapped[bytes] = mapped_column(LargeBinary(64))


class SessionRow(Base):
    __tablename__ = "account_sessions"

    # SHA-256 hex of the cookie's secret: a stolen database opens no session.
    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    # The CSRF token of this session (synchronizer token: sent back in ``X-CSRF-Token``).
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class PasskeyRow(Base):
    __tablename__ = "passkeys"

    credential_id: Mapped[bytes] = mapped_column(LargeBinary(1024), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    public_key: Mapped[bytes] = mapped_column(LargeBinary(2048))
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(Base):
    __tablename__ = "webauthn_challenges"

    # A random id the browser sends back with its answer (the challenge itself stays here).
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary(128))
    # "register" (account_id set) or "authenticate".
    purpose: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
    )
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class FailureRow(Base):
    __tablename__ = "sign_in_failures"

    # "name:<name_key>" or "client:<hashed address>".
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatAccountRow(Base):
    __tablename__ = "seat_accounts"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE")
    )
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Whether the seat won, once the game is over (null: not over, or not read yet; the
    # profile fills it the first time it finds the game finished).
    won: Mapped[bool | None] = mapped_column(Boolean, nullable=True)

    __table_args__ = (Index("ix_seat_accounts_account", "account_id", "game_id"),)


class ModerationRow(Base):
    __tablename__ = "moderation_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    admin_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    # "hide_chat", "suspend", "unsuspend", "close_tournament", "make_admin", ...
    action: Mapped[str] = mapped_column(String(32))
    # What it was done to: "account:<id>", "chat:<game id>:<line>", "tournament:<id>".
    target: Mapped[str] = mapped_column(String(128))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class HiddenChatRow(Base):
    __tablename__ = "hidden_chat"

    line_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    admin_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
