"""Speed of the PettingZoo step loop next to the native random playout (``scripts/rl_bench.py``).

``pettingzoo_rate(game, seconds)`` has the signature of ``nightsky.cli.commands.BENCH_EXTRAS``
entries, so it can be added to ``nightsky bench`` as is.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from nightsky._extras import missing

try:
    import numpy as np
except ModuleNotFoundError as exc:
    raise missing(exc, "pettingzoo", "The PettingZoo benchmark (nightsky.rl.bench)") from exc

from nightsky.core.game import Game
from nightsky.rl.aec import pettingzoo_env


def masked_random_play(
    env: Any, seconds: float, seed: int = 0, after_game: Callable[[], None] | None = None
) -> tuple[int, int, float]:
    """Play whole games of any PettingZoo AEC ``env`` with masked-random actions for about
    ``seconds``, every step through ``env.last()`` as a learner would: (games, steps, seconds)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    games = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        env.reset()
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        if after_game is not None:
            after_game()
        games += 1
        if time.perf_counter() >= deadline:
            break
    return games, steps, time.perf_counter() - start


def pettingzoo_rate(game: Game, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Masked-random play through the AEC env for ``seconds``: games and actions per second.

    Every env step builds the acting seat's observation and mask (``env.last()``), as a learner
    would; game actions count seat actions plus chance events, like the native bench.
    """
    env = pettingzoo_env(game.info.id, **game.params)
    chance = 0

    def count_chance() -> None:
        nonlocal chance
        chance += env.chance_steps

    cpu = time.process_time()
    games_done, seat_steps, elapsed = masked_random_play(env, seconds, seed, count_chance)
    cpu = max(time.process_time() - cpu, 1e-9)
    return {
        "pz_games_per_second": round(games_done / elapsed, 2),
        "pz_steps_per_second": round(seat_steps / elapsed, 1),
        "pz_actions_per_second": round((seat_steps + chance) / elapsed, 1),
        # CPU time of this process: the one-core speed even when other work shares the machine.
        "pz_steps_per_cpu_second": round(seat_steps / cpu, 1),
        "pz_actions_per_cpu_second": round((seat_steps + chance) / cpu, 1),
    }
