"""Performance table: every game, compiled and pure engine, next to OpenSpiel and PettingZoo.

    PYTHONPATH=src python scripts/perf_table.py [--seconds 2] [--markdown | --json]
                                                [--games shooting-star mihi-anguli:1 ...]

Per game (2 players; Mihi Anguli with 1 and 2): random-playout actions/s, clone µs and
legal-actions µs (``nightsky.cli.commands.bench_random_playouts``), ISMCTS iterations/s
(``nightsky.agents.search.measure_speed``) and PettingZoo masked-random steps/s
(``nightsky.rl.bench.pettingzoo_rate``, observation and mask built at every step). The
compiled figures run in this process; the pure ones in a subprocess with ``NIGHTSKY_PURE=1``
(one process cannot hold both engines). References, measured in the same run:

* OpenSpiel ``python_block_dominoes`` (a pure-Python game) and ``hearts`` (C++): random legal
  actions with chance outcomes sampled by their probabilities, actions/s (chance included);
* PettingZoo's ``connect_four_v3``: masked-random steps/s through ``env.last()``.

* ISMCTS iterations/s of the engine before the compile work (``--baseline``, default the
  commit ``PRE_COMPILE``), pure Python, measured the same way in a temporary git worktree.

Ratios the targets of issue 17 name: compiled actions/s ÷ dominoes (≥ 3.0x), PettingZoo
actions/s ÷ native actions/s (≥ 0.5x), PettingZoo steps/s ÷ connect_four steps/s (≥ 1.0x),
ISMCTS compiled ÷ the baseline (≥ 2.5x), and ISMCTS compiled ÷ pure. Every figure is also
taken per CPU second of its process (``*_per_cpu_second``), and the ratios again from those
(``cpu_ratios``): on a machine other work shares, they are the steadier comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import types
from typing import Any

DEFAULT_GAMES = [
    "shooting-star:2",
    "starlight:2",
    "stars-are-right:2",
    "star-fire:2",
    "mihi-anguli:1",
    "mihi-anguli:2",
]
TARGETS = {"vs_dominoes": 3.0, "pz_vs_native": 0.5, "pz_vs_connect_four": 1.0,
           "ismcts_vs_baseline": 2.5}
PRE_COMPILE = "1a3c647"
"""The last commit before the compile work of issue 17 (the parent of 834d7ca, the first
commit of branch house-compile): its pure-Python ISMCTS speed is the issue's "today"."""
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _split(spec: str) -> tuple[str, int]:
    gid, _, players = spec.partition(":")
    return gid, int(players or 2)


# ---------------------------------------------------------------------------- nightsky engine
def engine_figures(specs: list[str], seconds: float, pettingzoo: bool) -> dict[str, Any]:
    """Figures of the engine this process runs, per game spec (``id:players``)."""
    from nightsky._native import compiled
    from nightsky.agents.search import measure_speed
    from nightsky.cli.commands import bench_random_playouts
    from nightsky.core.registry import load_game

    rows: dict[str, Any] = {}
    for spec in specs:
        gid, players = _split(spec)
        game = load_game(gid, players=players)
        bench = bench_random_playouts(game, seconds)
        search = measure_speed(game, seconds, spec="ismcts")
        row = {
            "actions_per_second": bench["actions_per_second"],
            "actions_per_cpu_second": bench["actions_per_cpu_second"],
            "clone_us": bench["clone_us"],
            "legal_actions_us": bench["legal_actions_us"],
            "ismcts_iterations_per_second": search.get("ismcts_iterations_per_second"),
            "ismcts_iterations_per_cpu_second": search.get("ismcts_iterations_per_cpu_second"),
        }
        if pettingzoo:
            try:
                from nightsky.rl.bench import pettingzoo_rate
            except ImportError:
                pz = {}
            else:
                pz = pettingzoo_rate(game, seconds)
            for name in ("steps_per_second", "actions_per_second", "steps_per_cpu_second",
                         "actions_per_cpu_second"):
                row[f"pettingzoo_{name}"] = pz.get(f"pz_{name}")
        rows[spec] = row
        print(f"  {'compiled' if compiled() else 'pure'} {spec}: {row}", file=sys.stderr,
              flush=True)
    return {"compiled": compiled(), "games": rows}


