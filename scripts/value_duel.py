"""Paired check of learned-value weights: ``greedy`` on each candidate against ``greedy``.

    PYTHONPATH=src python scripts/value_duel.py mihi-anguli --seed 7070 --games 150 \
        abilities=2.4 abilities=2.4+abilities*left=2.4 xp=0.3

Every candidate plays the same games (``train_value.Duels``: game ``i`` of ``--seed`` seats the
candidate in seat ``i % n``, ``greedy`` in the others, the same chance and agent draws for every
candidate), so most of the dice luck cancels between candidates. A candidate is the game's
shipped weights (``--start`` for another file) with features moved, ``name=delta`` joined by
``+``; ``shipped`` (the file unchanged) and ``heuristic`` (the heuristic's parts at weight 1:
``greedy``'s own judge) are always played. Printed per candidate: its mean margin over
``greedy`` (its score minus the others' mean) with a standard error, and its paired difference
from ``heuristic`` on the same games (the gain of the weights themselves). A benchmark script,
not part of ``make test``; docs/agents.md ("Weights tuned by play") has its runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from train_value import Duels  # scripts/ is on sys.path when run as a script

from nightsky.core.components import data_path
from nightsky.core.registry import game_class, load_game


def _candidate(base: list[float], names: list[str], spec: str) -> list[float]:
    weights = list(base)
    for part in spec.split("+"):
        name, sep, delta = part.rpartition("=")
        if not sep or name not in names:
            raise SystemExit(
                f"candidate {spec!r}: {part!r} must be FEATURE=DELTA with a feature "
                f"of the model ({', '.join(names)})"
            )
        try:
            weights[names.index(name)] += float(delta)
        except ValueError:
            raise SystemExit(f"candidate {spec!r}: {delta!r} is not a number") from None
    return weights


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("candidates", nargs="*", help="FEATURE=DELTA[+FEATURE=DELTA...]")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--start", type=Path, help="weights file (default: the game's shipped one)")
    ap.add_argument(
        "--around",
        default="score,map,costs,pending",
        help="the heuristic's parts, the 'heuristic' candidate (weight 1 each)",
    )
    args = ap.parse_intermixed_args(argv)
    model = game_class(args.game).info.value_model
    if not model:
        ap.error(f"game {args.game!r} has no learned value (GameInfo.value_model)")
    path = args.start or data_path(game_class(args.game).__module__.rsplit(".", 1)[0], model)
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    names = list(data["features"])
    base = [float(w) for w in data["weights"]]
    around = [n for n in args.around.split(",") if n]
    cands = {spec: _candidate(base, names, spec) for spec in args.candidates}
    cands["shipped"] = base
    cands["heuristic"] = [1.0 if n in around else 0.0 for n in names]
    duels = Duels(load_game(args.game, players=2))
    start = time.perf_counter()
    margins = {}
    for spec, weights in cands.items():
        margins[spec] = [duels.margin(weights, 0.0, args.seed, i) for i in range(args.games)]
        print(f"  {spec}: {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    def mean_se(xs: list[float]) -> str:
        se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
        return f"{statistics.fmean(xs):+.2f} +- {se:.2f}"

    print(f"{args.game}, seed {args.seed}, games 0-{args.games - 1}, 2 players, seat-rotated")
    for spec, ms in margins.items():
        diff = [a - b for a, b in zip(ms, margins["heuristic"], strict=True)]
        print(f"{spec:45s} over greedy {mean_se(ms)}; over 'heuristic' {mean_se(diff)}")


if __name__ == "__main__":
    main()
