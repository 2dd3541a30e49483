"""A throw-away PostgreSQL cluster in a temporary directory (tests and the load script).

``TempPostgres()`` runs ``initdb`` into a fresh temporary directory and starts ``postgres`` on a
free loopback port (its unix socket in the same directory): no system service, no fixed port,
nothing left behind after ``stop()``. PostgreSQL refuses to run as root, so as root the cluster
runs as ``nobody`` (the directory is handed to that user).

    python -m tests.support.pg      # start one, print its URL, stop it on Ctrl-C
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "nightsky"
DATABASE = "postgres"  # the database initdb makes


def pg_bin() -> Path | None:
    """The directory of ``initdb``/``postgres`` (``NIGHTSKY_PG_BIN``, then ``PATH``, then
    Debian's ``/usr/lib/postgresql/<version>/bin``, newest first); None when absent."""
    given = os.environ.get("NIGHTSKY_PG_BIN")
    if given and (Path(given) / "initdb").exists():
        return Path(given)
    found = shutil.which("initdb")
    if found and (Path(found).resolve().parent / "postgres").exists():
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    return Path(versions[-1]).parent if versions else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TempPostgres:
    """One throw-away cluster: ``url`` (SQLAlchemy, psycopg 3), ``stop()`` removes it all."""

    def __init__(self, bindir: Path | None = None) -> None:
        found = bindir or pg_bin()
        if found is None:
            raise FileNotFoundError("no PostgreSQL server binaries (initdb) found")
        self.bindir = found
        self.dir = Path(tempfile.mkdtemp(prefix="nightsky-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            # postgres will not run as root: the cluster belongs to `nobody`.
            shutil.chown(self.dir, "nobody", "nogroup")
            self._as = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        self.proc: subprocess.Popen[bytes] | None = None
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            cwd=self.dir,
        )

    def _start(self) -> None:
        self._run(
            str(self.bindir / "initdb"), "-D", str(self.data), "-U", USER, "--auth=trust",
            "-E", "UTF8", "--no-sync", "--no-instructions",
        )
        log = open(self.dir / "postgres.log", "wb")  # noqa: SIM115 (the server keeps it)
        self.proc = subprocess.Popen(
            [
                *self._as, str(self.bindir / "postgres"), "-D", str(self.data),
                "-p", str(self.port), "-k", str(self.dir), "-c", "listen_addresses=127.0.0.1",
                # a test database: speed over durability (a crash of the host loses it anyway)
                "-c", "fsync=off", "-c", "synchronous_commit=off",
                "-c", "full_page_writes=off", "-c", "max_connections=200",
            ],
            stdout=log, stderr=subprocess.STDOUT, cwd=self.dir,
        )
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    "postgres exited: " + (self.dir / "postgres.log").read_text()[-2000:]
                )
            if b"ready to accept connections" in (self.dir / "postgres.log").read_bytes():
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("postgres did not start in 30 s")

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete the directory."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> TempPostgres:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def main() -> None:
    # SIGTERM (and SIGINT, which a shell's background job ignores) stop it cleanly.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with TempPostgres() as pg:
        print(pg.url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()


if __name__ == "__main__":
    main()
