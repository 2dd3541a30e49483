"""The greedy evaluation (heuristic.py) and the designed sheet's score bands (MA-9.2)."""

from __future__ import annotations

import random
import statistics

import pytest

from nightsky.agents.base import make_agent
from nightsky.core.game import CHANCE
from nightsky.games.mihi_anguli.heuristic import evaluate, static_value
from nightsky.games.mihi_anguli.state import rank_name

from .helpers import game, play, pos


def test_a_positioning_is_worth_the_best_plot_it_opens() -> None:
    st = pos(dice=[(2, 3, 5)], skip_experience=True)
    play(st, "POS1 2 3")
    v = evaluate(st, 0)
    assert v > static_value(st, 0)
    plotted = st.clone()
    play(plotted, "PLOT1 5 r0")  # the only plot left: the 5 has one layout
    assert v == pytest.approx(static_value(plotted, 0))


def test_filled_points_next_to_each_other_are_worth_more_than_scattered() -> None:
    close = pos(points=("2,2", "2.5,2", "2,2.5", "3,3", "3.5,3", "3,2.5"))
    apart = pos(points=("2,2", "2.5,2", "2,2.5", "5,5", "5.5,5", "5,5.5"))
    assert static_value(close, 0) > static_value(apart, 0)


def play_solo(agent: str, seed: int) -> float:
    g = game()
    ag = make_agent(agent)
    rng = random.Random(seed)
    st = g.new_initial_state()
    while not st.is_terminal():
        cp = st.current_players()
        if cp == (CHANCE,):
            st.apply(st.sample_chance(rng), CHANCE)
        else:
            st.apply(ag.choose(st, cp[0], rng), cp[0])
    return st.scores()[0]


def test_greedy_beats_random_on_a_few_games() -> None:
    g = [play_solo("greedy", s) for s in range(2)]
    r = [play_solo("random", s) for s in range(2)]
    assert min(g) > max(r)


@pytest.mark.bench
def test_MA_9_2_rank_bands_random_low_greedy_kepler_hubble() -> None:
    r = [play_solo("random", s) for s in range(200)]
    g = [play_solo("greedy", s) for s in range(60)]
    assert sum(rank_name(x) in ("Messier", "Ptolomy") for x in r) / len(r) > 0.9
    assert 33 <= statistics.mean(g) <= 50
    assert any(x >= 50 for x in g)
