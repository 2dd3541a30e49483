"""Running the server: health probes, settings from options and the environment, the access
log (no token ever written), gzip, 401 vs 403, the OpenAPI document, pushes encoded once."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine
from starlette.websockets import WebSocketDisconnect
from typer.main import get_command
from typer.testing import CliRunner

from nightsky.cli import _load_commands
from nightsky.cli import app as cli_app
from nightsky.core.registry import packaged_game_ids
from nightsky.server.logs import RedactSecrets, log_config, redact, redact_target
from nightsky.server.settings import Settings
from tests.server.conftest import auth, create, seat_tokens, ws_connect

_load_commands()


# ---------------------------------------------------------------------------- probes
def test_healthz_answers_200_while_the_process_lives(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def test_readyz_is_200_with_the_database_and_503_without_it(client, tmp_path):
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready", "database": "ok"}
    store = client.app.state.manager.store
    good = store.engine
    # The database goes away: a file in a folder that does not exist cannot be opened.
    store.engine = create_engine(f"sqlite:///{tmp_path / 'gone' / 'db.sqlite3'}")
    try:
        r = client.get("/readyz")
        assert r.status_code == 503
        assert r.json() == {"status": "unavailable", "database": "unreachable"}
        assert client.get("/healthz").status_code == 200  # alive all the same
    finally:
        store.engine.dispose()
        store.engine = good
    assert client.get("/readyz").status_code == 200


# ---------------------------------------------------------------------------- 401 / 403
def test_a_missing_or_wrong_token_is_401_and_a_valid_one_without_the_right_403(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    tokens = seat_tokens(client, made)
    url = f"/api/games/{gid}/actions"
    body = {"action": "keep", "version": 0}

    r = client.post(url, json=body)
    assert r.status_code == 401 and r.json()["error"]["code"] == "token_required"
    assert r.headers["www-authenticate"] == "Bearer"
    for headers in ({"Authorization": "Bearer forged"}, {"X-Seat-Token": "forged"}):
        r = client.post(url, json=body, headers=headers)
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
        assert r.headers["www-authenticate"] == 'Bearer error="invalid_token"'
    # Seat 1's token is valid, but only the creator (seat 0) renews invites.
    r = client.post(f"/api/games/{gid}/invites", headers=auth(tokens[1]), json={"seat": 1})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    assert "www-authenticate" not in r.headers
    # The WebSocket says the same with its close codes.
    with pytest.raises(WebSocketDisconnect) as err, ws_connect(client, gid, "forged") as ws:
        ws.receive_json()
    assert err.value.code == 4401


# ---------------------------------------------------------------------------- OpenAPI
OPERATIONS = {
    "healthz", "readyz", "get_catalog", "get_lobby", "create_game", "get_view", "act", "undo",
    "join_seat", "claim_seat", "renew_invite", "leave_seat", "get_record", "get_replay",
    "get_metrics", "get_your_games", "get_chat", "post_chat", "get_rematch", "offer_rematch",
    "decline_rematch", "set_away", "resign", "hand_over_seat",
    "get_rules", "get_tutorials",  # server/pages.py: the rule catalogue and tutorials
    "get_lesson", "get_lesson_table",  # server/learn.py: the guided tutorials
    # accounts (issue 53): routes/accounts.py, passkeys.py, profiles.py, admin.py
    "get_account", "sign_up", "sign_in", "sign_out", "sign_out_everywhere", "change_password",
    "account_games", "take_my_seat", "passkey_registration_options", "register_passkey",
    "passkey_sign_in_options", "passkey_sign_in", "get_profile", "hide_chat_line",
    "suspend_account", "moderation_log",
    # the club (issue 53): routes/club.py, tournaments.py
    "get_leaderboard", "get_ratings", "get_friends", "befriend", "accept_friend",
    "remove_friend", "invite_friend", "accept_invitation", "decline_invitation",
    "list_tournaments", "create_tournament", "get_tournament", "enter_tournament",
    "withdraw_tournament", "start_tournament", "close_tournament",
}


def _operations(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {op["operationId"]: op for ops in spec["paths"].values() for op in ops.values()}


def test_openapi_declares_the_token_schemes_and_readable_operation_ids(client):
    spec = client.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert schemes["SeatToken"] == {
        "type": "http", "scheme": "bearer", "description": schemes["SeatToken"]["description"]
    }
    assert schemes["SeatTokenHeader"]["in"] == "header"
    assert schemes["SeatTokenHeader"]["name"] == "X-Seat-Token"
    ops = _operations(spec)
    assert set(ops) == OPERATIONS
    for name in ("get_view", "act", "set_away", "undo", "renew_invite", "leave_seat", "get_replay",
                 "post_chat", "get_rematch", "offer_rematch", "decline_rematch", "resign",
                 "hand_over_seat"):
        assert {"SeatToken": []} in ops[name]["security"], name
    assert "security" not in ops["get_lobby"]
    assert "security" not in ops["get_your_games"]  # its tokens travel in the body


def test_every_operation_documents_a_json_response_schema(client):
    spec = client.get("/openapi.json").json()
    for name, op in _operations(spec).items():
        ok = [v for k, v in op["responses"].items() if k.startswith("2")]
        assert ok, name
        schema = ok[0]["content"]["application/json"]["schema"]
        assert schema and schema != {}, name
    record = _operations(spec)["get_record"]["responses"]["200"]["content"]["application/json"]
    assert record["schema"] == {"$ref": "#/components/schemas/Record"}
    assert {"format", "game", "history"} <= set(spec["components"]["schemas"]["Record"]["required"])


# ---------------------------------------------------------------------------- gzip
def test_large_responses_are_gzipped_and_small_ones_are_not(client):
    made = create(client, "shooting-star", ["human", "random"])
    url = f"/api/games/{made['id']}/view"
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    plain = len(r.content)
    assert plain > 8000 and r.num_bytes_downloaded * 4 < plain, (plain, r.num_bytes_downloaded)
    assert r.json()["game"] == "shooting-star"
    r = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in r.headers and len(r.content) == plain
    r = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in r.headers  # under 1 KiB: not worth it


# ---------------------------------------------------------------------------- pushes
def test_a_push_is_encoded_once_per_viewer_off_the_event_loop(client, monkeypatch):
    import nightsky.server.rooms as rooms

    calls: list[tuple[int | None, bool]] = []
    real = rooms.encode

    def counting(payload: dict[str, Any]) -> bytes:
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        calls.append((payload["seat"], on_loop))
        return real(payload)

    monkeypatch.setattr(rooms, "encode", counting)
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    tokens = seat_tokens(client, made)
    with (
        ws_connect(client, gid) as a,
        ws_connect(client, gid) as b,
        ws_connect(client, gid) as c,
        ws_connect(client, gid, tokens[0]) as mine,
    ):
        first = [s.receive_json()["data"] for s in (a, b, c, mine)]
        seat = first[-1]["current_players"][0]
        version = first[-1]["version"]
        calls.clear()
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=auth(tokens[seat]),
            json={"action": "keep", "version": version},
        )
        assert r.status_code == 200, r.text
        texts = [s.receive_text() for s in (a, b, c)]
        mine.receive_text()
    assert texts[0] == texts[1] == texts[2]
    # One encoding per viewer (the spectators, seat 0, the acting seat's answer shares seat
    # 0's or is its own), never one per socket, and none on the event loop.
    viewers = {None, 0, seat}
    assert sorted(calls, key=str) == sorted(((v, False) for v in viewers), key=str)


# ---------------------------------------------------------------------------- access log
def test_the_access_log_never_writes_a_token(client, caplog):
    caplog.set_level(logging.INFO, logger="nightsky.access")
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid, token = made["id"], made["tokens"][0]["token"]
    invite = made["invites"][0]["code"]
    client.get(f"/api/games/{gid}/view", headers=auth(token))
    client.get(f"/api/games/{gid}/view", headers={"X-Seat-Token": token})
    client.get(f"/api/games/{gid}/view?token={token}&step=3")
    client.get(f"/api/games/{token}/view")
    client.get(f"/g/{gid}/{invite}")
    client.get(f"/api/games/{gid}/replay", params={"access_token": token})
    client.post(f"/api/games/{gid}/claim", json={"invite": invite})
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
        f"/api/games/{gid}/ws?token={token}"
    ) as ws:
        ws.receive_json()
    with ws_connect(client, gid, token) as ws:
        ws.receive_json()
    client.get("/healthz")  # probes: DEBUG only
    lines = [r.getMessage() for r in caplog.records if r.name == "nightsky.access"]
    text = "\n".join(lines)
    assert token not in text and invite not in text
    assert len(lines) == 10, text
    assert f'"GET /api/games/{gid}/view HTTP/1.1" 200' in text  # the game id stays
    assert "view?token=[redacted]&step=3" in text
    assert "/api/games/[redacted]/view" in text and f"/g/{gid}/[redacted]" in text
    assert "replay?access_token=[redacted]" in text
    assert '"WEBSOCKET /api/games/' in text and "/healthz" not in text


def test_uvicorns_own_lines_are_redacted_too():
    secret = "Q1w2E3r4T5y6U7i8O9p0AsDf"
    record = logging.LogRecord(
        "uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5000", f"/api/games/abc123/ws?token={secret}"), None,
    )
    assert RedactSecrets().filter(record)
    assert secret not in record.getMessage() and "ws?token=[redacted]" in record.getMessage()
    assert redact(f"Authorization: Bearer {secret}") == "Authorization: Bearer [redacted]"
    assert redact_target(f"/g/{secret}", "step=2&x=1") == "/g/[redacted]?step=2&x=[redacted]"
    cfg = log_config("warning", access=True)
    assert all(h["filters"] == ["redact"] for h in cfg["handlers"].values())
    assert cfg["loggers"]["nightsky.access"]["level"] == "INFO"
    assert cfg["loggers"]["nightsky"]["level"] == "WARNING"
    assert log_config("debug", access=False)["loggers"]["nightsky.access"]["level"] == "WARNING"


# ---------------------------------------------------------------------------- settings
def _serve() -> Any:
    return get_command(cli_app).commands["serve"]  # type: ignore[attr-defined]


def test_every_setting_is_a_serve_option_and_an_environment_variable():
    params = {p.name: p for p in _serve().params}
    for f in fields(Settings):
        p = params.get(f.name)
        assert p is not None, f"Settings.{f.name} has no `nightsky serve` option"
        assert f"--{f.name.replace('_', '-')}" in p.opts, p.opts
        assert p.envvar == f"NIGHTSKY_{f.name.upper()}"
    for name in ("host", "port", "db", "log_level", "access_log"):
        assert params[name].envvar == f"NIGHTSKY_{name.upper()}"


def _run_serve(monkeypatch, args: list[str], env: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    """Invoke ``nightsky serve`` with uvicorn.run replaced: the app it would run, and how."""
    import uvicorn

    seen: dict[str, Any] = {}

    def fake_run(app: Any, **kwargs: Any) -> None:
        seen.update(kwargs, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    out = CliRunner().invoke(cli_app, ["serve", *args], env=env)
    assert out.exit_code == 0, out.output
    app = seen.pop("app")
    app.state.manager.close()
    app.state.manager.store.close()
    return app, seen


def test_serve_takes_every_setting_from_the_environment(monkeypatch, tmp_path):
    wanted = Settings(
        bot_workers=3, bot_delay=0.5, think_seconds=1.5, think_grace=0.5, think_budget=12.0,
        bot_processes=1, inline_agents=("random", "greedy"), bot_memory_mb=512,
        spec_max_chars=50, bot_cadence=0.5,
        allow_client_seed=True, secret="s3cret", rate_requests="10/second",
        rate_create="5/minute", rate_claim="7/minute", rate_chat="3/minute",
        rate_chat_client="9/minute", rate_chat_chars="900/minute", chat_keep_lines=50,
        chat_keep_days=2.5,
        max_open_tables_per_client=4,
        max_open_tables=40, idle_seconds=30.0, keep_finished=8, max_sockets_per_table=6,
        max_spectators_per_client=3, max_sockets_per_seat=2, max_sockets_per_client=5,
        ws_auth_seconds=3.0,
        allowed_origins=("https://a.example", "https://b.example"), trust_proxy=True,
        session_days=2.0, sign_in_tries=5, sign_in_lock_seconds=30.0,
        leaderboard_min_games=5, friend_invites_per_hour=7, tournament_max_players=9,
        tournament_poll_seconds=0.5,
        gzip_min_bytes=2048,
        studio=True, studio_dir=str(tmp_path / "studio"), studio_max_bytes=20_000,
        studio_max_games=500, studio_jobs_per_client=3, studio_max_jobs=5, studio_workers=3,
        studio_ray_address="auto",
    )
    env = {}
    for f in fields(Settings):
        value = getattr(wanted, f.name)
        assert value != getattr(Settings(secret=""), f.name), f"{f.name}: pick another value"
        if isinstance(value, tuple):
            value = " ".join(value)
        elif isinstance(value, bool):
            value = "1" if value else "0"
        env[f"NIGHTSKY_{f.name.upper()}"] = str(value)
    env |= {
        "NIGHTSKY_DB": f"sqlite:///{tmp_path / 'env.sqlite3'}",
        "NIGHTSKY_HOST": "127.0.0.2",
        "NIGHTSKY_PORT": "9123",
        "NIGHTSKY_LOG_LEVEL": "DEBUG",
        "NIGHTSKY_ACCESS_LOG": "true",
    }
    app, run = _run_serve(monkeypatch, [], env)
    assert app.state.settings == wanted
    assert app.state.manager.keep_finished == 8 and app.state.manager.bot_delay == 0.5
    assert (run["host"], run["port"], run["log_level"]) == ("127.0.0.2", 9123, "debug")
    assert run["log_config"]["loggers"]["nightsky.access"]["level"] == "DEBUG"
    assert run["access_log"] is False  # uvicorn's own would show query strings
    assert (tmp_path / "env.sqlite3").exists()
    # A flag beats its variable; a comma list works too.
    app, _ = _run_serve(
        monkeypatch,
        ["--think-seconds", "4", "--allowed-origins", "https://c.example,https://d.example"],
        env,
    )
    assert app.state.settings.think_seconds == 4.0
    assert app.state.settings.allowed_origins == ("https://c.example", "https://d.example")


def test_serve_refuses_a_malformed_rate_naming_the_option(monkeypatch):
    out = CliRunner().invoke(cli_app, ["serve"], env={"NIGHTSKY_RATE_CREATE": "lots"})
    assert out.exit_code == 2
    assert "rate-create" in out.output and "lots" in out.output


# ---------------------------------------------------------------------------- as a user
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_nightsky_serve_from_the_environment_as_a_user_runs_it(tmp_path: Path):
    """``nightsky serve`` configured by variables only: probes, gzip, permessage-deflate on
    the push socket, the resume line and an access log that holds no token."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(sys.path),
        "NIGHTSKY_PORT": str(port),
        "NIGHTSKY_DB": f"sqlite:///{tmp_path / 'g.sqlite3'}",
        "NIGHTSKY_LOG_LEVEL": "info",
        "NIGHTSKY_ACCESS_LOG": "1",
        "NIGHTSKY_BOT_DELAY": "0",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "nightsky", "serve"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                assert httpx.get(f"{base}/healthz", timeout=1).status_code == 200
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
        assert httpx.get(f"{base}/readyz").json()["status"] == "ready"
        made = httpx.post(f"{base}/api/games", json={
            "game": "shooting-star", "players": 2, "seats": ["human", "random"]}).json()
        gid, token = made["id"], made["tokens"][0]["token"]
        r = httpx.get(f"{base}/api/games/{gid}/view", headers=auth(token))
        assert r.headers["content-encoding"] == "gzip" and r.json()["seat"] == 0
        httpx.get(f"{base}/api/games/{gid}/view", params={"token": token})
        with connect(f"ws://127.0.0.1:{port}/api/games/{gid}/ws") as ws:
            assert "permessage-deflate" in ws.response.headers["Sec-WebSocket-Extensions"]
            ws.send(json.dumps({"token": token}))
            assert '"type":"view"' in str(ws.recv(timeout=10))
        with pytest.raises(InvalidStatus):  # a token in the URL: refused before the handshake
            connect(f"ws://127.0.0.1:{port}/api/games/{gid}/ws?token={token}")
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
    assert token not in out and token not in err, (out, err)
    assert "unfinished games resumed" in err
    assert f'"GET /api/games/{gid}/view HTTP/1.1" 200' in out
    assert "view?token=[redacted]" in out and "ws?token=[redacted]" in err + out


