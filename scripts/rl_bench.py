"""Print a Markdown table: the RL adapters' speed next to the native engine and to PettingZoo's
own ``connect_four_v3``, like with like (wrapped with wrapped, raw with raw).

    PYTHONPATH=src python scripts/rl_bench.py [--seconds 2] [--games shooting-star ...]
    PYTHONPATH=src python scripts/rl_bench.py --pairs 5 [--seconds 1] [--games ...]

Every figure is per CPU-second of this process (steadier than wall clock on a shared machine):

* native: ``nightsky bench``'s random playout, game actions (seat moves and chance events).
* raw / env: masked-random seat steps through ``raw_env()`` and the wrapped ``env()`` of
  ``nightsky.rl.pettingzoo`` (observation and mask built at every step by ``env.last()``).
* c4 raw / c4 env: the same loop on PettingZoo's ``connect_four_v3.raw_env()`` / ``env()``.
* vector: ``nightsky.rl.vector`` with 64 games, the learner's masked-random choice outside the
  timing; "actions" counts the learner's steps, the other seats' moves and chance events, the
  native count, so "vector ÷ native" compares the same work.

``--pairs N`` prints only the vector env against the native playout, measured N times in
alternation (native then vector, then vector then native, ...) so that both sides of each
ratio see the same load: the median ratio and its range over the N pairs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import types

from nightsky.cli.commands import bench_random_playouts
from nightsky.core.heap import frozen_heap
from nightsky.core.registry import game_ids, load_game
from nightsky.rl.bench import steps_per_cpu_second, vector_rate
from nightsky.rl.pettingzoo import env as wrapped_env
from nightsky.rl.pettingzoo import raw_env


def connect_four(seconds: float) -> tuple[float, float]:
    """``connect_four_v3``: (raw_env, env) steps per CPU-second."""
    if "pygame" not in sys.modules:
        try:
            import pygame  # noqa: F401
        except ImportError:  # imported at module level for rendering only (unused here)
            sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return (
        steps_per_cpu_second(connect_four_v3.raw_env, seconds),
        steps_per_cpu_second(connect_four_v3.env, seconds),
    )


def vector_pairs(
    gid: str, seconds: float, pairs: int, light: bool = False
) -> tuple[float, float, list[float]]:
    """``pairs`` alternating native / vector measures of ``gid``: the median native and
    vector game actions per CPU-second, and the ratio of each pair."""
    game = load_game(gid)
    natives: list[float] = []
    vectors: list[float] = []
    for i in range(pairs):
        for side in ("native", "vector") if i % 2 == 0 else ("vector", "native"):
            if side == "native":
                natives.append(bench_random_playouts(game, seconds)["actions_per_cpu_second"])
            else:
                with frozen_heap():  # as the native bench (a no-op where vector_rate has it)
                    vectors.append(vector_rate(gid, seconds, light=light)["actions"])
    ratios = [v / n for v, n in zip(vectors, natives, strict=True)]
    return statistics.median(natives), statistics.median(vectors), ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measure")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all)")
    parser.add_argument("--pairs", type=int, default=0,
                        help="only vector ÷ native, from this many alternating pairs")
    parser.add_argument("--light-choice", action="store_true",
                        help="with --pairs: the vector learner draws with light_choice")
    args = parser.parse_args()
    if args.pairs:
        print("| game | players | native actions (median) | vector actions (median) "
              "| vector ÷ native, median | range over pairs |")
        print("|---|---:|---:|---:|---:|---:|")
        for gid in args.games or game_ids():
            native, vector, ratios = vector_pairs(gid, args.seconds, args.pairs, args.light_choice)
            print(f"| {gid} | {load_game(gid).num_players} | {native:.0f} | {vector:.0f} "
                  f"| {statistics.median(ratios):.2f} | {min(ratios):.2f}-{max(ratios):.2f} |",
                  flush=True)
        return
    c4_raw, c4_env = connect_four(args.seconds)
    print(f"connect_four_v3: raw_env {c4_raw:.0f}, env {c4_env:.0f} steps/CPU-s "
          f"(env ÷ raw {c4_env / c4_raw:.2f})\n")
    print("| game | players | native actions | raw steps | env steps | env ÷ raw | raw ÷ c4 raw "
          "| env ÷ c4 env | vector steps | vector actions | vector ÷ native |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for gid in args.games or game_ids():
        game = load_game(gid)
        native = bench_random_playouts(game, args.seconds)["actions_per_cpu_second"]
        raw = steps_per_cpu_second(lambda g=gid: raw_env(g), args.seconds)
        env = steps_per_cpu_second(lambda g=gid: wrapped_env(g), args.seconds)
        vec = vector_rate(gid, args.seconds)
        print(
            f"| {gid} | {game.num_players} | {native:.0f} | {raw:.0f} | {env:.0f} "
            f"| {env / raw:.2f} | {raw / c4_raw:.2f} | {env / c4_env:.2f} "
            f"| {vec['steps']:.0f} | {vec['actions']:.0f} | {vec['actions'] / native:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
