"""Where Starlight's seats gain and lose points: each score part by seat, and the last round.

    PYTHONPATH=src python scripts/starlight_seats.py --players 5 --games 300 --agent greedy \
        -o turn_order_compensation=false

Plays ``--games`` games of ``--agent`` in every seat (game ``i`` draws chance and every agent's
choices from ``random.Random(f"{seed}-{i}")``) and prints per seat: the mean and standard
deviation of each part of the final score (``State.score_breakdown``: night points, alpha stars,
Laurels, Accolades, the head start when there is one, the total), the win share (the game's
winners, shared victories split), stars launched, who reached daybreak (SL-12.1) and each seat's
night points then, and the last round (SL-12.2-12.5): how many games the seat made its final
launch in, how many launches went into a slot rather than nowhere, in how many the seat made no
choice at all (its last turn forfeit: no complete star when it began, SL-12.5), and the night
points it gained then. ``-o KEY=VALUE`` sets a game option (``components=FILE`` plays other
component tables). Issue 19 used it to find what the head start cannot make up for
(docs/games/starlight.md, "What a head start cannot fix").
A benchmark script, not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

from nightsky.agents import make_agent
from nightsky.core.game import CHANCE
from nightsky.core.registry import load_game

PARTS = ("night", "alpha", "laurels", "accolades", "head_start", "total")


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"option {text!r} must be KEY=VALUE")
    low = value.lower()
    if low in ("true", "false"):
        return key, low == "true"
    try:
        return key, int(value)
    except ValueError:
        return key, value


def play(game: Any, agent: str, seed: int, index: int) -> dict[str, Any]:
    """One game: its score breakdown, stars, daybreak and last-round facts per seat."""
    rng = random.Random(f"{seed}-{index}")
    n = game.num_seats
    agents = [make_agent(agent) for _ in range(n)]
    s = game.new_initial_state()
    trigger, np_at_daybreak, np_last = -1, None, None
    final = [0] * n
    slotted = [0] * n
    moved = [0] * n  # choices made in the last round: none means the last turn was forfeit
    while not s.is_terminal():
        p = s.current_players()[0]
        if p == CHANCE:
            s.step(s.sample_chance(rng), CHANCE)
            continue
        action = agents[p].choose(s, p, rng)
        if s.in_last_round():
            if np_last is None:
                np_last = list(s.np)
            moved[p] += 1
            text = str(action)
            if text.startswith("final"):
                final[p] += 1
            elif text.startswith("to ") and "nowhere" not in text:
                slotted[p] += 1
        s.step(action, p)
        if trigger < 0 and s.daybreak_round:
            trigger, np_at_daybreak = s.turn, list(s.np)
    return {
        "parts": s.score_breakdown(),
        "stars": [s.stars_of(q) for q in range(n)],
        "trigger": trigger,
        "np_at_daybreak": np_at_daybreak,
        "final": final,
        "slotted": slotted,
        "forfeit": [int(moved[q] == 0) for q in range(n)],
        "winners": s.winners(),  # totals, then the tie-breakers (SL-13.4-13.5)
        "last_round_gain": [s.np[q] - np_last[q] for q in range(n)] if np_last else [0] * n,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("-o", "--option", type=_option, action="append", default=[])
    ap.add_argument("--json", help="also write every game's record to this file")
    args = ap.parse_args(argv)
    game = load_game("starlight", players=args.players, **dict(args.option))
    n = game.num_seats
    rows = [play(game, args.agent, args.seed, i) for i in range(args.games)]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh)

    def line(label: str, values: list[float], fmt: str = "{:7.2f}") -> None:
        print(f"{label:28s}" + "".join(fmt.format(v) for v in values))

    opts = " ".join(f"-o {k}={v}" for k, v in args.option)
    print(
        f"starlight, {args.players} players, {args.agent} in every seat, seed {args.seed}, "
        f"games 0-{args.games - 1} {opts}".rstrip()
    )
    line("seat", list(range(n)), "{:7d}")
    for part in PARTS:
        if any(part in r["parts"][0] for r in rows):
            vals = [[r["parts"][q].get(part, 0) for r in rows] for q in range(n)]
            line(f"{part}: mean", [statistics.fmean(v) for v in vals])
            line(f"{part}: stdev", [statistics.stdev(v) if len(v) > 1 else 0.0 for v in vals])
    wins = [0.0] * n
    for r in rows:
        ws = r["winners"]
        for q in ws:
            wins[q] += 1 / len(ws)
    line("win share", [w / len(rows) for w in wins], "{:7.3f}")
    line("stars launched", [statistics.fmean(r["stars"][q] for r in rows) for q in range(n)])
    line(
        "reached daybreak (share)",
        [sum(r["trigger"] == q for r in rows) / len(rows) for q in range(n)],
        "{:7.3f}",
    )
    dawn = [r for r in rows if r["np_at_daybreak"]]
    if dawn:
        line(
            "night points at daybreak",
            [statistics.fmean(r["np_at_daybreak"][q] for r in dawn) for q in range(n)],
        )
    line(
        "last round: final launch",
        [sum(r["final"][q] for r in rows) / len(rows) for q in range(n)],
        "{:7.3f}",
    )
    line(
        "last round: launches in slots",
        [sum(r["slotted"][q] for r in rows) / len(rows) for q in range(n)],
        "{:7.3f}",
    )
    line(
        "last round: forfeit",
        [sum(r.get("forfeit", [0] * n)[q] for r in rows) / len(rows) for q in range(n)],
        "{:7.3f}",
    )
    line(
        "last round: night points",
        [statistics.fmean(r["last_round_gain"][q] for r in rows) for q in range(n)],
    )


if __name__ == "__main__":
    main()