@pytest.mark.parametrize("game_id", ["toy-secret-sum", *packaged_game_ids()])
def test_views_encode_to_the_same_json_as_the_standard_library(game_id):
    """orjson reads every title's views as ``json`` does (int dict keys become strings)."""
    import random

    from nightsky.core.game import CHANCE
    from nightsky.core.registry import load_game
    from nightsky.server.views import encode, redacted_log, seat_payload

    state = load_game(game_id).new_initial_state()
    rng = random.Random(7)
    for step in range(120):
        players = state.current_players()
        if not players:
            break
        seat = players[0]
        if step % 10 == 0:
            for viewer in (None, 0):
                body = {**seat_payload(state, viewer), "log": redacted_log(state, viewer)}
                assert json.loads(encode(body)) == json.loads(json.dumps(body)), (game_id, step)
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)


def test_serve_without_the_list_options_keeps_their_defaults(monkeypatch, tmp_path):
    # click hands an option never given as an empty list: that must not read as "none" (every
    # bot, random ones included, would then think in worker processes).
    app, _ = _run_serve(monkeypatch, ["--db", f"sqlite:///{tmp_path / 'd.sqlite3'}"], {})
    assert app.state.settings.inline_agents == Settings().inline_agents == ("random",)
    assert app.state.settings.allowed_origins == ()
