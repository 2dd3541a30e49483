"""Balance: Starbot difficulty settings order Starbot strength as their names say.

The big run is a benchmark (``make bench``); a small run checks the same order quickly.
"""

from __future__ import annotations

import random

import pytest

from nightsky import load_game
from nightsky.agents.base import make_agent
from nightsky.core.game import CHANCE


def play(seed: int, level: str) -> list[float]:
    g = load_game("starlight", players=1, starbots=2, starbot_level=level)
    s = g.new_initial_state()
    rng = random.Random(seed)
    agent = make_agent("greedy")
    while not s.is_terminal():
        cp = s.current_players()
        if cp == (CHANCE,):
            s.step(s.sample_chance(rng), CHANCE)
        else:
            s.step(agent.choose(s, cp[0], rng), cp[0])
    return s.scores() + [float(0 in s.winners())]


def test_SL_14_8_harder_starbots_score_more():
    easy = [play(seed, "easy") for seed in range(2)]
    expert = [play(seed, "expert") for seed in range(2)]
    bots = lambda rows: sum(r[1] + r[2] for r in rows)  # noqa: E731
    assert bots(expert) > bots(easy)
    assert sum(r[0] for r in easy) / 2 > 60  # the greedy player launches real stars


@pytest.mark.bench
def test_SL_14_8_greedy_wins_less_against_harder_starbots():
    rates = {}
    for level in ("easy", "medium", "hard", "expert"):
        rows = [play(seed, level) for seed in range(40)]
        rates[level] = sum(r[3] for r in rows) / len(rows)
    print("greedy win rate vs two Starbots:", rates)
    assert rates["easy"] > rates["expert"]
    assert rates["easy"] >= rates["medium"] >= rates["hard"] - 0.1


def test_greedy_beats_random_and_does_not_idle():
    from tests.games.starlight.starlight_helpers import give_rays, new, turn

    for seed in range(2):
        g = load_game("starlight", players=2)
        s = g.new_initial_state()
        rng = random.Random(seed)
        agents = [make_agent("greedy"), make_agent("random")]
        while not s.is_terminal():
            cp = s.current_players()
            if cp == (CHANCE,):
                s.step(s.sample_chance(rng), CHANCE)
            else:
                s.step(agents[cp[0]].choose(s, cp[0], rng), cp[0])
        assert s.winners() == [0]
    # A ready star on a Launch space at the start of the turn: step on, do not idle.
    s = turn(new(2), 0, "launch1", ap=5)
    give_rays(s, 0, short_red=2)
    choice = make_agent("greedy").choose(s, 0, random.Random(0))
    assert str(choice) == "step"
