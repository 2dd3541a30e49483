"""Per-table chat: seated players post short plain-text lines, everyone at the table reads them.

A line is posted with the seat's token (spectators read only: 403 ``spectators_read_only``),
cleaned (control and format characters dropped, whitespace runs folded, at most ``CHAT_MAX``
characters, never empty), limited per seat by the ``limits`` library (setting ``rate_chat``:
429 ``rate_limited`` with ``Retry-After``) and per client over all its seats and tables (its
address: ``rate_chat_client`` lines and ``rate_chat_chars`` characters), stored in its own table
``chat`` (so it survives a restart and needs no change to the games' tables) and kept as the
retention settings say (``chat_keep_lines`` per table, ``chat_keep_days``: older lines are
pruned), and pushed to every socket of the table as
``{"type": "chat", "data": line}``. A line carries only what anyone at the table may know: the
seat's number, name and colour, the text, the time. The client renders it as text, never HTML.
"""

from __future__ import annotations

import math
import threading
import time
import unicodedata
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, Field
from sqlalchemy import DateTime, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from nightsky.server.accounts.tables import HiddenChatRow
from nightsky.server.rooms import Room, ServerError
from nightsky.server.settings import Settings
from nightsky.server.store import Base, Store, now

CHAT_MAX = 300
"""Characters a chat line may hold once cleaned."""
CHAT_KEEP = 200
"""Lines of a table sent to a reader (the newest)."""


