"""Load and crash test of the nightsky server on loopback.

Starts ``nightsky serve`` in a subprocess on a fresh SQLite file, runs GAMES concurrent games
(each: one human seat played by this script through the HTTP API and WebSocket push, choosing
random legal actions; the other seats are bots on the server), records every move's latency,
kills the server (SIGKILL) mid-game, restarts it on the same file, checks every game is intact
(every acknowledged move still there, identical log), and plays them all to the end.

Latency is reported three ways: the round trip seen by the client (queueing on this 2-core
machine included), the server's handling time of each POST (``Server-Timing``), and the
server's own work per move (apply + chance + commit + push; ``/api/metrics``), bots' thinking
excluded everywhere.

    python scripts/load_test.py [--games 50] [--kill-after 8] [--json out.json]

Several processes (``nightsky serve --workers N`` on PostgreSQL; ``--db`` left out starts a
throw-away cluster, tests/support/pg.py): first one process, then N, each given
``--saturate`` seconds of scripted humans that never think (moves per second at saturation,
and their ratio); then, with ``--kill-one``, one of the N processes is killed (SIGKILL) in the
middle of the games while the others keep serving (uvicorn starts a new one): no acknowledged
move may be lost, clients only reconnect, every game finishes, and the bot seats of the dead
process's tables (those it held the lease of) must move again within 5 s.

    python scripts/load_test.py --games 50 --workers 2 --kill-one [--db postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

GAMES = ["shooting-star", "stars-are-right", "star-fire", "mihi-anguli", "starlight"]
# Options per game: The Stars Are Right with its short deck (two reshuffles). The book's
# unlimited deck lets two random players go on for 1000 rounds (about 5,000 moves), which turns
# "every game finishes" into a test of patience rather than of the server.
OPTIONS: dict[str, dict[str, Any]] = {"stars-are-right": {"reshuffles": 2}}
# How the scripted humans send their moves: over each table's one WebSocket (``act``
# messages, as the web page does), or with ``--http-moves`` as ``POST .../actions``.
HTTP_MOVES = False


def run_async(main: Any) -> Any:
    """Run a coroutine on uvloop when it is installed (it comes with ``uvicorn[standard]``,
    and the server runs on it too): the scripted players' event loop then costs the shared
    2-core machine less CPU per move, which is the server's to spend."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    port: int, db: str, bot_delay: float, workers: int = 1
) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "nightsky",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--bot-delay",
        str(bot_delay),
        # Bots answer as soon as they chose (no hidden-information cadence): this measures
        # the server's capacity, not a pace it keeps on purpose.
        "--bot-cadence",
        "0",
        # One client (this script) plays every game: lift the per-client limits.
        "--rate-requests",
        "1000000/minute",
        "--rate-create",
        "100000/minute",
        "--max-tables-per-client",
        "100000",
        "--max-sockets-per-client",
        "100000",
        # Nobody reads its stderr while it runs: keep it to warnings (info logs every socket).
        "--log-level",
        "warning",
        "--workers",
        str(workers),
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120  # a busy machine starts N processes slowly
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


@dataclass
class Player:
    gid: str
    game: str
    token: str
    rng: random.Random
    acked_log: list[dict[str, Any]] = field(default_factory=list)
    acked_version: int = -1
    moves: int = 0
    done: bool = False
    result: dict[str, Any] | None = None
    # A move sent over the socket whose answer has not come (it survives a reconnect):
    # {"id", "action", "version", "log": log length when sent, "t0"}.
    pending: dict[str, Any] | None = None
    # The bytes of the view that showed the last acknowledged move (parsed when checked).
    acked_raw: bytes | None = None
    next_id: int = 0


@dataclass
class Stats:
    client_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)
    stale: int = 0
    transport_retries: int = 0
    # moves whose answer was lost with a killed process: found applied, or sent again
    unanswered_applied: int = 0
    unanswered_resent: int = 0
    reconnects: int = 0
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    record: bool = True  # False in the finishing phase: latencies there are not reported


def pct(xs: list[float], q: float) -> float:
    from nightsky.sim.stats import percentile

    return round(percentile(xs, q / 100), 2)


