"""Where games are played: this process, local worker processes, or a Ray cluster.

Every engine plays the same pure function ``play_spec(spec, index)`` over the same indices, so
a run's results depend only on its seed, never on the engine or the number of workers. Results
arrive in any order; callers sort them by ``index``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nightsky._extras import install_hint
from nightsky.core.errors import OptionError
from nightsky.sim.runner import GameResult, MatchSpec, _play_chunk, batches, run_matches

ENGINES = ("local", "ray")


def run_games(
    spec: MatchSpec,
    games: int,
    *,
    engine: str = "local",
    workers: int = 1,
    address: str | None = None,
    first: int = 0,
    chunk: int = 0,
) -> Iterator[GameResult]:
    """Play ``games`` games of ``spec`` on ``engine``, indices from ``first``, ``chunk`` games a
    task (0: chosen from the games and workers); yields results as they finish."""
    if first < 0:
        raise OptionError(f"the first game index must be 0 or more, got {first}")
    if engine == "local":
        if address:
            raise OptionError("--address is for --engine ray")
        yield from run_matches(spec, games, workers=workers, first=first, chunk=chunk)
    elif engine == "ray":
        yield from run_matches_ray(spec, games, workers=workers, address=address, first=first,
                                   chunk=chunk)
    else:
        raise OptionError(f"unknown engine {engine!r}; engines: {', '.join(ENGINES)}")


def run_matches_ray(
    spec: MatchSpec,
    games: int,
    *,
    workers: int = 1,
    address: str | None = None,
    chunk: int = 0,
    first: int = 0,
) -> Iterator[GameResult]:
    """Play on Ray: a cluster at ``address`` (``auto`` for the running one), else a local Ray
    instance with ``workers`` CPUs that is shut down afterwards."""
    try:
        import ray
    except ImportError:
        raise OptionError(f"the ray engine needs Ray: {install_hint('ray')}") from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
        }
        if address:
            ray.init(address=address, **kwargs)
        else:
            ray.init(num_cpus=max(1, workers), **kwargs)
        started = True
    try:
        task = ray.remote(num_cpus=1)(_play_chunk)
        # Enough chunks to keep every CPU of the cluster busy.
        cpus = max(1, int(ray.cluster_resources().get("CPU", workers)))
        pending = [task.remote(spec, b) for b in batches(games, cpus, chunk, first)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for chunk_results in ray.get(done):
                yield from chunk_results
    finally:
        if started:
            ray.shutdown()
