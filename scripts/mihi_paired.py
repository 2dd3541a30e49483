"""Mihi Anguli: an agent's score against greedy's on the *same dice*.

Mihi Anguli's sheets barely interact (only MA-10.4's one-point bonuses), so two agents can be
compared on identical dice: every seat draws its rolls from its own stream (seed, seat), the
agent under test plays seat 0 against greedy (``--seat 1``: the second seat, on stream 0's
dice), and greedy's own score on that stream comes from a greedy-vs-greedy game with the same
seed. The paired difference has far less spread than a win rate (one game's dice luck is ~11
points either way), so 20-40 games tell configurations apart. Iteration budgets keep results
independent of the machine's load.

``planner`` is an experiment, not a shipped agent: it searches every sequence of its own
actions to the end of the turn and keeps the best by the game's heuristic (the best turn
``evaluate`` knows of). It tied greedy (+0.1 +- 2.5 points over 21 paired games, 2026-11-24),
so greedy already plays the heuristic's best turn; see docs/agents.md.

    python scripts/mihi_paired.py greedy --games 40 --save rows.jsonl
    python scripts/mihi_paired.py "ismcts:iterations=500" --games 40 --save rows.jsonl
    python scripts/mihi_paired.py --load rows.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from nightsky.agents.base import make_agent, register_agent
from nightsky.core.game import CHANCE, Action
from nightsky.core.registry import load_game
from nightsky.games.mihi_anguli.heuristic import static_value
from nightsky.games.mihi_anguli.state import FINISHED, WAIT, MihiAnguliState


@register_agent("planner")
class TurnPlanner:
    """Best sequence of the seat's own actions to the end of its turn, by ``static_value``
    at the turn's end (transpositions merged; past ``cap`` positions ``evaluate`` decides)."""

    name = "planner"

    def __init__(self, cap: int = 20_000) -> None:
        self.cap = cap

    def choose(self, state: MihiAnguliState, player: int, rng: random.Random) -> Action:
        actions = state.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        memo: dict[tuple[Any, ...], float] = {}
        seen = [0]

        def value(st: MihiAnguliState) -> float:
            seat = st.seats[player]
            if not WAIT < seat.phase < FINISHED:
                return static_value(st, player)
            key = seat.key()
            if key in memo:
                return memo[key]
            seen[0] += 1
            if seen[0] > self.cap:
                v = st.game.evaluator.evaluate(st, player)
            else:
                v = max(value(_after(st, a, player)) for a in st.legal_actions(player))
            memo[key] = v
            return v

        return max(actions, key=lambda a: value(_after(state, a, player)))


def _after(st: MihiAnguliState, action: Action, player: int) -> MihiAnguliState:
    child = st.clone()
    child.step(action, player)
    return child


def play(job: tuple[str, int, int]) -> dict[str, Any]:
    """One game: ``spec`` at seat ``me``, greedy at the other, seat p's dice from stream (seed, p).

    The agent under test always gets dice stream 0, so its score compares with greedy's on the
    same dice whichever seat it plays."""
    spec, seed, me = job
    game = load_game("mihi-anguli", players=2)
    st = game.new_initial_state()
    dice = [random.Random(seed * 2 + (p if me == 0 else 1 - p)) for p in range(2)]
    agents = [make_agent(spec), make_agent("greedy")]
    if me == 1:
        agents.reverse()
    rngs = [random.Random(10**6 + seed * 2 + p) for p in range(2)]
    cpu = time.process_time()
    iterations = decisions = 0
    while not st.is_terminal():
        seat = st.current_players()[0]
        if seat == CHANCE:
            roll = tuple(
                tuple(sorted(dice[p].randint(1, 6) for _ in range(3))) if s.phase == WAIT else None
                for p, s in enumerate(st.seats)
            )
            st.step(game.roll(roll), CHANCE)  # type: ignore[attr-defined]
            continue
        action = agents[seat].choose(st, seat, rngs[seat])
        if seat == me:
            iterations += getattr(agents[me], "last_iterations", 0)
            decisions += 1
        st.step(action, seat)
    scores = st.scores()
    label = spec if me == 0 else f"{spec} @seat1"
    return {"spec": label, "seed": seed, "score": scores[me], "greedy": scores[1 - me],
            "cpu": round(time.process_time() - cpu, 2),
            "iterations": round(iterations / max(decisions, 1), 1)}


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """One line per spec: mean score, paired difference to greedy on the same dice."""
    by: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for r in rows:
        by[r["spec"]][r["seed"]] = r
    ref = {s: r["score"] for s, r in by.get("greedy", {}).items()}
    lines = []
    for spec, games in by.items():
        scores = [r["score"] for r in games.values()]
        diffs = [r["score"] - ref[s] for s, r in games.items() if s in ref]
        line = f"{spec}: {len(scores)} games, mean score {statistics.mean(scores):.1f}"
        if len(diffs) > 1 and spec != "greedy":
            err = statistics.stdev(diffs) / len(diffs) ** 0.5
            line += f", vs greedy on the same dice {statistics.mean(diffs):+.1f} +- {err:.1f}"
        lines.append(line)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", nargs="?", default=None, help="agent spec at seat 0")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0,
                        help="the agent's seat (its dice are stream 0 either way)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--save", type=Path, default=None, help="append rows (JSON lines)")
    parser.add_argument("--load", type=Path, nargs="*", default=[], help="rows to summarise")
    args = parser.parse_args()
    rows = [json.loads(line) for f in args.load for line in f.read_text().splitlines() if line]
    if args.spec:
        seeds = range(args.first_seed, args.first_seed + args.games)
        jobs = [(args.spec, s, args.seat) for s in seeds]
        with Pool(args.workers) as pool:
            for row in pool.imap_unordered(play, jobs):
                rows.append(row)
                if args.save:
                    with args.save.open("a") as f:
                        f.write(json.dumps(row) + "\n")
    print("\n".join(summary(rows)))


if __name__ == "__main__":
    main()
