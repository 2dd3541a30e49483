"""``Accounts``: the club's members, their sessions, sign-in throttling, seats and the
moderation log, on the store's database (see ``accounts/tables.py``)."""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from nightsky.server.accounts import passwords
from nightsky.server.accounts.tables import (
    AccountRow,
    FailureRow,
    HiddenChatRow,
    ModerationRow,
    SeatAccountRow,
    SessionRow,
)
from nightsky.server.rooms.errors import ServerError
from nightsky.server.settings import Settings
from nightsky.server.store import Store, now

SESSION_COOKIE = "nightsky_session"
"""The session cookie: HttpOnly, SameSite=Lax, Secure under HTTPS; its value is the session's
secret (the database keeps only its SHA-256)."""
CSRF_HEADER = "X-CSRF-Token"
"""The header a cookie-authenticated change must carry: the session's CSRF token (given by
``GET /api/account`` and at sign-in; a synchronizer token, never in a cookie)."""

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$")
"""A user name: 2 to 32 letters, digits, ``_``, ``.`` or ``-``, starting with a letter or a
digit (so it is a clean ``/u/{name}`` path)."""

BAD_CREDENTIALS = "no account with this name and password"
FORGET_FAILURES = timedelta(days=1)
"""Wrong passwords older than this (with none since) no longer count toward the lock."""


@dataclass(frozen=True)
class Account:
    """A member as the routes see it (never the password hash)."""

    id: int
    name: str
    display_name: str
    created_at: datetime
    is_admin: bool = False
    suspended: bool = False

    def public(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "display_name": self.display_name,
            "member_since": _aware(self.created_at).isoformat(),
        }


@dataclass(frozen=True)
class SessionInfo:
    """A live session: its account and CSRF token (``secret_hash`` names the row)."""

    account: Account
    csrf: str
    secret_hash: str


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _account(row: AccountRow) -> Account:
    return Account(
        id=row.id,
        name=row.name,
        display_name=row.display_name,
        created_at=_aware(row.created_at),
        is_admin=bool(row.is_admin),
        suspended=bool(row.suspended),
    )


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def name_key(name: str) -> str:
    """The form names are compared in: ``Ada`` and ``ada`` are one name."""
    return name.casefold()


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise ServerError(
            422, "bad_name", "a user name is 2-32 letters, digits, '_', '.' or '-'",
            field="name",
        )
    return name


def check_password(password: str) -> str:
    if not passwords.MIN_PASSWORD <= len(password) <= passwords.MAX_PASSWORD:
        raise ServerError(
            422, "bad_password",
            f"a password has {passwords.MIN_PASSWORD} to {passwords.MAX_PASSWORD} characters",
            field="password",
        )
    return password


