"""A search agent against ``greedy`` in some games: seat-rotated 2-player games in parallel.

    PYTHONPATH=src python scripts/search_vs_greedy.py --games 200 --jobs 16 --seed 1818 \\
        --match "starlight=ismcts:iterations=2400,plan=100" \\
        --match "mihi-anguli=ismcts:iterations=3550,depth=8,plan=100" --out DIR

Game ``i`` of a match is deal ``i // 2`` with the search agent in seat ``i % 2`` (each pair of
games on the same deal, one in each seating), played by ``nightsky.sim.runner.play_spec`` as
``scripts/agent_strength.py`` and ``nightsky tournament`` play them, so a game's result depends
only on the seed and its index. The games of every match are interleaved on ``--jobs`` worker
processes (one game at a time each). With ``--deadline S`` the run stops collecting after S
seconds and reports the complete pairs finished by then (it says how many), so a run on a
machine of unknown speed still ends in time.

Writes ``DIR/results.json`` (the settings, every game, a summary per match) and
``DIR/table.md``: the search agent's win rate with its 95% Wilson interval, the mean points
ahead of ``greedy``, and the CPU seconds a game took. A shared victory counts half a win.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import multiprocessing as mp
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from nightsky.sim.runner import MatchSpec, play_spec
from nightsky.sim.stats import wilson_interval
from nightsky.sim.tournament import lineups

DEFAULT_MATCHES = (
    "starlight=ismcts:iterations=2400,plan=100",
    "mihi-anguli=ismcts:iterations=3550,depth=8,plan=100",
)
TARGET = 0.60


def _spec(game: str, agent: str, seed: int) -> MatchSpec:
    seatings = lineups([agent, "greedy"], 2)
    return MatchSpec(game, {"players": 2}, seatings[0], seed, lineups=seatings)


def _play(task: tuple[str, str, int, int]) -> dict[str, Any]:
    """One game: the search agent's seat, the scores, who won, the time taken."""
    game, agent, seed, index = task
    spec = _spec(game, agent, seed)
    seats = spec.seats_of(index)
    me = seats.index(agent)
    cpu = time.process_time()
    wall = time.perf_counter()
    result = play_spec(spec, index)
    share = 1.0 / len(result.winners) if me in result.winners else 0.0
    return {
        "game": game,
        "agent": agent,
        "index": index,
        "deal": spec.deal_of(index),
        "seat": me,
        "scores": result.scores,
        "winners": result.winners,
        "win": share,
        "margin": float(result.scores[me] - result.scores[1 - me]),
        "actions": result.actions,
        "cpu_s": round(time.process_time() - cpu, 2),
        "wall_s": round(time.perf_counter() - wall, 2),
    }


