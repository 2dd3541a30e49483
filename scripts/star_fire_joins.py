"""How often all-greedy Star Fire games join two standing systems (SF-6.2), and what it changes.

    PYTHONPATH=src:. python scripts/star_fire_joins.py --games 200 --seed 571300000
    PYTHONPATH=src:. python scripts/star_fire_joins.py --duel ismcts:iterations=200 \
        --games 30 --seed 571400000

For each player count, plays ``--games`` all-greedy games with the default rules and the same
seeds with ``join_any_time=false``, and prints per count: the joins made, the games with at
least one, the mean turns under each reading, and how many games took exactly the same
non-join moves under both (one JSON line per count, then the whole as one JSON object).

With ``--duel SPEC``: two-player games of SPEC against ``greedy`` instead, ``--games`` pairs
(SPEC in seat 0, then seat 1, on the same seed), under each reading on the same seeds; prints
SPEC's win share under each.
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from tests.games.star_fire.helpers import game, play_random

from nightsky.agents import make_agent
from nightsky.games.star_fire.constants import JOIN


def measure(players: int, games: int, seed: int) -> dict[str, Any]:
    """The row of one player count (see the module doc)."""
    moves: dict[bool, list[list[str]]] = {}
    turns: dict[bool, list[int]] = {}
    joins: list[int] = []
    for join in (True, False):
        g = game(players, join_any_time=join)
        moves[join], turns[join] = [], []
        for i in range(games):
            agents = [make_agent("greedy") for _ in range(players)]
            s = play_random(g, seed + i, agents)
            made = [str(a) for _, a in s.history if getattr(a, "kind", None) == JOIN]
            if join:
                joins.append(len(made))
            moves[join].append([str(a) for _, a in s.history
                                if getattr(a, "kind", None) != JOIN])
            turns[join].append(s.turns)
    return {
        "players": players,
        "games": games,
        "joins": sum(joins),
        "games_with_join": sum(1 for j in joins if j),
        "turns_join": statistics.mean(turns[True]),
        "turns_no_join": statistics.mean(turns[False]),
        "same_moves": sum(1 for a, b in zip(moves[True], moves[False], strict=True) if a == b),
    }


def duel(spec: str, pairs: int, seed: int) -> dict[str, Any]:
    """SPEC against ``greedy``, seat-rotated pairs, under both readings (see the module doc)."""
    out: dict[str, Any] = {"spec": spec, "games": 2 * pairs, "seed": seed}
    for join in (True, False):
        g = game(2, join_any_time=join)
        won = 0.0
        for i in range(pairs):
            for seat in (0, 1):
                agents = [make_agent(spec if q == seat else "greedy") for q in range(2)]
                won += play_random(g, seed + i, agents).returns()[seat]
        out["won_join" if join else "won_no_join"] = won
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=571300000)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    parser.add_argument("--duel", default="", help="an agent spec to play against greedy")
    args = parser.parse_args()
    if args.duel:
        print(json.dumps(duel(args.duel, args.games, args.seed)))
        return
    rows = []
    for players in args.players:
        row = measure(players, args.games, args.seed)
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(json.dumps({"seed": args.seed, "rows": rows}))


if __name__ == "__main__":
    main()
