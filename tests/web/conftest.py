"""A live server on a free loopback port and a headless Chromium (Debian's) to drive it."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve_app(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a free loopback port in a thread; its base URL."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            ws="websockets-sansio")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from nightsky.server import create_app
    from nightsky.server.settings import Settings

    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    # One browser plays every game of the module at autoplay speed: lift the per-client
    # rates and table cap (tests/server checks them).
    app = create_app(
        f"sqlite:///{db}",
        settings=Settings(
            rate_requests="100000/minute",
            rate_create="10000/minute",
            max_open_tables_per_client=10_000,
        ),
    )
    with serve_app(app) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is absent: run `make browser` (Debian's chromium) first")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def record_moves(pg: Any) -> list[dict[str, Any]]:
    """Every move the page sends, either way: ``{"action", "version", "via"}`` for each
    ``POST .../actions`` and each ``act`` message on its WebSocket."""
    moves: list[dict[str, Any]] = []

    def request(r: Any) -> None:
        if r.method == "POST" and r.url.endswith("/actions"):
            moves.append({**r.post_data_json, "via": "http"})

    def on_socket(ws: Any) -> None:
        def sent(payload: Any) -> None:
            try:
                msg = json.loads(payload)
            except (TypeError, ValueError):
                return
            if isinstance(msg, dict) and msg.get("type") == "act":
                moves.append({"action": msg["action"], "version": msg.get("version"),
                              "via": "socket"})

        ws.on("framesent", sent)

    pg.on("request", request)
    pg.on("websocket", on_socket)
    return moves


@pytest.fixture
def page(browser, live_server):  # type: ignore[no-untyped-def]
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.base = live_server  # type: ignore[attr-defined]
    pg.js_errors = errors  # type: ignore[attr-defined]
    pg.moves = record_moves(pg)  # type: ignore[attr-defined]
    ARTIFACTS.mkdir(exist_ok=True)
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
