"""Starlight seat balance in one parallel run: compare 5-player turn-order compensations on
tuning seeds, check the shipped table on fresh seeds at 2-5 players, take a search-agent look.

    PYTHONPATH=src NIGHTSKY_PURE=1 python scripts/balance_sweep.py --jobs 16 --out DIR

Three phases share one process pool (issue 19), in this order of priority:

1. **tune**: every candidate of ``--candidates`` (a designed 5-player row of ``[turn_order]``,
   the other rows as shipped; ``CANDIDATES``) plays ``--games`` games with ``--agent`` in
   every seat at 5 players on each of ``--tune-seeds``. A rule fixed in advance (``choose``:
   fewest flagged seats over the tuning seeds, then the smallest worst |advantage|, then the
   smallest mean worst |advantage|) names the best, and the report says whether it is the
   shipped row.
2. **fresh**: the shipped tables (the default game: these are the games of ``nightsky balance
   starlight --agents AGENT --games G --seed S``) play ``--games`` games per player count of
   ``--fresh-players`` on each of ``--fresh-seeds``, and at 5 players on each of
   ``--fresh-5p-seeds``: seeds never used while tuning.
3. **search**: ``--search-agent`` (an ``iterations`` budget, so that the games do not depend on
   the machine's speed) in every seat with the shipped tables, at most ``--search-games`` games
   per player count of ``--search-players`` on ``--search-seed``, plus ``--strength-games``
   games of the search agent against ``--agent`` at 2 players (seats alternated on the same
   deals) to show its strength. Search games fill the workers that the greedy phases leave
   idle, and none starts after ``--deadline`` seconds: each count then reports the games
   ``0 .. m-1`` that all finished (what ``nightsky balance ... --games m`` plays), so the
   figures depend only on the seed, not on the machine.

Game ``i`` of a seed is game ``i`` of ``nightsky balance`` with that seed (``play_spec``), so
every row can be re-run on its own. Writes ``DIR/sweep.json`` (every row) and ``DIR/sweep.md``
(markdown tables for docs/games/starlight.md) and prints the markdown. A benchmark script, not
part of ``make test``. Sizing (pure Python, one core of the 2-core development machine, CPU
seconds per greedy game): 2 players 0.14, 3 0.25, 4 0.35, 5 0.6; ``ismcts:iterations=50``
about 2.3 s at 2 players and 23 s at 5. ``ismcts:iterations=600`` (about 0.05 s a move
compiled), seconds per game on a lent 16-core machine, pure Python 3.12, 16 workers: 2
players 44, 3 players 108, 4 players 263 (5 players about twice 4); compiled (mypyc) about 6.5 at
2 players on the shared development machine, some 7 times faster. ``--search-option`` sets game
parameters of the search runs, ``--search-baseline`` also plays them without the compensation,
and ``--search-order count`` fills the smallest player count first.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nightsky._native import engine
from nightsky._version import __version__
from nightsky.core.registry import load_game
from nightsky.sim.balance import METHOD, summarize_balance, verdict
from nightsky.sim.runner import GameResult, MatchSpec, play_spec

GAME = "starlight"


@dataclass(frozen=True)
class Candidate:
    """A designed 5-player row of Starlight's ``[turn_order]`` table (seat 0 first)."""

    name: str
    saved_ap: tuple[int, ...]
    night_points: tuple[int, ...]
    why: str

    def label(self) -> str:
        nps = "" if not any(self.night_points) else f" + NP {list(self.night_points)}"
        return f"AP {list(self.saved_ap)}{nps}"


CANDIDATES = (
    Candidate("ap3", (0, 3, 3, 4, 5), (0, 0, 0, 0, 0),
              "seat 1 with 3 saved AP (the table before this sweep): +1.75 on fresh seed 77077"),
    Candidate("ap2np1", (0, 2, 3, 4, 5), (0, 1, 0, 0, 0),
              "seat 1 with 2 saved AP and 1 starting night point"),
    Candidate("ap2np2", (0, 2, 3, 4, 5), (0, 2, 0, 0, 0),
              "seat 1 with 2 saved AP and 2 starting night points"),
    Candidate("ap2", (0, 2, 3, 4, 5), (0, 0, 0, 0, 0),
              "seat 1 with 2 saved AP (an earlier table): below its share on four seeds"),
)


