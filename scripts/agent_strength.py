"""Agent strength benchmark: a search agent against ``random`` and ``greedy``, every 2-player game.

    PYTHONPATH=src python scripts/agent_strength.py                  # the full run (slow)
    PYTHONPATH=src python scripts/agent_strength.py --games 20 \\
        --spec ismcts:iterations=200 --workers 2 --write docs/agents.md

For every game that takes two players, plays ``--games`` seat-rotated games (half with the
search agent in seat 0, half in seat 1, each pair on the same deal) against each opponent and
reports the search agent's win rate with its 95% Wilson interval next to the target (at least 90%
against random, 60% against greedy). ``--write FILE`` replaces the table between the
``<!-- strength:begin -->`` and ``<!-- strength:end -->`` markers of FILE, with a line saying
exactly what was run. It is a benchmark (minutes to hours), not part of ``make test``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import sys
import time
from pathlib import Path
from typing import Any

from nightsky.core.registry import game_class, packaged_game_ids
from nightsky.sim.design import components_hash
from nightsky.sim.engines import run_games
from nightsky.sim.runner import MatchSpec
from nightsky.sim.tournament import lineups, summarize_tournament

TARGETS = {"random": 0.90, "greedy": 0.60}
BEGIN, END = "<!-- strength:begin -->", "<!-- strength:end -->"


def two_player_games() -> list[str]:
    """The shipped games that take two players."""
    out = []
    for gid in packaged_game_ids():
        info = game_class(gid).info
        if info.min_players <= 2 <= info.max_players:
            out.append(gid)
    return out


def duel(
    game_id: str, spec: str, opponent: str, games: int, *, seed: int, workers: int, engine: str
) -> dict[str, Any]:
    """Play ``games`` seat-rotated games of ``spec`` against ``opponent``; the spec's row."""
    agents = [spec, opponent]
    seatings = lineups(agents, 2)
    match = MatchSpec(game_id, {"players": 2}, seatings[0], seed, lineups=seatings)
    start = time.perf_counter()
    results = list(run_games(match, games, engine=engine, workers=workers))
    seconds = time.perf_counter() - start
    summary = summarize_tournament(
        results, agents, game_id=game_id, players=2, seconds=seconds
    )
    row = next(r for r in summary["standings"] if r["agent"] == spec)
    return {
        "game": game_id,
        "opponent": opponent,
        "games": len(results),
        "win_rate": row["win_rate"],
        "ci95": row["win_ci95"],
        "target": TARGETS.get(opponent),
        "mean_actions": summary["mean_actions"],
        "seconds": round(seconds, 1),
        # The components the row was played on (the guard in tests/test_strength_rows.py
        # fails once the game's shipped set no longer has this hash).
        "components": components_stamp(game_id),
    }


def components_stamp(game_id: str, path: str | None = None) -> dict[str, str]:
    """Which components a row was measured on: ``file`` (``shipped``, or the components file
    given) and its SHA-256 as ``nightsky.sim.design.components_hash`` computes it."""
    return {"file": path or "shipped", "sha256": components_hash(game_id, path)}


def table(rows: list[dict[str, Any]], spec: str) -> str:
    lines = [
        f"| game | `{spec}` vs | games | win rate | 95% interval | target | met? | "
        "actions/game | wall s |",
        "|---|---|---:|---:|---:|---:|:---:|---:|---:|",
    ]
    for r in rows:
        target = r["target"]
        lo, hi = r["ci95"]
        if target is None:
            met = "-"
        elif r["win_rate"] >= target:
            met = "yes" if lo >= target - 0.1 else "yes (few games)"
        else:
            met = "no" if hi < target else "not shown"
        lines.append(
            f"| {r['game']} | {r['opponent']} | {r['games']} | {r['win_rate']:.0%} | "
            f"{lo:.0%}-{hi:.0%} | {'-' if target is None else f'{target:.0%}'} | {met} | "
            f"{r['mean_actions']:.0f} | {r['seconds']:.0f} |"
        )
    return "\n".join(lines)


def write_section(path: Path, body: str) -> None:
    """Replace the text between the strength markers of ``path`` (append them if missing)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{BEGIN}\n{body}\n{END}"
    if BEGIN in text and END in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text,
                      flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--spec", default="ismcts:seconds=0.2", help="the agent under test")
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument("--games", type=int, default=100, help="games per pairing (even)")
    parser.add_argument("--only", nargs="*", default=None, help="game ids (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--engine", default="local", choices=["local", "ray"])
    parser.add_argument("--write", type=Path, default=None, help="Markdown file to update")
    parser.add_argument("--save", type=Path, default=None,
                        help="append each finished row to this JSON-lines file")
    parser.add_argument("--load", type=Path, nargs="*", default=None,
                        help="play nothing: build the table from rows saved by --save")
    args = parser.parse_args(argv)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    if args.load is not None:
        for path in args.load:
            rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        # Rows measured on components a game no longer ships are history, not the table.
        rows = [r for r in rows if r.get("components", {}).get("file", "shipped") == "shipped"]
        rows.sort(key=lambda r: (r["game"], r["opponent"]))
        body = table(rows, args.spec)
        print(body)
        if args.write:
            runs = [f"- {r['game']} vs {r['opponent']}: {r['run']}" for r in rows if "run" in r]
            write_section(args.write, "Where each row comes from:\n\n" + "\n".join(runs)
                          + "\n\n" + body)
        return rows
    for gid in args.only or two_player_games():
        for opp in args.opponents.split(","):
            row = duel(gid, args.spec, opp, args.games, seed=args.seed, workers=args.workers,
                       engine=args.engine)
            rows.append(row)
            if args.save:
                cmd = " ".join(argv if argv is not None else sys.argv[1:])
                load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
                row["run"] = (
                    f"`{cmd}` finished {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC "
                    f"({args.workers} worker(s), load average {load:.1f})"
                )
                with args.save.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
            print(
                f"{gid:16s} vs {opp:8s} {row['win_rate']:6.1%} "
                f"[{row['ci95'][0]:.0%}-{row['ci95'][1]:.0%}] ({row['seconds']:.0f} s)",
                flush=True,
            )
    body = table(rows, args.spec)
    print(body)
    if args.write:
        cmd = "python scripts/agent_strength.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]) if a
        )
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        note = (
            f"Run {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC: `{cmd.strip()}` "
            f"({args.games} seat-rotated games per pairing, seed {args.seed}, "
            f"{args.workers} worker(s), {os.cpu_count()} cores, load average {load:.1f} at "
            f"the end, Python {platform.python_version()}, "
            f"{time.perf_counter() - started:.0f} s in all)."
        )
        write_section(args.write, note + "\n\n" + body)
    return rows


if __name__ == "__main__":
    main()
