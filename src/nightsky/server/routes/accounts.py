"""Accounts over HTTP: sign up, sign in and out (everywhere), change password, who am I, the
account's games, and taking one of the account's seats to this browser.

A session lives in the database; the browser holds its secret in an HttpOnly, SameSite=Lax
cookie (Secure under HTTPS). Every change made with the cookie carries the session's CSRF
token in ``X-CSRF-Token`` (``deps.require_csrf``). Signing in and up also refuse another
site's Origin (login CSRF) and always start a new session (no fixation).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from nightsky.server import models as m
from nightsky.server.accounts import SESSION_COOKIE, Account
from nightsky.server.guards import client_of, origin_allowed
from nightsky.server.mine import your_games
from nightsky.server.rooms import ServerError
from nightsky.server.routes.deps import (
    ERRORS,
    AccountsDep,
    Limits,
    MemberChange,
    SessionDep,
    Tables,
    bind_seat,
)

router = APIRouter(tags=["accounts"])


class SignUp(BaseModel):
    name: str = Field(max_length=32, description="2-32 letters, digits, `_`, `.`, `-`.")
    password: str = Field(max_length=256)
    display_name: m.Name = Field("", description="Shown on your profile (at most 40 "
                                 "characters, no control characters); your name if empty.")


class SignIn(BaseModel):
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


class NewPassword(BaseModel):
    old: str = Field(max_length=256)
    new: str = Field(max_length=256)


class Me(BaseModel):
    """Who the browser is signed in as (``account`` null: nobody) and the CSRF token every
    change must carry in ``X-CSRF-Token``."""

    account: dict[str, Any] | None
    csrf: str | None = None


def me(account: Account | None, csrf: str | None) -> dict[str, Any]:
    if account is None:
        return {"account": None, "csrf": None}
    return {"account": {**account.public(), "is_admin": account.is_admin}, "csrf": csrf}


def same_site(request: Request, settings: Limits) -> None:
    """Sign-in and sign-up only from this server's pages (or an allowed origin): another
    site cannot sign a visitor in to an account of its choosing. A browser says where a
    request comes from in ``Sec-Fetch-Site``; the ``Origin`` is checked too where it is
    real (this server's ``no-referrer`` policy makes a browser send ``Origin: null``)."""
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    cross = site is not None and site not in ("same-origin", "none")
    if cross or (origin not in (None, "null") and not origin_allowed(request.scope, settings)):
        raise ServerError(403, "bad_origin", "this request came from another site")


def start_session(
    request: Request, response: Response, accounts: AccountsDep, account: Account,
    settings: Limits,
) -> dict[str, Any]:
    """A new session for ``account`` in the cookie (any session the browser had ends: a
    fresh id at every sign-in)."""
    old = accounts.session(request.cookies.get(SESSION_COOKIE))
    if old is not None:
        accounts.end_session(old.secret_hash)
    secret, csrf = accounts.new_session(account)
    response.set_cookie(
        SESSION_COOKIE, secret, max_age=int(settings.session_days * 86400), path="/",
        httponly=True, samesite="lax", secure=request.url.scheme == "https",
    )
    return me(account, csrf)


@router.get("/api/account", response_model=Me)
def get_account(info: SessionDep) -> dict[str, Any]:
    """The signed-in account and its CSRF token (both null when signed out)."""
    return me(info.account if info else None, info.csrf if info else None)


@router.post("/api/account/signup", response_model=Me, status_code=201, responses=ERRORS)
def sign_up(
    req: SignUp, request: Request, response: Response, accounts: AccountsDep, settings: Limits
) -> dict[str, Any]:
    """Make an account (409 `name_taken`) and sign in to it."""
    same_site(request, settings)
    account = accounts.sign_up(req.name, req.password, req.display_name)
    return start_session(request, response, accounts, account, settings)


@router.post("/api/account/signin", response_model=Me, responses=ERRORS)
def sign_in(
    req: SignIn, request: Request, response: Response, accounts: AccountsDep, settings: Limits
) -> dict[str, Any]:
    """Sign in with name and password. A wrong password and an unknown name get the same
    401 `bad_credentials`; too many wrong ones, 429 with `Retry-After`."""
    same_site(request, settings)
    client = client_of(request.scope, settings, hashed=True)
    account = accounts.check_password(req.name, req.password, client)
    return start_session(request, response, accounts, account, settings)


@router.post("/api/account/signout", response_model=Me, responses=ERRORS)
def sign_out(
    response: Response, info: SessionDep, accounts: AccountsDep, _member: MemberChange
) -> dict[str, Any]:
    """End this browser's session."""
    if info is not None:
        accounts.end_session(info.secret_hash)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return me(None, None)


@router.post("/api/account/signout-everywhere", response_model=Me, responses=ERRORS)
def sign_out_everywhere(
    response: Response, accounts: AccountsDep, member: MemberChange
) -> dict[str, Any]:
    """End every session of the account, on every device."""
    accounts.end_sessions(member.id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return me(None, None)


@router.post("/api/account/password", response_model=Me, responses=ERRORS)
def change_password(
    req: NewPassword, info: SessionDep, accounts: AccountsDep, member: MemberChange
) -> dict[str, Any]:
    """Change the password (the current one must be given); every other session ends."""
    assert info is not None
    accounts.change_password(info, req.old, req.new)
    return me(member, info.csrf)


@router.get("/api/account/games", responses=ERRORS)
def account_games(info: SessionDep, accounts: AccountsDep, manager: Tables) -> dict[str, Any]:
    """The signed-in account's games, on any device, no token needed: as `POST /api/mine`
    answers them (the seat, whose move, status), the newest first."""
    if info is None:
        raise ServerError(401, "sign_in_required", "sign in first")
    seats = accounts.seats(info.account.id)
    return {"games": your_games(manager, [], seats=seats)}


@router.post("/api/games/{gid}/seat", responses=ERRORS)
def take_my_seat(
    gid: str, request: Request, accounts: AccountsDep, manager: Tables, member: MemberChange
) -> dict[str, Any]:
    """The account's seat at this table, to play it from this browser: a fresh token (the
    token another device held stops working, as when a seat link is opened). 404
    `not_your_game` when the account plays no seat there."""
    seat = accounts.seat_of(gid, member.id)
    if seat is None:
        raise ServerError(404, "not_your_game", "your account plays no seat at this table")
    room = manager.get(gid)
    with manager.hold(room) as room:
        fresh = room.hand_over(seat)
    bind_seat(request, gid, seat, member)
    return {"seat": seat, "token": fresh}
