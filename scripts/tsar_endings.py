"""How games of The Stars Are Right end: by which condition, after how many rounds and reshuffles.

    PYTHONPATH=src python scripts/tsar_endings.py --agent greedy --games 200 --seed 8803 \\
        --workers 2 [--option reshuffles=2] [--json]

For each player count (2, 3, 4, or ``--players N``, repeatable) plays ``--games`` games with the
agent ``--agent`` in every seat, through the simulator's ``play_game`` with the seeds of
``nightsky simulate stars-are-right --players N --agents AGENT --seed S`` (game ``i`` of seed
``S`` is the same game here and there), and reports per player count: how many games ended by
each end condition (``goal``: a seat reached 10 VP, TSAR-10.2; ``deck``: the deck ran out once
more than ``reshuffles`` allows, TSAR-8.4; ``rounds``: the ``max_rounds`` safeguard,
TSAR-10.3), the rounds played (mean, median, 95th percentile, max) and the reshuffles
(mean, max); ``--json`` adds ``[index, end, rounds, reshuffles]`` per game. A benchmark
for docs/games/stars-are-right.md, not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from nightsky.agents.base import make_agent
from nightsky.core.game import State
from nightsky.core.registry import load_game
from nightsky.sim.runner import play_game


def one_game(players: int, agent: str, seed: int, index: int,
             options: dict[str, Any]) -> dict[str, Any]:
    """Play game ``index``; its end condition, rounds, reshuffles and scores."""
    game = load_game("stars-are-right", players=players, **options)
    last: list[State] = []

    def keep(state: State) -> None:
        if not last:
            last.append(state)

    agents = [make_agent(agent) for _ in range(players)]
    res = play_game(game, agents, seed, index, on_state=keep)
    s: Any = last[0]
    return {
        "index": index, "end": s.end_reason, "turns": s.turn,
        "rounds": s.turn / players, "reshuffles": s.reshuffles,
        "scores": res.scores, "actions": res.actions,
    }


def _chunk(args: tuple[int, str, int, list[int], dict[str, Any]]) -> list[dict[str, Any]]:
    players, agent, seed, indices, options = args
    return [one_game(players, agent, seed, i, options) for i in indices]


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(players: int, agent: str, games: int, seed: int, workers: int,
            options: dict[str, Any]) -> dict[str, Any]:
    """The row of one player count."""
    start = time.perf_counter()
    chunks = [list(range(i, min(games, i + 5))) for i in range(0, games, 5)]
    jobs = [(players, agent, seed, c, options) for c in chunks]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            rows = [r for part in pool.map(_chunk, jobs) for r in part]
    else:
        rows = [r for job in jobs for r in _chunk(job)]
    rounds = [r["rounds"] for r in rows]
    resh = [r["reshuffles"] for r in rows]
    ends = Counter(r["end"] for r in rows)
    return {
        "players": players, "agent": agent, "games": games, "seed": seed,
        "options": options,
        "ends": {k: ends.get(k, 0) for k in ("goal", "deck", "rounds")},
        "rounds_mean": round(statistics.fmean(rounds), 1),
        "rounds_median": statistics.median(rounds),
        "rounds_p95": _pct(rounds, 0.95), "rounds_max": max(rounds),
        "reshuffles_mean": round(statistics.fmean(resh), 2), "reshuffles_max": max(resh),
        "mean_top_score": round(statistics.fmean(max(r["scores"]) for r in rows), 2),
        "seconds": round(time.perf_counter() - start, 1),
        "per_game": [[r["index"], r["end"], round(r["rounds"], 2), r["reshuffles"]]
                     for r in sorted(rows, key=lambda r: r["index"])],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--players", type=int, action="append")
    ap.add_argument("--option", action="append", default=[], help="KEY=VALUE game option")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    options: dict[str, Any] = {}
    for kv in a.option:
        k, _, v = kv.partition("=")
        options[k] = v
    for n in a.players or [2, 3, 4]:
        row = measure(n, a.agent, a.games, a.seed, a.workers, options)
        if a.json:
            print(json.dumps(row), flush=True)
        else:
            e = row["ends"]
            print(f"{n}p {a.agent} x{a.games} seed {a.seed}: goal {e['goal']} deck {e['deck']} "
                  f"rounds {e['rounds']}; rounds mean {row['rounds_mean']} median "
                  f"{row['rounds_median']} p95 {row['rounds_p95']} max {row['rounds_max']}; "
                  f"reshuffles mean {row['reshuffles_mean']} max {row['reshuffles_max']}; "
                  f"top score {row['mean_top_score']} ({row['seconds']} s)", flush=True)


if __name__ == "__main__":
    main()
