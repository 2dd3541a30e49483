"""Every game's random playouts against OpenSpiel's C++ ``hearts``, interleaved in rounds.

    PYTHONPATH=src python scripts/perf_rounds.py [--rounds 5] [--seconds 1] [--games ...]

``scripts/perf_table.py`` measures each figure once, minutes apart: on a machine whose speed
drifts (a shared host: the same build read ``hearts`` at 4.8x and 8.8x ``python_block_dominoes``
in three runs within four minutes) one run can favour either side. Here each round measures
``python_block_dominoes``, ``hearts`` and every game back to back (compiled engine, this
process, per CPU second), and the ratios are taken within a round; the median and range over
the rounds are printed. Same loops as the perf table (``bench_random_playouts``,
``openspiel_rate``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from perf_table import DEFAULT_GAMES, _split, openspiel_rate  # noqa: E402

from nightsky.cli.commands import bench_random_playouts  # noqa: E402
from nightsky.core.registry import load_game  # noqa: E402


def main(argv: list[str] | None = None) -> dict[str, list[float]]:
    """Run the rounds; return each game's per-round ratio to ``hearts``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--games", nargs="*", default=DEFAULT_GAMES)
    args = ap.parse_args(argv)
    games = {spec: load_game(_split(spec)[0], players=_split(spec)[1]) for spec in args.games}
    vs_hearts: dict[str, list[float]] = {spec: [] for spec in games}
    hearts_vs_dominoes: list[float] = []
    for r in range(args.rounds):
        dominoes = openspiel_rate("python_block_dominoes", args.seconds)
        hearts = openspiel_rate("hearts", args.seconds)
        if dominoes is None or hearts is None:
            raise SystemExit("open_spiel is not installed: pip install open_spiel")
        h = hearts["per_cpu_second"]
        hearts_vs_dominoes.append(h / dominoes["per_cpu_second"])
        line = [f"round {r + 1}: hearts {h / 1000:.1f}k ({hearts_vs_dominoes[-1]:.2f}x dominoes)"]
        for spec, g in games.items():
            a = bench_random_playouts(g, args.seconds)["actions_per_cpu_second"]
            vs_hearts[spec].append(a / h)
            line.append(f"{spec} {a / 1000:.1f}k ({a / h:.2f}x)")
        print("; ".join(line), flush=True)
    print(f"hearts / dominoes: median {statistics.median(hearts_vs_dominoes):.2f}x "
          f"({min(hearts_vs_dominoes):.2f}-{max(hearts_vs_dominoes):.2f})")
    for spec, xs in vs_hearts.items():
        print(f"{spec}: median {statistics.median(xs):.2f}x hearts ({min(xs):.2f}-{max(xs):.2f}), "
              f"{sum(x >= 1.0 for x in xs)} of {len(xs)} rounds at or above")
    return vs_hearts


if __name__ == "__main__":
    main()