async def play(
    base: str, p: Player, stats: Stats, client: httpx.AsyncClient, stop: asyncio.Event, think: float
) -> None:
    """Play ``p``'s seat from pushed views until the game ends or ``stop`` is set."""
    while not stop.is_set() and not p.done:
        try:
            if HTTP_MOVES:
                await _play(base, p, stats, client, stop, think)
            else:
                await _play_ws(base, p, stats, client, stop, think)
            return
        except (ConnectionClosed, OSError):
            # The process serving this socket died: connect again (to a process alive).
            stats.reconnects += 1
            await asyncio.sleep(0.2)


async def _play(
    base: str, p: Player, stats: Stats, client: httpx.AsyncClient, stop: asyncio.Event, think: float
) -> None:
    ws_url = base.replace("http", "ws") + f"/api/games/{p.gid}/ws"
    headers = {"Authorization": f"Bearer {p.token}"}
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"token": p.token}))  # the token goes in the first message
        latest: dict[str, Any] | None = None
        idle = 0.0
        while not stop.is_set():
            try:
                msg = await asyncio.wait_for(ws.recv(), timeout=0.5)
                view = json.loads(msg)["data"]
                idle = 0.0
            except TimeoutError:
                idle += 0.5
                if idle < 10 or latest is None:
                    continue
                # Quiet for long: look. A newer view than the last push means a push was lost.
                idle = 0.0
                got = await client.get(f"{base}/api/games/{p.gid}/view", headers=headers)
                view = got.json()
                if view["version"] > latest["version"]:
                    stats.errors.append(f"{p.gid}: push of version {view['version']} missed")
            if latest is not None and view["version"] < latest["version"]:
                continue
            latest = view
            while latest["legal"] and not latest["terminal"] and not stop.is_set():
                if think:
                    await asyncio.sleep(p.rng.uniform(0.5 * think, 1.5 * think))
                choice = p.rng.choice(latest["legal"])["action"]
                t0 = time.perf_counter()
                try:
                    r = await client.post(
                        f"{base}/api/games/{p.gid}/actions",
                        headers=headers,
                        json={"action": choice, "version": latest["version"]},
                    )
                except httpx.TransportError:
                    # A kept-alive connection closed under us: the move may or may not have
                    # been taken; look again (the version check makes a retry safe).
                    stats.transport_retries += 1
                    with contextlib.suppress(httpx.TransportError):
                        r2 = await client.get(f"{base}/api/games/{p.gid}/view", headers=headers)
                        latest = r2.json()
                    await asyncio.sleep(0.05)
                    continue
                dt = (time.perf_counter() - t0) * 1000
                if r.status_code == 409 and r.json()["error"]["code"] == "stale_version":
                    stats.stale += 1
                    break  # wait for the push of the newer view
                if r.status_code != 200:
                    stats.errors.append(f"{p.gid} {choice}: {r.status_code} {r.text[:200]}")
                    return
                stats.moves += 1
                if stats.record:
                    stats.client_ms.append(dt)
                    timing = r.headers.get("server-timing", "")
                    if "dur=" in timing:
                        stats.server_ms.append(float(timing.split("dur=")[1]))
                latest = r.json()
                p.moves += 1
                p.acked_log, p.acked_version = latest["log"], latest["version"]
            if latest["terminal"]:
                p.done = True
                p.result = {"scores": latest["scores"], "winners": latest["winners"]}
                return


VIEW_PREFIX = b'{"type":"view","data":{"current_players":['


def glance(raw: bytes) -> bool | None:
    """Whether a pushed message may need reading in full: False for a view in which seat 0
    is not to act and the game goes on (the script only keeps its bytes), True for one where
    it is, None for anything else (an ack, an error). Reads only the message's first bytes:
    the server writes a view's ``current_players`` and ``terminal`` first (``seat_payload``),
    so the rest (board, log) is parsed only when the script acts on it."""
    if not raw.startswith(VIEW_PREFIX):
        return None
    end = raw.find(b"]", len(VIEW_PREFIX))
    if end < 0:
        return True
    players = raw[len(VIEW_PREFIX):end]
    mine = b"0" in players.split(b",")
    return mine or raw.startswith(b',"terminal":true', end + 1)


def _sent_before(p: Player, log: list[dict[str, Any]]) -> bool:
    """Whether ``p``'s unanswered move is in ``log`` (an entry of its seat after the log it
    was chosen on: the script plays one move at a time, so it can only be that one)."""
    pend = p.pending
    assert pend is not None
    return any(
        e.get("seat") == 0 and e.get("notation") == pend["action"] for e in log[pend["log"]:]
    )


