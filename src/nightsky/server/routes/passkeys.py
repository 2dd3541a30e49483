"""Passkeys over HTTP: a signed-in member registers one (two steps: options, then the
authenticator's answer); anyone signs in with one (options, then the signed answer). The
challenge of each ceremony stays on the server (``accounts.passkeys``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from nightsky.server.accounts.passkeys import Passkeys, RelyingParty
from nightsky.server.routes.accounts import Me, same_site, start_session
from nightsky.server.routes.deps import ERRORS, AccountsDep, Limits, MemberChange

router = APIRouter(tags=["accounts"])


class Ceremony(BaseModel):
    """The answer of the browser's authenticator to the ceremony ``challenge_id``."""

    challenge_id: str = Field(max_length=64)
    credential: dict[str, Any] = Field(
        description="The PublicKeyCredential as JSON (`credential.toJSON()`)."
    )


class Options(BaseModel):
    challenge_id: str
    options: str = Field(description="The WebAuthn options as JSON (base64url binaries).")


def relying_party(request: Request) -> RelyingParty:
    return RelyingParty.of(str(request.base_url))


@router.post("/api/account/passkeys/options", response_model=Options, responses=ERRORS)
def passkey_registration_options(
    request: Request, accounts: AccountsDep, member: MemberChange
) -> dict[str, Any]:
    """Start adding a passkey to your account: options for `navigator.credentials.create`."""
    return Passkeys(accounts).registration_options(member, relying_party(request))


@router.post("/api/account/passkeys", status_code=201, responses=ERRORS)
def register_passkey(
    req: Ceremony, request: Request, accounts: AccountsDep, member: MemberChange
) -> dict[str, Any]:
    """Finish adding a passkey: the authenticator's answer (400 when it does not verify)."""
    keys = Passkeys(accounts)
    keys.register(member, relying_party(request), req.challenge_id, req.credential)
    return {"passkeys": keys.count(member.id)}


@router.post("/api/account/passkey/options", response_model=Options, responses=ERRORS)
def passkey_sign_in_options(
    request: Request, accounts: AccountsDep, settings: Limits
) -> dict[str, Any]:
    """Start signing in with a passkey: options for `navigator.credentials.get`."""
    same_site(request, settings)
    return Passkeys(accounts).authentication_options(relying_party(request))


@router.post("/api/account/passkey/signin", response_model=Me, responses=ERRORS)
def passkey_sign_in(
    req: Ceremony, request: Request, response: Response, accounts: AccountsDep,
    settings: Limits,
) -> dict[str, Any]:
    """Sign in with a passkey: its signed answer (401 `bad_credentials` when it does not
    verify); a new session, as with a password."""
    same_site(request, settings)
    account = Passkeys(accounts).authenticate(
        relying_party(request), req.challenge_id, req.credential
    )
    return start_session(request, response, accounts, account, settings)
