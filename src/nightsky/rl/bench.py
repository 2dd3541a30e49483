"""Speed of the PettingZoo step loop next to the native random playout (``scripts/rl_bench.py``).

``pettingzoo_rate(game, seconds)`` has the signature of ``nightsky.cli.commands.BENCH_EXTRAS``
entries, so it can be added to ``nightsky bench`` as is.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from nightsky.core.game import Game
from nightsky.rl.aec import pettingzoo_env


def pettingzoo_rate(game: Game, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Masked-random play through the AEC env for ``seconds``: games and actions per second.

    Every env step builds the acting seat's observation and mask (``env.last()``), as a learner
    would; game actions count seat actions plus chance events, like the native bench.
    """
    env = pettingzoo_env(game.info.id, **game.params)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    games_done = seat_steps = chance = 0
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
            seat_steps += 1
        chance += env.chance_steps
        games_done += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "pz_games_per_second": round(games_done / elapsed, 2),
        "pz_steps_per_second": round(seat_steps / elapsed, 1),
        "pz_actions_per_second": round((seat_steps + chance) / elapsed, 1),
    }
