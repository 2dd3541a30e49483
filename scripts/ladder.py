"""The difficulty ladder: every level of a game and ``random``/``greedy`` against each other.

    PYTHONPATH=src python scripts/ladder.py --games 200 --workers 2 --write docs/agents.md

For each game (``--only`` some), the agents ``random``, ``greedy``, ``easy``, ``medium``,
``hard`` and ``expert`` (the levels as the game defines them, ``GameInfo.levels``) play a 2-player
tournament through ``nightsky.sim`` (``lineups``, ``run_games``, ``summarize_tournament``):
every ordered pair of agents is a lineup, game ``i`` seats lineup ``i % 30`` on deal ``i // 30``,
so each pairing plays both seatings of the same deals. ``--games`` is the number of games per
pairing (both seatings together; rounded up to even). ``--steps`` plays only the pairings the
target reads, each level against the one below it (``random`` under ``easy``), in both seatings:
four pairings instead of fifteen, for a game whose ``expert`` thinks too long for the whole
tournament on a small machine; the ratings then come from those games alone. Ratings are
openskill's Plackett-Luce ordinals (mu - 3 sigma), updated game by game in index order. The
seed of a game's run is ``--seed`` (printed with the table); a run repeats exactly except where
an agent thinks for a time budget (``seconds``), which depends on the machine and its load.

``--write FILE`` replaces that game's table inside the ``<!-- ladder:begin -->`` /
``<!-- ladder:end -->`` section of FILE (other games' tables stay), each with a line saying what
was run. A benchmark (minutes to hours), not part of ``make test``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from nightsky.core.info import LEVEL_NAMES
from nightsky.core.registry import game_class, packaged_game_ids
from nightsky.sim.engines import run_games
from nightsky.sim.runner import GameResult, MatchSpec
from nightsky.sim.stats import wilson_interval
from nightsky.sim.tournament import lineups, summarize_tournament

AGENTS = ("random", "greedy", *LEVEL_NAMES)
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"
TARGET = 0.65  # each level should beat the one below in at least this share of games


def level_steps() -> list[tuple[str, str]]:
    """``(level, the one below it)`` for every level, ``random`` under ``easy``: what the target
    reads."""
    return list(zip(LEVEL_NAMES, ("random", *LEVEL_NAMES), strict=False))


def steps() -> tuple[tuple[str, str], ...]:
    """The seatings of ``--steps``: each level and the one below it, both ways round."""
    return tuple(s for high, low in level_steps() for s in ((high, low), (low, high)))


def pairwise(results: list[GameResult]) -> dict[tuple[str, str], tuple[float, int]]:
    """``(a, b) -> (a's win share against b, games)`` over 2-player games."""
    wins: dict[tuple[str, str], float] = defaultdict(float)
    games: dict[tuple[str, str], int] = defaultdict(int)
    for r in results:
        a, b = r.agents[:2]
        for p, (me, other) in enumerate(((a, b), (b, a))):
            games[me, other] += 1
            wins[me, other] += 1.0 / len(r.winners) if p in r.winners else 0.0
    return {k: (wins[k], games[k]) for k in games}


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def table(gid: str, results: list[GameResult], seconds: float, note: str) -> str:
    """The markdown block of one game: what was run, standings, the level steps, the matrix."""
    info = game_class(gid).info
    # Only the agents that played (``--steps`` leaves ``greedy`` out), in the usual order.
    seated = {a for r in results for a in r.agents[:2]}
    agents = [a for a in AGENTS if a in seated]
    summary = summarize_tournament(results, agents, game_id=gid, players=2, seconds=seconds)
    pw = pairwise(results)
    specs = {lvl.name: lvl.spec for lvl in info.levels}
    lines = [f"<!-- ladder:{gid}:begin -->", f"### {info.title} (`{gid}`)", "", note, ""]
    lines += ["| agent | plays as | rating | win rate | " + " | ".join(f"vs {a}" for a in agents)
              + " |", "|---|---|---:|---:|" + "---:|" * len(agents)]
    for row in summary["standings"]:
        a = row["agent"]
        cells = []
        for b in agents:
            w, n = pw.get((a, b), (0.0, 0))
            cells.append("-" if a == b or not n else _pct(w / n))
        lo, hi = row["win_ci95"]
        lines.append(
            f"| {a} | `{specs.get(a, a)}` | {row['rating']['ordinal']:.1f} | "
            f"{_pct(row['win_rate'])} ({_pct(lo)}-{_pct(hi)}) | " + " | ".join(cells) + " |"
        )
    lines += ["", f"Each level against the one below (target {_pct(TARGET)}):", ""]
    for high, low in level_steps():
        w, n = pw.get((high, low), (0.0, 0))
        if n:
            lo, hi = wilson_interval(w, n)
            verdict = "met" if lo >= TARGET else "not shown" if hi >= TARGET else "missed"
            lines.append(f"- {high} vs {low}: {_pct(w / n)} of {n} ({_pct(lo)}-{_pct(hi)}): "
                         f"{verdict}")
    lines.append(f"<!-- ladder:{gid}:end -->")
    return "\n".join(lines)


def write_block(path: Path, gid: str, block: str) -> None:
    """Put ``block`` for ``gid`` into the ladder section of ``path`` (replacing its old one)."""
    text = path.read_text()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path}: no {BEGIN} ... {END} section")
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    found = {m.group(1): m.group(0) for m in re.finditer(
        r"<!-- ladder:([\w-]+):begin -->.*?<!-- ladder:\1:end -->", body, flags=re.S)}
    found[gid] = block
    joined = "\n\n".join(found[k] for k in sorted(found))
    path.write_text(f"{head}{BEGIN}\n{joined}\n{END}{tail}")


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per pairing (both seatings)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--only", nargs="*", default=None, help="game ids (default: all five)")
    ap.add_argument("--write", type=Path, default=None, help="markdown file with the section")
    ap.add_argument("--steps", action="store_true",
                    help="only each level against the one below it (both seatings)")
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error("--games must be at least 2 (one game in each seating)")
    seatings = steps() if args.steps else lineups(AGENTS, 2)
    for gid in args.only or packaged_game_ids():
        info = game_class(gid).info
        if not info.min_players <= 2 <= info.max_players:
            continue
        rounds = -(-args.games // 2)  # each round: every ordered pair once
        total = rounds * len(seatings)
        spec = MatchSpec(gid, {"players": 2}, AGENTS[:2], args.seed, lineups=seatings)
        print(f"{gid}: {total} games ({2 * rounds} per pairing), seed {args.seed}, "
              f"{args.workers} worker(s)", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        results = list(run_games(spec, total, workers=args.workers))
        seconds = time.perf_counter() - t0
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        note = (
            f"`scripts/ladder.py --only {gid} --games {2 * rounds} --seed {args.seed} "
            f"--workers {args.workers}{' --steps' if args.steps else ''}` on commit "
            f"`{_commit()}`, "
            f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {seconds / 60:.0f} min, "
            f"load average {load:.1f} at the end; {2 * rounds} games per pairing"
            f"{' (only each level against the one below)' if args.steps else ''}, "
            "win rates with 95% Wilson intervals in brackets."
        )
        block = table(gid, results, seconds, note)
        print(block, flush=True)
        if args.write:
            write_block(args.write, gid, block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
