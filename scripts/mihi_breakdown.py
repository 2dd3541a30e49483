"""Mihi Anguli: where each seat's points come from, and what it buys.

    PYTHONPATH=src python scripts/mihi_breakdown.py --agents greedy:value=learned,greedy \
        --games 10 --seed 77

plays ``--games`` games of the lineup (one agent a seat; chance and each seat's agent draw from
``random.Random(seed * 1000 + game)``) and prints, per seat, the mean and standard deviation
of every part of the score (``State.score_breakdown``: region, stars, articles, PUBLISHER,
HEADHUNTER, MA-10.4's unique completions, total) and the share of its sheets on which each
article, day, ability and supporter was completed. A design aid (docs/agents.md, "The learned
value finds the sheet's engine"), not part of ``make test``.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter, defaultdict

from nightsky.agents.base import make_agent
from nightsky.core.game import CHANCE
from nightsky.core.registry import load_game
from nightsky.games.mihi_anguli.board import NGROUPS


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--agents", required=True, help="comma-separated specs, one a seat")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    specs = args.agents.split(",")
    parts: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    done: dict[int, Counter[str]] = defaultdict(Counter)
    for g in range(args.games):
        game = load_game("mihi-anguli", players=len(specs))
        state = game.new_initial_state()
        rng = random.Random(args.seed * 1000 + g)
        agents = [make_agent(spec) for spec in specs]
        while not state.is_terminal():
            seat = state.current_players()[0]
            if seat == CHANCE:
                state.step(state.sample_chance(rng), CHANCE)
            else:
                state.step(agents[seat].choose(state, seat, rng), seat)
        for seat, row in enumerate(state.score_breakdown()):
            for name, points in row.items():
                parts[seat][name].append(points)
            sheet = state.seats[seat]  # type: ignore[attr-defined]
            for group in range(NGROUPS):
                if state._completed(sheet, group):  # type: ignore[attr-defined]
                    done[seat][state.c.group_names[group]] += 1  # type: ignore[attr-defined]
    for seat, spec in enumerate(specs):
        print(f"seat {seat}: {spec}, {args.games} games (seed {args.seed})")
        for name, values in parts[seat].items():
            spread = statistics.pstdev(values)
            print(f"  {name:12s} {statistics.mean(values):6.2f} (sd {spread:.2f})")
        shares = ", ".join(
            f"{name} {count / args.games:.0%}" for name, count in done[seat].most_common()
        )
        print(f"  completed: {shares}")


if __name__ == "__main__":
    main()
