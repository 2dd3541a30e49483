"""Per-table chat: seated players post short plain-text lines, everyone at the table reads them.

A line is posted with the seat's token (spectators read only: 403 ``spectators_read_only``),
cleaned (control and format characters dropped, whitespace runs folded, at most ``CHAT_MAX``
characters, never empty), limited per seat by the ``limits`` library (setting ``rate_chat``:
429 ``rate_limited`` with ``Retry-After``), stored in its own table ``chat`` (so it survives a
restart and needs no change to the games' tables) and pushed to every socket of the table as
``{"type": "chat", "data": line}``. A line carries only what anyone at the table may know: the
seat's number, name and colour, the text, the time. The client renders it as text, never HTML.
"""

from __future__ import annotations

import math
import threading
import time
import unicodedata
from datetime import UTC, datetime
from typing import Any

import orjson
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, Field
from sqlalchemy import DateTime, Integer, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from nightsky.server.accounts.tables import HiddenChatRow
from nightsky.server.rooms import Room, ServerError
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
    """The chat of every table: stored in the ``chat`` table, rate-limited per seat."""

    def __init__(self, store: Store, rate: str) -> None:
        self.store = store
        ChatRow.__table__.create(store.engine, checkfirst=True)  # type: ignore[attr-defined]
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.rates = parse_many(rate)
        self._lock = threading.Lock()

    def check_rate(self, gid: str, seat: int) -> None:
        """Count one line of ``seat`` at ``gid``; 429 when it is one too many."""
        for item in self.rates:
            if not self.limiter.hit(item, "chat", gid, str(seat)):
                reset = self.limiter.get_window_stats(item, "chat", gid, str(seat)).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                raise ServerError(
                    429,
                    "rate_limited",
                    f"you are chatting too fast; try again in {wait} s",
                    retry_after=wait,
                )

    def post(self, gid: str, seat: int, name: str, color: str, raw: str) -> dict[str, Any]:
        """Clean, rate-limit and store one line of ``seat``; returns it as it is shown."""
        text = clean_text(raw)
        self.check_rate(gid, seat)
        row = ChatRow(game_id=gid, seat=seat, name=name, color=color, text=text, at=now())
        with self._lock, Session(self.store.engine) as s, s.begin():
            s.add(row)
            s.flush()
            return _line(row)

    def lines(self, gid: str, limit: int = CHAT_KEEP) -> list[dict[str, Any]]:
        """The newest ``limit`` lines of ``gid``, oldest first."""
        with Session(self.store.engine) as s:
            q = (
                select(ChatRow)
                .where(ChatRow.game_id == gid)
                .where(ChatRow.id.not_in(select(HiddenChatRow.line_id)))  # hidden by an admin
                .order_by(ChatRow.id.desc())
                .limit(limit)
            )
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
