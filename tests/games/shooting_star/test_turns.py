"""SS-3 placement, SS-4 resolution order, SS-10 end of turn, SS-11 end of game."""

from __future__ import annotations

import random

import pytest

from nightsky.core import IllegalActionError, NotYourTurnError
from nightsky.games.shooting_star.constants import PH_OVER
from nightsky.games.shooting_star.events import Resolve
from tests.games.shooting_star.helpers import (
    build_position,
    cell,
    codes,
    planet_at,
    play,
    setup,
    walk,
)

TWO = ["2 2 2 2", "2 2 2 2", "2 2 2 D"]


def test_SS_3_1_placement_then_resolution() -> None:
    s = build_position(TWO, players=2)
    play(s, (0, "P8@2,2"))
    assert s.cov[cell(s, 2, 2)] == 7 and s.turn == 0  # still face down, nothing resolved
    assert planet_at(s, 2, 1)[1] == 2
    play(s, (1, "P7@4,3"))
    assert s.turn == 1 and s.cov[cell(s, 2, 2)] == -1
    assert planet_at(s, 2, 1)[1] == 1 and planet_at(s, 2, 3)[1] == 1


def test_SS_3_2_clockwise_from_the_dark_invader() -> None:
    s = build_position(["2 2 2 2 2 2"] * 3, players=3, invader=1)
    order = []
    for move in ("P1@1,1", "P1@3,3", "P1@6,1"):
        seat = s.current_players()[0]
        order.append(seat)
        play(s, (seat, move))
    assert order == [1, 2, 0]
    with pytest.raises(NotYourTurnError):
        s.apply(s.legal_actions(2)[0] if s.legal_actions(2) else s.g.place_rows[0][0], 0)


def test_SS_3_3_only_on_an_uncovered_planet_from_the_hand() -> None:
    s = build_position(["2 2 2 2", "2 . 2 2", "2 2 2 D"], players=2)
    before = s.view(None)
    with pytest.raises(IllegalActionError, match="no planet .*SS-3.3"):
        s.apply(s.game.parse_action("P3@2,2"), 0)
    assert s.view(None) == before
    play(s, (0, "P3@1,1"))
    with pytest.raises(IllegalActionError, match="already holds .*SS-3.3"):
        s.apply(s.game.parse_action("P5@1,1"), 1)
    play(s, (1, "P7@4,3"))
    assert s.current_players() == (1,)
    with pytest.raises(IllegalActionError, match="no longer in your hand.*SS-3.3"):
        s.apply(s.game.parse_action("P7@3,3"), 1)
    legal = s.legal_actions(1)
    assert all(a.card != 6 for a in legal)
    assert {a.cell for a in legal} == set(s.alive)


def test_SS_3_4_face_down_card_is_hidden() -> None:
    a = build_position(TWO, players=2)
    b = build_position(TWO, players=2)
    play(a, (0, "P3@2,2"))
    play(b, (0, "P5@2,2"))
    assert a.view(1) == b.view(1)  # seat 1 cannot tell which card lies there
    assert a.view(None) == b.view(None)
    assert a.view(0) != b.view(0)
    assert a.history[-1][0] == 0
    assert a.log_text(-1, 1) == "?@2,2"
    seen = set()
    for k in range(40):
        r = a.resample(1, random.Random(k))
        assert r.view(1) == a.view(1)
        seat, card, c = r.placed[0]
        seen.add(card)
        assert (r.hands[0] | 1 << card) == a.hands[0] | 1 << 2  # same unrevealed set
    assert len(seen) > 3


def test_SS_3_4_revealed_cards_are_public_knowledge() -> None:
    s = build_position(TWO, players=2)
    play(s, (0, "P3@2,2"), (1, "P7@4,3"))
    assert "P3" not in s.view(1)["seats"][0]["unrevealed"]
    assert "P7" not in s.view(0)["seats"][1]["unrevealed"]