def pure_figures(specs: list[str], seconds: float) -> dict[str, Any]:
    """``engine_figures`` of the pure engine, run in a subprocess with ``NIGHTSKY_PURE=1``."""
    env = {**os.environ, "NIGHTSKY_PURE": "1"}
    cmd = [sys.executable, __file__, "--engine-only", "--seconds", str(seconds),
           "--games", *specs]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out)
    return result


_BASELINE_CODE = """
import json, sys
from nightsky.agents.search import measure_speed
from nightsky.core.registry import load_game
specs, seconds = json.loads(sys.argv[1]), float(sys.argv[2])
out = {}
for spec in specs:
    gid, _, players = spec.partition(":")
    out[spec] = measure_speed(load_game(gid, players=int(players or 2)), seconds, spec="ismcts")
print(json.dumps(out))
"""


def baseline_figures(specs: list[str], seconds: float, commit: str) -> dict[str, Any] | None:
    """ISMCTS iterations/s (wall and CPU) of the engine at ``commit``, pure Python, measured by
    that commit's own ``measure_speed`` in a temporary git worktree; None without git."""
    tmp = tempfile.mkdtemp(prefix="nightsky-baseline-")
    tree = os.path.join(tmp, "tree")
    try:
        subprocess.run(["git", "worktree", "add", "--detach", tree, commit], cwd=ROOT,
                       check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"  no baseline: git worktree add {commit} failed ({exc})", file=sys.stderr)
        shutil.rmtree(tmp, ignore_errors=True)
        return None
    try:
        env = {**os.environ, "PYTHONPATH": os.path.join(tree, "src"), "NIGHTSKY_PURE": "1"}
        cmd = [sys.executable, "-c", _BASELINE_CODE, json.dumps(specs), str(seconds)]
        out = subprocess.run(cmd, env=env, cwd=tree, check=True, capture_output=True,
                             text=True).stdout
        figures: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        return {"commit": commit, "games": figures}
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=ROOT,
                       capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------- references
def openspiel_rate(name: str, seconds: float, seed: int = 0) -> dict[str, float] | None:
    """Random-playout actions per second and per CPU second (chance outcomes included) of an
    OpenSpiel game."""
    try:
        import pyspiel

        if name.startswith("python_"):
            import open_spiel.python.games  # noqa: F401 - registers the Python games
    except ImportError:
        return None
    from nightsky.core.heap import frozen_heap

    game = pyspiel.load_game(name)
    with frozen_heap():  # as nightsky's own loop (``bench_random_playouts``)
        return _openspiel_loop(game, seconds, seed)


