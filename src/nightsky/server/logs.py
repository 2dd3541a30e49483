"""Logging of the server: the access log (``nightsky.access``), redaction of secrets in every
log line, and the logging configuration ``nightsky serve`` hands to uvicorn.

Seat tokens and invite codes travel in headers, on the WebSocket and in URL fragments, none of
which a log line shows; but a client may still put one in a query (``?token=``, refused by the
WebSocket) or a path. So the access log writes no header at all, replaces every query value
but the harmless ones (``step``) and every path segment that looks like a secret (16 or more
URL-safe characters: tokens have 24, invite codes 16, game ids 12 hex digits), and a filter on
every handler does the same to the lines uvicorn writes itself (its WebSocket lines show the
path with its query).
"""

from __future__ import annotations

import copy
import logging
import re
import time
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from nightsky.server.guards import client_of
from nightsky.server.settings import Settings

access_log = logging.getLogger("nightsky.access")

REDACTED = "[redacted]"
KEEP_QUERY = frozenset({"step"})
"""Query parameters whose values the logs keep (none of them can hold a secret)."""
PROBES = ("/healthz", "/readyz")
"""Paths of the health probes: logged at DEBUG only (a probe every few seconds is noise)."""

_SECRET_SEGMENT = re.compile(r"[A-Za-z0-9_-]{16,}")
_PARAM = re.compile(r"([?&;#])([^=&;#\s\"']+)=([^&;#\s\"']*)")
_BEARER = re.compile(r"(?i)\b(bearer\s+)[^\s\"',;]+")
_PATH_SEGMENT = re.compile(r"(?<=/)[A-Za-z0-9_-]{16,}(?=[/?#;\s\"']|$)")
# A quoted or bracketed value (SQL parameters and ``Key (...)=(...)`` details in a database
# error, a repr in a traceback) that looks like a token or a hash: 16 or more URL-safe
# characters, not only lowercase letters and underscores (so names of code stay readable).
_QUOTED_SECRET = re.compile(r"(?<=['\"(=])(?![a-z_]+['\")])[A-Za-z0-9_-]{16,}(?=['\"),])")


def redact_target(path: str, query: str = "") -> str:
    """A request target for a log: secret-like path segments and every query value but
    ``KEEP_QUERY``'s replaced by ``[redacted]``."""
    parts = [REDACTED if _SECRET_SEGMENT.fullmatch(seg) else seg for seg in path.split("/")]
    target = quote("/".join(parts), safe="/[]-._~:@!$&'()*+,;=")
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v if k in KEEP_QUERY else REDACTED) for k, v in pairs]
        target += "?" + urlencode(kept, safe="[]")
    return target


def redact(text: str) -> str:
    """Free text (a log message) with bearer tokens, query and fragment values (but
    ``KEEP_QUERY``'s) and secret-like path segments replaced by ``[redacted]``."""
    text = _BEARER.sub(lambda m: m.group(1) + REDACTED, text)
    text = _PARAM.sub(
        lambda m: m.group(0) if m.group(2) in KEEP_QUERY else f"{m.group(1)}{m.group(2)}="
        + REDACTED,
        text,
    )
    text = _QUOTED_SECRET.sub(REDACTED, text)
    return _PATH_SEGMENT.sub(REDACTED, text)


class RedactSecrets(logging.Filter):
    """A handler filter: the message of every record it passes is ``redact``-ed, and so are
    its traceback and stack (a database error's parameters can hold a nonce or a token)."""

    _format = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._format.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)  # formatters print exc_text as it is
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


class AccessLog:
    """One line per HTTP request or WebSocket, at INFO on ``nightsky.access`` (off unless that
    logger is enabled for INFO: ``nightsky serve --access-log``): client, method, redacted
    target, status and milliseconds. No header is ever written."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        path = str(scope.get("path", ""))
        level = logging.DEBUG if path in PROBES else logging.INFO
        if kind not in ("http", "websocket") or not access_log.isEnabledFor(level):
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = 0

        async def watched(msg: Message) -> None:
            nonlocal status
            if msg["type"] == "http.response.start":
                status = int(msg["status"])
            elif msg["type"] == "websocket.accept":
                status = 101
            elif msg["type"] == "websocket.close" and not status:
                status = 403  # closed before the handshake: uvicorn answers 403
            await send(msg)

        try:
            await self.app(scope, receive, watched)
        finally:
            method = scope.get("method", "GET") if kind == "http" else "WEBSOCKET"
            query = scope.get("query_string", b"").decode("latin-1")
            access_log.log(
                level,
                '%s - "%s %s HTTP/%s" %d %.1fms',
                client_of(scope, self.settings),
                method,
                redact_target(path, query),
                scope.get("http_version", "1.1"),
                status or 500,
                (time.perf_counter() - t0) * 1000,
            )


LEVELS = ("critical", "error", "warning", "info", "debug")


def log_config(level: str = "info", access: bool = False) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of ``nightsky serve``: uvicorn's own, plus the
    ``nightsky`` loggers at ``level``, the access log on stdout when ``access``, and the
    ``RedactSecrets`` filter on every handler."""
    from uvicorn.config import LOGGING_CONFIG

    cfg = copy.deepcopy(LOGGING_CONFIG)
    cfg["filters"] = {"redact": {"()": RedactSecrets}}
    cfg["formatters"]["plain"] = {
        "()": "uvicorn.logging.DefaultFormatter",
        "fmt": "%(levelprefix)s %(message)s",
        "use_colors": False,
    }
    cfg["handlers"]["nightsky_access"] = {
        "formatter": "plain",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stdout",
    }
    for handler in cfg["handlers"].values():
        handler["filters"] = ["redact"]
    name = level.upper()
    # The access log is INFO (its probe lines DEBUG): on with ``access``, at ``level`` if lower.
    access_level = ("DEBUG" if name == "DEBUG" else "INFO") if access else "WARNING"
    cfg["loggers"].update(
        {
            "uvicorn": {"handlers": ["default"], "level": name, "propagate": False},
            "uvicorn.error": {"level": name},
            "nightsky": {"handlers": ["default"], "level": name, "propagate": False},
            "nightsky.access": {
                "handlers": ["nightsky_access"],
                "level": access_level,
                "propagate": False,
            },
        }
    )
    return cfg
