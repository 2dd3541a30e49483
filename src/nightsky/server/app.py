"""The FastAPI application: routes, error mapping, body limit, gzip, access log, health
probes, WebSocket push, static client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, Security, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from nightsky._version import __version__
from nightsky.agents.base import agent_names
from nightsky.core.record import Record
from nightsky.core.registry import game_class, game_ids
from nightsky.server import models as m
from nightsky.server.guards import (
    RateLimit,
    Rates,
    SecurityHeaders,
    SocketCaps,
    client_of,
    origin_allowed,
)
from nightsky.server.learn import router as learn_router
from nightsky.server.logs import AccessLog
from nightsky.server.pages import router as pages_router
from nightsky.server.rooms import Manager, NewGame, Room, ServerError, Subscriber
from nightsky.server.settings import Settings
from nightsky.server.social import install as install_social
from nightsky.server.store import Store, default_url

log = logging.getLogger("nightsky.server")

MAX_BODY = 64 * 1024
WEB_DIR = Path(str(resources.files("nightsky").joinpath("web")))

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": m.ErrorBody, "description": "Malformed JSON (`malformed_json`)."},
    401: {
        "model": m.ErrorBody,
        "description": "No seat token where one is needed (`token_required`), or a token of "
        "no seat of this game (`bad_token`); with `WWW-Authenticate: Bearer`.",
    },
    403: {
        "model": m.ErrorBody,
        "description": "A valid token without the right to this (`not_creator`).",
    },
    404: {"model": m.ErrorBody, "description": "No such game (`game_not_found`)."},
    409: {"model": m.ErrorBody, "description": "Stale version, game over, or undo refused."},
    410: {"model": m.ErrorBody, "description": "Invite already used or renewed."},
    413: {"model": m.ErrorBody, "description": "Body larger than 64 KiB."},
    422: {"model": m.ErrorBody, "description": "Illegal/unknown action (with `rule`), bad field."},
    429: {"model": m.ErrorBody, "description": "Too many requests or tables (`Retry-After`)."},
    503: {"model": m.ErrorBody, "description": "The database refused a commit, or busy."},
}
BODY_PARSE_FAILED = "There was an error parsing the body"  # FastAPI's words (deep nesting)


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


# The two ways to send a seat token, declared as OpenAPI security schemes (the Authorize
# button of /docs). Neither refuses a request by itself (auto_error=False): a spectator sends
# none, and the handlers answer 401/403 with this API's own error body.
BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="SeatToken",
    description="The seat's secret token: `Authorization: Bearer <token>`.",
)
SEAT_HEADER = APIKeyHeader(
    name="X-Seat-Token",
    auto_error=False,
    scheme_name="SeatTokenHeader",
    description="The same token in an `X-Seat-Token` header.",
)


async def bearer(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)],
    x_seat_token: Annotated[str | None, Security(SEAT_HEADER)],
) -> str | None:
    """The seat token: ``Authorization: Bearer <token>`` or ``X-Seat-Token: <token>``."""
    if x_seat_token:
        return x_seat_token
    return credentials.credentials.strip() if credentials else None


Token = Annotated[str | None, Security(bearer)]


def operation_id(route: APIRoute) -> str:
    """The OpenAPI operation id of a route: its name (``act``, ``get_view``)."""
    return route.name


def create_app(
    db_url: str | None = None,
    *,
    bot_workers: int | None = None,
    bot_delay: float | None = None,
    keep_finished: int | None = None,
    settings: Settings | None = None,
) -> FastAPI:
    """Build the application on a database URL (default: ``nightsky.sqlite3`` here).

    ``settings``: limits and policies (``nightsky.server.settings.Settings``; its defaults
    suit a public server). ``bot_workers``, ``bot_delay`` and ``keep_finished``, when given,
    replace those fields of ``settings``."""
    given: dict[str, Any] = {
        "bot_workers": bot_workers, "bot_delay": bot_delay, "keep_finished": keep_finished
    }
    settings = replace(
        settings or Settings(), **{k: v for k, v in given.items() if v is not None}
    )
    store = Store(db_url or default_url())
    manager = Manager(
        store,
        bot_workers=settings.bot_workers,
        bot_delay=settings.bot_delay,
        keep_finished=settings.keep_finished,
        settings=settings,
    )
    sockets = SocketCaps(settings)
    rates = Rates(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        resumed = await run_in_threadpool(manager.start)
        log.info("nightsky server: %d unfinished games resumed", resumed)
        yield
        await run_in_threadpool(manager.close)
        store.close()

    # FastAPIOffline: /docs (Swagger UI) and /redoc served from the fastapi-offline package's
    # own copy of their assets, so the API docs work without internet.
    app = FastAPIOffline(
        title="nightsky",
        version=__version__,
        summary="Play the five nightsky games in the browser, with friends or bots.",
        description=(
            "Each human seat has a secret token (send `Authorization: Bearer <token>`); without "
            'a token you are a spectator. Every error body is `{"error": {"code", '
            '"message", ...}}` with a stable code. Push: `WS /api/games/{id}/ws?token=...` '
            "sends the seat's whole view after every change (send `{\"token\": ...}` first), and "
            "takes moves as `{\"type\": \"act\", \"id\", \"action\", \"version\"}` messages."
        ),
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
    )
    app.state.manager = manager
    app.state.settings = settings
    # Middleware: the last added is the outermost. The access log sees the final answer; the
    # timing includes the compression; bodies of 16 KiB and more are compressed in a thread.
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

    @app.exception_handler(ServerError)
    async def _server_error(_: Request, exc: ServerError) -> JSONResponse:
        headers: dict[str, str] = {}
        if exc.status == 429:
            headers["retry-after"] = str(exc.extra["retry_after"])
        elif exc.status == 401:
            # RFC 6750: a request without credentials gets the bare challenge, a wrong token
            # the error code.
            bad = exc.code == "bad_token"
            headers["www-authenticate"] = 'Bearer error="invalid_token"' if bad else "Bearer"
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers or None)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errs):
            return JSONResponse(
                {"error": {"code": "malformed_json", "message": "the body is not valid JSON"}}, 400
            )
        first = errs[0] if errs else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        return JSONResponse(
            {
                "error": {
                    "code": "validation_error",
                    "field": where or None,
                    "message": f"{where or 'request'}: {first.get('msg')}",
                }
            },
            422,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and exc.detail == BODY_PARSE_FAILED:
            # json.loads gave up (30,000 nested brackets, a 5,000-digit number): not JSON
            # this server reads.
            msg = "the body is not JSON this server reads (too deeply nested or too large)"
            return JSONResponse({"error": {"code": "malformed_json", "message": msg}}, 400)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse({"error": {"code": code, "message": str(exc.detail)}}, exc.status_code)

    @app.exception_handler(Exception)
    async def _bug(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=exc)
        body = {"error": {"code": "internal_error", "message": "the server failed; try again"}}
        return JSONResponse(body, 500)

    def room_of(gid: str) -> Room:
        return manager.get(gid)

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/g/{gid}", include_in_schema=False)
    def game_page(gid: str) -> FileResponse:
        return FileResponse(WEB_DIR / "game.html")

    # ------------------------------------------------------------------ probes
    @app.get("/healthz", response_model=m.Health, tags=["ops"])
    async def healthz() -> dict[str, Any]:
        """Liveness: the process answers (200). It checks nothing else."""
        return {"status": "ok"}

    @app.get(
        "/readyz",
        response_model=m.Ready,
        tags=["ops"],
        responses={503: {"model": m.Ready, "description": "The database cannot be reached."}},
    )
    def readyz(response: Response) -> dict[str, Any]:
        """Readiness: the database answers a read (200), else 503."""
        try:
            store.ping()
        except Exception as exc:  # any driver's error: the answer is the same
            # The error's class only: a driver's message may hold the URL with its password.
            log.warning("readiness: the database cannot be reached (%s)", type(exc).__name__)
            response.status_code = 503
            return {"status": "unavailable", "database": "unreachable"}
        return {"status": "ready", "database": "ok"}

    # ------------------------------------------------------------------ API
    @app.get("/api/catalog", response_model=m.Catalog, tags=["games"])
    def get_catalog() -> dict[str, Any]:
        """Every game with its player counts and options (the new-game form), and agents."""
        games = []
        for gid in game_ids():
            info = game_class(gid).info
            d = info.describe()
            d["default_players"] = info.default_players or info.min_players
            games.append(d)
        return {"games": games, "agents": agent_names()}

    @app.get("/api/lobby", response_model=list[m.LobbyGame], tags=["games"])
    def get_lobby(
        ids: Annotated[str | None, Query(max_length=2000)] = None,
    ) -> list[dict[str, Any]]:
        """The open tables (those their creators listed), most recently active first;
        `open_seats` lists seats free to join. With `ids` (comma-separated game ids, e.g. the
        games this browser plays): those games, listed or not."""
        wanted = [x for x in ids.split(",") if x] if ids is not None else None
        return manager.lobby(ids=wanted)

    @app.post(
        "/api/games",
        response_model=m.CreatedGame,
        status_code=201,
        tags=["games"],
        responses=ERRORS,
    )
    def create_game(req: m.CreateGame, request: Request) -> dict[str, Any]:
        """Create a game. Returns your token (the first human seat) and a one-time invite
        code per other human seat."""
        made = manager.create(
            NewGame(
                req.game, req.seats, req.players, req.options, req.names, req.seed, req.listed,
                clock=req.clock.model_dump() if req.clock else None,
            ),
            client=client_of(request.scope, settings, hashed=True),
        )
        room = made.room
        base = str(request.base_url).rstrip("/")
        you = room.creator()
        return {
            "id": room.id,
            "version": room.version,
            "you": you,
            "tokens": [
                {"seat": you, "token": t, "invite": f"{base}/g/{room.id}#token={t}"}
                for t in [made.token]
                if t
            ],
            "invites": [
                {"seat": s, "code": c, "invite": f"{base}/g/{room.id}#invite={c}"}
                for s, c in sorted(made.invites.items())
            ],
        }

    @app.get("/api/games/{gid}/view", response_model=m.SeatView, tags=["play"], responses=ERRORS)
    def get_view(gid: str, token: Token) -> Response:
        """Your seat's view (with a token) or the spectator's (without one)."""
        room = room_of(gid)
        seat = manager.seat_for(room, token, required=False)
        return _json(manager.encoded(room, seat))

    @app.post(
        "/api/games/{gid}/actions", response_model=m.SeatView, tags=["play"], responses=ERRORS
    )
    def act(gid: str, req: m.ActionRequest, token: Token) -> Response:
        """Take an action chosen on view `version`. Returns your new view. (A seated
        WebSocket may send the same as an `act` message instead: see the socket.)"""
        # The whole request in its worker thread: wall time, and CPU time of the work itself.
        with manager.timings.measure("post"):
            room, seat = take_action(gid, token, req.action, req.version)
            return _json(manager.encoded(room, seat))

    def take_action(
        gid: str, token: str | None, action: str, version: int | None
    ) -> tuple[Room, int]:
        """The one implementation of a move, for ``POST .../actions`` and the socket's ``act``
        message: the seat of ``token`` (401 without one), then ``Manager.act`` (version check,
        rules, clocks, commit, push, bots). ``version`` None (a socket message without one):
        the version the server holds now."""
        room = manager.get(gid, seen=version)
        seat = manager.seat_for(room, token, required=True)
        assert seat is not None
        manager.act(room, seat, action, room.version if version is None else version)
        return room, seat

    @app.post("/api/games/{gid}/away", response_model=m.SeatView, tags=["play"], responses=ERRORS)
    def set_away(gid: str, req: m.AwayRequest, token: Token) -> Response:
        """Say you are away (a stand-in bot of the table's `on_timeout` spec plays your seat
        from your own view) or back (`away: false`; a legal move of yours also takes it back)."""
        room = room_of(gid)
        seat = manager.seat_for(room, token, required=True)
        assert seat is not None
        manager.away(room, seat, req.away)
        return _json(manager.encoded(room, seat))

    @app.post("/api/games/{gid}/undo", response_model=m.SeatView, tags=["play"], responses=ERRORS)
    def undo(gid: str, req: m.UndoRequest, token: Token) -> Response:
        """Take back your last action, when nothing happened since and it revealed nothing."""
        room = room_of(gid)
        seat = manager.seat_for(room, token, required=True)
        assert seat is not None
        manager.undo(room, seat, req.version)
        return _json(manager.encoded(room, seat))

    @app.post("/api/games/{gid}/join", response_model=m.Joined, tags=["games"], responses=ERRORS)
    def join_seat(gid: str, req: m.JoinRequest) -> dict[str, Any]:
        """Take a free human seat; returns its (new) token."""
        room = room_of(gid)
        seat, token = manager.join(room, req.seat, req.name)
        return {"seat": seat, "token": token}

    @app.post("/api/games/{gid}/claim", response_model=m.Joined, tags=["games"], responses=ERRORS)
    def claim_seat(gid: str, req: m.ClaimRequest) -> dict[str, Any]:
        """Spend a one-time invite code: the seat and its token (410 once spent)."""
        seat, token = manager.claim(room_of(gid), req.invite, req.name)
        return {"seat": seat, "token": token}

    @app.post(
        "/api/games/{gid}/invites", response_model=m.Renewed, tags=["games"], responses=ERRORS
    )
    def renew_invite(
        gid: str, req: m.RenewRequest, token: Token, request: Request
    ) -> dict[str, Any]:
        """The creator's new invite for a seat never claimed or whose player left (the old
        code is spent; the table's log says so to everyone)."""
        room = room_of(gid)
        by = manager.seat_for(room, token, required=True)
        assert by is not None
        code = manager.renew(room, by, req.seat)
        base = str(request.base_url).rstrip("/")
        return {"seat": req.seat, "code": code, "invite": f"{base}/g/{gid}#invite={code}"}

    @app.post("/api/games/{gid}/leave", response_model=m.SeatView, tags=["games"],
              responses=ERRORS)
    def leave_seat(gid: str, token: Token) -> Response:
        """Give up your seat: your token stops working and the creator may invite another."""
        room = room_of(gid)
        seat = manager.seat_for(room, token, required=True)
        assert seat is not None
        manager.leave(room, seat)
        app.state.rematches.cancel(room, seat)  # leaving cancels an open rematch offer
        return _json(manager.encoded(room, None))

    @app.get("/api/games/{gid}/record", response_model=Record, tags=["games"], responses=ERRORS)
    def get_record(gid: str) -> JSONResponse:
        """The game's `nightsky-record/1` (once it is over)."""
        rec = manager.record(room_of(gid))
        return JSONResponse(
            rec,
            headers={
                "content-disposition": f'attachment; filename="nightsky-{rec["game"]}-{gid}.json"'
            },
        )

    @app.get(
        "/api/games/{gid}/replay", response_model=m.ReplayView, tags=["games"], responses=ERRORS
    )
    def get_replay(
        gid: str, token: Token, step: Annotated[int, Query(ge=0)] = 0
    ) -> dict[str, Any]:
        """What your seat saw (with its token) after `step` entries of a finished game: your
        view, board and log; without a token, the spectator's."""
        room = room_of(gid)
        seat = manager.seat_for(room, token, required=False)
        return manager.replay_view(room, step, seat)

    @app.get("/api/metrics", response_model=m.Metrics, tags=["ops"])
    def get_metrics() -> dict[str, Any]:
        """Server-side work per move (apply + chance + commit + push), bots' thinking excluded."""
        from nightsky.sim.stats import percentile

        out: dict[str, dict[str, float]] = {}
        counts: dict[str, int] = {}
        for kind, values in manager.timings.items():
            xs = sorted(values)
            counts[kind] = len(xs)
            out[kind] = {f"p{q}": round(percentile(xs, q / 100), 3) for q in (50, 95, 99)} | {
                "max": xs[-1] if xs else 0.0
            }
        return {"moves": counts, "latency_ms": out, "games_in_memory": len(manager.rooms)}

    # ------------------------------------------------------------------ push
    @app.websocket("/api/games/{gid}/ws")
    async def ws(websocket: WebSocket, gid: str) -> None:
        """Send `{"token": ...}` (or `{}` to watch) as the first message; then the seat's
        (or spectator's) whole view comes now and after every change. A seated socket may then
        send moves: `{"type": "act", "id": 1, "action": ..., "version": ...}`, answered by
        `{"type": "ack", "id": 1, "version": ...}` or `{"type": "error", "id": 1, "status",
        "code", "message"}` (the codes of `POST .../actions`)."""
        scope = websocket.scope
        refused = None
        if "token" in websocket.query_params:
            refused = (4400, "token_in_url")  # a URL ends up in logs: send it in a message
        elif not origin_allowed(scope, settings):
            refused = (4403, "bad_origin")
        if refused:
            await websocket.close(code=refused[0], reason=refused[1])
            return
        try:
            room = await run_in_threadpool(room_of, gid)
        except ServerError as exc:
            await websocket.close(code=4404, reason=exc.code)
            return
        client = client_of(scope, settings)
        if not sockets.take(gid, client):
            await websocket.close(code=4429, reason="too_many_sockets")
            return
        try:
            await websocket.accept()
            hello = await _ws_seat(websocket, room)
            if hello is not None:
                seat, token = hello
                await _ws_push(websocket, room, seat, token, client)
        finally:
            sockets.give_back(gid, client)

    async def _ws_seat(
        websocket: WebSocket, room: Room
    ) -> tuple[int | None, str | None] | None:
        """The seat named by the first message's token (None: a spectator) and the token;
        None when refused (the socket is closed)."""
        try:
            text = await asyncio.wait_for(websocket.receive_text(), settings.ws_auth_seconds)
            hello = json.loads(text)
            token = hello.get("token") if isinstance(hello, dict) else 0
            if token is not None and not isinstance(token, str):
                raise ValueError("token")
        except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect, KeyError):
            with contextlib.suppress(RuntimeError):
                await websocket.close(code=4400, reason="hello_expected")
            return None
        try:
            seat = await run_in_threadpool(manager.seat_for, room, token, required=False)
        except ServerError as exc:
            await websocket.close(code=4401 if exc.status == 401 else 4403, reason=exc.code)
            return None
        return seat, token

    def ws_act(gid: str, token: str | None, seat: int | None, text: str, client: str) -> str:
        """One message a socket sent after its hello: an ``act`` is played exactly as
        ``POST .../actions`` (``take_action``); the answer is an ``ack`` with the new version
        or an ``error`` with the HTTP status and code the POST would get. A bad message
        changes nothing, and the socket stays open."""
        msg_id: Any = None
        try:
            msg = ws_message(text)
            msg_id = msg["id"]
            if seat is None:
                raise ServerError(
                    403, "spectators_read_only", "a spectator's socket watches; it cannot act"
                )
            wait = rates.over_message(client)
            if wait is not None:
                raise ServerError(
                    429, "rate_limited", "too many requests; slow down", retry_after=wait
                )
            with manager.timings.measure("post"):
                room, _ = take_action(gid, token, msg["action"], msg["version"])
                version = room.version
        except ServerError as exc:
            body: dict[str, Any] = {"type": "error", "id": msg_id, "status": exc.status}
            body.update(exc.body()["error"])
            return json.dumps(body)
        except Exception:
            log.exception("unexpected error on a socket's message")
            body = {"type": "error", "id": msg_id, "status": 500, "code": "internal_error",
                    "message": "the server failed; try again"}
            return json.dumps(body)
        return json.dumps({"type": "ack", "id": msg_id, "version": version})

    async def _ws_push(
        websocket: WebSocket, room: Room, seat: int | None, token: str | None, client: str
    ) -> None:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

        def push(message: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, message)

        sub = Subscriber(seat=seat, push=push)
        await run_in_threadpool(manager.subscribe, room, sub)
        queue.put_nowait(await run_in_threadpool(manager.message, room, seat))

        async def reader() -> None:
            # Messages after the hello: moves (``act``), one at a time, in order; each answer
            # goes through the queue (one sender), after the view its move pushed.
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                while True:
                    text = await websocket.receive_text()
                    answer = await run_in_threadpool(ws_act, room.id, token, seat, text, client)
                    queue.put_nowait({"kind": "answer", "text": answer})
            queue.put_nowait(None)

        reading = asyncio.create_task(reader())
        try:
            sent = -1
            while True:
                batch = [await queue.get()]
                while not queue.empty():
                    batch.append(queue.get_nowait())
                # The newest view first, then chat lines, rematch news and the answers to
                # this socket's moves (``{"kind", "text"}``) as they are: an ``ack`` never
                # comes before the view that shows its move (pushed before it was queued).
                views = [x for x in batch if x is None or "kind" not in x]
                message = newest_view(views, sent)
                if message is not None:
                    # Encoded once for every socket of this viewer, off the event loop.
                    await websocket.send_text(message["text"])
                    sent = message["version"]
                for item in batch:
                    if item is not None and "kind" in item:
                        await websocket.send_text(item["text"])
                if None in batch:
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            reading.cancel()
            await run_in_threadpool(manager.unsubscribe, room, sub)

    # Your games, chat and rematch (server/social.py).
    install_social(app, manager, settings, bearer=bearer, errors=ERRORS, web_dir=WEB_DIR)
    # The pages about each game (rules, tutorials) and their JSON: nightsky.server.pages.
    app.include_router(pages_router)
    app.include_router(learn_router)  # guided tutorials and How to play: server/learn.py
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def newest_view(batch: list[dict[str, Any] | None], sent: int) -> dict[str, Any] | None:
    """The one view of ``batch`` worth sending (views or their messages, each with a
    ``"version"``): the newest (the last of equal versions), and never one older than the
    version already sent. Views can reach the queue out of order (the
    first view of a connection is computed while pushes already flow), so order alone is not
    enough."""
    best: dict[str, Any] | None = None
    for item in batch:
        if item is not None and (best is None or item["version"] >= best["version"]):
            best = item
    if best is None or best["version"] < sent:
        return None
    return best