async def _play_ws(
    base: str, p: Player, stats: Stats, client: httpx.AsyncClient, stop: asyncio.Event, think: float
) -> None:
    """Play ``p``'s seat over its one WebSocket: views come pushed, moves go as ``act``
    messages, each answered by an ``ack`` (after the view showing it) or an ``error``. A move
    left unanswered by a dead process is looked for in the first view after reconnecting:
    counted when it was applied, sent again (same version) when not."""
    ws_url = base.replace("http", "ws") + f"/api/games/{p.gid}/ws"
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(orjson.dumps({"token": p.token}).decode())
        latest: dict[str, Any] | None = None  # the last view read in full
        last_raw: bytes | None = None  # the last view received
        gate = p.acked_version  # act only on a view at least this new
        reconnected = p.pending is not None
        idle = 0.0

        async def act(action: str, version: int, log_len: int) -> None:
            p.next_id += 1
            p.pending = {
                "id": p.next_id, "action": action, "version": version, "log": log_len,
                "t0": time.perf_counter(),
            }
            await ws.send(
                orjson.dumps(
                    {"type": "act", "id": p.next_id, "action": action, "version": version}
                ).decode()
            )

        drain = 0.0  # once stopped: how long the last move's answer is still awaited
        while True:
            if stop.is_set():
                # A phase ends: wait (a little) for the answer of a move already sent, so
                # that only a killed process leaves a move unanswered.
                drain = drain or time.monotonic() + 5.0
                if p.pending is None or time.monotonic() > drain:
                    return
            try:
                raw = await asyncio.wait_for(ws.recv(decode=False), timeout=0.5)
                idle = 0.0
            except TimeoutError:
                idle += 0.5
                if idle < 10 or last_raw is None or p.pending is not None:
                    continue
                # Quiet for long: look. A newer view than the last push means a push was lost.
                idle = 0.0
                got = await client.get(
                    f"{base}/api/games/{p.gid}/view", headers={"Authorization": f"Bearer {p.token}"}
                )
                pushed = orjson.loads(last_raw)["data"]["version"]
                if got.json()["version"] > pushed:
                    stats.errors.append(f"{p.gid}: push of version {got.json()['version']} missed")
                continue
            assert isinstance(raw, bytes)
            full = glance(raw)
            if full is False and not reconnected:
                # not this seat's turn: keep the bytes (the ack that follows may need them)
                last_raw = raw
                continue
            msg = orjson.loads(raw)
            kind = msg["type"]
            if kind == "view":
                last_raw = raw
                view = msg["data"]
                if latest is not None and view["version"] < latest["version"]:
                    continue
                latest = view
                if view["version"] >= p.acked_version and p.acked_version >= 0:
                    p.acked_raw = raw  # committed, and it shows every acked move
                if reconnected:
                    reconnected = False
                    pend = p.pending
                    assert pend is not None
                    if _sent_before(p, view["log"]):
                        # applied before the process died; its ack was lost with it
                        stats.unanswered_applied += 1
                        stats.moves += 1
                        p.moves += 1
                        p.pending = None
                        p.acked_version = gate = view["version"]
                        p.acked_raw = raw
                    else:
                        stats.unanswered_resent += 1
                        await act(pend["action"], pend["version"], pend["log"])
                        continue
            elif kind == "ack":
                pend = p.pending
                if pend is None or msg["id"] != pend["id"]:
                    stats.errors.append(f"{p.gid}: an ack for no move of mine: {msg}")
                    return
                stats.moves += 1
                p.moves += 1
                if stats.record:
                    stats.client_ms.append((time.perf_counter() - pend["t0"]) * 1000)
                p.pending = None
                p.acked_version = gate = msg["version"]
                # The server sends the view that shows a move before its ack: the last view
                # received is at least that new.
                p.acked_raw = last_raw
            elif kind == "error":
                pend = p.pending
                p.pending = None
                if msg.get("code") == "stale_version":
                    stats.stale += 1
                    if pend is not None:
                        gate = max(gate, pend["version"] + 1)  # wait for a newer view
                else:
                    stats.errors.append(f"{p.gid}: {msg}")
                    return
            else:
                continue  # chat and other news
            if latest is None:
                continue
            if latest["terminal"] and p.pending is None:
                p.done = True
                p.result = {"scores": latest["scores"], "winners": latest["winners"]}
                return
            if p.pending is None and latest["legal"] and latest["version"] >= gate:
                if stop.is_set():
                    return
                if think:
                    await asyncio.sleep(p.rng.uniform(0.5 * think, 1.5 * think))
                choice = p.rng.choice(latest["legal"])["action"]
                await act(choice, latest["version"], len(latest["log"]))


