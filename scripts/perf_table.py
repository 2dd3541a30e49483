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

Ratios the targets of issue 17 name: compiled actions/s ÷ dominoes (≥ 3.0x), PettingZoo
actions/s ÷ native actions/s (≥ 0.5x), PettingZoo steps/s ÷ connect_four steps/s (≥ 1.0x), and
ISMCTS compiled ÷ pure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
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
TARGETS = {"vs_dominoes": 3.0, "pz_vs_native": 0.5, "pz_vs_connect_four": 1.0}


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
            "clone_us": bench["clone_us"],
            "legal_actions_us": bench["legal_actions_us"],
            "ismcts_iterations_per_second": search.get("ismcts_iterations_per_second"),
        }
        if pettingzoo:
            try:
                from nightsky.rl.bench import pettingzoo_rate
            except ImportError:
                row["pettingzoo_steps_per_second"] = None
                row["pettingzoo_actions_per_second"] = None
            else:
                pz = pettingzoo_rate(game, seconds)
                row["pettingzoo_steps_per_second"] = pz["pz_steps_per_second"]
                row["pettingzoo_actions_per_second"] = pz["pz_actions_per_second"]
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


# ---------------------------------------------------------------------------- references
def openspiel_rate(name: str, seconds: float, seed: int = 0) -> float | None:
    """Random-playout actions/s (chance outcomes included) of an OpenSpiel game."""
    try:
        import pyspiel

        if name.startswith("python_"):
            import open_spiel.python.games  # noqa: F401 - registers the Python games
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    actions = 0
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
    return round(actions / (time.perf_counter() - start), 1)


def connect_four_rate(seconds: float, seed: int = 0) -> float | None:
    """PettingZoo ``connect_four_v3``: masked-random steps/s through ``env.last()``."""
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

    _, steps, elapsed = masked_random_play(connect_four_v3.env(), seconds, seed)
    return round(steps / elapsed, 1)


# ---------------------------------------------------------------------------- the table
def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a and b else None


def measure(specs: list[str], seconds: float) -> dict[str, Any]:
    refs = {
        "python_block_dominoes_actions_per_second": openspiel_rate("python_block_dominoes",
                                                                   seconds),
        "hearts_actions_per_second": openspiel_rate("hearts", seconds),
        "connect_four_v3_steps_per_second": connect_four_rate(seconds),
    }
    comp = engine_figures(specs, seconds, pettingzoo=True)
    pure = pure_figures(specs, seconds)
    dominoes = refs["python_block_dominoes_actions_per_second"]
    c4 = refs["connect_four_v3_steps_per_second"]
    rows = []
    for spec in specs:
        gid, players = _split(spec)
        c, p = comp["games"][spec], pure["games"][spec]
        rows.append({
            "game": gid,
            "players": players,
            "compiled": {k: v for k, v in c.items()},
            "pure": p,
            "vs_dominoes": _ratio(c["actions_per_second"], dominoes),
            "pure_vs_dominoes": _ratio(p["actions_per_second"], dominoes),
            "pz_vs_native": _ratio(c.get("pettingzoo_actions_per_second"),
                                   c["actions_per_second"]),
            "pz_vs_connect_four": _ratio(c.get("pettingzoo_steps_per_second"), c4),
            "ismcts_compiled_vs_pure": _ratio(c["ismcts_iterations_per_second"],
                                              p["ismcts_iterations_per_second"]),
        })
    return {
        "seconds_per_figure": seconds,
        "engines": {"main": "compiled" if comp["compiled"] else "pure",
                    "subprocess": "compiled" if pure["compiled"] else "pure"},
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
    lines = [
        "| game | players | actions/s compiled | actions/s pure | ÷ dominoes (≥3.0x) "
        "| clone µs c / p | legal µs c / p | ISMCTS it/s c / p | ISMCTS c ÷ p "
        "| PZ steps/s | PZ ÷ native (≥0.5x) | PZ ÷ connect_four (≥1.0x) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in result["rows"]:
        c, p = r["compiled"], r["pure"]
        lines.append(
            f"| {r['game']} | {r['players']} | {_k(c['actions_per_second'])} "
            f"| {_k(p['actions_per_second'])} | {_x(r['vs_dominoes'], 3.0)} "
            f"| {_n(c['clone_us'])} / {_n(p['clone_us'])} "
            f"| {_n(c['legal_actions_us'])} / {_n(p['legal_actions_us'])} "
            f"| {_n(c['ismcts_iterations_per_second'], '.0f')} / "
            f"{_n(p['ismcts_iterations_per_second'], '.0f')} "
            f"| {_x(r['ismcts_compiled_vs_pure'])} | {_k(c.get('pettingzoo_steps_per_second'))} "
            f"| {_x(r['pz_vs_native'], 0.5)} | {_x(r['pz_vs_connect_four'], 1.0)} |"
        )
    lines += [
        "",
        f"References (same run, {result['seconds_per_figure']} s each): OpenSpiel "
        f"`python_block_dominoes` {_k(refs['python_block_dominoes_actions_per_second'])} "
        f"actions/s, OpenSpiel `hearts` (C++) {_k(refs['hearts_actions_per_second'])} "
        f"actions/s, PettingZoo `connect_four_v3` "
        f"{_k(refs['connect_four_v3_steps_per_second'])} steps/s. Engines: this process "
        f"{result['engines']['main']}, the `NIGHTSKY_PURE=1` subprocess "
        f"{result['engines']['subprocess']}.",
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
    parser.add_argument("--engine-only", action="store_true",
                        help="(internal) this engine's figures as JSON, no references")
    args = parser.parse_args(argv)
    specs = args.games or DEFAULT_GAMES
    if args.engine_only:
        figures = engine_figures(specs, args.seconds, pettingzoo=False)
        print(json.dumps(figures))
        return figures
    result = measure(specs, args.seconds)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    if args.markdown or not args.json:
        print(markdown(result))
    return result


if __name__ == "__main__":
    main()
