"""Notation, chance notation, redaction, observation blocks and action_ui."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import FrozenInstanceError, astuple, replace

import pytest

from nightsky.core import CHANCE, ActionBase, InvalidActionError, load_game
from nightsky.games.shooting_star.actions import Build, Discard, Place
from nightsky.games.shooting_star.constants import (
    BITS,
    CARD_KEYS,
    FULL_HAND,
    NCARDS,
    SHIELD,
    cover_card,
    cover_seat,
    decode_cover,
    decode_pile_card,
    encode_cover,
    hand_has,
    hand_with,
    hand_without,
    is_pile_card,
    pile_card,
    pile_cards,
    pile_of_cover,
    pile_planets,
)
from nightsky.games.shooting_star.observer import CELL, SEAT, SEATS
from tests.games.shooting_star.helpers import build_position, play, setup


def test_SS_2_2_chance_notation_round_trip_and_errors() -> None:
    g = load_game("shooting-star", players=3)
    s = g.new_initial_state()
    rng = random.Random(4)
    texts = []
    while s.current_players() == (CHANCE,):
        out = s.sample_chance(rng)
        texts.append(str(out))
        assert g.parse_action(str(out)) == out
        s.apply(out, CHANCE)
    assert [t.split()[0] for t in texts] == ["grid", "deck", "missions"]
    assert len(texts[0].split()) == 1 + 18
    for bad in ("grid zz9:1", "grid p01:7", "missions 1a-2b", "missions 9z-2b-3c", "deal q1"):
        with pytest.raises(InvalidActionError):
            g.parse_action(bad)
    with pytest.raises(InvalidActionError):
        g.parse_action("P9@1,1")


def test_SS_3_3_place_notation_and_ids() -> None:
    g = load_game("shooting-star", players=2)
    assert str(g.parse_action("S@4,3")) == "S@4,3"
    a = g.parse_action("P3@2,1")
    assert (a.card, a.cell) == (2, 1)
    assert g.num_distinct_actions == 9 * 12
    assert g.action_from_id(g.action_id(a)) is a
    # only the exact notation reads; a space off the sector is named as such
    for text in ("P3@+2,1", "P3@02,1", "P3@2, 1", "P3@2", "P9@2,1", "n01:4@2,1", "p01:out"):
        with pytest.raises(InvalidActionError, match="cannot read"):
            g.parse_action(text)
    with pytest.raises(InvalidActionError, match="SS-2.3"):
        g.parse_action("P3@5,1")


def test_SS_3_4_observation_blocks() -> None:
    s = build_position(["2 2 2 2", "2 2 2 2", "2 2 2 D"], players=2)
    g = s.g
    obs = g.make_observer()
    assert obs.size == 12 * CELL + SEATS * SEAT + 25 == 359
    play(s, (0, "P3@2,1"))
    c = g.cell_of(2, 1)
    mine, theirs = obs.observation(s, 0), obs.observation(s, 1)
    assert mine[c * CELL + 8] == 1.0 and mine[c * CELL + 13 + 2] == 1.0
    assert theirs[c * CELL + 8 + 1] == 1.0  # seat 0 is seat 1's "next" seat
    assert sum(theirs[c * CELL + 13 : c * CELL + 22]) == 0.0  # the card stays hidden
    base = g.ncells * CELL
    assert theirs[base + SEAT : base + SEAT + 9] == [1.0] * 9  # all nine still unrevealed


def test_SS_3_4_action_ui_targets_cells() -> None:
    s = setup(2, seed=1)
    a = s.legal_actions(0)[0]
    ui = s.game.ui.action_ui(s, a, 0)
    key = CARD_KEYS[a.card]
    assert ui["targets"] == [f"cell-{a.col}-{a.row}", f"card-{key}"] and "face down" in ui["label"]
    ids = {cell["id"] for cell in s.view(0)["cells"]}
    assert ui["targets"][0] in ids


def test_SS_2_7_records_hide_secrets_per_viewer() -> None:
    s = setup(2, seed=2)
    assert s.history[1][0] == CHANCE
    assert s.log_text(1, 0) == "deck shuffled"
    assert s.log_text(0, None).startswith("grid ")
    assert s.log_text(2, None) == "missions dealt"


def test_SS_3_3_actions_are_typed_values() -> None:
    g = load_game("shooting-star", players=2, variant="personalized")
    a = g.parse_action("P3@2,1")
    assert isinstance(a, ActionBase)
    # equal fields make equal actions, however made (their equality and hash are spelled out)
    again = Place(a.card, a.cell, a.col, a.row)
    assert again is not a and again == a and hash(again) == hash(a) and {a: 1}[again] == 1
    assert g.action_id(again) == g.action_id(a)
    assert pickle.loads(pickle.dumps(a)) == a and copy.deepcopy(a) == a
    assert replace(a, row=a.row + 1) != a and str(replace(a, row=a.row + 1)) == "P3@2,2"
    with pytest.raises(FrozenInstanceError):
        a.card = 0  # type: ignore[misc]
    b = g.parse_action("n03:4@8,8")
    assert isinstance(b, Build) and Build(*astuple(b)) == b and b != a
    assert pickle.loads(pickle.dumps(b)) == b and hash(Build(*astuple(b))) == hash(b)
    # two action classes with equal fields never compare equal (the NamedTuple trap)
    assert Discard(1, "x") != Place(1, 0, 0, 0) and Discard(3, "p04") == Discard(3, "p04")


def test_SS_3_3_an_equal_action_is_as_legal_as_the_listed_one() -> None:
    s = setup(2, seed=1)
    a = s.legal_actions(0)[0]
    assert isinstance(a, Place)
    twin = Place(a.card, a.cell, a.col, a.row)
    assert s.is_legal(twin, 0)
    s.apply(twin, 0)
    assert s.history[-1] == (0, a)


def test_packed_codes_round_trip() -> None:
    for seat in range(5):
        for card in range(NCARDS):
            code = encode_cover(seat, card)
            assert decode_cover(code) == (seat, card)
            assert (cover_seat(code), cover_card(code)) == (seat, card)
            pile = pile_card(seat, card)
            assert pile == pile_of_cover(code) and is_pile_card(pile)
            assert decode_pile_card(pile) == (seat, card)
    assert not any(is_pile_card(p) for p in range(49))  # planets keep their index
    pile = [7, pile_card(1, SHIELD), 3, pile_card(0, 2)]
    assert pile_planets(pile) == [7, 3] and pile_cards(pile) == [(1, SHIELD), (0, 2)]
    hand = hand_without(FULL_HAND, SHIELD)
    assert not hand_has(hand, SHIELD) and hand_has(hand, 0) and BITS[hand] == tuple(range(8))
    assert hand_with(hand, SHIELD) == FULL_HAND