@dataclass(frozen=True)
class SeatRow:
    """A designed row of ``[turn_order]`` for one player count, tried with the search agent
    (``--search-candidate NAME:N:AP:NP``, e.g. ``P1:4:0,2,2,3:0,2,3,3``)."""

    name: str
    players: int
    saved_ap: tuple[int, ...]
    night_points: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> SeatRow:
        try:
            name, n, ap, nps = text.split(":")
            row = cls(name, int(n), tuple(int(x) for x in ap.split(",")),
                      tuple(int(x) for x in nps.split(",")))
        except ValueError as exc:
            raise SystemExit(
                f"--search-candidate {text!r}: want NAME:N:AP,..:NP,.. ({exc})") from exc
        if not (len(row.saved_ap) == len(row.night_points) == row.players):
            raise SystemExit(f"--search-candidate {text!r}: rows must have {row.players} values")
        return row

    def label(self) -> str:
        return f"AP {list(self.saved_ap)} + NP {list(self.night_points)}"

    def components(self, folder: Path) -> str:
        """A components file: the shipped ``[turn_order]`` with this row replaced."""
        t = _turn_order()
        ap = {k: list(v) for k, v in t.saved_ap.items()}
        nps = {k: list(v) for k, v in t.night_points.items()}
        day = {k: list(v) for k, v in t.day_points.items()}
        key = str(self.players)
        if (tuple(ap.get(key, [])), tuple(nps.get(key, []))) == (
            self.saved_ap, self.night_points
        ) and not any(day.get(key, [])):
            return ""  # the shipped row: the default game
        # The row replaces the count's whole head start (its day points too).
        ap[key], nps[key] = list(self.saved_ap), list(self.night_points)
        day[key] = [0] * self.players
        return _write_turn_order(folder, f"{self.name}_{self.players}p", ap, nps,
                                 f"search candidate {self.name} of scripts/balance_sweep.py",
                                 day)


def _write_turn_order(folder: Path, stem: str, ap: dict[str, list[int]],
                      nps: dict[str, list[int]], why: str,
                      day: dict[str, list[int]] | None = None) -> str:
    def inline(table: dict[str, list[int]]) -> str:
        return "{ " + ", ".join(f'"{k}" = {v}' for k, v in sorted(table.items())) + " }"

    path = folder / f"turn_order_{stem}.toml"
    path.write_text(
        "[turn_order]\nsource = \"designed\"\n"
        f"why = \"{why}\"\n"
        f"saved_ap = {inline(ap)}\nnight_points = {inline(nps)}\n"
        f"day_points = {inline(day or {})}\n"
    )
    return str(path.resolve())


def _turn_order() -> Any:
    """The shipped ``[turn_order]`` table (``StarlightGame.tables``)."""
    game: Any = load_game(GAME, players=5)
    return game.tables.data.turn_order


