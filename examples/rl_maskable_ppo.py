"""Train a masked PPO policy on one seat of a nightsky game and evaluate it on fresh seeds.

    pip install -e ".[train]"   # from a checkout: sb3-contrib, Stable-Baselines3, PyTorch
    python examples/rl_maskable_ppo.py --game shooting-star --players 2 --steps 300000

The learner plays seat 0 of ``nightsky.rl.gym_env`` against ``--opponents`` (default
``random``); sb3-contrib's ``MaskablePPO`` reads the legal moves from the env's
``action_masks()``, so it never plays an illegal id. After training, the policy (greedy:
``deterministic=True``, masked) plays ``--eval-games`` games on seeds never used in training,
and the script prints one JSON object: the win rate with its 95% Wilson interval, the mean
reward, training steps and CPU seconds. ``make bench`` runs it (``tests/rl/test_recipe.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

import numpy as np

EVAL_SEED_BASE = 1_000_000
"""Evaluation games use seeds from here on; training uses ``--seed`` and the few after it."""


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_env(args: argparse.Namespace, params: dict[str, Any]) -> Any:
    from nightsky.rl import gym_env

    return gym_env(args.game, seat=0, opponents=args.opponents, reward=args.reward, **params)


def train(args: argparse.Namespace, params: dict[str, Any]) -> tuple[Any, float]:
    """A ``MaskablePPO`` trained for ``args.steps`` steps; returns it and the CPU seconds."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(args.threads)
    vec = make_vec_env(lambda: make_env(args, params), n_envs=args.envs, seed=args.seed)
    model = MaskablePPO(
        "MultiInputPolicy",
        vec,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        gamma=1.0,  # episodic games scored at the end: no discount
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
    )
    cpu = time.process_time()
    model.learn(total_timesteps=args.steps)
    return model, time.process_time() - cpu


def evaluate(model: Any, args: argparse.Namespace, params: dict[str, Any]) -> dict[str, Any]:
    """The trained policy on ``args.eval_games`` fresh seeds: wins, win shares, rewards."""
    env = make_env(args, params)
    wins = 0
    shares = rewards = 0.0
    for k in range(args.eval_games):
        obs, _ = env.reset(seed=EVAL_SEED_BASE + k)
        done = False
        total = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, _, info = env.step(int(action))
            total += float(reward)
        share = float(env.state.returns()[0])
        shares += share
        wins += share == 1.0
        rewards += total
    low, high = wilson(wins, args.eval_games)
    return {
        "eval_games": args.eval_games,
        "win_rate": wins / args.eval_games,
        "win_rate_95": [round(low, 4), round(high, 4)],
        "mean_win_share": shares / args.eval_games,
        "mean_reward": rewards / args.eval_games,
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="shooting-star")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random", help="agent spec of the other seats")
    ap.add_argument("--reward", default="auto", help="auto, win, score or shaped")
    ap.add_argument("--steps", type=int, default=300_000, help="training steps")
    ap.add_argument("--envs", type=int, default=8, help="environments stepped together")
    ap.add_argument("--n-steps", type=int, default=256, help="PPO rollout length per env")
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--learning-rate", type=float, default=3e-4)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (one core)")
    ap.add_argument("--eval-games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    params = {"players": args.players}
    model, cpu = train(args, params)
    out = {
        "game": args.game,
        "players": args.players,
        "opponents": args.opponents,
        "reward": args.reward,
        "steps": args.steps,
        "train_cpu_seconds": round(cpu, 1),
        **evaluate(model, args, params),
    }
    out["eval_seeds"] = [EVAL_SEED_BASE, EVAL_SEED_BASE + args.eval_games - 1]
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