WS_MESSAGE_FIELDS = ("type", "id", "action", "version")
WS_MAX_MESSAGE = 4096


def ws_message(text: str) -> dict[str, Any]:
    """A socket's ``act`` message, checked: ``{"type": "act", "id": <int>, "action": <str>,
    "version": <int, optional>}`` (action and version as ``POST .../actions`` takes them).
    Anything else raises a 400/422 ``ServerError`` naming the field (with the message's
    ``id`` when it had a usable one)."""
    if len(text) > WS_MAX_MESSAGE:
        raise ServerError(413, "message_too_large", f"a message is at most {WS_MAX_MESSAGE} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise ServerError(400, "malformed_json", "the message is not valid JSON") from None
    if not isinstance(msg, dict):
        raise ServerError(422, "validation_error", "a message is a JSON object", field=None)
    raw_id = msg.get("id")
    msg_id = raw_id if type(raw_id) is int and abs(raw_id) < 2**53 else None

    def bad(field: str, why: str) -> ServerError:
        return ServerError(422, "validation_error", f"{field}: {why}", field=field, id=msg_id)

    extra = sorted(str(k) for k in msg if k not in WS_MESSAGE_FIELDS)
    if extra:
        raise bad(extra[0], "unknown field (a message has type, id, action, version)")
    if msg.get("type") != "act":
        raise bad("type", 'must be "act" (the one message a socket sends after its hello)')
    if msg_id is None:
        raise bad("id", "an integer the answer will carry, is required")
    body = {"action": msg.get("action"), "version": msg.get("version", 0)}
    try:
        req = m.ActionRequest.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "action"
        raise bad(where, str(first.get("msg"))) from None
    version = req.version if "version" in msg else None
    return {"id": msg_id, "action": req.action, "version": version}


def _json(body: bytes) -> Response:
    # The views are built by the server itself: skip re-validating them against SeatView
    # (which documents them) and send their cached encoding straight.
    return Response(body, media_type="application/json")

