"""Passkeys (WebAuthn, through py_webauthn): a signed-in member registers one, then signs in
with it instead of a password.

Each ceremony's challenge is made and kept here (``webauthn_challenges``: random, used once,
five minutes), never trusted from the browser; the browser gets its id. The relying party is
the host the page was served from (``rp_id``: the host name; ``origin``: scheme, host, port),
so a passkey made for this server answers to no other site.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import delete, select
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from nightsky.server.accounts.service import Account, Accounts, _account, _aware
from nightsky.server.accounts.tables import AccountRow, ChallengeRow, PasskeyRow
from nightsky.server.rooms.errors import ServerError
from nightsky.server.store import now

CHALLENGE_SECONDS = 300
RP_NAME = "nightsky"
MAX_PASSKEYS = 10


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: ``id`` (a host name) and the page ``origin``."""

    id: str
    origin: str

    @classmethod
    def of(cls, base_url: str) -> RelyingParty:
        """The relying party of the server at ``base_url`` (``http://host:port/``)."""
        parts = urlsplit(base_url)
        return cls(id=parts.hostname or "localhost", origin=f"{parts.scheme}://{parts.netloc}")


def _bad(code: str, message: str) -> ServerError:
    return ServerError(400, code, message, field="credential")


class Passkeys:
    """The WebAuthn ceremonies of ``accounts``."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.engine = accounts.store.engine

    def _challenge(self, purpose: str, challenge: bytes, account_id: int | None) -> str:
        cid = secrets.token_urlsafe(24)
        at = now()
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ChallengeRow).where(ChallengeRow.expires_at < at))
            s.add(ChallengeRow(id=cid, challenge=challenge, purpose=purpose,
                               account_id=account_id,
                               expires_at=at + timedelta(seconds=CHALLENGE_SECONDS)))
        return cid

    def _take_challenge(self, cid: str, purpose: str, account_id: int | None) -> bytes:
        """The challenge of ``cid``, used up now (400 ``bad_challenge`` when unknown, spent,
        expired, or another ceremony's)."""
        with Session(self.engine) as s, s.begin():
            row = s.get(ChallengeRow, cid[:64])
            if row is not None:
                s.delete(row)
        if (row is None or row.purpose != purpose or row.account_id != account_id
                or _aware(row.expires_at) < now()):
            raise ServerError(400, "bad_challenge", "this passkey ceremony expired; start again",
                              field="challenge_id")
        return bytes(row.challenge)

    # ------------------------------------------------------------ registration
    def registration_options(self, account: Account, rp: RelyingParty) -> dict[str, Any]:
        """Options for ``navigator.credentials.create`` and the ceremony's id."""
        with Session(self.engine) as s:
            row = s.get(AccountRow, account.id)
            assert row is not None
            handle = bytes(row.user_handle)
            have = list(s.scalars(select(PasskeyRow.credential_id)
                                  .where(PasskeyRow.account_id == account.id)))
        if len(have) >= MAX_PASSKEYS:
            raise ServerError(409, "too_many_passkeys", f"at most {MAX_PASSKEYS} passkeys")
        options = generate_registration_options(
            rp_id=rp.id, rp_name=RP_NAME, user_name=account.name, user_id=handle,
            user_display_name=account.display_name,
            exclude_credentials=[PublicKeyCredentialDescriptor(id=bytes(c)) for c in have],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.PREFERRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
        )
        cid = self._challenge("register", options.challenge, account.id)
        return {"challenge_id": cid, "options": options_to_json(options)}

    def register(self, account: Account, rp: RelyingParty, cid: str,
                 credential: dict[str, Any]) -> None:
        """Verify the authenticator's answer and keep the new passkey."""
        challenge = self._take_challenge(cid, "register", account.id)
        try:
            done = verify_registration_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=rp.id, expected_origin=rp.origin,
            )
        except (InvalidRegistrationResponse, ValueError, KeyError, TypeError) as exc:
            raise _bad("bad_passkey", f"the passkey was not accepted: {exc}") from None
        with Session(self.engine) as s, s.begin():
            if s.get(PasskeyRow, done.credential_id) is not None:
                raise ServerError(409, "passkey_known", "this passkey is registered already")
            s.add(PasskeyRow(credential_id=done.credential_id, account_id=account.id,
                             public_key=done.credential_public_key,
                             sign_count=done.sign_count, created_at=now()))

    # ------------------------------------------------------------ authentication
    def authentication_options(self, rp: RelyingParty) -> dict[str, Any]:
        """Options for ``navigator.credentials.get`` (any passkey of this site: the browser
        offers the ones it holds) and the ceremony's id."""
        options = generate_authentication_options(
            rp_id=rp.id, user_verification=UserVerificationRequirement.PREFERRED
        )
        cid = self._challenge("authenticate", options.challenge, None)
        return {"challenge_id": cid, "options": options_to_json(options)}

    def authenticate(self, rp: RelyingParty, cid: str, credential: dict[str, Any]) -> Account:
        """The account whose passkey signed this ceremony's challenge (401
        ``bad_credentials`` otherwise; 403 ``suspended``)."""
        challenge = self._take_challenge(cid, "authenticate", None)
        try:
            raw_id = base64url_to_bytes(str(credential.get("rawId") or credential.get("id")))
        except (ValueError, TypeError):
            raise _bad("bad_passkey", "the credential has no valid id") from None
        with Session(self.engine) as s:
            key = s.get(PasskeyRow, raw_id)
            row = s.get(AccountRow, key.account_id) if key else None
        if key is None or row is None:
            raise ServerError(401, "bad_credentials", "this passkey belongs to no account here")
        try:
            done = verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp.id,
                expected_origin=rp.origin, credential_public_key=bytes(key.public_key),
                credential_current_sign_count=key.sign_count,
            )
        except (InvalidAuthenticationResponse, ValueError, KeyError, TypeError):
            raise ServerError(401, "bad_credentials", "the passkey's answer did not verify") \
                from None
        with Session(self.engine) as s, s.begin():
            stored = s.get(PasskeyRow, raw_id)
            if stored is not None:
                stored.sign_count = done.new_sign_count
        if row.suspended:
            raise ServerError(403, "suspended", "this account is suspended")
        return _account(row)

    def count(self, account_id: int) -> int:
        with Session(self.engine) as s:
            return len(list(s.scalars(select(PasskeyRow.credential_id)
                                      .where(PasskeyRow.account_id == account_id))))
