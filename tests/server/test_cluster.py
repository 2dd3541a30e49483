"""Several server processes on one PostgreSQL database (server/cluster.py), against a
throw-away cluster started in a temporary directory (tests/support/pg.py).

Two ``Manager``s in this process stand for two server processes (each has its own rooms, its
own LISTEN connection and its own lease holder); the last tests start ``nightsky serve
--workers 2`` for real and kill -9 one of its processes.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from nightsky.server.rooms import Manager, NewGame, ServerError, Subscriber
from nightsky.server.settings import Settings
from nightsky.server.store import Store

IN_CI = bool(os.environ.get("CI"))


def manager(url: str, *, delay: float = 0.0, start: bool = True) -> Manager:
    m = Manager(
        Store(url), bot_workers=2, bot_delay=delay, settings=Settings(bot_processes=0)
    )
    if start:
        m.start()
    return m


def stop(*managers: Manager) -> None:
    for m in managers:
        m.close()
        m.store.close()


def first_move(m: Manager, gid: str) -> tuple[int, str, int]:
    room = m.get(gid)
    with room.lock:
        seat = room.state.current_players()[0]
        return seat, str(room.state.legal_actions(seat)[0]), room.version


def test_two_processes_never_both_accept_a_move_on_one_version(pg_url: str) -> None:
    a, b = manager(pg_url, start=False), manager(pg_url, start=False)
    try:
        made = a.create(NewGame("shooting-star", ["human", "human"], players=2, listed=True))
        gid = made.room.id
        seat, move, version = first_move(a, gid)
        room_b = b.get(gid)  # B holds the game in memory at the same version
        a.act(a.get(gid), seat, move, version)
        with pytest.raises(ServerError) as refused:
            b.act(room_b, seat, move, version)  # no request came in between: B did not look
        assert refused.value.status == 409
        assert refused.value.code == "stale_version"
        # B reloaded the game in place: the same room object is at A's version now.
        assert room_b.version == version + 1 == b.store.load(gid).version  # type: ignore[union-attr]
        assert len(b.store.load(gid).history) == len(a.get(gid).state.history)  # type: ignore[union-attr]
    finally:
        stop(a, b)


def test_a_request_sees_the_move_another_process_acknowledged(pg_url: str) -> None:
    a, b = manager(pg_url, start=False), manager(pg_url, start=False)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "human"], players=2)).room.id
        b.get(gid)
        seat, move, version = first_move(a, gid)
        a.act(a.get(gid), seat, move, version)
        assert b.get(gid).version == version + 1  # checked on the request, not on a push
    finally:
        stop(a, b)


def test_a_socket_on_one_process_gets_a_move_made_through_another(pg_url: str) -> None:
    a, b = manager(pg_url), manager(pg_url)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "human"], players=2)).room.id
        pushed: queue.Queue[dict[str, Any]] = queue.Queue()
        a.subscribe(a.get(gid), Subscriber(seat=None, push=pushed.put))
        seat, move, version = first_move(b, gid)
        time.sleep(0.3)  # both listeners are up
        t0 = time.monotonic()
        b.act(b.get(gid), seat, move, version)
        got = pushed.get(timeout=5)
        assert got["version"] == version + 1
        assert json.loads(got["text"])["data"]["version"] == version + 1
        assert time.monotonic() - t0 < 2.0
    finally:
        stop(a, b)


def test_one_process_drives_a_tables_bots_and_another_takes_over_when_it_dies(
    pg_url: str,
) -> None:
    a, b = manager(pg_url, delay=0.2), manager(pg_url, delay=0.2)
    try:
        room = a.create(NewGame("stars-are-right", ["random", "random"], players=2)).room
        gid = room.id
        b.get(gid)  # B holds it in memory too and would drive it if it could
        time.sleep(1.5)
        assert a.cluster is not None and b.cluster is not None
        assert gid in a.cluster.held and gid not in b.cluster.held
        # "kill" A: its threads stop, it never gives its lease back.
        a.cluster._stop.set()
        a.bots.close()
        a.driver.stop()  # and its clock driver (else it ticks on against a closed database)
        at_death = a.store.load(gid)
        assert at_death is not None and at_death.status == "playing"
        t0 = time.monotonic()
        while time.monotonic() - t0 < 8:
            now = b.store.load(gid)
            assert now is not None
            if now.version > at_death.version + 1:  # B's bots move (a move A had under way
                break  # may still land: it was started before the death)
            time.sleep(0.05)
        took = time.monotonic() - t0
        assert took < 5.0, f"the bots moved again only after {took:.1f} s"
        assert gid in b.cluster.held
        # A's LISTEN connection closed with it: B did not wait for the lease to expire.
        assert took < b.cluster.ttl, f"taken over after {took:.1f} s, not before the expiry"
        # Never two bot moves for one turn: the stored history replays through the rules.
        b.refresh(b.get(gid), full=True)
    finally:
        stop(b)
        a.driver.stop()
        with contextlib.suppress(Exception):
            a.store.close()


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    from nightsky.cli import _load_commands, app

    _load_commands()
    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--db", db])
    assert result.exit_code != 0
    said = " ".join(result.output.replace("\u2502", " ").split())  # unbox the error panel
    assert "--workers" in said and "need a PostgreSQL database" in said, said


def _children(pid: int) -> list[int]:
    """The server worker processes of ``pid`` (multiprocessing spawn children)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"spawn_main" in cmd:
            out.append(int(entry.name))
    return sorted(out)


