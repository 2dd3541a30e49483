"""SIGTERM stops a server whose bots are deep in thought within 5 s (issue 26)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_sigterm_with_a_thinking_bot_stops_the_server_within_5_s(tmp_path):
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "nightsky", "serve", "--port", str(port),
           "--db", f"sqlite:///{tmp_path / 'g.sqlite3'}", "--bot-delay", "0"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/api/catalog", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
        seats = ["ismcts:seconds=5", "ismcts:seconds=5"]
        r = httpx.post(f"{base}/api/games", json={
            "game": "star-fire", "players": 2, "seats": seats}, timeout=10)
        assert r.status_code == 201, r.text
        time.sleep(1.5)  # a search is under way in a worker process
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        took = time.monotonic() - t0
        print(f"stopped in {took:.2f} s")
        assert took < 5
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
