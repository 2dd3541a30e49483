"""The ASGI middleware of the application: the 64 KiB body limit and the ``Server-Timing``
header (the rate limits, security headers and access log live in ``guards`` and ``logs``),
and the order in which ``create_app`` stacks them all."""

from __future__ import annotations

import time

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from nightsky.server.guards import RateLimit, Rates, SecurityHeaders
from nightsky.server.logs import AccessLog
from nightsky.server.settings import Settings

MAX_BODY = 64 * 1024


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, before any handler reads them."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _too_large(send)
                return
        # Read the whole body first (it is small or refused), then hand it on in one piece.
        chunks: list[bytes] = []
        seen = 0
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                break
            chunk = msg.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await _too_large(send)
                return
            chunks.append(chunk)
            if not msg.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send) -> None:
    body = b'{"error":{"code":"body_too_large","message":"request body over 64 KiB"}}'
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class ServerTiming:
    """Add ``Server-Timing: app;dur=<ms>`` to every HTTP response: the server's own work."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()

        async def timed(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                ms = (time.perf_counter() - t0) * 1000
                msg["headers"] = [
                    *msg.get("headers", []),
                    (b"server-timing", f"app;dur={ms:.3f}".encode()),
                ]
            await send(msg)

        await self.app(scope, receive, timed)


def add_middleware(app: FastAPI, settings: Settings, rates: Rates) -> None:
    """Stack the middleware on ``app``. The last added is the outermost: the access log sees
    the final answer; the timing includes the compression; bodies of 16 KiB and more are
    compressed in a thread."""
    app.add_middleware(BodyLimit)
    app.add_middleware(RateLimit, settings=settings, rates=rates)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(
        GZipMiddleware,
        minimum_size=settings.gzip_min_bytes,
        compresslevel=6,
        thread_minimum_size=16 * 1024,
    )
    app.add_middleware(ServerTiming)
    app.add_middleware(AccessLog, settings=settings)