async def run_phase(
    base: str,
    players: list[Player],
    stats: Stats,
    seconds: float | None,
    think: float,
    during: Any = None,
) -> None:
    """Play for ``seconds`` (None: until every game is over); ``during``: a coroutine run
    meanwhile (a fault, a measurement)."""
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=len(players) + 5)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        tasks = [
            asyncio.create_task(play(base, p, stats, client, stop, think))
            for p in players
            if not p.done
        ]
        side = asyncio.create_task(during) if during is not None else None
        if seconds is not None:
            await asyncio.sleep(seconds)
            stop.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        if side is not None:
            await side
    for res in results:
        if isinstance(res, BaseException) and not isinstance(res, asyncio.CancelledError):
            stats.errors.append(f"client task failed: {res!r}")


def check_intact(base: str, players: list[Player]) -> list[str]:
    """Every move acknowledged before the kill is still there, with the same log."""
    problems = []
    for p in players:
        r = httpx.get(
            f"{base}/api/games/{p.gid}/view",
            headers={"Authorization": f"Bearer {p.token}"},
            timeout=30,
        )
        if r.status_code != 200:
            problems.append(f"{p.gid}: view {r.status_code}")
            continue
        v = r.json()
        if v["version"] < p.acked_version:
            problems.append(f"{p.gid}: version {v['version']} < acknowledged {p.acked_version}")
        acked = p.acked_log
        if p.acked_raw is not None:  # a table played over its socket
            acked = orjson.loads(p.acked_raw)["data"]["log"]
        if v["log"][: len(acked)] != acked:
            problems.append(f"{p.gid}: log differs from the acknowledged one")
    return problems


def run(
    games: int = 50,
    kill_after: float = 8.0,
    seed: int = 0,
    titles: list[str] | None = None,
    think: float = 0.0,
    bot_delay: float = 0.0,
    after: float = 0.0,
) -> dict[str, Any]:
    """Phases: play ``kill_after`` s, SIGKILL, restart, check, play ``after`` s more (these
    two are measured), then finish every game with no think time (not measured)."""
    tmp = tempfile.mkdtemp(prefix="nightsky-load-")
    db = f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(seed)
    proc = start_server(port, db, bot_delay)
    players: list[Player] = []
    stats = Stats()
    report: dict[str, Any] = {
        "games": games,
        "think_seconds": think,
        "bot_delay": bot_delay,
        "load_average_at_start": os.getloadavg()[0],
    }
    try:
        for i in range(games):
            game = (titles or GAMES)[i % len(titles or GAMES)]
            r = httpx.post(
                f"{base}/api/games",
                json={
                    "game": game,
                    "players": 2,
                    "options": OPTIONS.get(game, {}),
                    "seats": ["human", "random"],
                    "seed": rng.randrange(2**40),
                },
                timeout=30,
            )
            r.raise_for_status()
            made = r.json()
            players.append(
                Player(made["id"], game, made["tokens"][0]["token"], random.Random(rng.random()))
            )
        t0 = time.perf_counter()
        run_async(run_phase(base, players, stats, kill_after, think))
        before_kill = httpx.get(f"{base}/api/metrics", timeout=30).json()
        proc.send_signal(signal.SIGKILL)  # a crash: no clean shutdown
        proc.wait()
        report["moves_before_kill"] = stats.moves
        report["finished_before_kill"] = sum(p.done for p in players)
        t1 = time.perf_counter()
        proc = start_server(port, db, bot_delay)
        report["restart_seconds"] = round(time.perf_counter() - t1, 2)
        problems = check_intact(base, players)
        report["intact_after_restart"] = not problems
        stats.errors.extend(problems)
        after_restart: dict[str, Any] | None = None
        if after:
            run_async(run_phase(base, players, stats, after, think))
            after_restart = httpx.get(f"{base}/api/metrics", timeout=30).json()
        report["load_average_measured"] = os.getloadavg()[0]
        stats.record = False
        run_async(run_phase(base, players, stats, None, 0.0))
        report["wall_seconds"] = round(time.perf_counter() - t0, 1)
        report["finished"] = check_finished(base, players, stats)
    finally:
        stop_server(proc, 10)
    report.update(
        {
            "human_moves_total": stats.moves,
            "human_moves_measured": len(stats.client_ms),
            "stale_409_retried": stats.stale,
            "transport_retries": stats.transport_retries,
            "errors": stats.errors,
            "lost_moves": sum(1 for e in stats.errors if "acknowledged" in e or "log differs" in e),
            "client_round_trip_ms": {f"p{q}": pct(stats.client_ms, q) for q in (50, 95, 99)},
            "server_post_ms": {f"p{q}": pct(stats.server_ms, q) for q in (50, 95, 99)},
            "server_work_per_move_ms_before_kill": before_kill["latency_ms"],
            "moves_counted_before_kill": before_kill["moves"],
            "server_work_per_move_ms_after_restart": (after_restart or {}).get("latency_ms"),
            "moves_counted_after_restart": (after_restart or {}).get("moves"),
            "cpus": os.cpu_count(),
        }
    )
    return report


