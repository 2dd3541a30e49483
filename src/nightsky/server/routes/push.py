"""The table's WebSocket: the hello (the seat's token in the first message), then the viewer's
whole view now and after every change, chat lines and rematch news; a seated socket may also
send moves (``act`` messages, played exactly as ``POST .../actions``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import ValidationError

from nightsky.server import models as m
from nightsky.server.guards import Rates, client_of, origin_allowed
from nightsky.server.rooms import Manager, Room, ServerError, Subscriber
from nightsky.server.routes.deps import Limits, RatesDep, SocketsDep, Tables
from nightsky.server.routes.moves import take_action
from nightsky.server.settings import Settings

log = logging.getLogger("nightsky.server")

router = APIRouter()

WS_MESSAGE_FIELDS = ("type", "id", "action", "version")
WS_MAX_MESSAGE = 4096


@router.websocket("/api/games/{gid}/ws")
async def ws(
    websocket: WebSocket,
    gid: str,
    manager: Tables,
    settings: Limits,
    rates: RatesDep,
    sockets: SocketsDep,
) -> None:
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
        room = await run_in_threadpool(manager.get, gid)
    except ServerError as exc:
        await websocket.close(code=4404, reason=exc.code)
        return
    client = client_of(scope, settings)
    if not sockets.open(client):
        await websocket.close(code=4429, reason="too_many_sockets")
        return
    try:
        await websocket.accept()
        hello = await _hello(websocket, manager, room, settings)
        if hello is None:
            return
        # The table's slot by role, once the hello says who this is: a seat's own slots
        # are never taken by spectators (they have their own quota).
        if not sockets.take(gid, client, hello[0]):
            await websocket.close(code=4429, reason="too_many_sockets")
            return
        try:
            await _Socket(websocket, manager, rates, room, client, *hello).serve()
        finally:
            sockets.give_back(gid, client, hello[0])
    finally:
        sockets.close(client)


async def _hello(
    websocket: WebSocket, manager: Manager, room: Room, settings: Settings
) -> tuple[int | None, str | None, bool] | None:
    """The seat named by the first message's token (None: a spectator), the token, and
    whether the socket takes light updates (``"patches": true``); None when refused (the
    socket is closed)."""
    try:
        text = await asyncio.wait_for(websocket.receive_text(), settings.ws_auth_seconds)
        hello = json.loads(text)
        token = hello.get("token") if isinstance(hello, dict) else 0
        patches = isinstance(hello, dict) and hello.get("patches") is True
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
    return seat, token, patches


class _Socket:
    """One open socket after its hello: a queue of what to send (views, news, answers) with
    one sender, and a reader of the socket's moves."""

    def __init__(
        self,
        websocket: WebSocket,
        manager: Manager,
        rates: Rates,
        room: Room,
        client: str,
        seat: int | None,
        token: str | None,
        patches: bool,
    ) -> None:
        self.websocket, self.manager, self.rates = websocket, manager, rates
        self.room, self.client, self.seat, self.token = room, client, seat, token
        self.patches = patches  # light updates after the first view
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message from any thread (the room pushes from the thread of a change)."""
        self.loop.call_soon_threadsafe(self.queue.put_nowait, message)

    async def serve(self) -> None:
        sub = Subscriber(seat=self.seat, push=self.push, patches=self.patches)
        await run_in_threadpool(self.manager.subscribe, self.room, sub)
        self.queue.put_nowait(await run_in_threadpool(self.room.message, self.seat))
        reading = asyncio.create_task(self.read())
        try:
            await self.send_all()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            reading.cancel()
            await run_in_threadpool(self.manager.unsubscribe, self.room, sub)

    async def read(self) -> None:
        """Messages after the hello: moves (``act``), one at a time, in order; each answer
        goes through the queue (one sender), after the view its move pushed."""
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                text = await self.websocket.receive_text()
                answer = await run_in_threadpool(self.act, text)
                self.queue.put_nowait({"kind": "answer", "text": answer})
        self.queue.put_nowait(None)

    async def send_all(self) -> None:
        sent = -1
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            # The newest view first, then chat lines, rematch news and the answers to
            # this socket's moves (``{"kind", "text"}``) as they are: an ``ack`` never
            # comes before the view that shows its move (pushed before it was queued).
            views = [x for x in batch if x is None or "kind" not in x]
            # Encoded once for every socket of this viewer, off the event loop.
            for text, version in self.view_texts(views, sent):
                await self.websocket.send_text(text)
                sent = version
            for item in batch:
                if item is not None and "kind" in item:
                    await self.websocket.send_text(item["text"])
            if None in batch:
                return

    def view_texts(
        self, views: list[dict[str, Any] | None], sent: int
    ) -> list[tuple[str, int]]:
        """What to send of the views queued: the newest whole view (``newest_view``); or, to
        a socket that takes light updates, the patches leading from the version it was sent
        last to the newest, when they follow on from one another."""
        newest = newest_view(views, sent)
        if newest is None:
            return []
        if self.patches:
            chain, at = [], sent
            for m in sorted((x for x in views if x is not None), key=lambda x: x["version"]):
                if m.get("patch") and m.get("base") == at:
                    chain.append((m["patch"], m["version"]))
                    at = m["version"]
            if chain and at == newest["version"]:
                return chain
        return [(newest["text"], newest["version"])]

    def act(self, text: str) -> str:
        """One message the socket sent after its hello: an ``act`` is played exactly as
        ``POST .../actions`` (``take_action``); the answer is an ``ack`` with the new version
        or an ``error`` with the HTTP status and code the POST would get. A bad message
        changes nothing, and the socket stays open."""
        msg_id: Any = None
        try:
            msg = ws_message(text)
            msg_id = msg["id"]
            if self.seat is None:
                raise ServerError(
                    403, "spectators_read_only", "a spectator's socket watches; it cannot act"
                )
            wait = self.rates.over_message(self.client)
            if wait is not None:
                raise ServerError(
                    429, "rate_limited", "too many requests; slow down", retry_after=wait
                )
            with self.manager.timings.measure("post"):
                room, _ = take_action(
                    self.manager, self.room.id, self.token, msg["action"], msg["version"]
                )
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
