"""Star Fire balance and length report: the numbers quoted in ``docs/games/star-fire.md``.

    PYTHONPATH=src python scripts/star_fire_report.py [--games 500] [--players 2 3 4 5 6]

For every player count it plays ``--games`` random games and as many all-greedy games (seed =
game index) and prints, in Markdown: how many ended and how (every seat eliminated, SF-17.1, or
the round cap, SF-17.3), the turn length, each seat's win share with its 95% Wilson interval (a
shared victory split evenly, as ``nightsky simulate`` counts it), the mean score, and the
built bodies whose builders win far more often than their share. Then greedy against random
with the greedy seats alternating. One core; the full run takes about ten minutes.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict
from typing import Any

from nightsky.agents import make_agent
from nightsky.core import CHANCE, load_game
from nightsky.sim.stats import wilson_interval


def play(g: Any, seed: int, agents: list[Any] | None, turns: list[int] | None = None) -> Any:
    """One game to the end; ``turns`` (one counter per seat) counts the turns each seat takes."""
    rng = random.Random(seed)
    s = g.new_initial_state()
    last = -1
    while not s.is_terminal():
        p = s.current_players()[0]
        if turns is not None and p != CHANCE and s.phase == 2 and s.turns != last:
            turns[p] += 1
            last = s.turns
        if p == CHANCE:
            s.step(s.sample_chance(rng), CHANCE)
        elif agents is None:
            s.step(rng.choice(s.legal_actions(p)), p)
        else:
            s.step(agents[p].choose(s, p, rng), p)
    return s


def built(s: Any, seat: int) -> list[int]:
    out: list[int] = []
    for stars, planets, loose in s.systems[seat]:
        out += stars + planets + loose
        for pl in planets:
            out += s.moons_on[pl]
    return out


def report(players: int, games: int) -> None:
    g = load_game("star-fire", players=players)
    print(f"\n### {players} players\n")
    for label, agents in (("random", None), ("greedy", [make_agent("greedy")] * players)):
        turns, rounds, scores = [], [], [[] for _ in range(players)]
        ended = natural = 0
        wins = [0.0] * players
        seat_turns = [0] * players
        card_games: dict[int, int] = defaultdict(int)
        card_wins: dict[int, float] = defaultdict(float)
        for seed in range(games):
            s = play(g, seed, agents, seat_turns)
            ended += s.is_terminal()
            natural += all(s.eliminated)
            turns.append(s.turns)
            rounds.append(s.round)
            w = s.winners()
            for q in range(players):
                scores[q].append(s.scores()[q])
                share = 1 / len(w) if q in w else 0.0
                wins[q] += share
                for c in built(s, q):
                    card_games[c] += 1
                    card_wins[c] += share
        print(
            f"- {label}: {ended}/{games} ended, {natural} with every seat eliminated; turns "
            f"mean {statistics.mean(turns):.1f} (median {statistics.median(turns):.0f}, "
            f"min {min(turns)}, max {max(turns)}), rounds mean {statistics.mean(rounds):.1f}"
        )
        if label != "greedy":
            continue
        print("\n| seat | win share | 95% CI | mean score | turns taken |")
        print("|---|---:|---:|---:|---:|")
        for q in range(players):
            lo, hi = wilson_interval(wins[q], games)
            print(
                f"| {q} | {wins[q] / games:.3f} | {lo:.3f}-{hi:.3f} | "
                f"{statistics.mean(scores[q]):.1f} | {seat_turns[q] / games:.2f} |"
            )
        # Pearson's chi-square of the win counts against equal shares (players - 1 d.o.f.).
        chi2 = sum((w - games / players) ** 2 / (games / players) for w in wins)
        print(f"\nchi-square of seat wins against equal shares: {chi2:.2f} "
              f"({players - 1} degrees of freedom)")
        # A card "dominates" when its builders win far above a seat's fair share.
        fair = 1 / players
        rows = sorted(
            ((card_wins[c] / n, n, c) for c, n in card_games.items() if n >= games // 10),
            reverse=True,
        )
        top = ", ".join(f"{s.C.name[c]} {r:.2f} ({n})" for r, n, c in rows[:5])
        low = ", ".join(f"{s.C.name[c]} {r:.2f} ({n})" for r, n, c in rows[-3:])
        print(f"\nbuilders' win share (fair {fair:.2f}), highest: {top}; lowest: {low}")
    # Greedy against random: greedy on alternating seats, half the table.
    share = 0.0
    n_greedy = 0
    for seed in range(games // 2):
        agents = [make_agent("greedy" if (q + seed) % 2 == 0 else "random")
                  for q in range(players)]
        s = play(g, 10_000 + seed, agents)
        greedy = [q for q in range(players) if (q + seed) % 2 == 0]
        n_greedy += len(greedy)
        share += sum(s.returns()[q] for q in greedy)
    seats_share = n_greedy / (games // 2) / players
    print(
        f"\n- greedy vs random ({games // 2} games, greedy on alternate seats, "
        f"{seats_share:.2f} of the seats): greedy seats win {share / (games // 2):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    args = parser.parse_args()
    for n in args.players:
        report(n, args.games)


if __name__ == "__main__":
    main()
