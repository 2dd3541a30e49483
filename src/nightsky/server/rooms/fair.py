"""One queue of bot moves, served fairly across the clients that created the tables.

Every bot move waiting to be played is a job keyed by its table's creating client (a stand-in
for an away human counts against the creator too). Clients are served by deficit round robin:
each visit tops a client's deficit up by ``quantum`` seconds, a client whose deficit is then
not negative gives one job, and the thinking seconds a job really took are charged
afterwards. So a client's tables share one slice whatever their number, and a client whose
bots think long waits more turns. On top of that each client has a budget of thinking
seconds per minute (a sliding window): over it, its jobs wait until the window frees. Nothing
here knows a game or an agent; the clock is injectable so tests are deterministic.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

J = TypeVar("J", bound=Hashable)

WINDOW = 60.0  # seconds over which a client's thinking is budgeted


@dataclass
class _Client(Generic[J]):
    jobs: deque[tuple[J, bool]] = field(default_factory=deque)  # (job, needs a process)
    deficit: float = 0.0
    used: deque[tuple[float, float]] = field(default_factory=deque)  # (end time, seconds)
    running: int = 0


class FairQueue(Generic[J]):
    """Deficit round robin over clients, each under ``budget`` thinking seconds a minute
    (0: no budget). Not thread-safe: the caller holds its own lock."""

    def __init__(
        self, *, budget: float = 0.0, quantum: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget = budget
        self.quantum = quantum
        self.clock = clock
        self.clients: dict[str, _Client[J]] = {}
        self.ring: deque[str] = deque()  # clients with waiting jobs, in serving order
        self.swept = clock()  # when idle clients were last dropped

    def __len__(self) -> int:
        return sum(len(c.jobs) for c in self.clients.values())

    def push(self, key: str, job: J, *, pooled: bool = False) -> None:
        """Queue ``job`` of client ``key``; ``pooled``: it needs a worker process."""
        client = self.clients.setdefault(key, _Client())
        if not client.jobs and key not in self.ring:
            self.ring.append(key)
        client.jobs.append((job, pooled))

    def used(self, key: str) -> float:
        """Thinking seconds ``key`` used in the last minute."""
        client = self.clients.get(key)
        if client is None:
            return 0.0
        horizon = self.clock() - WINDOW
        while client.used and client.used[0][0] <= horizon:
            client.used.popleft()
        return sum(s for _, s in client.used)

    def left(self, key: str) -> float:
        """Thinking seconds ``key`` may still spend this minute (inf without a budget)."""
        return math.inf if self.budget <= 0 else self.budget - self.used(key)

    def take(self, *, processes: bool = True) -> tuple[str, J, bool] | None:
        """The next job to start, with its client and whether it needs a worker process, or
        None when none may start now (none
        waits, every waiting client is over its budget, or only jobs needing a worker process
        wait and ``processes`` is False)."""
        ready = [k for k in self.ring if self._eligible(k, processes)]
        if not ready:
            return None
        # Rounds in which no ready client would reach a deficit of 0 only top deficits up:
        # do them at once (every client in the ring gets the same rounds).
        rounds = min(math.ceil(-self.clients[k].deficit / self.quantum - 1e-9) for k in ready)
        if rounds > 1:
            for k in self.ring:
                self.clients[k].deficit += (rounds - 1) * self.quantum
        while True:
            key = self.ring[0]
            self.ring.rotate(-1)
            if not self._eligible(key, processes):
                continue
            client = self.clients[key]
            client.deficit += self.quantum  # its slice this round
            if client.deficit >= 0:
                job, pooled = self._pop(key, processes)
                return key, job, pooled

    def _eligible(self, key: str, processes: bool) -> bool:
        client = self.clients[key]
        if not any(processes or not pooled for _, pooled in client.jobs):
            return False
        return self.left(key) > 0

    def _pop(self, key: str, processes: bool) -> tuple[J, bool]:
        client = self.clients[key]
        i = next(i for i, (_, pooled) in enumerate(client.jobs) if processes or not pooled)
        job, pooled = client.jobs[i]
        del client.jobs[i]
        client.running += 1
        if not client.jobs:
            self.ring.remove(key)
            if client.deficit > 0:  # an idle client keeps no credit (DRR)
                client.deficit = 0.0
        return job, pooled

    def done(self, key: str, seconds: float) -> None:
        """Charge ``key`` for a job that took ``seconds`` of thinking."""
        client = self.clients.get(key)
        if client is None:
            return
        client.running = max(0, client.running - 1)
        client.deficit -= seconds
        client.used.append((self.clock(), seconds))
        if self.clock() - self.swept > WINDOW:
            self.sweep()

    def sweep(self) -> None:
        """Drop the clients with nothing waiting or running and no thinking in the last
        minute: a debt (a negative deficit) is kept that long, so a client cannot clear it by
        letting its queue run empty between two moves."""
        self.swept = self.clock()
        for key in [k for k, c in self.clients.items() if not c.jobs and not c.running]:
            if self.used(key) == 0:
                del self.clients[key]

    def wake_in(self) -> float | None:
        """Seconds until a client over its budget may start again (None: none waits so)."""
        now, best = self.clock(), None
        for key in self.ring:
            client = self.clients[key]
            over = -self.left(key)
            if over < 0 or not client.used:
                continue
            # The oldest entries leave the window first; find when enough has left.
            freed = 0.0
            for end, seconds in client.used:
                freed += seconds
                if freed > over:
                    wait = end + WINDOW - now
                    best = wait if best is None else min(best, wait)
                    break
        return best