def check_finished(base: str, players: list[Player], stats: Stats) -> int:
    """Every game finished and its downloadable record replays to the result its player saw
    (each failure goes to ``stats.errors``); how many finished."""
    from nightsky.core.record import replay

    for p in players:
        if not p.done or p.result is None:
            stats.errors.append(f"{p.gid}: not finished")
            continue
        rec = httpx.get(f"{base}/api/games/{p.gid}/record", timeout=30).json()
        final = replay(rec)
        if final.scores() != p.result["scores"] or final.winners() != p.result["winners"]:
            stats.errors.append(f"{p.gid}: record does not replay to the seen result")
    return sum(p.done for p in players)


def stop_server(proc: subprocess.Popen[bytes], wait: float) -> None:
    """SIGTERM, ``wait`` seconds for a clean stop, then SIGKILL."""
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=wait)
    if proc.poll() is None:
        proc.kill()


def create_games(base: str, games: int, rng: random.Random) -> list[Player]:
    players = []
    for i in range(games):
        game = GAMES[i % len(GAMES)]
        r = httpx.post(
            f"{base}/api/games",
            json={
                "game": game,
                "players": 2,
                "options": OPTIONS.get(game, {}),
                "seats": ["human", "random"],
                "seed": rng.randrange(2**40),
            },
            timeout=30,
        )
        r.raise_for_status()
        made = r.json()
        players.append(
            Player(made["id"], game, made["tokens"][0]["token"], random.Random(rng.random()))
        )
    return players


def workers_of(pid: int) -> list[int]:
    """The server processes of ``nightsky serve --workers N`` (pid: the supervisor)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == pid and b"spawn_main" in cmd:
            out.append(int(entry.name))
    return sorted(out)


def postmaster_of(db: str) -> int | None:
    """The PostgreSQL server process listening on ``db``'s port on this machine (None when it
    runs elsewhere)."""
    from sqlalchemy.engine import make_url

    port = make_url(db).port or 5432
    want = b"\0-p\0" + str(port).encode() + b"\0"
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                cmd = (entry / "cmdline").read_bytes()
                if b"postgres" in cmd.split(b"\0", 1)[0] and want in cmd + b"\0":
                    return int(entry.name)
    return None


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_marks(supervisor: int | None, postmaster: int | None = None) -> dict[str, float]:
    """CPU seconds used so far: by the server processes (children of ``supervisor``; the
    supervisor itself when it has none, i.e. one process), by PostgreSQL (``postmaster``, its
    live backends and those gone), by this client, and by the whole machine (busy, from
    /proc/stat), to see where a saturation run's cores went."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {"server": 0.0}
    if postmaster is not None:
        with contextlib.suppress(OSError, ValueError, IndexError):
            f = _stat(postmaster)
            used = float(sum(int(x) for x in f[11:15]))  # its own, and its children's that exited
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    with contextlib.suppress(OSError, ValueError, IndexError):
                        g = _stat(int(entry.name))
                        if int(g[1]) == postmaster:
                            used += int(g[11]) + int(g[12])
            out["postgres"] = used / tick
    if supervisor is not None:
        pids = workers_of(supervisor) or [supervisor]
        for i, pid in enumerate(pids):
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                used = (int(fields[11]) + int(fields[12])) / tick
                out["server"] += used
                if len(pids) > 1:
                    out[f"server_{i}"] = used
    cpu = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = cpu[3] + (cpu[4] if len(cpu) > 4 else 0)
    out["client"] = time.process_time()
    out["busy"] = (sum(cpu) - idle) / tick
    return out