def summarise(game: str, agent: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A match's summary over its complete pairs (both seatings of a deal finished)."""
    deals: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        deals.setdefault(r["deal"], []).append(r)
    paired = [r for d in sorted(deals) if len(deals[d]) == 2 for r in deals[d]]
    n = len(paired)
    wins = sum(r["win"] for r in paired)
    lo, hi = wilson_interval(wins, n)
    by_seat = {s: [r["win"] for r in paired if r["seat"] == s] for s in (0, 1)}
    margins = [r["margin"] for r in paired]
    mean_margin = sum(margins) / n if n else 0.0
    sd = (math.sqrt(sum((m - mean_margin) ** 2 for m in margins) / (n - 1)) if n > 1 else 0.0)
    return {
        "game": game,
        "agent": agent,
        "opponent": "greedy",
        "games": n,
        "finished": len(rows),
        "win_rate": wins / n if n else 0.0,
        "ci95": [lo, hi],
        "win_rate_by_seat": {s: (sum(v) / len(v) if v else None) for s, v in by_seat.items()},
        "mean_margin": mean_margin,
        "margin_se": sd / math.sqrt(n) if n else 0.0,
        "mean_cpu_s": sum(r["cpu_s"] for r in paired) / n if n else 0.0,
        "mean_actions": sum(r["actions"] for r in paired) / n if n else 0.0,
        "target_met": bool(n and wins / n >= TARGET and lo > 0.5),
    }


def table(summaries: list[dict[str, Any]], note: str) -> str:
    lines = [
        note,
        "",
        "| game | search agent | games | win rate vs greedy | 95% interval | seat 0 / seat 1 | "
        "points ahead | CPU s a game | target (>= 60%, low end > 50%) |",
        "|---|---|---:|---:|---:|---:|---:|---:|:---:|",
    ]
    for s in summaries:
        lo, hi = s["ci95"]
        seat = s["win_rate_by_seat"]
        seats = " / ".join("-" if seat[k] is None else f"{seat[k]:.0%}" for k in (0, 1))
        lines.append(
            f"| {s['game']} | `{s['agent']}` | {s['games']} | {s['win_rate']:.1%} | "
            f"{lo:.1%}-{hi:.1%} | {seats} | {s['mean_margin']:+.1f} +- {s['margin_se']:.1f} | "
            f"{s['mean_cpu_s']:.1f} | {'met' if s['target_met'] else 'not met'} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--match", action="append", default=None, metavar="GAME=SPEC",
                        help=f"a game and the agent spec to test (default: {DEFAULT_MATCHES})")
    parser.add_argument("--games", type=int, default=200, help="games per match (even)")
    parser.add_argument("--seed", type=int, default=1818)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--deadline", type=float, default=0.0,
                        help="stop after this many seconds, reporting complete pairs (0: none)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.games % 2:
        parser.error("--games must be even (pairs of seatings)")
    matches = [m.split("=", 1) for m in (args.match or DEFAULT_MATCHES)]
    tasks = [(g, agent, args.seed, i) for i in range(args.first, args.first + args.games)
             for g, agent in matches]
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    errors: list[str] = []
    cmd = "python scripts/search_vs_greedy.py " + " ".join(
        argv if argv is not None else sys.argv[1:])

    def report(stopped: bool, final: bool) -> str:
        seconds = time.perf_counter() - started
        summaries = [summarise(g, agent, [r for r in rows if (r["game"], r["agent"]) == (g, agent)])
                     for g, agent in matches]
        state = ("" if final else "; still running, a partial report")
        note = (
            f"`{cmd}`: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, seed {args.seed}, games "
            f"{args.first}-{args.first + args.games - 1} of each match (deal = index // 2, the "
            f"search agent in seat index % 2), {args.jobs} worker(s), {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, "
            f"{'pure Python' if os.environ.get('NIGHTSKY_PURE') else 'compiled if built'}, "
            f"{seconds:.0f} s"
            + (f"; stopped at the {args.deadline:.0f} s deadline, complete pairs only"
               if stopped else "")
            + (f"; {len(errors)} game(s) failed" if errors else "")
            + state + "."
        )
        (args.out / "results.json").write_text(json.dumps({
            "command": cmd, "seed": args.seed, "games": args.games, "first": args.first,
            "jobs": args.jobs, "seconds": round(seconds, 1), "stopped_at_deadline": stopped,
            "final": final, "python": platform.python_version(), "cores": os.cpu_count(),
            "pure": bool(os.environ.get("NIGHTSKY_PURE")), "summaries": summaries,
            "errors": errors, "rows": sorted(rows, key=lambda r: (r["game"], r["index"])),
        }, indent=1) + "\n", encoding="utf-8")
        text = table(summaries, note)
        (args.out / "table.md").write_text(text, encoding="utf-8")
        return text

    stopped = False
    last_report = started
    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    pool = ctx.Pool(args.jobs)
    try:
        pending = [(t, pool.apply_async(_play, (t,))) for t in tasks]
        while pending:
            left = []
            for task, p in pending:
                if not p.ready():
                    left.append((task, p))
                    continue
                try:
                    row = p.get()
                except Exception as exc:  # a failed game is reported, the run goes on
                    errors.append(f"{task[0]} #{task[3]}: {exc!r}")
                    print(f"FAILED {task[0]} #{task[3]}: {exc!r}", flush=True)
                    continue
                rows.append(row)
                print(f"{row['game']:12s} {row['agent']} #{row['index']:4d} seat {row['seat']} "
                      f"win {row['win']:.1f} margin {row['margin']:+.0f} "
                      f"cpu {row['cpu_s']:.0f}s  [{len(rows)}/{len(tasks)}, "
                      f"{time.perf_counter() - started:.0f}s]", flush=True)
            pending = left
            now = time.perf_counter()
            if args.deadline and now - started > args.deadline:
                stopped = bool(pending)
                break
            if now - last_report > 30:
                report(False, False)
                last_report = now
            time.sleep(0.2)
    finally:
        pool.terminate()
        pool.join()
    text = report(stopped, True)
    print(text, flush=True)
    return json.loads((args.out / "results.json").read_text())["summaries"]


if __name__ == "__main__":
    main()
