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

A long run can be played in parts and put together: ``--save FILE`` appends every finished
game to FILE as a JSON line (game, seed, index, the seats' agents and the specs they played as,
winners, scores), ``--first K`` starts after the first K games of each pairing (K even:
``--games 100`` then ``--first 100 --games 100`` play the games of one ``--games 200`` run),
and ``--load FILE ...`` builds each game's table from the saved games of the same seed and
seatings, adding what this run plays (``--games 0``: play nothing). A saved game whose level
was played by another spec than the game's level now, or an index saved twice with different
results, is refused with the line it came from.

``--write FILE`` replaces that game's table inside the ``<!-- ladder:begin -->`` /
``<!-- ladder:end -->`` section of FILE (other games' tables stay), each with a line saying what
was run. A benchmark (minutes to hours), not part of ``make test``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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


def played_as(gid: str) -> dict[str, str]:
    """What each agent of the ladder plays as in game ``gid``: a level's spec, else its name."""
    levels = {lvl.name: lvl.spec for lvl in game_class(gid).info.levels}
    return {a: levels.get(a, a) for a in AGENTS}


def saved_line(gid: str, seed: int, r: GameResult, specs: dict[str, str]) -> str:
    """One finished game as a JSON line for ``--save``."""
    seats = list(r.agents[:2])
    return json.dumps({
        "game": gid, "seed": seed, "index": r.index, "agents": seats,
        "specs": [specs[a] for a in seats], "winners": r.winners, "scores": r.scores,
        "actions": r.actions, "seconds": round(r.seconds, 3), "end": r.end,
    })


def load_saved(paths: list[Path], gid: str, seed: int,
               seatings: tuple[tuple[str, ...], ...]) -> dict[int, GameResult]:
    """The games of ``gid`` saved in ``paths`` by index, checked against this run: the same
    seed, the seating this run puts at that index, every level played as the game's level now,
    and no index saved twice with different results. Lines of other games are skipped."""
    specs = played_as(gid)
    out: dict[int, GameResult] = {}
    for path in paths:
        try:
            lines = path.read_text().splitlines()
        except OSError as exc:
            raise SystemExit(f"--load {path}: {exc.strerror or exc}") from None
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = f"{path}:{n}"
            try:
                row: dict[str, Any] = json.loads(line)
                if row["game"] != gid:
                    continue
                index, seats = int(row["index"]), tuple(str(a) for a in row["agents"])
                played = [str(x) for x in row["specs"]]
                if len(played) != len(seats):
                    raise ValueError("one spec per seat")
                r = GameResult(index, [float(x) for x in row["scores"]],
                               [int(w) for w in row["winners"]], int(row["actions"]), 0,
                               float(row["seconds"]), agents=list(seats), end=row.get("end"))
                saved_seed = row["seed"]
            except json.JSONDecodeError as exc:
                raise SystemExit(f"{where}: not a JSON line ({exc.msg})") from None
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise SystemExit(f"{where}: not a saved ladder game ({exc!r})") from None
            if saved_seed != seed:
                raise SystemExit(f"{where}: saved with seed {saved_seed}, this run's is {seed} "
                                 "(give --seed)")
            if index < 0 or seats != seatings[index % len(seatings)]:
                raise SystemExit(f"{where}: game {index} seated {', '.join(seats)}, which this "
                                 "run's seatings do not put there (--steps on one run only?)")
            for a, sp in zip(seats, played, strict=True):
                if specs.get(a) != sp:
                    raise SystemExit(f"{where}: {a} played as `{sp}`, but {gid}'s {a} is "
                                     f"`{specs.get(a, '?')}` now")
            old = out.get(index)
            if old is not None and (old.winners, old.scores) != (r.winners, r.scores):
                raise SystemExit(f"{where}: game {index} is saved twice with different results")
            out[index] = r
    return out


def play(spec: MatchSpec, total: int, first: int, workers: int, save: Path | None,
         specs: dict[str, str]) -> tuple[list[GameResult], float]:
    """Play games ``first`` .. ``first + total - 1`` with a progress bar on stderr, appending
    each to ``save`` as it finishes; the results and the wall seconds."""
    results: list[GameResult] = []
    t0 = time.perf_counter()
    fh = save.open("a") if save else None
    try:
        with Progress(TextColumn(spec.game_id), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=Console(stderr=True)) as bar:
            task = bar.add_task(spec.game_id, total=total)
            # One game a task: games take seconds, and each is saved as soon as it ends.
            for r in run_games(spec, total, workers=workers, first=first, chunk=1):
                results.append(r)
                if fh:
                    fh.write(saved_line(spec.game_id, int(spec.seed), r, specs) + "\n")
                    fh.flush()
                bar.advance(task)
    finally:
        if fh:
            fh.close()
    return results, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per pairing (both seatings)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--only", nargs="*", default=None, help="game ids (default: all five)")
    ap.add_argument("--write", type=Path, default=None, help="markdown file with the section")
    ap.add_argument("--steps", action="store_true",
                    help="only each level against the one below it (both seatings)")
    ap.add_argument("--first", type=int, default=0,
                    help="games per pairing already played (even): start after them")
    ap.add_argument("--save", type=Path, default=None,
                    help="append every finished game to this file (JSON lines)")
    ap.add_argument("--load", type=Path, nargs="+", default=[],
                    help="files of saved games to build the tables from, with this run's")
    args = ap.parse_args(argv)
    if args.games < 0 or args.games == 1 or (args.games == 0 and not args.load):
        ap.error("--games must be at least 2 (one game in each seating), or 0 with --load")
    if args.first < 0 or args.first % 2:
        ap.error("--first must be an even number of games per pairing, 0 or more")
    seatings = steps() if args.steps else lineups(AGENTS, 2)
    for gid in args.only or packaged_game_ids():
        info = game_class(gid).info
        if not info.min_players <= 2 <= info.max_players:
            continue
        rounds = -(-args.games // 2)  # each round: every ordered pair once
        total = rounds * len(seatings)
        specs = played_as(gid)
        saved = load_saved(args.load, gid, args.seed, seatings) if args.load else {}
        spec = MatchSpec(gid, {"players": 2}, AGENTS[:2], args.seed, lineups=seatings)
        print(f"{gid}: {total} games ({2 * rounds} per pairing) from game "
              f"{args.first // 2 * len(seatings)}, seed {args.seed}, {args.workers} worker(s)"
              + (f"; {len(saved)} saved games loaded" if args.load else ""),
              file=sys.stderr, flush=True)
        played, seconds = play(spec, total, args.first // 2 * len(seatings), args.workers,
                               args.save, specs)
        results = sorted({**saved, **{r.index: r for r in played}}.values(),
                         key=lambda r: r.index)
        if not results:
            print(f"{gid}: no games saved or played", file=sys.stderr)
            continue
        per_pairing = round(2 * len(results) / len(seatings))
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        run = (f"`scripts/ladder.py --only {gid} --games {2 * rounds} --seed {args.seed} "
               f"--workers {args.workers}{' --steps' if args.steps else ''}"
               f"{f' --first {args.first}' if args.first else ''}`")
        if saved:
            cpu_min = sum(r.seconds for r in saved.values()) / 60
            run = (f"{len(saved)} saved games (`--load`, {cpu_min:.0f} CPU min of play) and "
                   + (run if played else "nothing more"))
        note = (
            f"{run} on commit `{_commit()}`, "
            f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC, {seconds / 60:.0f} min, "
            f"load average {load:.1f} at the end; {per_pairing} games per pairing"
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
