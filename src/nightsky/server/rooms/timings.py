"""Server-side work per move (the ``/api/metrics`` figures), kept apart from the game logic."""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Iterator


class Timings:
    """Server-side work per move, milliseconds, kept apart from the game logic.

    ``human``/``bot``/``post``: wall-clock time (waits for the CPU, the GIL and the database
    included); ``*_cpu``: CPU time of the thread doing it (the work itself).
    """

    KINDS = ("human", "bot", "post")

    def __init__(self, keep: int = 200_000) -> None:
        self.samples: dict[str, deque[float]] = {}
        for kind in self.KINDS:
            self.samples[kind] = deque(maxlen=keep)
            self.samples[f"{kind}_cpu"] = deque(maxlen=keep)

    @contextlib.contextmanager
    def measure(self, kind: str) -> Iterator[None]:
        """Time the block as one ``kind`` sample (wall and CPU); a refused block is not one."""
        t0, c0 = time.perf_counter(), time.thread_time()
        yield
        self.samples[kind].append((time.perf_counter() - t0) * 1000)
        self.samples[f"{kind}_cpu"].append((time.thread_time() - c0) * 1000)

    def items(self) -> Iterator[tuple[str, deque[float]]]:
        return iter(self.samples.items())

    def __getitem__(self, kind: str) -> deque[float]:
        return self.samples[kind]

