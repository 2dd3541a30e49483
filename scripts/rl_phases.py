"""Where a step of the vector env goes, phase by phase (µs per learner step, CPU time).

    PYTHONPATH=src python scripts/rl_phases.py [--games starlight stars-are-right] [--steps 400]

For each game, ``NightskyVectorEnv(game, 64, copy=False)`` steps masked-random actions and
times, per learner step: the whole ``step``; inside it ``step_games`` (the learner's move,
chance, the other seats, rewards), the new games of the games that ended, and ``_write_all``
(observations and masks). Then, on the very positions each step left, the parts of
``_write_all`` are timed again one by one (a second pass over warm states, so a little
cheaper than inside the step): whole observation rows into zeroed ones
(``observation_into``), the legal actions, and their ids with the mask writes (``write_rows``
with an observer that writes nothing, less the legal actions); "rows in step" is
``_write_all`` less those (the rows as the step writes them). ``--profile`` runs
cProfile on the steps instead (meaningful with ``NIGHTSKY_PURE=1``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from typing import Any

import numpy as np

from nightsky.core.observer import Observer
from nightsky.rl import _stepper
from nightsky.rl.vector import NightskyVectorEnv


class _Blind(Observer):
    """An observer that writes nothing (to time write_rows without the observation)."""

    @property
    def size(self) -> int:
        return 0

    def observation(self, state: Any, player: int) -> list[float]:
        return []

    def observation_into(self, state: Any, player: int, buf: Any) -> None:
        pass


def phases(game_id: str, steps: int, num_envs: int = 64) -> dict[str, float]:
    """µs per learner step of each phase of ``game_id``'s vector step (see the module doc)."""
    env = NightskyVectorEnv(game_id, num_envs=num_envs, copy=False)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    clock = time.process_time
    t: dict[str, float] = dict.fromkeys(
        ("step", "step_games", "new games", "write_all", "observation", "legal actions",
         "ids and mask"), 0.0)
    real_step_games = _stepper.step_games
    real_start = env._start
    real_write = env._write_all

    def timed(name: str, fn: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            t0 = clock()
            out = fn(*args, **kwargs)
            t[name] += clock() - t0
            return out
        return run

    _stepper.step_games = timed("step_games", real_step_games)  # type: ignore[assignment]
    env._start = timed("new games", real_start)  # type: ignore[method-assign]
    env._write_all = timed("write_all", real_write)  # type: ignore[method-assign]
    ident = env._ident
    by_object = env._by_object
    observer = env.observer
    seat = env.seat
    scratch = np.zeros_like(env._obs)
    rows = [scratch[i].data for i in range(num_envs)]
    mask_scratch = bytearray(len(env._mask_bytes))
    mview = np.frombuffer(mask_scratch, dtype=np.int8).reshape(num_envs, -1)
    mrows = [mview[i].data for i in range(num_envs)]
    blind = _Blind(env.game)
    try:
        for _ in range(steps):
            mask = obs["action_mask"]
            acts = (rng.random(mask.shape) * mask).argmax(axis=1)
            t0 = clock()
            obs, *_ = env.step(acts)
            t["step"] += clock() - t0
            states = env.states
            # The parts of _write_all, again, one by one on the same positions.
            scratch.fill(0.0)
            t0 = clock()
            for i in range(num_envs):
                observer.observation_into(states[i], seat, rows[i])
            t["observation"] += clock() - t0
            t0 = clock()
            for s in states:
                s.legal_actions(seat)
            t["legal actions"] += clock() - t0
            # Legal actions, their ids and the mask, as write_rows does them (compiled), with
            # an observer that writes nothing: "ids and mask" is this less "legal actions".
            mask_scratch[:] = bytes(len(mask_scratch))
            t0 = clock()
            _stepper.write_rows(states, seat, blind, rows, mrows, ident, env.game, None, None,
                                by_object)
            t["ids and mask"] += clock() - t0
    finally:
        _stepper.step_games = real_step_games  # type: ignore[assignment]
    t["ids and mask"] -= t["legal actions"]
    # What the step's own rows cost (update_into where the observer has it): write_all less
    # the (warm) legal actions, ids and mask.
    t["rows in step"] = t["write_all"] - t["legal actions"] - t["ids and mask"]
    n = steps * num_envs
    out = {k: v / n * 1e6 for k, v in t.items()}
    out["game actions per learner step"] = (n + env.chance_steps + env.opponent_steps) / n
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=["starlight", "stars-are-right"])
    parser.add_argument("--steps", type=int, default=400, help="vector steps (64 games each)")
    parser.add_argument("--profile", action="store_true", help="cProfile instead of phases")
    args = parser.parse_args()
    for gid in args.games:
        if args.profile:
            env = NightskyVectorEnv(gid, num_envs=64, copy=False)
            obs, _ = env.reset(seed=0)
            rng = np.random.default_rng(0)
            prof = cProfile.Profile()
            for _ in range(args.steps):
                mask = obs["action_mask"]
                acts = (rng.random(mask.shape) * mask).argmax(axis=1)
                prof.enable()
                obs, *_ = env.step(acts)
                prof.disable()
            print(f"## {gid}")
            pstats.Stats(prof).sort_stats("tottime").print_stats(18)
            continue
        res = phases(gid, args.steps)
        print(f"{gid}: " + ", ".join(f"{k} {v:.2f}" for k, v in res.items()), flush=True)


if __name__ == "__main__":
    main()
