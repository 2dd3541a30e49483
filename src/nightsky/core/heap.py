"""The collector's settings for timed loops (benchmarks of the engine and the RL adapters)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_heap() -> Iterator[None]:
    """For a timed loop of playouts: the objects that exist before it (the modules, the game,
    its tables and prebuilt actions) are left out of the cyclic collector's scans while it runs
    (``gc.freeze``), and handed back after it (``gc.unfreeze``); nothing else changes.

    Why: they are never garbage, yet every full collection walked all of them (~60,000
    objects). Games with long histories keep one new tracked entry per move alive, which
    triggers full collections every few games: in The Stars Are Right's random playouts they
    were about a tenth of the loop (``gc.callbacks`` timings, compiled engine). A loop that
    runs inside another frozen one leaves the freeze to it."""
    mine = gc.get_freeze_count() == 0
    if mine:
        gc.freeze()
    try:
        yield
    finally:
        if mine:
            gc.unfreeze()
