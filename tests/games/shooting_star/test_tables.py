"""The typed tables the compiled rules read (``game.tables``) are the game's own records."""

from __future__ import annotations

import pickle
import random

import pytest

from nightsky import load_game
from nightsky.core.game import CHANCE


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 5},
                                    {"players": 3, "variant": "personalized"}])
def test_the_tables_are_the_games_own(params: dict[str, object]) -> None:
    g = load_game("shooting-star", **params)
    t = g.tables
    assert (t.num_players, t.ncells, t.personalized, t.grid_planets) == (
        g.num_players, g.ncells, g.personalized, g.grid_planets)
    assert all(list(row) == t.place_rows[k] for k, row in enumerate(g.place_rows))
    assert all(list(row) == t.blast[k] for k, row in enumerate(g.blast))
    assert tuple(t.neigh) == tuple(g.neigh) and tuple(t.p_kind) == tuple(g.p_kind)
    assert {k: tuple(v) for k, v in t.majors_by_name.items()} == g.majors_by_name
    for seat in range(g.num_players):  # SS-3.4: the face-down card's log line, per cell
        assert [t.place_secret(seat, c) for c in range(g.ncells)] == list(
            g.place_secrets_of(seat))


def test_set_up_outcomes_spelled_by_the_tables_read_back() -> None:
    # SS-2.2: the dealt sector, the deck and the missions, as the tables make them, are what
    # the game's own notation reads back; a pickled state keeps its tables.
    g = load_game("shooting-star", players=3)
    rng = random.Random(3)
    s = g.new_initial_state()
    while s.current_players() == (CHANCE,):
        outcome = s.sample_chance(rng)
        assert g.parse_chance(str(outcome)) == outcome
        s.apply(outcome)
    copy = pickle.loads(pickle.dumps(s))
    assert copy.t is g.tables or copy.view(0) == s.view(0)
    assert copy.legal_actions() == s.legal_actions()


def test_scoring_tables_are_the_games_missions_and_planets() -> None:
    # SS-13: what the compiled scoring reads, as ints, is each mission's and planet's record.
    from nightsky.games.shooting_star.tables import F_MOON, M_NAMED, M_PLANETS

    g = load_game("shooting-star", players=4)
    t = g.tables
    kinds = ("destroy", "named", "planets")
    filters = ("any", "minor", "major", "moon")
    assert [kinds[k] for k in t.m_kind] == [m.kind for m in g.missions]
    assert [filters[f] for f in t.m_filter] == [m.filter for m in g.missions]
    assert (t.m_value, t.m_count, t.m_planet) == ([m.value for m in g.missions],
                                                  [m.count for m in g.missions],
                                                  [m.planet for m in g.missions])
    assert M_NAMED in t.m_kind and M_PLANETS in t.m_kind and F_MOON in t.m_filter
    assert t.p_name == list(g.p_name) and t.p_moon == [bool(m) for m in g.p_moon]
    assert [p for p in range(t.nplanets) if t.p_zero[p]] == sorted(g.zero)


@pytest.mark.parametrize("players", [2, 4])
def test_random_action_draws_what_a_choice_from_the_legal_list_draws(players: int) -> None:
    # SS-3.3: the placement a search rollout draws without the list is the one
    # choice(legal_actions) draws, and it leaves the generator where that leaves it.
    from nightsky.core.rng import choice

    g = load_game("shooting-star", players=players)
    play = random.Random(11)
    checked = 0
    for _ in range(30):
        s = g.new_initial_state()
        while not s.is_terminal():
            seat = s.current_players()[0]
            if seat == CHANCE:
                s.step(s.sample_chance(play), CHANCE)
                continue
            seed = play.randrange(1 << 30)
            a, b = random.Random(seed), random.Random(seed)
            got = s.random_action(seat, a)
            assert got == choice(b, s.legal_actions(seat))
            assert a.getstate() == b.getstate()
            checked += 1
            s.step(got, seat)
    assert checked > 30 * 8