class Accounts:
    """The club's members and their sessions, on ``store``'s database."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings

    # ------------------------------------------------------------ members
    def sign_up(self, name: str, password: str | None, display_name: str = "") -> Account:
        """A new account (422 for a bad name or password, 409 ``name_taken``)."""
        check_name(name)
        hashed = passwords.hash_password(check_password(password)) if password else None
        row = AccountRow(
            name=name,
            name_key=name_key(name),
            display_name=(display_name.strip() or name)[:64],
            password_hash=hashed,
            created_at=now(),
            is_admin=False,
            suspended=False,
            user_handle=secrets.token_bytes(32),
        )
        try:
            with Session(self.store.engine) as s, s.begin():
                s.add(row)
                s.flush()
                made = _account(row)
        except IntegrityError:
            raise ServerError(409, "name_taken", "this user name is taken", field="name") from None
        return made

    def by_name(self, name: str) -> Account | None:
        with Session(self.store.engine) as s:
            row = s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()
            return _account(row) if row else None

    def by_id(self, account_id: int) -> Account | None:
        with Session(self.store.engine) as s:
            row = s.get(AccountRow, account_id)
            return _account(row) if row else None

    def set_flags(self, account_id: int, **flags: bool) -> None:
        """Set ``is_admin`` / ``suspended``; suspending ends every session of the account."""
        with Session(self.store.engine) as s, s.begin():
            s.execute(update(AccountRow).where(AccountRow.id == account_id).values(**flags))
            if flags.get("suspended"):
                s.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    # ------------------------------------------------------------ passwords
    def check_password(self, name: str, password: str, client: str) -> Account:
        """The account of ``name`` if ``password`` is its password. Every failure answers the
        same 401 ``bad_credentials`` (unknown name, wrong password, no password), after an
        argon2 verification either way; too many failures for the name or the client: 429
        with ``Retry-After``, until the back-off ends. A suspended account: 403."""
        keys = [f"name:{name_key(name)[:100]}", f"client:{client[:100]}"]
        self._refuse_if_locked(keys)
        with Session(self.store.engine) as s:
            row = s.scalars(select(AccountRow).where(AccountRow.name_key == name_key(name))).first()
            stored = row.password_hash if row else None
        ok = passwords.verify(stored, password)  # the dummy hash when no row: same time
        if row is None or not ok:
            self._failed(keys)
            self._refuse_if_locked(keys)  # this failure was one too many: 429 already
            raise ServerError(401, "bad_credentials", BAD_CREDENTIALS)
        self._clear(keys[:1])
        if row.suspended:
            raise ServerError(403, "suspended", "this account is suspended")
        if stored and passwords.needs_rehash(stored):
            self._set_password(row.id, password)
        return _account(row)

    def change_password(self, info: SessionInfo, old: str, new: str) -> None:
        """Set a new password (the old one must match: 401 otherwise) and end every other
        session of the account."""
        with Session(self.store.engine) as s:
            row = s.get(AccountRow, info.account.id)
            stored = row.password_hash if row else None
        if row is None or (stored is not None and not passwords.verify(stored, old)):
            raise ServerError(401, "bad_credentials", "the current password is wrong")
        self._set_password(info.account.id, check_password(new))
        self.end_sessions(info.account.id, keep=info.secret_hash)

    def _set_password(self, account_id: int, password: str) -> None:
        hashed = passwords.hash_password(password)
        with Session(self.store.engine) as s, s.begin():
            s.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(password_hash=hashed)
            )

    # ------------------------------------------------------------ back-off
    def _refuse_if_locked(self, keys: list[str]) -> None:
        at = now()
        with Session(self.store.engine) as s:
            rows = s.scalars(select(FailureRow).where(FailureRow.key.in_(keys))).all()
        waits = [
            (_aware(r.locked_until) - at).total_seconds()
            for r in rows
            if r.locked_until is not None and _aware(r.locked_until) > at
        ]
        if waits:
            wait = max(1, int(max(waits) + 0.999))
            raise ServerError(
                429, "too_many_attempts", f"too many wrong passwords; try again in {wait} s",
                retry_after=wait,
            )

    def _failed(self, keys: list[str]) -> None:
        """Count one failure for each key; from ``sign_in_tries`` failures on, lock the key
        for ``sign_in_lock_seconds``, doubled for every further failure (at most a day)."""
        at = now()
        tries, base = self.settings.sign_in_tries, self.settings.sign_in_lock_seconds
        with Session(self.store.engine) as s, s.begin():
            for key in keys:
                row = s.get(FailureRow, key)
                if row is None:
                    row = FailureRow(key=key, count=0, updated_at=at)
                    s.add(row)
                elif at - _aware(row.updated_at) > FORGET_FAILURES:
                    row.count = 0  # old failures are forgotten: a quiet day resets the count
                row.count += 1
                row.updated_at = at
                if row.count >= tries:
                    seconds = min(base * 2 ** (row.count - tries), 86400.0)
                    row.locked_until = at + timedelta(seconds=seconds)

    def _clear(self, keys: list[str]) -> None:
        with Session(self.store.engine) as s, s.begin():
            s.execute(delete(FailureRow).where(FailureRow.key.in_(keys)))

    # ------------------------------------------------------------ sessions
    def new_session(self, account: Account) -> tuple[str, str]:
        """A fresh session (a new id at every sign-in: no fixation): (secret, CSRF token)."""
        secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        at = now()
        with Session(self.store.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.expires_at < at))  # tidy up
            s.add(
                SessionRow(
                    id_hash=secret_hash(secret),
                    account_id=account.id,
                    csrf=csrf,
                    created_at=at,
                    last_seen=at,
                    expires_at=at + timedelta(days=self.settings.session_days),
                )
            )
        return secret, csrf

    def session(self, secret: str | None) -> SessionInfo | None:
        """The live session of a cookie's secret (None: none, expired, or suspended)."""
        if not secret or len(secret) > 200:
            return None
        h = secret_hash(secret)
        with Session(self.store.engine) as s:
            found = s.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id_hash == h)
            ).first()
        if found is None:
            return None
        sess, row = found
        if _aware(sess.expires_at) <= now() or row.suspended:
            return None
        return SessionInfo(account=_account(row), csrf=sess.csrf, secret_hash=h)

    def end_session(self, secret_hash_: str) -> None:
        with Session(self.store.engine) as s, s.begin():
            s.execute(delete(SessionRow).where(SessionRow.id_hash == secret_hash_))

    def end_sessions(self, account_id: int, keep: str | None = None) -> int:
        """End every session of the account (but ``keep``); how many ended."""
        with Session(self.store.engine) as s, s.begin():
            q = delete(SessionRow).where(SessionRow.account_id == account_id)
            if keep is not None:
                q = q.where(SessionRow.id_hash != keep)
            return int(getattr(s.execute(q), "rowcount", 0) or 0)

    # ------------------------------------------------------------ seats
    def bind_seat(self, game_id: str, seat: int, account_id: int) -> None:
        """The seat ``seat`` of ``game_id`` is played by the account (replacing whoever
        held it before)."""
        with Session(self.store.engine) as s, s.begin():
            row = s.get(SeatAccountRow, (game_id, seat))
            if row is None:
                s.add(SeatAccountRow(game_id=game_id, seat=seat, account_id=account_id,
                                     since=now()))
            else:
                row.account_id, row.since = account_id, now()

    def unbind_seat(self, game_id: str, seat: int) -> None:
        with Session(self.store.engine) as s, s.begin():
            s.execute(
                delete(SeatAccountRow).where(
                    SeatAccountRow.game_id == game_id, SeatAccountRow.seat == seat
                )
            )

    def seat_of(self, game_id: str, account_id: int) -> int | None:
        """The seat the account plays at ``game_id`` (the lowest, if several)."""
        with Session(self.store.engine) as s:
            q = (
                select(SeatAccountRow.seat)
                .where(SeatAccountRow.game_id == game_id, SeatAccountRow.account_id == account_id)
                .order_by(SeatAccountRow.seat)
            )
            return s.scalars(q).first()

    def seats(self, account_id: int, limit: int = 200) -> list[tuple[str, int]]:
        """(game id, seat) of every seat the account plays, the newest first."""
        with Session(self.store.engine) as s:
            q = (
                select(SeatAccountRow.game_id, SeatAccountRow.seat)
                .where(SeatAccountRow.account_id == account_id)
                .order_by(SeatAccountRow.since.desc())
                .limit(limit)
            )
            return [(str(g), int(seat)) for g, seat in s.execute(q).all()]

    def players(self, game_id: str) -> dict[int, str]:
        """The account name of each seat of ``game_id`` played by an account."""
        with Session(self.store.engine) as s:
            q = (
                select(SeatAccountRow.seat, AccountRow.name)
                .join(AccountRow, AccountRow.id == SeatAccountRow.account_id)
                .where(SeatAccountRow.game_id == game_id)
            )
            return {int(seat): str(name) for seat, name in s.execute(q).all()}

    def players_of(self, game_ids: list[str]) -> dict[str, dict[int, str]]:
        """For each game of ``game_ids``: the account name of each seat an account plays."""
        if not game_ids:
            return {}
        out: dict[str, dict[int, str]] = {}
        with Session(self.store.engine) as s:
            q = (
                select(SeatAccountRow.game_id, SeatAccountRow.seat, AccountRow.name)
                .join(AccountRow, AccountRow.id == SeatAccountRow.account_id)
                .where(SeatAccountRow.game_id.in_(game_ids))
            )
            for gid, seat, name in s.execute(q).all():
                out.setdefault(str(gid), {})[int(seat)] = str(name)
        return out

    # ------------------------------------------------------------ moderation
    def log(self, admin: Account | None, action: str, target: str,
            detail: dict[str, Any] | None = None) -> None:
        """Write one act to ``moderation_log`` (every moderation act calls this)."""
        with Session(self.store.engine) as s, s.begin():
            s.add(ModerationRow(at=now(), admin_id=admin.id if admin else None, action=action,
                                target=target[:128], detail=detail))

    def hide_chat_line(self, admin: Account, line_id: int) -> str:
        """Hide one chat line from every reader (logged); the game id it was posted at.
        404 ``no_such_line``."""
        from nightsky.server.chat import ChatRow

        with Session(self.store.engine) as s, s.begin():
            line = s.get(ChatRow, line_id)
            if line is None:
                raise ServerError(404, "no_such_line", "no chat line with this id")
            if s.get(HiddenChatRow, line_id) is None:
                s.add(HiddenChatRow(line_id=line_id, at=now(), admin_id=admin.id))
            gid, text = line.game_id, line.text
        self.log(admin, "hide_chat", f"chat:{gid}:{line_id}", {"text": text[:300]})
        return gid

    def suspend(self, admin: Account, name: str, suspended: bool = True) -> Account:
        """Suspend (or reinstate) the account of ``name`` (logged): its sessions end and
        signing in is refused. 404 ``no_such_member``; an admin cannot suspend themself."""
        member = self.by_name(name)
        if member is None:
            raise ServerError(404, "no_such_member", "no member of this name")
        if member.id == admin.id:
            raise ServerError(409, "not_yourself", "an admin cannot suspend themself")
        self.set_flags(member.id, suspended=suspended)
        self.log(admin, "suspend" if suspended else "unsuspend", f"account:{member.id}",
                 {"name": member.name})
        return self.by_id(member.id) or member

    def moderation_log(self, limit: int = 100) -> list[dict[str, Any]]:
        with Session(self.store.engine) as s:
            q = select(ModerationRow).order_by(ModerationRow.id.desc()).limit(limit)
            return [
                {"id": r.id, "at": _aware(r.at).isoformat(), "admin_id": r.admin_id,
                 "action": r.action, "target": r.target, "detail": r.detail}
                for r in s.scalars(q)
            ]
