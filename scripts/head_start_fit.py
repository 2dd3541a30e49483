"""Size Starlight's head start in day points from recorded games, without replaying them.

    PYTHONPATH=src python scripts/head_start_fit.py record --players 5 --seeds 5120 7811 \
        --games 800 --jobs 2 --out raw.jsonl
    PYTHONPATH=src python scripts/head_start_fit.py fit raw.jsonl --players 5 --max 10
    PYTHONPATH=src python scripts/head_start_fit.py seats raw.jsonl --players 5 --seat 0

``seats`` reads what each seat took and when (recorded with the games: the runner's component
attribution) and lists the components a seat takes more or less often than the others, with
the win lift of whoever took them (issue 54: the target slots behind the first seat's 2-player
edge).

Why this works (issue 19, Ruling SL-1.5): a seat's head start is day points added at the end,
and the game's ``evaluate`` and ``cutoff_values`` leave it out, so ``greedy`` in every seat plays
the very same games whatever the day-point row (checked on ten rows, seed 5120). ``record``
plays the games once with no day points (the shipped set-up otherwise: saved action points and
night points change the play, so they stay) and keeps each seat's total and tie-breakers
(``State.tiebreakers``: SL-13.4-13.5). ``fit`` then scores every candidate row exactly as the game
would: totals plus the row, winners by total then tie-breakers (ties split), and judges the
seats as ``nightsky balance`` does (``sim.stats.judge_seats``: Clopper-Pearson, Bonferroni over
the seats; advantage = a seat's mean score minus the table mean). It is exact for ``greedy`` and
any agent that never reads the final score; a search agent reads it only where a playout
reaches the end, so its rows must be measured by playing (``nightsky balance``).

Rows are listed best first. Without ``--boot``: fewest flagged seats (summed over the recorded
seeds, each judged on its own), then the smallest worst |advantage| on any seed, then the
smallest pooled worst |advantage|. With ``--boot B`` (how the shipped rows were chosen, issue
19): the largest chance that a run of ``--run-games`` games meets both of ``nightsky balance``'s
targets (no seat flagged, every |advantage| at most ``--score-limit``), estimated from ``B``
runs drawn with replacement from all recorded games (the same draws for every row); with
``--search-profile`` (a search agent's advantages without day points, seat 0 first) rows whose
predicted search advantages exceed ``--search-limit`` come last. A benchmark script, not part of
``make test``; docs/games/starlight.md ("Rows judged on recorded games") has the run.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys
import tempfile
import time
import tomllib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from nightsky.agents import make_agent
from nightsky.core.state import State
from nightsky.sim.attribution import taken_by_seat
from nightsky.sim.runner import _game, play_game
from nightsky.sim.stats import fmean, judge_seats

GAME = "starlight"


def _without_day_points(components: str = "") -> str:
    """A components file that plays the turn-order table of ``components`` (the shipped one
    when it has none, or when no file is given) less its day points, with the file's other
    tables."""
    from nightsky.games.starlight import components as comp

    text = Path(components).read_text() if components else ""
    order = tomllib.loads(text).get("turn_order")
    if order is None:
        shipped = (Path(comp.__file__).parent / "data" / "sky.toml").read_text()
        order = tomllib.loads(shipped)["turn_order"]
    kept, skipping = [], False
    for line in text.splitlines():  # the file's own [turn_order] table is replaced below
        if line.startswith("["):
            skipping = line.strip() == "[turn_order]"
        if not skipping:
            kept.append(line)
    kept += ["[turn_order]", 'source = "designed"',
             'why = "A turn-order table without its day points (head_start_fit)."']
    for key in ("saved_ap", "night_points", "privileges"):
        if key in order:
            items = ", ".join(f'"{k}" = {json.dumps(v)}' for k, v in order[key].items())
            kept.append(f"{key} = {{ {items} }}")
    text = "\n".join(kept) + "\n"
    # Named by content: a loaded components file is cached by its path, so another design
    # must not reuse the name (and the same design may share it across workers).
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"nightsky-starlight-without-day-points-{digest}.toml"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.replace(path)  # atomic: a worker never reads a half-written file
    return str(path)


def _params(players: int, components: str = "", starbots: int = 0) -> dict[str, Any]:
    # The set-up played (the shipped tables, or those of ``components``, a design being tried)
    # less its day points: saved action points and night points change the play, so they stay.
    params: dict[str, Any] = {"players": players, "components": _without_day_points(components)}
    if starbots:
        params["starbots"] = starbots
    return params


def _play(
    players: int, seed: int, indices: list[int], agent: str, components: str = "",
    starbots: int = 0,
) -> list[dict[str, Any]]:
    game = _game(GAME, _params(players, components, starbots))
    seats = players + starbots
    if any(getattr(game, "head_start", ())):
        raise SystemExit("the recorded set-up must have no day points")
    out = []
    last: list[State] = []

    def keep(state: State) -> None:
        last[:] = [state]  # the same object every step: the final state once play ends

    for i in indices:
        agents = [make_agent(agent, game) for _ in range(players)]
        r = play_game(game, agents, seed, i, on_state=keep, attribute=True)
        st = last[0]
        g = {"players": players, "seed": seed, "index": i, "agent": agent,
             "scores": [float(x) for x in r.scores],
             "tb": [list(st.tiebreakers(p)) for p in range(seats)],
             # what each seat took and when (share of the game's player actions), for ``seats``
             "took": [{k: round(v, 3) for k, v in t.items()} for t in taken_by_seat(r, seats)]}
        if starbots:  # the Starbots' seats come after the live ones, scores and tb included
            g["starbots"] = starbots
        if components:
            g["components"] = components
        out.append(g)
    return out


def record(args: argparse.Namespace) -> None:
    out = Path(args.out)
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            g = json.loads(line)
            done.add((g["players"], g.get("starbots", 0), g["seed"], g["index"]))
    tasks = []
    for n in args.players:
        for seed in args.seeds:
            todo = [i for i in range(args.games) if (n, args.starbots, seed, i) not in done]
            for k in range(0, len(todo), args.chunk):
                tasks.append((n, seed, todo[k:k + args.chunk]))
    start = time.time()
    total = 0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, out.open("a") as fh:
        futs = [pool.submit(_play, n, s, idx, args.agent, args.components, args.starbots)
                for n, s, idx in tasks]
        for f in as_completed(futs):
            rows = f.result()
            for g in rows:
                fh.write(json.dumps(g) + "\n")
            fh.flush()
            total += len(rows)
            print(f"\r{total} games, {time.time() - start:.0f} s", end="", file=sys.stderr)
    print(file=sys.stderr)


def judge(games: Sequence[dict[str, Any]], row: Sequence[int]) -> list[dict[str, Any]]:
    """Every live seat's win share, verdict and advantage with ``row`` added at the end.

    With Starbots in the games (their seats after the live ones, never given day points) the
    win shares count only the games a live seat won, as ``nightsky balance`` does."""
    n = len(row)
    wins = [0.0] * n
    sums = [0.0] * n
    won = 0
    for g in games:
        seats = len(g["scores"])
        keys = [(g["scores"][p] + (row[p] if p < n else 0), *g["tb"][p]) for p in range(seats)]
        best = max(keys)
        winners = [p for p in range(n) if keys[p] == best]
        won += bool(winners)
        for w in winners:
            wins[w] += 1.0 / len(winners)
        for p in range(n):
            sums[p] += g["scores"][p] + row[p]
    means = [s / len(games) for s in sums]
    mean = fmean(means)
    return [{"seat": v.seat, "win_share": v.win_share, "interval": v.interval,
             "flagged": v.flagged, "advantage": means[v.seat] - mean}
            for v in judge_seats(wins, won)]


def rows_of(n: int, top: int) -> Iterable[tuple[int, ...]]:
    """Non-decreasing rows of whole day points, seat 0 at 0."""
    for rest in itertools.combinations_with_replacement(range(top + 1), n - 1):
        yield (0, *rest)


def fit(args: argparse.Namespace) -> None:
    by: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for path in args.files:
        for line in Path(path).read_text().splitlines():
            g = json.loads(line)
            if (g["players"] == args.players and g.get("starbots", 0) == args.starbots
                    and (not args.seeds or g["seed"] in args.seeds)):
                by[(g["players"], g["seed"])].append(g)
    seeds = sorted(s for _, s in by)
    pooled = [g for s in seeds for g in by[(args.players, s)]]
    bots = f" and {args.starbots} Starbots" if args.starbots else ""
    print(f"{args.players} players{bots}: seeds {seeds}, {len(pooled)} games")
    rows = ([tuple(r) for r in args.row if len(r) == args.players] if args.row
            else list(rows_of(args.players, args.max)))
    scored = []
    for row in rows:
        per = [judge(by[(args.players, s)], row) for s in seeds]
        flags = sum(1 for t in per for x in t if x["flagged"])
        worst = max(abs(x["advantage"]) for t in per for x in t)
        pool = judge(pooled, row)
        scored.append(((flags, round(worst, 2), round(max(abs(x["advantage"]) for x in pool), 2)),
                       row, per, pool))
    scored.sort(key=lambda t: t[0])
    if args.boot:
        scored = boot_order(scored, pooled, args)
    for key, row, per, pool in scored[: args.show]:
        extra = ""
        if args.boot:
            extra = f"; a {args.run_games}-game run passes {key[-2]:.0%}"
            if args.search_profile:
                extra += f"; search agent predicted {' '.join(f'{x:+.2f}' for x in key[-1])}"
        print(f"row {list(row)}: flagged {key[0]}, worst |adv| per seed {key[1]:.2f}, pooled "
              f"{key[2]:.2f}{extra}")
        for s, t in zip(seeds, per, strict=True):
            print(f"  seed {s}: " + "  ".join(
                f"{x['win_share']:.1%}{'!' if x['flagged'] else ''} {x['advantage']:+.2f}"
                for x in t))
        print("  pooled:   " + "  ".join(
            f"{x['win_share']:.1%}{'!' if x['flagged'] else ''} {x['advantage']:+.2f}"
            for x in pool))


def boot_order(scored: list[Any], games: Sequence[dict[str, Any]],
               args: argparse.Namespace) -> list[Any]:
    """Order rows by the chance that a run of ``--run-games`` games (drawn with replacement
    from the recorded ones, the same draws for every row) shows both targets: no seat flagged
    and every |advantage| at most ``--score-limit``. With ``--search-profile`` (a search
    agent's uncompensated advantages, seat 0 first) rows whose predicted search advantages
    exceed ``--search-limit`` go last."""
    import numpy as np
    from scipy.stats import beta

    n = args.players
    if args.starbots:
        raise SystemExit("--boot judges tables of live seats only; fit a Starbot mix without it")
    raw = np.array([g["scores"] for g in games], dtype=float)
    tb = np.array([[t[0] * 100 + t[1] for t in g["tb"]] for g in games], dtype=float)
    rng = np.random.default_rng(args.boot_seed)
    idx = rng.integers(0, len(games), size=(args.boot, args.run_games))
    tests = 1 if n == 2 else n
    tail = 0.05 / tests / 2
    out = []
    for key, row, per, pool in scored:
        total = raw + np.array(row, dtype=float)
        k = total * 10_000 + tb  # score first, then SL-13.4-13.5's tie-breakers
        top = k == k.max(axis=1, keepdims=True)
        shares = top / top.sum(axis=1, keepdims=True)
        wins = shares[idx].sum(axis=1)
        m = args.run_games
        with np.errstate(all="ignore"):
            lo = np.where(wins <= 0, 0.0, beta.ppf(tail, wins, m - wins + 1))
            hi = np.where(wins >= m, 1.0, beta.ppf(1 - tail, wins + 1, m - wins))
        flagged = ((lo > 1 / n) | (hi < 1 / n)).any(axis=1)
        means = total[idx].mean(axis=1)
        adv = means - means.mean(axis=1, keepdims=True)
        ok = ~flagged & (np.abs(adv).max(axis=1) <= args.score_limit)
        search: tuple[float, ...] = ()
        if args.search_profile:
            h = np.array(row, dtype=float)
            search = tuple(float(x) for x in np.array(args.search_profile) + h - h.mean())
        bad = bool(search) and max(abs(x) for x in search) > args.search_limit
        out.append(((bad, -float(ok.mean()), *key, float(ok.mean()), search), row, per, pool))
    out.sort(key=lambda t: t[0][:-2])
    return [((*k[2:],), row, per, pool) for k, row, per, pool in out]


def shipped_row(players: int) -> list[int]:
    """The shipped day-point row of ``players`` live seats (``data/sky.toml``, SL-1.5)."""
    from nightsky.games.starlight import components as comp

    sky = tomllib.loads((Path(comp.__file__).parent / "data" / "sky.toml").read_text())
    return list(sky["turn_order"]["day_points"][str(players)])


def winners_of(g: dict[str, Any], row: Sequence[int]) -> list[int]:
    """The live seats that win ``g`` with ``row`` added (score, then SL-13.4-13.5)."""
    n = len(row)
    keys = [(g["scores"][p] + (row[p] if p < n else 0), *g["tb"][p])
            for p in range(len(g["scores"]))]
    return [p for p in range(n) if keys[p] == max(keys)]


def seats(args: argparse.Namespace) -> None:
    """Which components seat ``--seat`` (0: the first) takes more (or less) often than the
    other seats, and what that is worth in wins: per component, the seat's take rate minus the
    other seats' (a 95% Wald interval), the win rate of the seat-games that took it minus those
    that did not (the lift, all seats), and their product, the part of the seat's win share
    that the component explains (largest first)."""
    games = [g for path in args.files for line in Path(path).read_text().splitlines()
             if (g := json.loads(line))["players"] == args.players and "took" in g
             and (not args.seeds or g["seed"] in args.seeds)]
    n, k = args.players, args.seat
    row = args.row or shipped_row(n)
    if not games:
        raise SystemExit(f"no recorded {n}-player games with components (record them again)")
    won = [[0.0] * n for _ in games]
    for gi, g in enumerate(games):
        ws = winners_of(g, row)
        for w in ws:
            won[gi][w] = 1.0 / len(ws)
    shares = [sum(w[p] for w in won) / len(games) for p in range(n)]
    print(f"{n} players, {len(games)} games, day points {row}: win shares "
          + " ".join(f"{x:.1%}" for x in shares))
    names = sorted({k for g in games for t in g["took"][:n] for k in t})
    out = []
    for name in names:
        t0 = [name in g["took"][k] for g in games]
        rest = [name in g["took"][p] for g in games for p in range(n) if p != k]
        r0, rr = fmean([float(x) for x in t0]), fmean([float(x) for x in rest])
        se = ((r0 * (1 - r0)) / len(t0) + (rr * (1 - rr)) / len(rest)) ** 0.5
        took = [won[gi][p] for gi, g in enumerate(games) for p in range(n) if name in g["took"][p]]
        left = [won[gi][p] for gi, g in enumerate(games) for p in range(n)
                if name not in g["took"][p]]
        if len(took) < 5 or len(left) < 5:
            continue
        lift = fmean(took) - fmean(left)
        when0 = [g["took"][k][name] for g in games if name in g["took"][k]]
        whenr = [g["took"][p][name] for g in games for p in range(n)
                 if p != k and name in g["took"][p]]
        out.append((abs((r0 - rr) * lift), name, r0, rr, se, lift, when0, whenr))
    out.sort(reverse=True)
    print(f"component: seat {k} takes / others (difference, 95%) | win lift of takers | "
          f"seat {k}'s edge it explains | when taken, seat {k} / others (share of the game)")
    for _, name, r0, rr, se, lift, when0, whenr in out[: args.show]:
        d = r0 - rr
        lo, hi = d - 1.96 * se, d + 1.96 * se
        print(f"{name:>14}: {r0:6.1%} / {rr:6.1%} ({d:+.1%}, {lo:+.1%}..{hi:+.1%})"
              f" | {lift:+.1%} | {d * lift:+.2%} | "
              f"{fmean(when0) if when0 else float('nan'):.2f} / "
              f"{fmean(whenr) if whenr else float('nan'):.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="play and keep the totals and tie-breakers")
    r.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    r.add_argument("--seeds", type=int, nargs="+", required=True)
    r.add_argument("--games", type=int, default=800)
    r.add_argument("--agent", default="greedy")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--chunk", type=int, default=25,
                   help="games a worker plays before writing them (1 for slow search agents)")
    r.add_argument("--out", required=True, help="JSON lines, appended; games there are skipped")
    r.add_argument("--components", default="", help="a components file to play instead of the "
                   "shipped tables (the game's `components` option)")
    r.add_argument("--starbots", type=int, default=0, help="Starbots seated after the live "
                   "players (their table's turn-order row, 'L+B' or 'L', is played)")
    f = sub.add_parser("fit", help="judge candidate rows on recorded games")
    f.add_argument("files", nargs="+")
    f.add_argument("--players", type=int, required=True)
    f.add_argument("--starbots", type=int, default=0, help="judge the games recorded with this "
                   "many Starbots (live seats only get day points)")
    f.add_argument("--seeds", type=int, nargs="*", default=[])
    f.add_argument("--max", type=int, default=10, help="largest day points in a row")
    f.add_argument("--row", type=int, nargs="+", action="append", help="only these rows")
    f.add_argument("--show", type=int, default=10)
    f.add_argument("--boot", type=int, default=0, help="order rows by the chance that a run "
                   "passes, from this many resampled runs")
    f.add_argument("--boot-seed", type=int, default=19)
    f.add_argument("--run-games", type=int, default=800)
    f.add_argument("--score-limit", type=float, default=2.0)
    f.add_argument("--search-profile", type=float, nargs="+", default=[])
    f.add_argument("--search-limit", type=float, default=3.0)
    c = sub.add_parser("seats", help="which components seat 0 takes more or less often")
    c.add_argument("files", nargs="+")
    c.add_argument("--players", type=int, required=True)
    c.add_argument("--seeds", type=int, nargs="*", default=[])
    c.add_argument("--row", type=int, nargs="+", help="day points (default: the shipped row)")
    c.add_argument("--seat", type=int, default=0, help="the seat compared with the others")
    c.add_argument("--show", type=int, default=15)
    args = ap.parse_args(argv)
    {"record": record, "fit": fit, "seats": seats}[args.cmd](args)


if __name__ == "__main__":
    main()
