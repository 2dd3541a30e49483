"""Golden records of agents' games: what the search and greedy choose must not change when the
engine's judging code moves (``tests/golden/agents.json``).

``tests/golden/<game>.json`` covers ``greedy`` only through a ``simulate`` summary; this plays,
per shipped game, a short seeded game of ``ismcts`` (cut-offs, root prior), ``mcts`` and
``greedy`` seats and digests its record, so any change in a judged value that changes a choice
shows. ``python -m tests.support.agent_golden --write`` rewrites the file; only for a change meant
to alter the agents' play, said so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from nightsky.agents import make_agent
from nightsky.core import CHANCE, load_game
from nightsky.core.registry import game_class, packaged_game_ids

PATH = Path(__file__).resolve().parent.parent / "golden" / "agents.json"
SEATS = ("ismcts:iterations=24,depth=4", "greedy", "mcts:iterations=16,depth=3,leaf=delta")
SEED = 5
DECISIONS = 40
"""Player decisions played per game: enough for cut-offs deep in play, short enough to be quick."""


def record_digest(game_id: str) -> str:
    """The SHA-256 of the moves of one seeded agents' game of ``game_id`` (first ``DECISIONS``
    player decisions), at the smallest table of two or more seats."""
    info = game_class(game_id).info
    game = load_game(game_id, players=max(2, info.min_players))
    rng = random.Random(SEED)
    agents = [make_agent(SEATS[p % len(SEATS)]) for p in range(game.num_seats)]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < DECISIONS:
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
            continue
        state.step(agents[seat].choose(state, seat, rng), seat)
        decisions += 1
    moves = [f"{seat}:{action}" for seat, action in state.history]
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()


def main(argv: list[str]) -> int:
    only = [a for a in argv if not a.startswith("-")] or packaged_game_ids()
    got = {gid: record_digest(gid) for gid in only}
    if "--write" in argv:
        old = json.loads(PATH.read_text()) if PATH.exists() else {}
        PATH.write_text(json.dumps({**old, **got}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {PATH}")
        return 0
    want = json.loads(PATH.read_text())
    bad = [gid for gid in got if want.get(gid) != got[gid]]
    print("differ: " + ", ".join(bad) if bad else "all equal")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
