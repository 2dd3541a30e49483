"""Password hashing: argon2id through argon2-cffi (its RFC 9106 low-memory profile), and a
dummy hash verified when the name is unknown, so an unknown name costs the same time as a
wrong password (no name enumeration by timing)."""

from __future__ import annotations

import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

HASHER = PasswordHasher()
"""argon2id with argon2-cffi's defaults (RFC 9106 low-memory: t=3, m=64 MiB, p=4)."""

MIN_PASSWORD = 8
MAX_PASSWORD = 256

_DUMMY = HASHER.hash(secrets.token_urlsafe(16))


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored`` (None: no password; the dummy is verified
    then, so the answer takes as long as for a real account)."""
    try:
        return HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return HASHER.check_needs_rehash(stored)
