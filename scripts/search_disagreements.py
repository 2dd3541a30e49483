"""Where a search agent and ``greedy`` choose differently, which choice plays out better?

    PYTHONPATH=src python scripts/search_disagreements.py starlight "ismcts:iterations=2400" \\
        --every 7 --positions 30 --playouts 12 --seed 5

Plays one 2-player game of ``greedy`` against itself (chance from ``--seed``). At every
``--every``-th decision (from the middle of the first stretch on) the search agent is asked too;
where its choice differs from greedy's, each of the two moves is played from that position and
the game finished by ``greedy`` for both seats, ``--playouts`` times (hidden cards redrawn for
the seat to move and chance drawn anew each time, the same draws for both moves), and the mean
final score margin of the seat to move after each move is printed. Stops after ``--positions``
disagreements or at the game's end; the last line sums both columns.

A diagnosis of single decisions, not a strength test: the continuation is greedy's, so a move
that only a search would follow up well is undervalued, and a game's result also depends on
how consecutive decisions fit together.
"""

from __future__ import annotations

import argparse
import random

from nightsky.agents import make_agent
from nightsky.core.game import CHANCE, Action, State
from nightsky.core.registry import load_game
from nightsky.sim.runner import play_out


def _finish(state: State, me: int, rng: random.Random) -> float:
    """Play ``state`` to the end with greedy in every seat; ``me``'s score minus the best other."""
    scores = play_out(state, make_agent("greedy:cheat=true"), rng)
    return scores[me] - max(s for q, s in enumerate(scores) if q != me)


def playout_value(state: State, me: int, action: Action, playouts: int) -> float:
    """Mean margin of ``me`` after ``action`` and greedy play to the end, ``playouts`` times."""
    hidden = state.game.info.hidden_information
    total = 0.0
    for i in range(playouts):
        world = state.resample(me, random.Random(1000 + i)) if hidden else state.clone()
        world.step(action, me)
        total += _finish(world, me, random.Random(2000 + i))
    return total / playouts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("spec", help="the search agent's spec")
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--playouts", type=int, default=12)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    game = load_game(args.game, players=2)
    rng = random.Random(args.seed)
    greedy = make_agent("greedy")
    state = game.new_initial_state()
    decision = found = 0
    sums = [0.0, 0.0]
    while not state.is_terminal() and found < args.positions:
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
            continue
        mine = greedy.choose(state, seat, random.Random(1))
        if decision % args.every == args.every // 2 and len(state.legal_actions(seat)) > 1:
            other = make_agent(args.spec).choose(state, seat, random.Random(3))
            if other != mine:
                found += 1
                v_search = playout_value(state, seat, other, args.playouts)
                v_greedy = playout_value(state, seat, mine, args.playouts)
                sums[0] += v_search
                sums[1] += v_greedy
                print(f"decision {decision} seat {seat}: search {other} {v_search:+.2f}, "
                      f"greedy {mine} {v_greedy:+.2f}", flush=True)
        state.step(mine, seat)
        decision += 1
    per = (sums[0] - sums[1]) / found if found else 0.0
    print(f"{found} disagreements: search {sums[0]:+.1f}, greedy {sums[1]:+.1f} "
          f"({per:+.2f} points a disagreement for the search)")


if __name__ == "__main__":
    main()