@pytest.mark.slow
def test_two_worker_processes_serve_one_port_and_survive_a_kill(pg_url: str) -> None:
    port = int(__import__("tests.support.pg", fromlist=["free_port"]).free_port())
    base = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "nightsky", "serve", "--workers", "2", "--db", pg_url,
        "--port", str(port), "--bot-delay", "0.05", "--bot-processes", "0",
        "--log-level", "warning", "--allow-client-seed",
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 90  # two processes start slowly on a busy machine
        while True:
            assert proc.poll() is None, proc.stderr.read().decode()[-3000:]  # type: ignore[union-attr]
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = _children(proc.pid)
        assert len(workers) == 2
        games = []
        for _ in range(4):
            r = httpx.post(
                f"{base}/api/games",
                json={"game": "stars-are-right", "players": 2, "seats": ["human", "random"]},
            )
            assert r.status_code == 201, r.text
            games.append((r.json()["id"], r.json()["tokens"][0]["token"]))

        def play(gid: str, token: str, moves: int) -> None:
            """Play ``moves`` moves of the human seat: each on a new connection (so on
            either process), waiting for the bot in between."""
            h = {"Authorization": f"Bearer {token}"}
            done = 0
            t_end = time.monotonic() + 20
            while done < moves:
                assert time.monotonic() < t_end, f"{gid}: no move possible for 20 s"
                try:
                    v = httpx.get(f"{base}/api/games/{gid}/view", headers=h, timeout=5).json()
                    if v["terminal"]:
                        return
                    if not v["legal"]:
                        time.sleep(0.05)
                        continue
                    r = httpx.post(
                        f"{base}/api/games/{gid}/actions", headers=h, timeout=5,
                        json={"action": v["legal"][0]["action"], "version": v["version"]},
                    )
                except httpx.TransportError:
                    continue  # the process died under the request: look again
                assert r.status_code in (200, 409), r.text
                if r.status_code == 200:
                    done += 1
                    t_end = time.monotonic() + 20

        for gid, token in games:
            play(gid, token, 3)
        os.kill(workers[0], signal.SIGKILL)
        t0 = time.monotonic()
        for gid, token in games:
            play(gid, token, 2)  # served by the survivor, bots included (lease takeover)
        assert time.monotonic() - t0 < 5 * len(games)
        assert httpx.get(f"{base}/readyz", timeout=5).status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_for(cond: Any, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.02)
    return False