def saturate(
    base: str,
    games: int,
    seconds: float,
    seed: int,
    supervisor: int | None = None,
    postmaster: int | None = None,
) -> dict[str, Any]:
    """Moves per second with humans that never think, on ``games`` tables at all times (a
    finished game is replaced by a new one): acknowledged human moves (each answered by a bot
    move) counted over ``seconds`` after a 2 s warm-up; and where the CPU went meanwhile."""
    stats = Stats(record=False)
    marks: dict[str, float] = {}
    cpu: dict[str, dict[str, float]] = {}
    rng = random.Random(seed + 1)

    async def table(i: int, client: httpx.AsyncClient, stop: asyncio.Event) -> None:
        while not stop.is_set():
            game = GAMES[i % len(GAMES)]
            r = await client.post(
                f"{base}/api/games",
                json={"game": game, "players": 2, "options": OPTIONS.get(game, {}),
                      "seats": ["human", "random"],
                      "seed": rng.randrange(2**40)},
            )
            r.raise_for_status()
            made = r.json()
            p = Player(made["id"], game, made["tokens"][0]["token"], random.Random(rng.random()))
            await play(base, p, stats, client, stop, 0.0)
            i += len(GAMES) + 1

    async def main() -> None:
        stop = asyncio.Event()
        limits = httpx.Limits(max_connections=games + 5)
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            tasks = [asyncio.create_task(table(i, client, stop)) for i in range(games)]
            await asyncio.sleep(2.0)
            marks["m0"], marks["t0"] = stats.moves, time.perf_counter()
            cpu["0"] = cpu_marks(supervisor, postmaster)
            await asyncio.sleep(seconds)
            marks["m1"], marks["t1"] = stats.moves, time.perf_counter()
            cpu["1"] = cpu_marks(supervisor, postmaster)
            stop.set()
            for res in await asyncio.gather(*tasks, return_exceptions=True):
                if isinstance(res, BaseException):
                    stats.errors.append(f"client task failed: {res!r}")

    run_async(main())
    moves = marks["m1"] - marks["m0"]
    wall = marks["t1"] - marks["t0"]
    used = {k: cpu["1"][k] - cpu["0"][k] for k in cpu["0"] if k in cpu["1"]}
    return {
        "human_moves_per_second": round(moves / wall, 1),
        "human_moves_counted": int(moves),
        # cores busy on average over the measured seconds, and CPU ms per human move
        "cores_busy": {k: round(v / wall, 2) for k, v in used.items()},
        "cpu_ms_per_human_move": {
            k: round(1000 * v / moves, 2) if moves else None for k, v in used.items()
        },
        "errors": stats.errors,
        "load_average": os.getloadavg()[0],
    }