def shipped_row() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The shipped 5-player row (saved AP, night points)."""
    t = _turn_order()
    return tuple(t.saved_ap.get("5", [])), tuple(t.night_points.get("5", []))


def components_file(c: Candidate, folder: Path) -> str:
    """A components file replacing ``[turn_order]``: the shipped rows with ``c``'s 5-player row.

    Empty when ``c`` is the shipped row (the default game, nothing replaced)."""
    t = _turn_order()
    day = {k: list(v) for k, v in t.day_points.items()}
    if (c.saved_ap, c.night_points) == shipped_row() and not any(day.get("5", [])):
        return ""
    ap = {k: list(v) for k, v in t.saved_ap.items()}
    nps = {k: list(v) for k, v in t.night_points.items()}
    ap["5"], nps["5"] = list(c.saved_ap), list(c.night_points)
    day["5"] = [0] * 5  # the candidate's row is the 5-player head start, day points none
    return _write_turn_order(folder, c.name, ap, nps,
                             f"candidate {c.name} of scripts/balance_sweep.py: {c.why}", day)


# ----------------------------------------------------------------------------- tasks
@dataclass(frozen=True, eq=False)  # eq=False: hashed by identity (the spec holds a dict)
class Run:
    """One balance measurement: a phase, a label, a match spec and its number of games."""

    phase: str
    label: str
    players: int
    spec: MatchSpec
    games: int


def _play(spec: MatchSpec, indices: list[int]) -> list[GameResult]:
    out = []
    for i in indices:
        r = play_spec(spec, i)
        # Keep what the summaries need: the results travel back between processes.
        out.append(GameResult(r.index, r.scores, r.winners, r.actions, r.chance_events,
                              r.seconds, agents=r.agents))
    return out


def _spec(players: int, agents: Sequence[str], seed: int, components: str = "",
          lineups: tuple[tuple[str, ...], ...] = (),
          options: dict[str, str] | None = None) -> MatchSpec:
    opts: dict[str, str] = dict(options or {})
    if components:
        opts["components"] = components
    params = load_game(GAME, players=players, **opts).params
    return MatchSpec(GAME, params, tuple(agents), seed, lineups=lineups)


def _chunks(games: int, size: int) -> list[list[int]]:
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


TIMED = ("stune", "sfresh", "search")
"""Search phases: none of their games starts after the deadline (each reports the games
``0 .. m-1`` that all finished)."""


class Scheduler:
    """Keeps the pool fed from prioritised queues (tune, fresh, search) until all is done or
    the deadline passes (then the search queue is dropped)."""

    def __init__(self, pool: ProcessPoolExecutor, jobs: int, start: float, budget: float) -> None:
        self.pool = pool
        self.budget = budget
        self.slots = jobs + 2  # the pool queues one call beyond its workers
        self.deadline = start + budget
        # In priority order: search tuning first (its choice starts the search fresh check).
        self.queues: dict[str, list[tuple[Run, list[int]]]] = {
            p: [] for p in ("stune", "tune", "fresh", "sfresh", "search")}
        self.running: dict[Future[list[GameResult]], tuple[Run, list[int]]] = {}
        self.results: dict[Run, list[GameResult]] = defaultdict(list)
        self.stopped = False

    def add(self, run: Run, chunk: int, interleave: bool = False) -> None:
        self.queues[run.phase].extend((run, c) for c in _chunks(run.games, chunk))
        if interleave:  # search: game 0 of every count, then game 1, ...
            self.queues[run.phase].sort(key=lambda rc: rc[1][0])

    def busy(self, phase: str) -> bool:
        return bool(self.queues[phase]) or any(r.phase == phase for r, _ in
                                               self.running.values())

    def step(self) -> None:
        if time.monotonic() > self.deadline and not self.stopped:
            self.stopped = True
            for phase in TIMED:
                self.queues[phase].clear()
        while len(self.running) < self.slots:
            for phase in self.queues:
                if self.queues[phase]:
                    run, idx = self.queues[phase].pop(0)
                    self.running[self.pool.submit(_play, run.spec, idx)] = (run, idx)
                    break
            else:
                break
        if not self.running:
            return
        timeout = 1.0 if self.stopped else max(1.0, self.deadline - time.monotonic())
        done, _ = wait(list(self.running), timeout=timeout, return_when=FIRST_COMPLETED)
        for fut in done:
            run, _idx = self.running.pop(fut)
            self.results[run].extend(fut.result())
            if len(self.results[run]) == run.games:
                print(f"[{time.monotonic() - self.deadline + self.budget:.0f} s] {run.phase} "
                      f"{run.label}, {run.players} players, seed {run.spec.seed}: "
                      f"{run.games} games done", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- summaries
def summarize(run: Run, results: list[GameResult], prefix: bool = False) -> dict[str, Any]:
    """``nightsky balance``'s rows for one run; ``prefix``: only games 0 .. m-1 all present."""
    got = sorted(results, key=lambda r: r.index)
    if prefix:
        m = 0
        while m < len(got) and got[m].index == m:
            m += 1
        got = got[:m]
    if len(got) < 2:
        return {"label": run.label, "phase": run.phase, "players": run.players,
                "games": len(got), "seed": run.spec.seed, "rows": []}
    data = summarize_balance(GAME, run.spec.agent_specs[0], {run.players: got},
                             games=len(got), seed=run.spec.seed)
    data["label"] = run.label
    data["phase"] = run.phase
    data["players"] = run.players
    data["cpu_seconds"] = round(sum(r.seconds for r in got), 1)
    data["components"] = run.spec.params.get("components", "")
    return data


