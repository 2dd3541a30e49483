"""The greedy evaluation (heuristic.py) and the designed sheet's score bands (MA-9.2)."""

from __future__ import annotations

import random
import statistics

import pytest

from nightsky.agents.base import make_agent
from nightsky.core.game import CHANCE
from nightsky.games.mihi_anguli.constants import rank_name
from nightsky.games.mihi_anguli.heuristic import evaluate, static_value

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


def test_seat_copy_and_key_cover_every_field() -> None:
    from nightsky.games.mihi_anguli.state import Seat

    s = Seat()
    names = getattr(Seat, "__slots__", None) or Seat.__mypyc_attrs__  # compiled: no __slots__
    for i, name in enumerate(names):
        old = getattr(s, name)
        setattr(s, name, (i + 1,) if name == "dice" else not old if old in (True, False)
                and type(old) is bool else i + 1)
    assert s.key() == tuple(getattr(s, k) for k in names)
    assert s.copy().key() == s.key()


def test_the_speed_caches_never_change_an_answer() -> None:
    # Legal actions, completed groups and pending-sheet values are cached for searches; on
    # every position of random two-seat games they equal a fresh computation.
    from nightsky.games.mihi_anguli.heuristic import _resolve

    rng = random.Random(11)
    g = game(players=2)
    for _ in range(3):
        st = g.new_initial_state()
        while not st.is_terminal():
            seats = st.current_players()
            if seats == (CHANCE,):
                st.step(st.sample_chance(rng), CHANCE)
                continue
            p = seats[0]
            assert st.legal_actions(p) == st._legal(st.seats[p])
            assert st.legal_actions(p) == st.legal_actions(p)  # a cache hit, same list
            for t in st.seats:
                groups = range(len(st.c.group_mask))
                assert st._done_groups(t) == sum(1 << g for g in groups if st._completed(t, g))
            assert st._total(p) == sum(st._parts(p)) == st.scores()[p]
            v = evaluate(st, p)
            assert evaluate(st, p) == v
            if st.seats[p].pos >= 0 or st.seats[p].sub:
                assert v == pytest.approx(_resolve(st, p, 3))
            st.step(rng.choice(st.legal_actions(p)), p)