def _openspiel_loop(game: Any, seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    actions = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        if time.perf_counter() >= deadline:
            break
    wall = time.perf_counter() - start
    cpu = max(time.process_time() - cpu, 1e-9)
    return {"per_second": round(actions / wall, 1), "per_cpu_second": round(actions / cpu, 1)}


def connect_four_rate(seconds: float, seed: int = 0) -> dict[str, float] | None:
    """PettingZoo ``connect_four_v3``: masked-random steps per second and per CPU second
    through ``env.last()``."""
    try:
        import pettingzoo  # noqa: F401
    except ImportError:
        return None
    try:
        import pygame  # noqa: F401
    except ImportError:
        # connect_four imports pygame at module level, for rendering only (not used here).
        sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    from nightsky.rl.bench import masked_random_play

    cpu = time.process_time()
    _, steps, elapsed = masked_random_play(connect_four_v3.env(), seconds, seed)
    cpu = max(time.process_time() - cpu, 1e-9)
    return {"per_second": round(steps / elapsed, 1), "per_cpu_second": round(steps / cpu, 1)}


# ---------------------------------------------------------------------------- the table
def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a and b else None


def _pick(figures: dict[str, float] | None, key: str) -> float | None:
    return None if figures is None else figures[key]


def _ratios(c: dict[str, Any], p: dict[str, Any], b: dict[str, Any] | None,
            refs: dict[str, Any], cpu: bool) -> dict[str, float | None]:
    """The issue's ratios from wall-clock figures, or (``cpu``) from per-CPU-second ones."""
    per = "_per_cpu_second" if cpu else "_per_second"
    key = "per_cpu_second" if cpu else "per_second"
    dominoes = _pick(refs["python_block_dominoes"], key)
    c4 = _pick(refs["connect_four_v3"], key)
    ismcts = f"ismcts_iterations{per}"
    return {
        "vs_dominoes": _ratio(c[f"actions{per}"], dominoes),
        "pure_vs_dominoes": _ratio(p[f"actions{per}"], dominoes),
        "pz_vs_native": _ratio(c.get(f"pettingzoo_actions{per}"), c[f"actions{per}"]),
        "pz_vs_connect_four": _ratio(c.get(f"pettingzoo_steps{per}"), c4),
        "ismcts_compiled_vs_pure": _ratio(c[ismcts], p[ismcts]),
        "ismcts_vs_baseline": _ratio(c[ismcts], None if b is None else b.get(ismcts)),
    }


def measure(specs: list[str], seconds: float, baseline: str | None = PRE_COMPILE
            ) -> dict[str, Any]:
    refs = {
        "python_block_dominoes": openspiel_rate("python_block_dominoes", seconds),
        "hearts": openspiel_rate("hearts", seconds),
        "connect_four_v3": connect_four_rate(seconds),
    }
    comp = engine_figures(specs, seconds, pettingzoo=True)
    pure = pure_figures(specs, seconds)
    base = baseline_figures(specs, seconds, baseline) if baseline else None
    rows = []
    for spec in specs:
        gid, players = _split(spec)
        c, p = comp["games"][spec], pure["games"][spec]
        b = None if base is None else base["games"].get(spec)
        rows.append({
            "game": gid,
            "players": players,
            "compiled": c,
            "pure": p,
            "baseline": b,
            **_ratios(c, p, b, refs, cpu=False),
            "cpu_ratios": _ratios(c, p, b, refs, cpu=True),
        })
    return {
        "seconds_per_figure": seconds,
        "engines": {"main": "compiled" if comp["compiled"] else "pure",
                    "subprocess": "compiled" if pure["compiled"] else "pure"},
        "baseline_commit": None if base is None else base["commit"],
        "references": refs,
        "targets": TARGETS,
        "rows": rows,
    }


def _k(v: float | None) -> str:
    return "-" if v is None else f"{v / 1000:.1f}k"


def _x(v: float | None, target: float | None = None) -> str:
    if v is None:
        return "-"
    mark = "" if target is None else (" ✓" if v >= target else " ✗")
    return f"{v:.2f}x{mark}"


def _n(v: float | None, fmt: str = ".1f") -> str:
    return "-" if v is None else format(v, fmt)


def markdown(result: dict[str, Any]) -> str:
    refs = result["references"]
    base = result.get("baseline_commit")
    lines = [
        "| game | players | actions/s compiled | actions/s pure | ÷ dominoes (≥3.0x) "
        "| clone µs c / p | legal µs c / p | ISMCTS it/s c / p / pre-17 | ISMCTS c ÷ pre-17 "
        "(≥2.5x) | ISMCTS c ÷ p | PZ steps/s | PZ ÷ native (≥0.5x) | PZ ÷ connect_four (≥1.0x) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        c, p, b = r["compiled"], r["pure"], r.get("baseline") or {}
        lines.append(
            f"| {r['game']} | {r['players']} | {_k(c['actions_per_second'])} "
            f"| {_k(p['actions_per_second'])} | {_x(r['vs_dominoes'], 3.0)} "
            f"| {_n(c['clone_us'])} / {_n(p['clone_us'])} "
            f"| {_n(c['legal_actions_us'])} / {_n(p['legal_actions_us'])} "
            f"| {_n(c['ismcts_iterations_per_second'], '.0f')} / "
            f"{_n(p['ismcts_iterations_per_second'], '.0f')} / "
            f"{_n(b.get('ismcts_iterations_per_second'), '.0f')} "
            f"| {_x(r['ismcts_vs_baseline'], 2.5)} "
            f"| {_x(r['ismcts_compiled_vs_pure'])} | {_k(c.get('pettingzoo_steps_per_second'))} "
            f"| {_x(r['pz_vs_native'], 0.5)} | {_x(r['pz_vs_connect_four'], 1.0)} |"
        )
    lines += [
        "",
        "The same ratios per CPU second of each process (steadier when other work shares the "
        "machine):",
        "",
        "| game | players | actions/CPU-s compiled | ÷ dominoes (≥3.0x) "
        "| ISMCTS c ÷ pre-17 (≥2.5x) | ISMCTS c ÷ p | PZ steps/CPU-s | PZ ÷ native (≥0.5x) "
        "| PZ ÷ connect_four (≥1.0x) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        c, q = r["compiled"], r["cpu_ratios"]
        lines.append(
            f"| {r['game']} | {r['players']} | {_k(c['actions_per_cpu_second'])} "
            f"| {_x(q['vs_dominoes'], 3.0)} | {_x(q['ismcts_vs_baseline'], 2.5)} "
            f"| {_x(q['ismcts_compiled_vs_pure'])} "
            f"| {_k(c.get('pettingzoo_steps_per_cpu_second'))} | {_x(q['pz_vs_native'], 0.5)} "
            f"| {_x(q['pz_vs_connect_four'], 1.0)} |"
        )

    def ref(name: str, key: str) -> str:
        return _k(_pick(refs[name], key))

    lines += [
        "",
        f"References (same run, {result['seconds_per_figure']} s each), per second (per CPU "
        f"second): OpenSpiel `python_block_dominoes` {ref('python_block_dominoes', 'per_second')} "
        f"({ref('python_block_dominoes', 'per_cpu_second')}) actions, OpenSpiel `hearts` (C++) "
        f"{ref('hearts', 'per_second')} ({ref('hearts', 'per_cpu_second')}) actions, "
        f"PettingZoo `connect_four_v3` {ref('connect_four_v3', 'per_second')} "
        f"({ref('connect_four_v3', 'per_cpu_second')}) steps. Engines: this process "
        f"{result['engines']['main']}, the `NIGHTSKY_PURE=1` subprocess "
        f"{result['engines']['subprocess']}; pre-17: "
        + (f"commit {base}, pure Python." if base else "not measured."),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    parser.add_argument("--games", nargs="*", default=None,
                        help="game specs id[:players] (default: every game, 2 players; "
                             "mihi-anguli 1 and 2)")
    parser.add_argument("--markdown", action="store_true", help="print the Markdown table")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--baseline", default=PRE_COMPILE,
                        help="commit whose pure ISMCTS speed is the issue's 'today' "
                             f"(default {PRE_COMPILE}; 'none' skips it)")
    parser.add_argument("--engine-only", action="store_true",
                        help="(internal) this engine's figures as JSON, no references")
    args = parser.parse_args(argv)
    specs = args.games or DEFAULT_GAMES
    if args.engine_only:
        figures = engine_figures(specs, args.seconds, pettingzoo=False)
        print(json.dumps(figures))
        return figures
    result = measure(specs, args.seconds, None if args.baseline == "none" else args.baseline)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    if args.markdown or not args.json:
        print(markdown(result))
    return result


if __name__ == "__main__":
    main()