class ChatRow(Base):
    """One chat line of one table."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    color: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(CHAT_MAX * 4))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatPost(BaseModel):
    """A line to post (plain text; it is cleaned and shown as text, never as HTML)."""

    text: str = Field(max_length=4 * CHAT_MAX, description=f"At most {CHAT_MAX} characters.")


class ChatLine(BaseModel):
    """One chat line as everyone at the table sees it."""

    id: int
    seat: int
    name: str = Field(description="The seat's name when the line was posted.")
    color: str = Field(description="The seat's colour (board, players panel, log).")
    text: str
    at: str = Field(description="When it was posted (ISO 8601, UTC).")


class ChatLog(BaseModel):
    lines: list[ChatLine]
    max_chars: int = CHAT_MAX


def clean_text(raw: str) -> str:
    """``raw`` as one plain line: control, format and private-use characters (bidi overrides,
    zero widths, NUL...) dropped, every run of whitespace made one space, the ends trimmed.
    Raises ``ServerError`` (422) when nothing is left or it is longer than ``CHAT_MAX``."""
    kept = []
    for c in raw:
        cat = unicodedata.category(c)
        if c.isspace():
            kept.append(" ")
        elif cat not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            kept.append(c)
    text = " ".join("".join(kept).split())
    if not text:
        raise ServerError(422, "empty_message", "a chat line needs some text", field="text")
    if len(text) > CHAT_MAX:
        raise ServerError(
            422,
            "message_too_long",
            f"a chat line holds at most {CHAT_MAX} characters (this one {len(text)})",
            field="text",
        )
    return text


class Chat:
    """The chat of every table: stored in the ``chat`` table, rate-limited per seat and per
    client (lines and characters), pruned to the retention settings."""

    PRUNE_EVERY = 60.0
    """Seconds between two sweeps of lines past ``chat_keep_days`` (done by a post)."""

    def __init__(self, store: Store, rate: str, *, settings: Settings | None = None) -> None:
        self.store = store
        ChatRow.__table__.create(store.engine, checkfirst=True)  # type: ignore[attr-defined]
        self.settings = settings or Settings(rate_chat=rate)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.rates = parse_many(rate)
        self.client_lines = parse_many(self.settings.rate_chat_client)
        self.client_chars = parse_many(self.settings.rate_chat_chars)
        self.swept = -math.inf  # (monotonic) when old lines were last pruned
        self._lock = threading.Lock()

    def check_rate(self, gid: str, seat: int, client: str = "", size: int = 1) -> None:
        """Count one line of ``size`` characters by ``seat`` at ``gid`` from ``client``; 429
        (nothing counted) when it is one too many for the seat, or for the client's lines or
        characters over every table."""
        rules: list[tuple[RateLimitItem, tuple[str, ...], int, str]] = [
            *((item, ("chat", gid, str(seat)), 1, "you are chatting too fast")
              for item in self.rates),
            *((item, ("chat-client", client), 1, "too many chat lines from your address")
              for item in self.client_lines),
            *((item, ("chat-chars", client), size, "too much chat text from your address")
              for item in self.client_chars),
        ]
        for item, keys, cost, why in rules:
            if not self.limiter.test(item, *keys, cost=cost):
                reset = self.limiter.get_window_stats(item, *keys).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise ServerError(
                    429, "rate_limited", f"{why}; try again in {wait} s", retry_after=wait
                )
        for item, keys, cost, _ in rules:
            self.limiter.hit(item, *keys, cost=cost)

    def post(
        self, gid: str, seat: int, name: str, color: str, raw: str, client: str = ""
    ) -> dict[str, Any]:
        """Clean, rate-limit and store one line of ``seat`` (posted from ``client``: its
        address); returns it as it is shown. The table keeps its newest ``chat_keep_lines``."""
        text = clean_text(raw)
        with self._lock:
            self.check_rate(gid, seat, client, len(text))
        row = ChatRow(game_id=gid, seat=seat, name=name, color=color, text=text, at=now())
        with self._lock, Session(self.store.engine) as s, s.begin():
            s.add(row)
            s.flush()
            line = _line(row)
            self._trim(s, gid)
        if time.monotonic() - self.swept > self.PRUNE_EVERY:
            self.prune()
        return line

    def _trim(self, s: Session, gid: str) -> None:
        """Drop the lines of ``gid`` beyond its newest ``chat_keep_lines``."""
        keep = self.settings.chat_keep_lines
        q = select(ChatRow.id).where(ChatRow.game_id == gid).order_by(ChatRow.id.desc())
        cut = s.scalar(q.offset(keep).limit(1))
        if cut is not None:
            s.execute(delete(ChatRow).where(ChatRow.game_id == gid, ChatRow.id <= cut))

    def oldest_kept(self) -> datetime | None:
        """Lines posted before this are past the retention (None: kept forever)."""
        days = self.settings.chat_keep_days
        return now() - timedelta(days=days) if days > 0 else None

    def prune(self) -> int:
        """Delete every table's lines older than ``chat_keep_days``; how many went."""
        self.swept = time.monotonic()
        oldest = self.oldest_kept()
        if oldest is None:
            return 0
        with self._lock, Session(self.store.engine) as s, s.begin():
            gone = s.execute(delete(ChatRow).where(ChatRow.at < oldest))
            return int(getattr(gone, "rowcount", 0) or 0)

    def lines(self, gid: str, limit: int = CHAT_KEEP) -> list[dict[str, Any]]:
        """The newest ``limit`` lines of ``gid`` still within the retention, oldest first."""
        with Session(self.store.engine) as s:
            q = select(ChatRow).where(ChatRow.game_id == gid)
            q = q.where(ChatRow.id.not_in(select(HiddenChatRow.line_id)))  # hidden by an admin
            oldest = self.oldest_kept()
            if oldest is not None:
                q = q.where(ChatRow.at >= oldest)
            q = q.order_by(ChatRow.id.desc()).limit(limit)
            return [_line(r) for r in reversed(list(s.scalars(q)))]


def _line(row: ChatRow) -> dict[str, Any]:
    at = row.at
    if at is not None and at.tzinfo is None:  # SQLite keeps no zone: it was written in UTC
        at = at.replace(tzinfo=UTC)
    return {
        "id": int(row.id),
        "seat": int(row.seat),
        "name": row.name,
        "color": row.color,
        "text": row.text,
        "at": at.isoformat() if at is not None else "",
    }


def broadcast(room: Room, kind: str, data: Any) -> None:
    """Push ``{"type": kind, "data": data}`` (the same for every viewer: a chat line, the
    rematch's public state) to every socket of ``room``. It reaches the socket's queue as
    ``{"kind", "text"}``, which ``app._ws_push`` sends as it is, beside the views."""
    message = {"kind": kind, "text": orjson.dumps({"type": kind, "data": data}).decode()}
    with room.lock:
        subs = list(room.subscribers)
    for sub in subs:
        try:
            sub.push(message)
        except Exception:  # a closed socket must not stop the others
            continue