def watched_lease(m: Manager, gid: str) -> bool:
    """Whether the stored lease of ``gid`` says its holder has a socket on the table."""
    from sqlalchemy import text

    with m.store.engine.begin() as c:
        row = c.execute(text("SELECT watched FROM leases WHERE game_id = :g"), {"g": gid}).first()
    return bool(row and row[0])


def human_move(m: Manager, gid: str) -> tuple[str, int]:
    """Seat 0's first legal action and the version, once seat 0 is to move (bots settled)."""
    room = m.get(gid)
    assert wait_for(lambda: 0 in room.state.current_players() and not room.bot_busy)
    with room.lock:
        return str(room.state.legal_actions(0)[0]), room.version


def test_the_lease_follows_the_process_that_accepts_a_move_and_the_old_one_stops_at_once(
    pg_url: str,
) -> None:
    a, b = manager(pg_url, delay=0.05), manager(pg_url, delay=0.05)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "random"], players=2)).room.id
        assert a.cluster is not None and b.cluster is not None
        assert a.cluster.holds(gid)
        assert wait_for(lambda: a.cluster._listen_conn is not None)  # type: ignore[union-attr]
        assert wait_for(lambda: b.cluster._listen_conn is not None)  # type: ignore[union-attr]
        room_a = a.rooms[gid]
        stale_version = room_a.version
        move, version = human_move(b, gid)
        # A renews nothing from now on: only B's notification can tell it (else it would go on
        # trusting its lease for two seconds).
        a.cluster.held[gid] = time.monotonic() + 30
        a.cluster.beat = lambda: None  # type: ignore[method-assign]
        b.act(b.get(gid), 0, move, version)
        assert b.cluster.holds(gid)  # A had no socket on it: B took it with the move
        assert wait_for(lambda: not a.cluster.holds(gid), 3.0)  # type: ignore[union-attr]
        # B drives the bot; A, with no socket and no lease, never replays B's moves.
        for _ in range(3):
            move, version = human_move(b, gid)
            b.act(b.get(gid), 0, move, version)
        human_move(b, gid)
        assert room_a.version == stale_version and gid in a.cluster.stale
        stored = b.store.load(gid)
        assert stored is not None and stored.version > stale_version
        # A's next use catches up (lazily), and the stored history replays: never two bot
        # moves for one turn.
        assert a.get(gid).version == stored.version and gid not in a.cluster.stale
        b.refresh(b.get(gid), full=True)
        seats = [s for s, _ in stored.history if s >= 0]
        assert seats.count(1) <= seats.count(0) + 1
    finally:
        stop(a, b)


def test_a_holder_with_a_socket_keeps_the_lease_and_pushes_moves_made_elsewhere(
    pg_url: str,
) -> None:
    a, b = manager(pg_url, delay=0.05), manager(pg_url, delay=0.05)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "random"], players=2)).room.id
        assert a.cluster is not None and b.cluster is not None
        pushed: queue.Queue[dict[str, Any]] = queue.Queue()
        a.subscribe(a.get(gid), Subscriber(seat=0, push=pushed.put))
        assert wait_for(lambda: watched_lease(a, gid))  # A's renewal: a socket there
        move, version = human_move(b, gid)
        b.act(b.get(gid), 0, move, version)
        assert not b.cluster.holds(gid) and a.cluster.holds(gid)
        got = pushed.get(timeout=5)
        while got["version"] < version + 1:
            got = pushed.get(timeout=5)
        # A (the socket's process) drives the bot's answer.
        assert wait_for(lambda: a.rooms[gid].version >= version + 2)
        held = b.store.load(gid)
        assert held is not None and held.version >= version + 2
    finally:
        stop(a, b)


def test_a_socket_takes_the_lease_from_a_holder_without_one(pg_url: str) -> None:
    a, b = manager(pg_url), manager(pg_url)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "human"], players=2)).room.id
        assert a.cluster is not None and b.cluster is not None
        time.sleep(0.3)
        b.subscribe(b.get(gid), Subscriber(seat=None, push=lambda _: None))
        # At B's next look (its tick, or here a request's drive) B has a socket: it takes it.
        b.drive(b.get(gid))
        assert b.cluster.holds(gid)
        assert wait_for(lambda: not a.cluster.holds(gid), 2.0)  # type: ignore[union-attr]
    finally:
        stop(a, b)


