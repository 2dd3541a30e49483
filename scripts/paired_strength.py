"""A search agent against one opponent, game by game: a strength row that survives being cut short.

    PYTHONPATH=src python scripts/paired_strength.py starlight --spec ismcts:iterations=5000 \\
        --opponent greedy --games 200 --seed 58001 --workers 2 --out sl-greedy.jsonl
    PYTHONPATH=src python scripts/paired_strength.py starlight --spec ismcts:iterations=5000 \\
        --opponent greedy --seed 58001 --row sl-greedy.jsonl      # the row, from the games so far

Game ``i`` is ``nightsky.sim.runner.play_game(game, seats, seed, i, deal=i // 2)`` with the agent
under test in seat ``i % 2``: each pair of games is one deal played from both seats. Every
finished game is appended to ``--out`` as a JSON line at once, and a run started again with the
same file plays only the games it lacks, so a run on a busy or lent machine can stop at any
time and the games played still count. ``--row FILE`` plays nothing and prints the strength row
of the games in FILE (win rate with its 95% Wilson interval, the components' hash) in the
format of ``docs/data/strength-rows.jsonl``. Use an iteration budget (``ismcts:iterations=N``)
so the games do not depend on the machine's load: on the 2-core development machine Starlight's
search runs about 27,000 iterations a CPU second, so 5,000 is its 0.2 s on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from nightsky.agents.base import make_agent
from nightsky.core.registry import load_game
from nightsky.sim.design import components_hash
from nightsky.sim.runner import play_game


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of ``wins`` out of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


def one_game(game_id: str, spec: str, opponent: str, seed: int, i: int) -> dict[str, Any]:
    """Game ``i``: the agent under test in seat ``i % 2``, deal ``i // 2``."""
    game = load_game(game_id, players=2)
    me = i % 2
    agents = [make_agent(opponent, game), make_agent(opponent, game)]
    agents[me] = make_agent(spec, game)
    start = time.process_time()
    res = play_game(game, agents, seed, i, deal=i // 2)
    won = me in res.winners
    return {"i": i, "seat": me, "share": 1.0 / len(res.winners) if won else 0.0,
            "margin": res.scores[me] - res.scores[1 - me], "actions": res.actions,
            "cpu_s": round(time.process_time() - start, 1)}


def row(game_id: str, spec: str, opponent: str, seed: int, games: list[dict[str, Any]],
        command: str) -> dict[str, Any]:
    """The strength row of ``games`` (``docs/data/strength-rows.jsonl``)."""
    n = len(games)
    wins = sum(g["share"] for g in games)
    lo, hi = wilson(wins, n)
    return {
        "game": game_id, "opponent": opponent, "games": n, "win_rate": round(wins / n, 6),
        "ci95": [round(lo, 6), round(hi, 6)],
        "target": {"greedy": 0.6, "random": 0.9}.get(opponent),
        "mean_actions": round(sum(g["actions"] for g in games) / n, 2),
        "seconds": round(sum(g["cpu_s"] for g in games), 1), "spec": spec, "seed": seed,
        "run": command,
        "components": {"file": "shipped", "sha256": components_hash(game_id)},
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--spec", default="ismcts:iterations=5000")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="play games first .. first+games-1")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, help="JSON-lines file of finished games (appended)")
    ap.add_argument("--row", type=Path, help="print the row of the games in this file")
    ap.add_argument("--run", default="", help="with --row: how the games were played")
    args = ap.parse_args(argv)
    if args.row:
        games = [json.loads(x) for x in args.row.read_text().splitlines() if x.strip()]
        print(json.dumps(row(args.game, args.spec, args.opponent, args.seed, games, args.run)))
        return
    if not args.out:
        ap.error("--out FILE is needed to play (or --row FILE to summarise)")
    done = set()
    if args.out.exists():
        done = {json.loads(x)["i"] for x in args.out.read_text().splitlines() if x.strip()}
    todo = [i for i in range(args.first, args.first + args.games) if i not in done]
    with ProcessPoolExecutor(args.workers) as ex, args.out.open("a") as fh:
        futures = [ex.submit(one_game, args.game, args.spec, args.opponent, args.seed, i)
                   for i in todo]
        for fut in as_completed(futures):
            fh.write(json.dumps(fut.result()) + "\n")
            fh.flush()


if __name__ == "__main__":
    main()
