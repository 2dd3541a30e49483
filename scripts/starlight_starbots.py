"""Agents alone against Starlight's Starbots, deal by deal: win rate and score at each level.

    PYTHONPATH=src python scripts/starlight_starbots.py --agents greedy expert --games 40 \\
        --seed 58401 --out sb.jsonl            # play (appends; a rerun plays what is missing)
    PYTHONPATH=src python scripts/starlight_starbots.py --agents greedy expert --games 40 \\
        --seed 58401 --table sb.jsonl          # the table of the games in the file

One live player and ``--starbots`` Starbots (default 2) at each ``--levels`` difficulty. Game
``i`` of a level is ``nightsky.sim.runner.play_game(game, seats, f"{seed}-{level}", i)`` for every
agent of ``--agents``: the agents meet the same deals (the same chance stream; it parts once
their moves differ). Every finished game is appended to ``--out`` as a JSON line at once, so a
run cut short keeps its games. ``--table`` prints, per level and agent, the win rate (a tie for
first counts as a share) with its 95% Wilson interval, the mean score and the Starbots' mean,
and for the agents after the first their mean score difference to the first on the same deals
(with its 95% interval). ``--weights FILE`` plays a candidate in place of the shipped
``data/value_starbots.json`` (the weights ``value=learned`` uses at a Starbot table). Use
iteration budgets so the games do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from nightsky.agents.base import make_agent
from nightsky.core.linear_value import load_linear_value
from nightsky.core.registry import load_game
from nightsky.games.starlight import evaluator
from nightsky.games.starlight.game import LEVELS
from nightsky.sim.runner import play_game
from nightsky.sim.stats import wilson_interval


def one_game(agent: str, level: str, starbots: int, seed: int, i: int) -> dict[str, Any]:
    """Game ``i`` of ``level``: ``agent`` alone against the Starbots."""
    game = load_game("starlight", players=1, starbots=starbots, starbot_level=level)
    seats: list[Any] = [make_agent(agent, game)] + [None] * starbots
    start = time.process_time()
    res = play_game(game, seats, f"{seed}-{level}", i)
    won = 0 in res.winners
    return {
        "agent": agent, "level": level, "i": i,
        "share": 1.0 / len(res.winners) if won else 0.0,
        "score": res.scores[0], "starbots": list(res.scores[1:]),
        "cpu_s": round(time.process_time() - start, 2),
    }


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% interval."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n)


def table(games: list[dict[str, Any]], agents: list[str], levels: list[str]) -> str:
    """The markdown table of ``games`` (the lines of an ``--out`` file)."""
    by = {(g["agent"], g["level"], g["i"]): g for g in games}
    lines = [
        "| `starbot_level` | agent | games | win rate (95% Wilson) | mean score | Starbots' mean "
        f"| score vs `{agents[0]}`, same deals |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for level in levels:
        for agent in agents:
            mine = sorted((g for k, g in by.items() if k[:2] == (agent, level)),
                          key=lambda g: g["i"])
            if not mine:
                continue
            n = len(mine)
            wins = sum(g["share"] for g in mine)
            lo, hi = wilson_interval(wins, n)
            score = sum(g["score"] for g in mine) / n
            bots = [s for g in mine for s in g["starbots"]]
            diff = ""
            if agent != agents[0]:
                pairs = [g["score"] - by[agents[0], level, g["i"]]["score"]
                         for g in mine if (agents[0], level, g["i"]) in by]
                if pairs:
                    m, h = _mean_ci(pairs)
                    diff = f"{m:+.1f} +- {h:.1f} ({len(pairs)} deals)"
            lines.append(
                f"| {level} | `{agent}` | {n} | {100 * wins / n:.1f}% ({100 * lo:.1f}-"
                f"{100 * hi:.1f}%) | {score:.1f} | {sum(bots) / len(bots):.1f} | {diff} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--agents", nargs="+", default=["greedy", "expert"], help="agent specs")
    ap.add_argument("--levels", nargs="+", default=list(LEVELS), help="Starbot levels")
    ap.add_argument("--starbots", type=int, default=2, help="Starbot seats (1-4)")
    ap.add_argument("--games", type=int, default=40, help="games per level and agent")
    ap.add_argument("--first", type=int, default=0, help="play games first .. first+games-1")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", type=Path, help="JSON-lines file of finished games (appended)")
    ap.add_argument("--weights", type=Path, help=(
        "a candidate weights file in place of the shipped data/value_starbots.json (screening)"))
    ap.add_argument("--table", type=Path, help="print the table of the games in this file")
    args = ap.parse_args(argv)
    agents: list[str] = args.agents
    levels: list[str] = args.levels
    for level in levels:
        if level not in LEVELS:
            ap.error(f"--levels: {level!r} is not a Starbot level ({', '.join(LEVELS)})")
    if not 1 <= args.starbots <= 4:
        ap.error("--starbots must be 1 to 4 (SL-1.1: at most five seats)")
    if args.table:
        games = [json.loads(x) for x in args.table.read_text().splitlines() if x.strip()]
        print(table(games, agents, levels))
        return
    if not args.out:
        ap.error("--out FILE is needed to play (or --table FILE to summarise)")
    if args.weights:
        model = load_linear_value(args.weights, evaluator.VALUE_FEATURES)
        evaluator._LOADED[evaluator.STARBOT_WEIGHTS_FILE] = model
    done: set[tuple[str, str, int]] = set()
    if args.out.exists():
        for x in args.out.read_text().splitlines():
            if x.strip():
                g = json.loads(x)
                done.add((g["agent"], g["level"], g["i"]))
    with args.out.open("a") as fh:
        # Game by game across levels and agents, so a run cut short has every cell started.
        for i in range(args.first, args.first + args.games):
            for level in levels:
                for agent in agents:
                    if (agent, level, i) not in done:
                        g = one_game(agent, level, args.starbots, args.seed, i)
                        fh.write(json.dumps(g) + "\n")
                        fh.flush()


if __name__ == "__main__":
    main()