def run_workers(
    games: int,
    workers: int,
    db: str,
    *,
    kill_one: bool,
    kill_after: float,
    after: float,
    think: float,
    bot_delay: float,
    seconds: float,
    seed: int,
    tables: int | None = None,
) -> dict[str, Any]:
    """One server of ``workers`` processes on ``db`` (PostgreSQL): saturation for ``seconds``
    on ``tables`` tables (default ``games``),
    then (``kill_one``) play at ``think`` pace, SIGKILL one process after ``kill_after`` s,
    play ``after`` s more, finish every game and check nothing acknowledged was lost."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_server(port, db, bot_delay, workers)
    report: dict[str, Any] = {"workers": workers, "games": games}
    stats = Stats(record=False)
    try:
        deadline = time.monotonic() + 30
        # (one process serves in the supervisor itself: no children to wait for)
        while workers > 1 and len(workers_of(proc.pid)) < workers and time.monotonic() < deadline:
            time.sleep(0.1)
        report["saturation"] = saturate(
            base, tables or games, seconds, seed, proc.pid, postmaster_of(db)
        )
        report["saturation"]["tables"] = tables or games
        progress(f"{workers} process(es), saturation", report["saturation"])
        if not kill_one:
            return report
        players = create_games(base, games, random.Random(seed))
        fault: dict[str, Any] = {}
        run_async(
            run_phase(
                base, players, stats, kill_after + after, think,
                during=kill_a_process(proc.pid, db, kill_after, fault),
            )
        )
        report["kill"] = fault
        progress("kill -9 of one process", {**fault, "errors_so_far": stats.errors})
        run_async(run_phase(base, players, stats, None, 0.0))
        problems = check_intact(base, players)
        stats.errors.extend(problems)
        report["finished"] = check_finished(base, players, stats)
    finally:
        stop_server(proc, 15)
    report.update(
        {
            "human_moves_after_saturation": stats.moves,
            "lost_moves": sum(
                1 for e in stats.errors if "acknowledged" in e or "log differs" in e
            ),
            "errors": stats.errors,
            "reconnects": stats.reconnects,
            "transport_retries": stats.transport_retries,
            "stale_409_retried": stats.stale,
            "unanswered_moves_found_applied": stats.unanswered_applied,
            "unanswered_moves_sent_again": stats.unanswered_resent,
        }
    )
    return report


async def kill_a_process(supervisor: int, db: str, wait: float, out: dict[str, Any]) -> None:
    """After ``wait`` s, SIGKILL the server process holding the most table leases; then time
    how soon each of its tables' bot seat (seat 1) moves again (polled every 0.05 s)."""
    import psycopg

    from nightsky.server.store import driver_url

    await asyncio.sleep(wait)
    url = driver_url(db).replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as conn:
        pids = workers_of(supervisor)
        rows = conn.execute(
            "SELECT l.game_id, l.holder FROM leases l JOIN games g ON g.id = l.game_id "
            "WHERE g.status = 'playing'"
        ).fetchall()
        held: dict[int, list[str]] = {pid: [] for pid in pids}
        for gid, holder in rows:
            pid = int(holder.split(":")[-2])
            if pid in held:
                held[pid].append(gid)
        victim = max(pids, key=lambda pid: len(held[pid]))
        tables = held[victim]

        def bot_moves() -> dict[str, int]:
            got = conn.execute(
                "SELECT game_id, count(*) FROM moves WHERE seat = 1 AND game_id = ANY(%s) "
                "GROUP BY game_id",
                (tables,),
            ).fetchall()
            return {g: int(n) for g, n in got}

        def taken() -> set[str]:
            got = conn.execute(
                "SELECT game_id FROM leases WHERE game_id = ANY(%s) AND holder NOT LIKE %s",
                (tables, f"%:{victim}:%"),
            ).fetchall()
            return {g for (g,) in got}

        def finished() -> set[str]:
            got = conn.execute(
                "SELECT id FROM games WHERE id = ANY(%s) AND status <> 'playing'", (tables,)
            ).fetchall()
            return {g for (g,) in got}

        os.kill(victim, signal.SIGKILL)
        t0 = time.perf_counter()
        # A move the dead process had under way may still have landed; count from here.
        await asyncio.sleep(0.05)
        start = bot_moves()
        waited: dict[str, float] = {}
        took: dict[str, float] = {}
        while time.perf_counter() - t0 < 15 and len(waited) < len(tables):
            now, over, other = bot_moves(), finished(), taken()
            for gid in other | over:
                took.setdefault(gid, time.perf_counter() - t0)
            for gid in tables:
                if gid not in waited and (now.get(gid, 0) > start.get(gid, 0) or gid in over):
                    waited[gid] = time.perf_counter() - t0
            await asyncio.sleep(0.05)
        out.update(
            {
                "killed_pid": victim,
                "processes": len(pids),
                "its_tables": len(tables),
                "bots_moved_again_within_s": {
                    "max": round(max(waited.values(), default=0.0), 2),
                    "median": round(sorted(waited.values())[len(waited) // 2], 2)
                    if waited
                    else None,
                },
                # a bot whose human seat is to move (or away) cannot move: the lease is what
                # every table of the dead process gets back
                "tables_whose_bot_never_moved_in_15_s": len(tables) - len(waited),
                "leases_taken_over_within_s": {
                    "max": round(max(took.values(), default=0.0), 2),
                    "median": round(sorted(took.values())[len(took) // 2], 2) if took else None,
                    "tables": len(took),
                },
            }
        )


def progress(what: str, data: Any) -> None:
    """One phase's result on stderr as soon as it is known (a long run can be followed)."""
    print(f"[{time.strftime('%H:%M:%S')}] {what}: {json.dumps(data)}", file=sys.stderr, flush=True)


def main_workers(args: argparse.Namespace) -> dict[str, Any]:
    """``--workers N``: one process, then N, on the same database; the ratio of their moves
    per second at saturation; the fault on the N-process server (``--kill-one``)."""
    temp = None
    db = args.db
    if db is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.support.pg import TempPostgres

        temp = TempPostgres()
        db = temp.url
    try:
        report: dict[str, Any] = {
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "uptime_before": subprocess.run(
                ["uptime"], capture_output=True, text=True, check=False
            ).stdout.strip(),
            "cpus": os.cpu_count(),
            "bot_delay": args.bot_delay,
            "moves_over": "http" if args.http_moves else "websocket",
        }
        common = {
            "think": args.think, "bot_delay": args.bot_delay, "seconds": args.saturate,
            "seed": args.seed, "kill_after": args.kill_after, "after": args.after,
            "tables": args.saturation_tables,
        }
        if args.workers > 1 and not args.no_baseline:
            report["one_process"] = run_workers(args.games, 1, db, kill_one=False, **common)
        report["n_processes"] = run_workers(
            args.games, args.workers, db, kill_one=args.kill_one, **common
        )
        if "one_process" in report:
            one = report["one_process"]["saturation"]["human_moves_per_second"]
            many = report["n_processes"]["saturation"]["human_moves_per_second"]
            report["throughput_ratio"] = round(many / one, 2) if one else None
        report["uptime_after"] = subprocess.run(
            ["uptime"], capture_output=True, text=True, check=False
        ).stdout.strip()
        report["errors"] = report["n_processes"].get("errors", []) + [
            e
            for part in ("one_process", "n_processes")
            for e in report.get(part, {}).get("saturation", {}).get("errors", [])
        ]
        kill = report["n_processes"].get("kill")
        if kill and (
            kill["leases_taken_over_within_s"]["max"] > 5
            or kill["leases_taken_over_within_s"]["tables"] < kill["its_tables"]
        ):
            report["errors"].append("a table of the dead process waited over 5 s for a driver")
        return report
    finally:
        if temp is not None:
            temp.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--kill-after", type=float, default=8.0, help="seconds before the SIGKILL")
    ap.add_argument("--after", type=float, default=10.0, help="seconds measured after the restart")
    ap.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="mean seconds the scripted human waits before each move",
    )
    ap.add_argument("--bot-delay", type=float, default=0.1, help="server's bot delay")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, help="also write the report here")
    ap.add_argument(
        "--workers", type=int, default=0,
        help="server processes (PostgreSQL): measure 1 then N processes at saturation",
    )
    ap.add_argument(
        "--db", help="with --workers: a PostgreSQL URL (default: a throw-away cluster)"
    )
    ap.add_argument(
        "--kill-one", action="store_true", help="with --workers: SIGKILL one process mid-run"
    )
    ap.add_argument(
        "--saturate", type=float, default=10.0, help="with --workers: seconds measured"
    )
    ap.add_argument(
        "--saturation-tables",
        type=int,
        default=None,
        help="with --workers: tables played at once while saturating (default --games); "
        "enough that the servers, not the tables' bot delays, set the pace",
    )
    ap.add_argument("--no-baseline", action="store_true", help="skip the 1-process run")
    ap.add_argument(
        "--http-moves", action="store_true",
        help="send moves as POST .../actions (as before) instead of over each table's socket",
    )
    args = ap.parse_args()
    global HTTP_MOVES
    HTTP_MOVES = args.http_moves
    if args.workers:
        report = main_workers(args)
        text = json.dumps(report, indent=2)
        print(text)
        if args.json:
            args.json.write_text(text + "\n")
        sys.exit(1 if report["errors"] else 0)
    report = run(
        args.games,
        args.kill_after,
        args.seed,
        think=args.think,
        bot_delay=args.bot_delay,
        after=args.after,
    )
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    sys.exit(1 if report["errors"] else 0)


if __name__ == "__main__":
    main()
