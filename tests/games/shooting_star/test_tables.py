"""The typed tables the compiled rules read (``game.tables``) are the game's own records."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from nightsky import load_game
from nightsky.core.game import CHANCE
from tests.games.shooting_star.helpers import walk


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


def _spelled(g: object, outcome: object) -> str:
    """The notation of a set-up outcome spelled from the game's codes, entry by entry."""
    from nightsky.games.shooting_star.actions import DeckOrder, GridDeal, MissionDeal, PlanetDeal

    game: Any = g
    if isinstance(outcome, GridDeal):
        return "grid " + " ".join(game.grid_token(p, lv) for p, lv in outcome.cells)
    if isinstance(outcome, PlanetDeal):
        return "deal " + "/".join(",".join(game.p_code[p] for p in h) for h in outcome.hands)
    if isinstance(outcome, DeckOrder):
        return " ".join(["deck", *(game.p_code[p] for p in outcome.cards)])
    assert isinstance(outcome, MissionDeal)
    codes = game.mission_codes
    return "missions " + "/".join("-".join(codes[m] for m in trio) for trio in outcome.seats)


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 5},
                                    {"players": 2, "variant": "personalized"}])
def test_SS_2_2_set_up_outcomes_spell_their_notation_when_first_read(
    params: dict[str, object],
) -> None:
    # SS-2.2, SS-2.5, SS-2.7, SS-14.2: an outcome is dealt without its text (a random game
    # never reads it); read, it is the notation of its fields, and it stays a value: equal
    # and hashing alike however it is made, pickled or printed.
    g = load_game("shooting-star", **params)
    for seed in range(3):
        rng = random.Random(seed)
        s = g.new_initial_state()
        kinds = []
        while s.current_players() == (CHANCE,):
            out: Any = s.sample_chance(rng)
            assert out._text is None  # not spelled yet
            text = str(out)
            assert text == _spelled(g, out) and str(out) is text
            again = g.parse_chance(text)
            assert again is not out and again == out and hash(again) == hash(out)
            assert {out: 1}[again] == 1
            back = pickle.loads(pickle.dumps(out))
            assert type(back) is type(out) and back == out and str(back) == text
            kind = type(out).__name__
            name = {"GridDeal": "cells", "PlanetDeal": "hands", "DeckOrder": "cards",
                    "MissionDeal": "seats"}[kind]
            assert repr(out) == f"{kind}({name}={getattr(out, name)!r}, text={text!r})"
            assert out != text and out != s.legal_actions(0)[:1]
            kinds.append(text.split()[0])
            s.apply(out)
        assert kinds == (["deal", "deck", "missions"] if params.get("variant")
                         else ["grid", "deck", "missions"])


def test_SS_2_2_outcomes_with_other_fields_or_of_another_kind_differ() -> None:
    from nightsky.games.shooting_star.actions import DeckOrder, MissionDeal, PlanetDeal

    g = load_game("shooting-star", players=2)
    deck = g.make_deck((3, 4, 5))
    assert deck == g.tables.make_deck((3, 4, 5)) and deck != g.make_deck((4, 3, 5))
    assert isinstance(deck, DeckOrder) and str(deck) == "deck " + " ".join(
        g.p_code[p] for p in (3, 4, 5))
    trio = ((0, 5, 10), (1, 6, 11))
    deal = g.make_missions(trio)
    assert isinstance(deal, MissionDeal) and deal == g.tables.make_missions(trio)
    assert deal != g.make_missions(((1, 6, 11), (0, 5, 10)))
    # the same fields in another class are another outcome
    assert PlanetDeal(trio, g.p_code) != deal and PlanetDeal(trio, g.p_code) != MissionDeal(
        trio, g.p_code)


@pytest.mark.parametrize("players", [2, 4])
def test_SS_2_7_each_seat_reads_its_own_missions_spelled_when_read(players: int) -> None:
    # SS-2.7: the missions' log line is spelled per seat when read: each seat its own trio,
    # everyone else (spectators, seats beyond the table) "missions dealt"; pickled alike.
    g = load_game("shooting-star", players=players)
    rng = random.Random(8)
    s = g.new_initial_state()
    while s.current_players() == (CHANCE,):
        s.step(s.sample_chance(rng), CHANCE)
    deal: Any = s.history[-1][1]
    codes = g.mission_codes
    want = {seat: "missions " + "-".join(codes[m] for m in trio) + " (yours)"
            for seat, trio in enumerate(deal.seats)}
    assert [s.log_text(-1, seat) for seat in range(players)] == [want[i] for i in range(players)]
    assert s.log_text(-1, None) == "missions dealt" == s.log_text(-1, players + 3)
    lines = s._secrets[len(s.history) - 1].private
    assert dict(lines) == want and len(lines) == players and 0 in lines and -1 not in lines
    assert lines == want and sorted(lines) == list(range(players))
    copy = pickle.loads(pickle.dumps(s))
    assert [copy.log_text(-1, v) for v in (None, *range(players))] == [
        s.log_text(-1, v) for v in (None, *range(players))]


def test_new_states_are_independent_copies_of_one_blank_state() -> None:
    # SS-2.8: every new game starts from the same blank position, however many games were
    # played from the game before (they are copied from one blank state the game keeps).
    g = load_game("shooting-star", players=3)
    first = g.new_initial_state()
    blank = (first.view(None), first.view(0), first.current_players(), first.phase)
    for seed in range(3):
        assert walk(g.new_initial_state(), seed).is_terminal()  # type: ignore[arg-type]
    fresh = g.new_initial_state()
    assert (fresh.view(None), fresh.view(0), fresh.current_players(), fresh.phase) == blank
    assert fresh.history == [] and fresh is not g.new_initial_state()
    other = pickle.loads(pickle.dumps(g)).new_initial_state()
    assert other.view(None) == blank[0] and other.g is not g
