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