def worst(data: dict[str, Any]) -> tuple[int, float]:
    """Flagged seats and the largest |advantage| of one run."""
    rows = data["rows"]
    return sum(r["flagged"] for r in rows), max(abs(r["advantage"]) for r in rows)


def choose(tuned: dict[str, list[dict[str, Any]]]) -> str:
    """The rule fixed before any game is played: fewest flagged seats over the tuning seeds,
    then the smallest worst |advantage| on any seed, then the smallest mean worst |advantage|."""

    def key(name: str) -> tuple[int, float, float]:
        ws = [worst(d) for d in tuned[name]]
        return (sum(f for f, _ in ws), max(a for _, a in ws), sum(a for _, a in ws) / len(ws))

    return min(tuned, key=key)


def md_rows(data: dict[str, Any]) -> list[str]:
    out = []
    for r in data["rows"]:
        lo, hi = r["win_ci95"]
        ci = r["score_ci95"]
        v = verdict(r)
        out.append(
            f"| {r['players']} | {r['seat']} | {r['win_share']:.1%} [{lo:.1%}-{hi:.1%}] | "
            f"{r['mean_score']:.2f}" + (f" [{ci[0]:.2f}-{ci[1]:.2f}]" if ci else "")
            + f" | {r['advantage']:+.2f} | " + (f"**{v}**" if r["flagged"] else v) + " |"
        )
    return out


HEAD = ["| N | seat | win share [interval] | mean score [95% CI] | advantage | verdict |",
        "|---:|---:|---|---|---:|---|"]


