"""Print a Markdown table: PettingZoo step loop speed next to native random playouts, per game.

    PYTHONPATH=src python scripts/rl_bench.py [--seconds 2]

"native actions/s" is ``nightsky bench``'s random playout (``State.step`` on a random legal
action, chance included); "PZ actions/s" plays masked-random moves through
``nightsky.rl.pettingzoo_env`` (observation + mask built at every step) and counts the same
actions; "PZ steps/s" counts only the seat steps a learner sees.
"""

from __future__ import annotations

import argparse

from nightsky.cli.commands import bench_random_playouts
from nightsky.core.registry import game_ids, load_game
from nightsky.rl.bench import pettingzoo_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measure")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: all)")
    args = parser.parse_args()
    print("| game | players | native actions/s | PZ actions/s | PZ steps/s | PZ games/s | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for gid in args.games or game_ids():
        game = load_game(gid)
        native = bench_random_playouts(game, args.seconds)
        pz = pettingzoo_rate(game, args.seconds)
        ratio = pz["pz_actions_per_second"] / native["actions_per_second"]
        print(
            f"| {gid} | {game.num_players} | {native['actions_per_second']:.0f} "
            f"| {pz['pz_actions_per_second']:.0f} | {pz['pz_steps_per_second']:.0f} "
            f"| {pz['pz_games_per_second']:.1f} | {ratio:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
