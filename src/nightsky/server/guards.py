"""What keeps anonymous clients from wearing the server down: rate limits per client (the
``limits`` library, moving windows), WebSocket caps per table and per client, the WebSocket's
Origin check, and the browser security headers (a CSP without inline script)."""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import Counter
from urllib.parse import urlsplit

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from nightsky.server.settings import Settings


def client_of(scope: Scope, settings: Settings, *, hashed: bool = False) -> str:
    """The client a request comes from: its address (the proxy's ``X-Forwarded-For`` only
    when the settings trust it). ``hashed``: as stored with the games it creates."""
    addr = ""
    if settings.trust_proxy:
        for key, value in scope.get("headers", []):
            if key == b"x-forwarded-for":
                addr = value.decode("latin-1").split(",")[0].strip()
    if not addr:
        client = scope.get("client")
        addr = str(client[0]) if client else "unknown"
    return hashlib.sha256(addr.encode()).hexdigest()[:32] if hashed else addr


def origin_allowed(scope: Scope, settings: Settings) -> bool:
    """A browser's WebSocket must come from a page of this server (or an allowed origin).
    Clients that send no Origin (scripts, not browsers) are not a browser's victims."""
    headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    return bool(origin) and urlsplit(origin).netloc.lower() == headers.get("host", "").lower()


class Rates:
    """The per-client request rates (settings ``rate_*``), one moving-window limiter shared by
    the HTTP middleware and the WebSocket's messages (a move over a socket counts as a request)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.every = parse_many(settings.rate_requests)
        self.create = parse_many(settings.rate_create)
        self.claim = parse_many(settings.rate_claim)

    def rules(self, scope: Scope) -> list[tuple[str, list[RateLimitItem]]]:
        path: str = scope.get("path", "")
        if not path.startswith("/api/"):
            return []
        out = [("all", self.every)]
        if scope["type"] == "http" and scope.get("method") == "POST":
            # A rematch's offer or accept may make a table: it counts as a create.
            if path.rstrip("/") == "/api/games" or path.endswith("/rematch"):
                out.append(("create", self.create))
            elif path.endswith(("/claim", "/join")) or path.startswith("/api/account/sign"):
                # signing in and up too: a password guesser meets this before the back-off
                out.append(("claim", self.claim))
        return out

    def over(self, scope: Scope) -> int | None:
        """Seconds to wait when this request is one too many, else None (and it counts)."""
        return self.hit(client_of(scope, self.settings), self.rules(scope))

    def over_message(self, client: str) -> int | None:
        """The same for one WebSocket message that acts (counted like one API request)."""
        return self.hit(client, [("all", self.every)])

    def hit(self, who: str, rules: list[tuple[str, list[RateLimitItem]]]) -> int | None:
        for name, items in rules:
            for item in items:
                if not self.limiter.hit(item, name, who):
                    reset = self.limiter.get_window_stats(item, name, who).reset_time
                    return max(1, math.ceil(reset - time.time()))
        return None


class RateLimit:
    """429 with ``Retry-After`` once a client goes over its rates (settings ``rate_*``)."""

    def __init__(self, app: ASGIApp, settings: Settings, rates: Rates | None = None) -> None:
        self.app = app
        self.rates = rates or Rates(settings)

    def over(self, scope: Scope) -> int | None:
        """Seconds to wait when this request is one too many, else None (and it counts)."""
        return self.rates.over(scope)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        wait = self.over(scope) if scope["type"] in ("http", "websocket") else None
        if wait is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4429, "reason": "rate_limited"})
        else:
            await _limited(send, wait)


async def _limited(send: Send, wait: int) -> None:
    body = json.dumps(
        {
            "error": {
                "code": "rate_limited",
                "message": f"too many requests; try again in {wait} s",
                "retry_after": wait,
            }
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(wait).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
# The API documentation pages run Swagger UI / ReDoc (served from this server by the
# fastapi-offline package: no CDN) with a small inline start-up script, and ReDoc starts a web
# worker from a blob: they get their own policy, still closed to every other origin.
DOC_PATHS = ("/docs", "/redoc")
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)


class SecurityHeaders:
    """Browser hardening on every HTTP response; the CSP allows no inline script."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = str(scope.get("path", "")).startswith(DOC_PATHS)

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                policy = DOCS_CSP if docs else CSP
                extra = [*HEADERS, (b"content-security-policy", policy.encode())]
                msg["headers"] = [*msg.get("headers", []), *extra]
            await send(msg)

        await self.app(scope, receive, with_headers)


class SocketCaps:
    """Open WebSockets per table and per client, under the settings' caps."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.tables: Counter[str] = Counter()
        self.clients: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, table: str, client: str) -> bool:
        with self._lock:
            if (
                self.tables[table] >= self.settings.max_sockets_per_table
                or self.clients[client] >= self.settings.max_sockets_per_client
            ):
                return False
            self.tables[table] += 1
            self.clients[client] += 1
            return True

    def give_back(self, table: str, client: str) -> None:
        with self._lock:
            self.tables[table] -= 1
            self.clients[client] -= 1
            self.tables += Counter()  # drop zero counts
            self.clients += Counter()