def markdown(report: dict[str, Any]) -> str:
    """The tables of ``sweep.md``."""
    a = report["args"]
    lines = [
        f"# Starlight seat balance sweep ({report['finished']})",
        "",
        f"`{report['command']}`: {a['jobs']} worker processes, {report['machine']}, "
        f"engine {report['engine']}, nightsky {report['version']}, "
        f"{report['wall_seconds']:.0f} s wall. Method: {METHOD}. Advantage: a seat's mean "
        "score minus the mean of the seats' mean scores.",
    ]
    if report["tune"]:
        lines += [
        "",
        f"## Tuning: the 5-player row, `{a['agent']}` in every seat, {a['games']} games per "
        f"seed, tuning seeds {', '.join(map(str, a['tune_seeds']))}",
        "",
        "| candidate | 5-player row (seat 0 first) | seed | advantage, seat 0 first | "
        "flagged | worst |adv.| |",
        "|---|---|---:|---|---|---:|",
        ]
    for name, runs in report["tune"].items():
        for d in runs:
            adv = " ".join(f"{r['advantage']:+.2f}" for r in d["rows"])
            flags = ", ".join(
                f"seat {r['seat']} {r['win_share']:.1%} ({verdict(r)})"
                for r in d["rows"] if r["flagged"]) or "none"
            lines.append(f"| {name} | {d['candidate']} | {d['seed']} | {adv} | {flags} | "
                         f"{worst(d)[1]:.2f} |")
    c = report["chosen"]
    if c:
        lines += ["", "Best by the rule fixed in advance (fewest flagged seats, then the smallest "
                  f"worst |advantage|, then the smallest mean worst): **{c['name']}**, "
                  f"{c['label']}" + (" = the shipped row." if c["shipped"] else
                                     ": **not** the shipped row.")]
    sh = report["shipped_5p"]
    ship = f"AP {sh['saved_ap']}" + (f" + NP {sh['night_points']}" if any(sh["night_points"])
                                     else "")
    by_seed: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for d in report["fresh"]:
        by_seed[d["seed"]].append(d)
    for seed, runs in by_seed.items():
        lines += ["", f"## Fresh check of the shipped tables (5 players: {ship}), "
                  f"`{a['agent']}` in every seat, {a['games']} games per player count, fresh "
                  f"seed {seed} (never used while tuning)", "", *HEAD]
        for d in sorted(runs, key=lambda d: d["players"]):
            lines += md_rows(d)
    if report["search"]:
        opts = ", ".join(a.get("search_option") or []) or "shipped tables"
        lines += ["", f"## Search agent: `{a['search_agent']}` in every seat ({opts}), "
                  f"seed {a['search_seed']}, games 0..m-1 per count (m below; at most "
                  f"{a['search_games']}, cut at {a['deadline']:.0f} s)", "",
                  "| run | N | games | worst |advantage| | flagged | "
                  "s per game (worker wall clock) |",
                  "|---|---:|---:|---:|---|---:|"]
        for d in report["search"]:
            f, w = worst(d) if d["rows"] and d["games"] >= 2 else (0, float("nan"))
            cost = d.get("cpu_seconds", 0.0) / d["games"] if d["games"] else float("nan")
            lines.append(f"| {d['label']} | {d['players']} | {d['games']} | {w:.2f} | {f} | "
                         f"{cost:.1f} |")
        for d in report["search"]:
            if d["games"] >= 2:
                lines += ["", f"{d['label']}, {d['players']} players:", "", *HEAD, *md_rows(d)]
    for n, runs in report.get("search_tune", {}).items():
        lines += ["", f"## Search tuning, {n} players: `{a['search_agent']}` in every seat, "
                  f"tuning seed {a['search_tune_seed']}, games 0..m-1 (at most "
                  f"{a['search_tune_games']})", "",
                  "| candidate | row (seat 0 first) | games | advantage, seat 0 first | "
                  "flagged | worst |adv.| |", "|---|---|---:|---|---|---:|"]
        for d in runs:
            if not d["rows"]:
                lines.append(f"| {d['label']} | {d['candidate']} | {d['games']} | | | |")
                continue
            adv = " ".join(f"{r['advantage']:+.2f}" for r in d["rows"])
            flags = ", ".join(f"seat {r['seat']} ({verdict(r)})" for r in d["rows"]
                              if r["flagged"]) or "none"
            lines.append(f"| {d['label']} | {d['candidate']} | {d['games']} | {adv} | "
                         f"{flags} | {worst(d)[1]:.2f} |")
        ch = report.get("search_chosen", {}).get(n)
        if ch:
            lines += ["", f"Chosen by the rule fixed in advance: **{ch['name']}**, "
                      f"{ch['label']}."]
    for d in report.get("chosen_checks", []):
        who = a["search_agent"] if d["phase"] == "sfresh" else a["agent"]
        lines += ["", f"## Fresh check of {d['label']} ({d['players']} players): `{who}` in "
                  f"every seat, seed {d['seed']}, {d['games']} games", "", *HEAD, *md_rows(d)]
    h = report.get("strength")
    if h:
        lines += ["", f"## Strength: `{a['search_agent']}` against `{a['agent']}`, 2 players, "
                  f"seats alternated on the same deals, seed {a['search_seed']}", "",
                  f"{h['games']} games (prefix): search agent won {h['search_wins']:.1f} "
                  f"({h['search_share']:.1%} [{h['ci95'][0]:.1%}-{h['ci95'][1]:.1%}]), mean "
                  f"score {h['search_mean']:.2f} against {h['other_mean']:.2f}."]
    return "\n".join(lines) + "\n"


def strength(results: list[GameResult]) -> dict[str, Any]:
    """Head-to-head summary over the finished prefix of games."""
    from nightsky.sim.stats import exact_interval

    got = sorted(results, key=lambda r: r.index)
    m = 0
    while m < len(got) and got[m].index == m:
        m += 1
    got = got[:m]
    wins = 0.0
    s_scores: list[float] = []
    o_scores: list[float] = []
    for r in got:
        seat = r.index % 2  # lineups alternate: the search agent sits in seat 0 of even games
        for w in r.winners:
            if w == seat:
                wins += 1.0 / len(r.winners)
        s_scores.append(r.scores[seat])
        o_scores.append(r.scores[1 - seat])
    lo, hi = exact_interval(wins, m) if m else (0.0, 1.0)
    return {"games": m, "search_wins": wins, "search_share": wins / m if m else 0.0,
            "ci95": [lo, hi],
            "search_mean": sum(s_scores) / m if m else 0.0,
            "other_mean": sum(o_scores) / m if m else 0.0}


