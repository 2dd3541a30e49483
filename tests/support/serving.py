"""``nightsky serve`` as a subprocess for tests and load scripts: start it, wait until it
serves, stop it with SIGTERM (killed if it will not stop)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from typing import Any

import httpx


def serve(args: list[str], out: Any = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    """``python -m nightsky serve ARGS`` with this interpreter and its import path; stdout
    and stderr go to ``out``."""
    cmd = [sys.executable, "-m", "nightsky", "serve", *args]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)


def wait_serving(base: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Wait until ``base`` answers ``/readyz`` with 200 (AssertionError if the process exits
    or ``timeout`` passes first)."""
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, f"the server exited with status {proc.returncode}"
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        assert time.monotonic() < deadline, f"the server did not answer in {timeout:.0f} s"
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes], timeout: float = 30.0) -> int:
    """SIGTERM, then SIGKILL if it has not exited within ``timeout``; its exit status."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
    return proc.wait()