def test_a_watched_room_is_not_read_again_for_a_move_on_its_version(pg_url: str) -> None:
    a, b = manager(pg_url), manager(pg_url)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "human"], players=2)).room.id
        assert a.cluster is not None
        a.subscribe(a.get(gid), Subscriber(seat=None, push=lambda _: None))
        assert wait_for(lambda: a.cluster._listen_conn is not None)  # type: ignore[union-attr]
        room = a.get(gid)
        reads: list[Any] = []
        real = a.store.versions
        a.store.versions = lambda ids: reads.append(ids) or real(ids)  # type: ignore[method-assign]
        assert a.get(gid, seen=room.version) is room and not reads
        a.get(gid, seen=room.version + 1)  # a version it has not seen: it looks
        assert reads
        # A change made elsewhere whose notification has not arrived: the commit's version
        # check refuses the move (409) and the room is reloaded.
        seat, move, version = first_move(b, gid)
        a.cluster._listen_conn = None  # type: ignore[union-attr]  (deaf for the moment)
        a.cluster._stop.set()
        b.act(b.get(gid), seat, move, version)
        with pytest.raises(ServerError) as refused:
            a.act(room, seat, move, version)
        assert refused.value.code == "stale_version" and room.version == version + 1
    finally:
        stop(a, b)


def test_a_live_holder_that_misses_renewals_keeps_its_lease_until_it_expires(
    pg_url: str,
) -> None:
    a, b = manager(pg_url), manager(pg_url)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "random"], players=2)).room.id
        assert a.cluster is not None and b.cluster is not None
        assert wait_for(lambda: a.cluster._listen_conn is not None)  # type: ignore[union-attr]
        a.cluster.beat = lambda: None  # type: ignore[method-assign]  (renews nothing now)
        b.get(gid)
        t0 = time.monotonic()
        # Its LISTEN connection is up: alive, so B waits for the expiry (not the 1 s of a
        # holder that is gone).
        time.sleep(1.5)
        assert not b.cluster.hold(gid)
        assert time.monotonic() - t0 < a.cluster.ttl - a.cluster.tick  # (before the expiry)
        assert wait_for(lambda: b.cluster.hold(gid), 4.0)  # type: ignore[union-attr]
    finally:
        stop(a, b)


def test_a_notification_heard_during_a_catch_up_never_leaves_the_room_marked_stale(
    pg_url: str,
) -> None:
    # The listener thread and a request's catch-up (``fresh``) both look at the room's version
    # under one lock: a move heard of that the room already has is not marked, and a catch-up
    # clears only what it caught up with (CI once saw an up-to-date room left marked).
    a, b = manager(pg_url), manager(pg_url)
    try:
        gid = a.create(NewGame("shooting-star", ["human", "random"], players=2)).room.id
        assert a.cluster is not None
        room = a.rooms[gid]
        a.cluster._heard(f"{gid} {room.version} {b.cluster.holder}")  # type: ignore[union-attr]
        assert gid not in a.cluster.stale  # nothing newer than what A has
        move, version = human_move(b, gid)
        b.act(b.get(gid), 0, move, version)
        human_move(b, gid)  # B's bot has answered: nothing moves until seat 0 does again
        newest = b.store.load(gid)
        assert newest is not None and newest.version > room.version
        a.cluster._heard(f"{gid} {newest.version} {b.cluster.holder}")  # type: ignore[union-attr]
        assert a.cluster.stale.get(gid) == newest.version
        a.cluster.fresh(room)
        assert room.version == newest.version and gid not in a.cluster.stale
        a.cluster._heard(f"{gid} {newest.version} {b.cluster.holder}")  # type: ignore[union-attr]
        assert gid not in a.cluster.stale  # heard late, after the catch-up: not marked again
    finally:
        stop(a, b)