def test_SS_4_1_descending_priority() -> None:
    s = build_position(["2 2 2 2 2 2"] * 3, players=3)
    play(s, (0, "P1@1,1"), (1, "P8@6,1"), (2, "P4@4,2"))
    fired = [e.card for e in s.events if type(e) is Resolve]
    assert fired == [7, 3, 0]


def test_SS_4_2_equal_priority_in_turn_order() -> None:
    s = build_position(TWO, players=2, invader=1)
    play(s, (1, "P6@3,2"), (0, "P6@2,2"))
    # seat 1 placed first, so its Priority 6 resolves first and destroys seat 0's
    assert "red:P6" in codes(s, s.debris[1])
    assert [e.seat for e in s.events if type(e) is Resolve] == [1]


def test_SS_4_3_shield_never_resolves_by_itself() -> None:
    s = build_position(TWO, players=2)
    play(s, (0, "S@1,1"), (1, "P7@4,3"))
    assert all(type(e) is not Resolve or e.seat != 0 for e in s.events)
    assert planet_at(s, 1, 2)[1] == 2 and planet_at(s, 2, 1)[1] == 2


def test_SS_4_4_resolved_card_goes_to_own_debris() -> None:
    s = build_position(TWO, players=2)
    play(s, (0, "P8@2,2"), (1, "P7@4,3"))
    assert codes(s, s.debris[0]) == ["red:P8"] and codes(s, s.debris[1]) == ["yellow:P7"]


def test_SS_10_1_dark_invader_passes_clockwise() -> None:
    s = build_position(["2 2 2 2 2 2"] * 3, players=3, invader=2)
    play(s, (2, "P1@1,1"), (0, "P1@6,1"), (1, "P1@3,3"))
    assert s.invader == 0 and s.current_players() == (0,)
    assert s.census()["dark-invader:0"] == ["dark-invader"]


def test_SS_11_1_only_at_the_end_of_a_complete_turn() -> None:
    s = build_position([". . . .", "2 1 2 .", ". . 2 ."], players=2)
    play(s, (0, "P7@2,2"))
    assert not s.is_terminal() and s.current_players() == (1,)
    play(s, (1, "P4@3,2"))
    # seat 0's Priority 7 left only two planets (2,2 captured, 1,2 isolated), yet seat 1's
    # Priority 4 still resolved before the game ended
    assert Resolve("resolve", 1, 3, s.g.cell_of(3, 2)) in s.events
    assert planet_at(s, 3, 2)[1] == 1 and planet_at(s, 3, 3)[1] == 1
    assert s.is_terminal()


def test_SS_11_2_ends_after_seven_cards_each() -> None:
    for seed in range(30):
        s = setup(5, seed=seed)
        walk(s, seed)
        assert s.turn <= 7
        assert s.turn == 7 or len(s.alive) <= 5
        assert not s.placed


def test_SS_11_2_seven_turns_when_planets_last() -> None:
    """Every complete turn: the game goes on exactly while turns < 7 and planets > players."""
    full_length = 0
    for seed in range(20):
        s = setup(2, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            turn = s.turn
            p = s.current_players()[0]
            s.apply(rng.choice(s.legal_actions(p)), p)
            if s.turn != turn:  # a turn just ended
                over = s.turn >= 7 or len(s.alive) <= 2
                assert s.is_terminal() == over
        full_length += s.turn == 7 and len(s.alive) > 2
    assert full_length > 0


def test_SS_11_3_few_planets_end_the_game() -> None:
    s = build_position([". . . .", ". 2 1 2", ". . 2 ."], players=2)
    play(s, (0, "P7@3,2"), (1, "P8@2,2"))
    # P8 hits nothing on a line without neighbours above/below; the P7 capture leaves holes
    assert s.is_terminal() and len(s.alive) <= 2


def test_SS_11_4_hands_go_to_debris() -> None:
    s = build_position([". . . .", ". 2 1 2", ". . 2 ."], players=2)
    play(s, (0, "P7@3,2"), (1, "P8@2,2"))
    assert s.phase == PH_OVER and s.hands == [0, 0]
    red = [c for c in codes(s, s.debris[0]) if c.startswith("red:")]
    assert len(red) == 9
