"""Speed of the PettingZoo step loop and the vector env next to the native random playout
(``scripts/rl_bench.py``, ``tests/rl/test_bench_rl.py``).

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


def steps_per_cpu_second(make: Callable[[], Any], seconds: float) -> float:
    """Masked-random seat steps per CPU-second through the PettingZoo AEC env ``make()``."""
    cpu = time.process_time()
    _, steps, _ = masked_random_play(make(), seconds)
    return steps / max(time.process_time() - cpu, 1e-9)


def light_choice(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One id per row of ``mask``, uniform among the row's set entries, reading only the mask
    (no float array of the mask's shape): ``vector_rate(light=True)``'s learner."""
    rows, cols = np.nonzero(mask)
    counts = np.bincount(rows, minlength=mask.shape[0])
    starts = np.cumsum(counts) - counts
    picks = (rng.random(mask.shape[0]) * counts).astype(np.int64)
    return cols[starts + np.minimum(picks, counts - 1)]


def vector_rate(
    game_id: str, seconds: float, num_envs: int = 64, light: bool = False, **params: Any
) -> dict[str, float]:
    """Masked-random play through ``nightsky.rl.vector`` for ``seconds`` of CPU time inside
    ``step`` (the learner's choice is the caller's, outside): learner steps and game actions
    (the learner's, the other seats' and chance events: the native bench's count) per
    CPU-second. Measured as the native bench is (``bench_random_playouts``): under
    ``frozen_heap``, the objects that exist before it left out of full collections.
    ``light``: the learner draws with ``light_choice`` instead of an argmax over a random
    float array of the mask's shape, which (64 x 8,204 in The Stars Are Right) evicts from
    the caches what the next step needs (docs/performance.md)."""
    from nightsky.core.heap import frozen_heap

    with frozen_heap():
        return _vector_rate(game_id, seconds, num_envs, light, **params)


def _vector_rate(
    game_id: str, seconds: float, num_envs: int, light: bool, **params: Any
) -> dict[str, float]:
    from nightsky.rl.vector import NightskyVectorEnv

    env = NightskyVectorEnv(game_id, num_envs=num_envs, copy=False, **params)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    inside = 0.0
    steps = 0
    while inside < seconds:
        mask = obs["action_mask"]
        if light:
            actions = light_choice(rng, mask)
        else:
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)  # masked uniform choice
        t0 = time.process_time()
        obs, *_ = env.step(actions)
        inside += time.process_time() - t0
        steps += num_envs
    actions_done = steps + env.chance_steps + env.opponent_steps
    return {"steps": steps / inside, "actions": actions_done / inside}
