"""Daybreak, the last turn, scoring and tie-breakers (SL-12, SL-13)."""

from __future__ import annotations

import pytest

from nightsky import load_game
from nightsky.core.errors import IllegalActionError
from nightsky.games.starlight.constants import OVER
from tests.games.starlight.starlight_helpers import do, give_rays, new, settle, texts, turn


def test_SL_12_1_SL_12_2_daybreak_then_one_more_round_with_final_launch():
    s = turn(new(2), 0, "cores", ap=5)
    s.np[0] = 65
    s._check_daybreak()
    assert s.daybreak_round == 2
    with pytest.raises(IllegalActionError, match="SL-12.2"):
        do(s, "final launch")  # not the last turn yet
    give_rays(s, 1, long_red=1)
    do(s, "end")
    settle(s)
    assert (s.turn, s.round) == (1, 2)
    do(s, "place cores", "end")
    settle(s)
    # Round 3 is the last: seat 0 holds no complete star (forfeit), seat 1 does.
    assert (s.turn, s.round) == (1, 3) and s.last
    assert "final launch" in texts(s) and "step" in texts(s)
    do(s, "final launch", "star S2", "attach long red")
    assert "to orion 1" in texts(s)  # any constellation, without moving
    do(s, "to orion 1")
    settle(s)
    assert s.is_terminal() and s.phase == OVER and not s.safeguard
    start = s.t.data.turn_order.night_points["2"][1]  # what seat 1 started with (SL-1.5)
    assert s.np[1] == start + 4 and s.winners() == [0]  # Orion 1 is worth 4 night points


def test_SL_12_3_SL_12_4_SL_13_4_slotless_final_launch():
    s = new(2)
    for sl in s.t.slots:
        if sl.size == 0:
            s.board[sl.index] = 1
    s.daybreak_round = 1
    give_rays(s, 0, long_red=1)
    turn(s, 0, "cores", ap=5)
    assert s.last
    f4 = s.t.flare_ids.index("F4")  # 1 per launched star, this one included
    s.flare_deck = [f for f in s.flare_deck if f != f4]
    s.flare_pool = [-1 if f == f4 else f for f in s.flare_pool]
    s.flares[0] = [f4]
    do(s, "final launch", "star S1", "attach long red", "use F4")
    assert texts(s)[-1] == "to nowhere"
    do(s, "to nowhere")
    assert s.np[0] == 3 + 1 and s.mags[0] == 0 and s.stars_of(0) == 0
    assert s.tiebreakers(0) == (0.0, 0.0)  # no marker on the board: not a star for the ties


def test_SL_12_3_slotless_only_without_a_fitting_slot():
    s = turn(new(2), 0, "cores", ap=5)
    s.last = True
    give_rays(s, 0, long_red=1)
    do(s, "final launch", "star S1", "attach long red")
    assert "to nowhere" not in texts(s)
    with pytest.raises(IllegalActionError, match="SL-12.3"):
        do(s, "to nowhere")


def test_SL_12_5_last_turn_forfeit_without_a_star():
    s = turn(new(2), 0, "cores", ap=5)
    s.daybreak_round = 2
    do(s, "end")
    settle(s)
    do(s, "place cores", "end")
    settle(s)
    assert s.is_terminal()
    acted = [seat for seat, _ in s.history if seat >= 0]
    assert acted == [0, 1, 1]  # no action at all in round 3


def test_SL_12_6_round_limit_safeguard():
    g = load_game("starlight", players=1, max_rounds=3)
    s = settle(g.new_initial_state())
    do(s, "place cores", "end")
    while not s.is_terminal():
        do(s, "end")
        settle(s)
    assert s.daybreak_round == 3 and s.round == 4
    assert s.safeguard and s.view(None)["daybreak_by_safeguard"]
    assert "(round limit, SL-12.6)" in s.game.ui.render(s, None).splitlines()[0]


def test_SL_13_1_SL_13_2_final_scores():
    s = new(1, starbots=1, starbot_level="hard")
    s.np[:] = [40, 30]
    s.board[0] = 1
    s.board[8] = 1
    s.board[7] = 0  # aquila 8, an alpha slot
    s.accolade[1] = 1
    s.phase = OVER
    b = s.score_breakdown()
    assert b[0]["alpha"] == 5 and b[0]["total"] == 45 + b[0]["laurels"]
    acc = s.t.accolade_dp[1]  # Accolade #2's day points (designed, cards.toml)
    assert b[1] == {"night": 30, "stars": 8, "accolades": acc, "total": 38 + acc}


def test_SL_13_3_SL_13_4_SL_13_5_SL_13_6_tie_breakers():
    s = new(3, turn_order_compensation=False)  # no head start (SL-1.5) to break the ties
    s.phase = OVER
    s.laurels = [[], [], []]
    s.np[:] = [20, 20, 19]
    s.board[0] = 0
    s.board[1] = 1
    assert s.winners() == [0, 1]  # shared victory: same stars, same constellations
    s.board[8] = 1
    assert s.winners() == [1]  # more stars
    s.board[8] = -1
    s.board[2] = 0
    s.board[16] = 1
    assert s.tiebreakers(0) == (2.0, 1.0) and s.tiebreakers(1) == (2.0, 2.0)
    assert s.winners() == [1]  # same stars, more constellations
    s.np[2] = 30
    assert s.winners() == [2]  # most points first
