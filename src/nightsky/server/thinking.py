"""Search bots think in worker processes, off the event loop and off the server's GIL.

``ThinkPool.choose`` hands one worker a spec, the state the bot may see (already a resample:
the true state never leaves the server process), the seat and the bot's random generator, and
waits at most ``deadline`` seconds from when a worker takes it. A worker that overruns is
killed (and replaced on the next need): the caller plays a fallback move instead. Workers
start lazily, from a fork server that has the agents and games imported, and each lives under
an address-space limit.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import queue
import threading
import time
from collections import OrderedDict
from multiprocessing.connection import Connection
from typing import Any

from nightsky.agents.base import AgentSpec

log = logging.getLogger("nightsky.server")

STARTUP_SECONDS = 60.0
"""How long a fresh worker may take to start before it is given up (its move falls back)."""

WORKER_NICE = 10
"""How much nicer than the server process a think worker runs (``os.nice``)."""

_PRELOAD = ["nightsky.agents.base", "nightsky.agents.search", "nightsky.core.registry"]


def preload() -> list[str]:
    """The modules every worker has imported before it is forked: the agents, and each
    registered game's module and its bots' (so a move's clock never pays for an import)."""
    from nightsky.core.registry import game_classes

    names = set(_PRELOAD)
    for cls in game_classes():
        names.add(cls.__module__)
        names.update(where.partition(":")[0] for where in cls.agents.values())
    return sorted(names)


def _worker(conn: Connection, memory_mb: int) -> None:  # pragma: no cover - child process
    import contextlib
    import importlib
    import os
    import resource
    import signal
    import sys

    from nightsky.agents.base import AgentSpec, make_agent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when a worker ends
    # Below the server process in the scheduler: a search uses idle CPU, and the server's
    # threads (requests, pushes, cheap bots) get a core first when they wake.
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    agents: OrderedDict[AgentSpec, Any] = OrderedDict()
    conn.send(("ready", None))  # started: from here on the parent's clock may run
    while True:
        try:
            spec, state, seat, rng, home = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if home and home != "__main__" and home not in sys.modules:
                # An agent registered at run time (``register_agent``) is registered here
                # when the module that registers it is imported.
                with contextlib.suppress(ImportError):
                    importlib.import_module(home)
            if not isinstance(spec, AgentSpec):
                spec = AgentSpec.parse(spec)  # a spec string from a script or a test
            agent = agents.pop(spec, None) or make_agent(spec)
            agents[spec] = agent
            while len(agents) > 16:
                agents.popitem(last=False)
            conn.send(("ok", agent.choose(state, seat, rng)))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent, which falls back
            agents.pop(spec, None)
            conn.send(("error", f"{type(exc).__name__}: {exc}"[:500]))


class _Worker:
    def __init__(self, ctx: Any, memory_mb: int) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, memory_mb), daemon=True)
        self.proc.start()
        child.close()
        self._kill_lock = threading.Lock()
        self._killed = False
        self.ready = False  # its start-up message read: it takes work at once

    def started(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until the process has started; a move's clock
        never runs while a fresh worker forks and imports (slow on a busy host)."""
        if not self.ready:
            if not self.conn.poll(timeout):
                return False
            self.conn.recv()
            self.ready = True
        return True

    def kill(self) -> None:
        """Stop the process and close its pipe, once: ``close`` and a thread whose ``choose``
        just failed may both get here, and closing a descriptor twice can close one that
        another thread has opened since."""
        with self._kill_lock:
            if self._killed:
                return
            self._killed = True
        try:
            self.proc.kill()
            self.proc.join(1)
        finally:
            self.conn.close()


class ThinkPool:
    """A fixed number of worker processes; one choice at a time each."""

    def __init__(self, processes: int, *, memory_mb: int = 2048) -> None:
        self.size = processes
        self.memory_mb = memory_mb
        self._free: queue.Queue[_Worker | None] = queue.Queue()
        self._started = 0
        self._lock = threading.Lock()
        self._all: set[_Worker] = set()
        self.closing = False
        self._ctx: Any = None

    def _context(self) -> Any:
        if self._ctx is None:
            ctx = mp.get_context("forkserver")
            ctx.set_forkserver_preload(preload())
            self._ctx = ctx
        return self._ctx

    def _take(self, timeout: float) -> _Worker | None:
        with self._lock:
            if self.closing:
                return None
            if self._free.empty() and self._started < self.size:
                self._started += 1
                worker = _Worker(self._context(), self.memory_mb)
                self._all.add(worker)
                return worker
        try:
            return self._free.get(timeout=timeout)
        except queue.Empty:
            return None

    def _give_back(self, worker: _Worker) -> None:
        if self.closing:
            self._drop(worker)
        else:
            self._free.put(worker)

    def _drop(self, worker: _Worker) -> None:
        with self._lock:
            if worker in self._all:
                self._all.discard(worker)
                self._started -= 1
        worker.kill()
        self._free.put(None)  # wakes a waiter, who then starts a fresh worker

    def choose(
        self, spec: AgentSpec | str, state: Any, seat: int, rng: Any, deadline: float,
        *, wait: float = 30.0, home: str | None = None,
    ) -> Any:
        """The agent's action (``spec``: the typed spec the server passes, or its text), or
        None when it failed, overran ``deadline`` or no worker came free within ``wait``
        seconds. The ``deadline`` counts from when a worker takes the work, not from the
        call: waiting for a worker never eats a move's thinking time. ``home``: the module
        of the agent's class, imported by the worker first if it has not been (so an agent
        registered at run time by an importable module exists there too)."""
        worker = self._wait(time.monotonic() + wait)
        if worker is None:
            return None
        try:
            if not worker.started(STARTUP_SECONDS):
                log.warning("a think worker did not start in %.0f s", STARTUP_SECONDS)
                self._drop(worker)
                return None
            end = time.monotonic() + deadline
            worker.conn.send((spec, state, seat, rng, home))
            if not worker.conn.poll(max(0.0, end - time.monotonic())):
                log.warning("bot %s overran its %.1f s; its worker is stopped", spec, deadline)
                self._drop(worker)
                return None
            status, value = worker.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            self._drop(worker)
            return None
        self._give_back(worker)
        if status != "ok":
            log.warning("bot %s failed in its worker: %s", spec, value)
            return None
        return value

    def _wait(self, until: float) -> _Worker | None:
        worker = None
        while worker is None:
            left = until - time.monotonic()
            if left <= 0 or self.closing:
                return None
            worker = self._take(left)
        return worker

    def close(self) -> None:
        """Kill every worker now (a search in progress is abandoned)."""
        self.closing = True
        with self._lock:
            workers, self._all = list(self._all), set()
        for w in workers:
            w.kill()
        for _ in range(self.size + 8):
            self._free.put(None)
