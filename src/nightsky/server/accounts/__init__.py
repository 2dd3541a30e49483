"""Accounts of the club (optional: anonymous play by invite works without them).

``Accounts`` (one per app, ``app.state.accounts``) signs up and in with a name and password
(argon2id), keeps server-side sessions (``account_sessions``: only the SHA-256 of the cookie's
secret), throttles wrong passwords with back-off, binds seats to accounts, and logs every
moderation act. Passkeys are in ``accounts.passkeys``; the HTTP side in ``routes/accounts.py``.
"""

from nightsky.server.accounts.service import (
    CSRF_HEADER,
    SESSION_COOKIE,
    Account,
    Accounts,
    SessionInfo,
)

__all__ = ["CSRF_HEADER", "SESSION_COOKIE", "Account", "Accounts", "SessionInfo"]