# ----------------------------------------------------------------------------- main
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--games", type=int, default=800)
    ap.add_argument("--candidates", nargs="*", default=["ap3", "ap2np1"],
                    choices=[c.name for c in CANDIDATES])
    ap.add_argument("--tune-seeds", type=int, nargs="*", default=[5112, 5113])
    ap.add_argument("--fresh-seeds", type=int, nargs="*", default=[190519])
    ap.add_argument("--fresh-players", type=int, nargs="+", default=[2, 3, 4, 5])
    ap.add_argument("--fresh-5p-seeds", type=int, nargs="*", default=[190520])
    ap.add_argument("--search-agent", default="ismcts:iterations=50")
    ap.add_argument("--search-games", type=int, default=200, help="0: no search phase")
    ap.add_argument("--search-players", type=int, nargs="*", default=[2, 3, 4, 5])
    ap.add_argument("--search-seed", type=int, default=190521)
    ap.add_argument("--search-option", action="append", default=[], metavar="KEY=VALUE",
                    help="game parameter of the search runs (repeatable), e.g. "
                         "turn_order_compensation=false")
    ap.add_argument("--search-order", choices=["index", "count"], default="index",
                    help="index: game 0 of every count, then game 1, ...; count: every game of "
                         "the smallest count first (the small counts reach --search-games)")
    ap.add_argument("--search-baseline", action="store_true",
                    help="also play every search count without the compensation "
                         "(turn_order_compensation=false) on the same deals")
    ap.add_argument("--strength-games", type=int, default=100,
                    help="search agent vs --agent at 2 players (0: none)")
    ap.add_argument("--deadline", type=float, default=380.0,
                    help="seconds after the start after which no search game starts")
    ap.add_argument("--chunk", type=int, default=10, help="greedy games per task")
    ap.add_argument("--search-candidate", action="append", default=[], metavar="NAME:N:AP:NP",
                    help="a [turn_order] row for N players tried with --search-agent "
                         "(repeatable), e.g. P1:4:0,2,2,3:0,2,3,3")
    ap.add_argument("--search-tune-games", type=int, default=60,
                    help="games per search candidate on --search-tune-seed")
    ap.add_argument("--search-tune-seed", type=int, default=7420)
    ap.add_argument("--search-fresh-seed", type=int, default=0,
                    help="after the search tuning: the chosen row of each count plays "
                         "--search-games games on this seed (0: none)")
    ap.add_argument("--chosen-fresh-seeds", type=int, nargs="*", default=[],
                    help="after the search tuning: the chosen row of each count plays "
                         "--games games with --agent on each of these seeds")
    args = ap.parse_args(argv)
    rows = [SeatRow.parse(t) for t in args.search_candidate]

    start = time.monotonic()
    args.out.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="balance_sweep_"))
    cands = [c for c in CANDIDATES if c.name in args.candidates]
    shipped = shipped_row()
    comp = {c.name: components_file(c, folder) for c in cands}

    pool = ProcessPoolExecutor(max_workers=args.jobs)
    sched = Scheduler(pool, args.jobs, start, args.deadline)
    tune_runs: dict[str, list[Run]] = {}
    for c in cands:
        tune_runs[c.name] = []
        for s in args.tune_seeds:
            run = Run("tune", c.name, 5, _spec(5, [args.agent] * 5, s, comp[c.name]), args.games)
            tune_runs[c.name].append(run)
            sched.add(run, args.chunk)
    fresh_runs: list[Run] = []
    checks = [(s, p) for s in args.fresh_seeds for p in sorted(args.fresh_players, reverse=True)]
    checks += [(s, 5) for s in args.fresh_5p_seeds]
    for s, p in checks:
        run = Run("fresh", "shipped", p, _spec(p, [args.agent] * p, s), args.games)
        fresh_runs.append(run)
        sched.add(run, args.chunk)
    search_runs: list[Run] = []
    sopts = dict(kv.split("=", 1) for kv in args.search_option)
    variants = [("search", sopts)]
    if args.search_baseline:
        variants.append(("search without compensation",
                         {**sopts, "turn_order_compensation": "false"}))
    counts = sorted(args.search_players) if args.search_games else []
    # count order: every count with the shipped tables first, then the baseline's counts
    for label, opts, p in [(lb, o, p) for lb, o in variants for p in counts]:
        run = Run("search", label, p,
                  _spec(p, [args.search_agent] * p, args.search_seed, options=opts),
                  args.search_games)
        search_runs.append(run)
        sched.add(run, 1, interleave=args.search_order == "index")
    h2h = None
    if args.strength_games:
        pair = (args.search_agent, args.agent)
        h2h = Run("search", "strength", 2,
                  _spec(2, pair, args.search_seed, lineups=(pair, pair[::-1])),
                  args.strength_games)
        sched.add(h2h, 1, interleave=args.search_order == "index")
    stune: dict[str, list[Run]] = {}
    for cand in rows:
        run = Run("stune", cand.name, cand.players,
                  _spec(cand.players, [args.search_agent] * cand.players,
                        args.search_tune_seed, cand.components(folder)),
                  args.search_tune_games)
        stune.setdefault(str(cand.players), []).append(run)
        sched.add(run, 1, interleave=True)
    chosen_rows: dict[str, SeatRow] = {}
    stage2: list[Run] = []

    def start_stage2() -> None:
        # The choice by the rule fixed in advance, on the games that finished (prefixes).
        for n, runs in stune.items():
            tuned = {r.label: [summarize(r, sched.results[r], prefix=True)] for r in runs}
            tuned = {k: v for k, v in tuned.items() if v[0]["rows"]}
            if not tuned:
                continue
            row = next(x for x in rows if x.name == choose(tuned) and str(x.players) == n)
            chosen_rows[n] = row
            comp = row.components(folder)
            if args.search_fresh_seed:
                run = Run("sfresh", row.name, row.players,
                          _spec(row.players, [args.search_agent] * row.players,
                                args.search_fresh_seed, comp), args.search_games)
                stage2.append(run)
                sched.add(run, 1, interleave=True)
            for seed in args.chosen_fresh_seeds:
                run = Run("fresh", row.name, row.players,
                          _spec(row.players, [args.agent] * row.players, seed, comp),
                          args.games)
                stage2.append(run)
                sched.add(run, args.chunk)

    def busy() -> bool:
        if any(sched.busy(p) for p in ("tune", "fresh")):
            return True
        return not sched.stopped and any(sched.busy(p) for p in TIMED)

    staged = not stune
    while True:
        if not staged and (not sched.busy("stune") or sched.stopped):
            staged = True
            start_stage2()
        if not busy() and staged:
            break
        sched.step()
    # Search games still running at the deadline are not waited for.
    for fut in list(sched.running):
        fut.cancel()
    procs = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        proc.terminate()

    report: dict[str, Any] = {
        "command": " ".join(["scripts/balance_sweep.py", *(argv or sys.argv[1:])]),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python "
                   f"{platform.python_version()}",
        "engine": engine(),
        "version": __version__,
        "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "wall_seconds": time.monotonic() - start,
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "shipped_5p": {"saved_ap": list(shipped[0]), "night_points": list(shipped[1])},
        "tune": {},
        "fresh": [],
        "search": [],
    }
    for name, runs in tune_runs.items():
        c = next(c for c in cands if c.name == name)
        report["tune"][name] = []
        for r in runs:
            d = summarize(r, sched.results[r])
            d["candidate"] = c.label()
            report["tune"][name].append(d)
    report["chosen"] = None
    if cands and args.tune_seeds:
        chosen = next(c for c in cands if c.name == choose(report["tune"]))
        report["chosen"] = {
            "name": chosen.name,
            "label": chosen.label(),
            "saved_ap": list(chosen.saved_ap),
            "night_points": list(chosen.night_points),
            "shipped": (chosen.saved_ap, chosen.night_points) == shipped,
        }
    report["fresh"] = [summarize(r, sched.results[r]) for r in fresh_runs]
    report["search"] = [summarize(r, sched.results[r], prefix=True) for r in search_runs]
    if h2h is not None:
        report["strength"] = strength(sched.results[h2h])
    report["search_tune"] = {
        n: [{**summarize(r, sched.results[r], prefix=True),
             "candidate": next(x for x in rows if x.name == r.label
                               and x.players == r.players).label()} for r in runs]
        for n, runs in stune.items()}
    report["search_chosen"] = {n: {"name": c.name, "label": c.label(),
                                   "saved_ap": list(c.saved_ap),
                                   "night_points": list(c.night_points)}
                               for n, c in chosen_rows.items()}
    report["chosen_checks"] = [summarize(x, sched.results[x], prefix=x.phase in TIMED)
                               for x in stage2]
    (args.out / "sweep.json").write_text(json.dumps(report, indent=1) + "\n")
    text = markdown(report)
    (args.out / "sweep.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
