"""MA-1 to MA-6: set-up, the four steps of a turn, experience, dice and paying costs."""

from __future__ import annotations

import pytest

from nightsky.core.errors import IllegalActionError, OptionError
from nightsky.core.game import CHANCE
from nightsky.games.mihi_anguli.constants import ABIL, REWARD, START, XP

from .helpers import B, filled, game, group, item, legal, play, point, pos, position


def rule_of(st, notation: str, seat: int = 0) -> str | None:
    with pytest.raises(IllegalActionError) as exc:
        st.apply(st.game.parse_action(notation), seat)
    return exc.value.rule


# ---------------------------------------------------------------- MA-1
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_MA_1_1_one_to_four_players_each_with_a_sheet(n: int) -> None:
    st = game(n).new_initial_state()
    assert len(st.seats) == n and len({id(s) for s in st.seats}) == n


@pytest.mark.parametrize("n", [0, 5])
def test_MA_1_1_other_player_counts_are_refused(n: int) -> None:
    with pytest.raises(OptionError):
        game(n)


def test_MA_1_2_setup_sunday_week_one_then_one_roll_for_every_seat() -> None:
    st = game(1).new_initial_state()
    assert st.current_players() == (CHANCE,)
    s = st.seats[0]
    assert (s.week, s.day, s.pts, s.items, s.acq) == (1, 0, 0, 0, 0)
    outs = st.chance_outcomes()
    assert outs is not None and len(outs) == 56 and abs(sum(p for _, p in outs) - 1) < 1e-12
    st2 = game(3).new_initial_state()
    assert st2.chance_outcomes() is None  # 56^3 joint rolls: sampled
    import random

    r = st2.sample_chance(random.Random(1))
    assert len(r.dice) == 3 and all(d is not None and len(d) == 3 for d in r.dice)  # type: ignore[attr-defined]


def test_MA_1_3_map_geometry() -> None:
    assert len(B.MAJORS) == 36 and B.NPTS == 13 * 13 and B.NSQ == 144
    assert B.major(1, 1) == point("1,1") and B.major(6, 6) == point("6,6")
    for corners in B.SQ_CORNERS:
        majors = [q for q in range(B.NPTS) if corners >> q & 1 and B.is_major(q)]
        assert len(majors) == 1 and corners.bit_count() == 4
    g = game()
    assert not g.compiled.star_mask & B.MAJOR_MASK


def test_MA_1_5_costs_are_rows_of_three_kinds() -> None:
    kinds = {it.kind for it in game().compiled.items}
    assert kinds == {"E", "S", "Q"}


# ---------------------------------------------------------------- MA-2
def test_MA_2_1_steps_in_order_no_ability_while_spending_experience() -> None:
    st = pos(dice=[(2, 3, 5)])
    s = st.seats[0]
    assert s.phase == XP and s.xp == 2
    assert not any(a.startswith("POS") for a in legal(st))
    assert rule_of(st, "POS1 2 3") == "MA-2.1"
    play(st, "done")
    assert s.phase == ABIL and s.xp == 0 and "POS1 2 3" in legal(st)
    play(st, "end turn")
    assert st.current_players() == (CHANCE,)


def test_MA_2_2_only_ability_dice_are_rolled_the_schedule_die_moves() -> None:
    st = pos(dice=[(4, 5, 6)])
    s = st.seats[0]
    assert s.dice == (4, 5, 6) and s.day == 4 and s.week == 1
    assert str(st.history[-1][1]) == "roll 456"


# ---------------------------------------------------------------- MA-3
def test_MA_3_1_only_supporters_before_the_schedule_moves() -> None:
    st = pos(dice=[(3, 4, 6)], acquired=("MENTOR",))
    s = st.seats[0]
    assert s.phase == START and legal(st) == ["advance", "MENTOR"]
    assert rule_of(st, "fill SUN.1") == "MA-3.1"
    play(st, "advance")
    assert s.phase == XP and s.day == 3


def test_MA_3_1_without_supporters_the_schedule_advances_by_itself() -> None:
    st = pos(dice=[(3, 4, 6)])
    assert st.seats[0].phase == XP and st.seats[0].day == 3


def test_MA_3_2_the_lowest_die_moves_the_schedule() -> None:
    st = pos(dice=[(6, 2, 5)], day="WED")
    assert st.seats[0].day == 5  # Wednesday + 2 = Friday


def test_MA_3_3_landing_on_sunday_ends_the_week() -> None:
    st = pos(dice=[(1, 4, 4)], day="SAT", week=3)
    s = st.seats[0]
    assert s.day == 0 and s.week == 4


def test_MA_3_3_stopping_short_of_sunday_does_not() -> None:
    st = pos(dice=[(1, 4, 4)], day="FRI", week=3)
    assert st.seats[0].week == 3


def test_MA_3_4_reward_map_fills_a_non_star_point() -> None:
    st = position(game(), dice=[(3, 4, 6)], week=2, day="FRI",
                  items=("W2.1", "W2.2", "W2.3", "W2.4"))
    s = st.seats[0]
    play(st, "claim map")
    options = legal(st)
    assert all(a.startswith("at ") for a in options)
    stars = [q for q in range(B.NPTS) if st.c.star_mask >> q & 1]
    assert len(options) == B.NPTS - len(stars)
    play(st, "at 3,3")
    assert filled(st, "3,3") == [True] and s.claimed == 0 and s.phase == XP
    assert st.score_breakdown()[0]["articles"] == 0


def test_MA_3_5_week_number_rises_whether_or_not_rewarded() -> None:
    st = pos(dice=[(5, 5, 6)], day="THU", week=1)
    s = st.seats[0]
    assert s.week == 2 and s.phase == XP and s.claimed == 0


# ---------------------------------------------------------------- MA-4
def test_MA_4_1_experience_is_lowest_die_plus_day_items() -> None:
    st = pos(dice=[(3, 3, 6)], items=("WED.1", "WED.3", "TUE.1", "W1.1"))
    assert st.seats[0].day == 3 and st.seats[0].xp == 3 + 2


def test_MA_4_2_researcher_adds_one_every_day() -> None:
    st = pos(dice=[(3, 3, 6)], acquired=("RESEARCHER",))
    assert st.seats[0].xp == 4


def test_MA_4_3_a_day_item_filled_this_turn_counts_from_the_next_turn() -> None:
    # Week 1 ends on Tuesday; the reward point closes a square that pays Tuesday's 1-squares item.
    st = position(game(), dice=[(3, 4, 6)], week=1, day="SAT",
                  items=("W1.1", "W1.2", "W1.3"), points=("2,2", "2.5,2", "2,2.5"))
    s = st.seats[0]
    assert s.phase == REWARD and s.day == 2
    play(st, "claim map", "at 2.5,2.5")
    assert s.psq == 1
    play(st, "fill TUE.2")
    assert s.phase == XP and s.xp == 3  # TUE.2 does not count yet
    play(st, "done", "end turn")
    for _ in range(7):  # a week of ones brings Tuesday back
        st.apply(st.game.roll(((1, 1, 1),)), CHANCE)
        if s.day == 2:
            break
        if s.phase == XP:
            play(st, "done")
        play(st, "end turn")
    assert s.day == 2 and s.phase == XP and s.xp == 1 + 1


def test_MA_4_4_experience_buys_items_up_to_what_is_left() -> None:
    st = pos(dice=[(2, 4, 4)])
    s = st.seats[0]
    assert s.xp == 2
    assert "fill POS4.1" not in legal(st)  # worth 4
    assert rule_of(st, "fill POS4.1") == "MA-4.4"
    play(st, "fill W1.1")
    assert s.xp == 1
    play(st, "done")
    assert s.xp == 0 and s.phase == ABIL  # the rest is lost


# ---------------------------------------------------------------- MA-5
def test_MA_5_1_several_abilities_then_end_turn() -> None:
    st = pos(dice=[(2, 3, 5)], acquired=("RECORDING", "POSITIONING II"), skip_experience=True)
    play(st, "REC 5 W1", "POS2 2", "PLOT1 3 r0")
    assert "end turn" in legal(st) and st.seats[0].dice == ()
    play(st, "end turn")
    assert st.current_players() == (CHANCE,)


def test_MA_5_2_two_dice_abilities_use_two_and_dice_are_placed_once() -> None:
    st = pos(dice=[(2, 3, 5)], skip_experience=True)
    play(st, "POS1 2 3")
    assert st.seats[0].dice == (5,)
    assert rule_of(st, "PLOT1 2 r0") == "MA-5.2"


def test_MA_5_3_each_ability_once_a_turn() -> None:
    st = pos(dice=[(1, 2, 3)], acquired=("RECORDING",), skip_experience=True)
    play(st, "REC 1 W1")
    assert not any(a.startswith("REC") for a in legal(st))
    assert rule_of(st, "REC 2 W2") == "MA-5.3"


def test_MA_5_4_only_positioning_one_and_plotting_one_at_the_start() -> None:
    st = pos(dice=[(1, 2, 3)], skip_experience=True)
    kinds = {a.split()[0] for a in legal(st)}
    assert kinds == {"POS1", "end"}
    assert rule_of(st, "POS2 2") == "MA-6.7"


# ---------------------------------------------------------------- MA-6
def test_MA_6_1_items_in_any_order() -> None:
    st = pos(dice=[(2, 2, 2)])
    play(st, "fill W1.3")  # the last item of the week-1 article first
    assert st.seats[0].items >> item(st.game, "W1.3") & 1


def test_MA_6_2_articles_close_when_their_week_ends() -> None:
    st = pos(dice=[(4, 4, 4)], week=2, acquired=("RECORDING",))
    assert "fill W1.1" not in legal(st) and "fill W2.1" in legal(st)
    assert rule_of(st, "fill W1.1") == "MA-4.4"
    play(st, "done")
    assert not any(a.endswith("W1") for a in legal(st))
    assert rule_of(st, "REC 4 W1") == "MA-7.11"


def test_MA_6_3_filled_points_stay_filled_and_are_not_filled_twice() -> None:
    st = pos(dice=[(2, 3, 5)], points=("2,3", "1.5,2.5"), skip_experience=True)
    before = st.seats[0].pts
    play(st, "POS1 2 3", "PLOT1 5 r0")
    s = st.seats[0]
    assert s.pts & before == before and (s.pts & ~before).bit_count() == 3


def test_MA_6_4_a_star_is_spent_before_anything_else() -> None:
    st = pos(dice=[(2, 3, 5)], skip_experience=True)
    play(st, "POS1 2 3", "PLOT1 5 r0")  # 1.5,2.5 is a star
    s = st.seats[0]
    assert s.pstar == 1 and "end turn" not in legal(st)
    assert all(st.c.items[st.game.parse_action(a).a].kind == "S"  # type: ignore[attr-defined]
               for a in legal(st))
    assert rule_of(st, "end turn") == "MA-6.4"
    play(st, "fill MATH.3")
    assert s.pstar == 0 and "end turn" in legal(st)


def test_MA_6_4_ruling_with_no_star_item_left_the_spend_is_lost() -> None:
    g = game()
    stars = [it.label for it in g.compiled.items if it.kind == "S"]
    st = position(g, dice=[(2, 3, 5)], items=stars, skip_experience=True)
    play(st, "POS1 2 3", "PLOT1 5 r0")
    assert st.seats[0].pstar == 0 and "end turn" in legal(st)
    assert st.score_breakdown()[0]["stars"] == 1


def test_MA_6_5_squares_are_spent_at_once_and_may_be_split() -> None:
    st = pos(dice=[(2, 2, 6)], day="SUN", skip_experience=True,
             points=("2,2", "2,1.5", "2,2.5"))
    play(st, "POS1 2 2", "PLOT1 6 r0")  # both columns: four squares close
    s = st.seats[0]
    assert s.psq == 4 and (s.sq).bit_count() == 4
    assert s.pstar == 1  # 1.5,2.5 is a star: paid first
    play(st, "fill MATH.3")
    q1 = [a for a in legal(st) if st.c.items[st.game.parse_action(a).a].value == 1]  # type: ignore[attr-defined]
    play(st, q1[0])
    assert s.psq == 3
    while s.psq:
        opts = legal(st)
        assert "end turn" not in opts
        play(st, opts[0])
    assert "end turn" in legal(st)


def test_MA_6_5_ruling_what_cannot_be_paid_is_lost() -> None:
    g = game()
    qs = [it.label for it in g.compiled.items if it.kind == "Q" and it.value == 1]
    st = position(g, dice=[(1, 2, 2)], items=qs, skip_experience=True,
                  points=("2,1.5", "1.5,1.5", "1.5,2"))
    play(st, "POS1 2 2", "PLOT1 1 r0")  # the centre closes one square
    s = st.seats[0]
    assert s.sq.bit_count() == 1 and st.score_breakdown()[0]["region"] == 1
    assert s.psq == 0 and "end turn" in legal(st)  # no open 1-squares item: lost


def test_MA_6_6_ruling_star_before_squares() -> None:
    st = position(game(), dice=[(1, 2, 6)], week=4, points=("2,1", "2,1.5"),
                  skip_experience=True)
    play(st, "POS1 2 1", "PLOT1 6 r0")
    s = st.seats[0]
    assert s.pstar == 1 and s.psq == 2
    kinds = {st.c.items[st.game.parse_action(a).a].kind for a in legal(st)}  # type: ignore[attr-defined]
    assert kinds == {"S"}


def test_MA_6_7_acquired_ability_is_usable_in_the_same_turn() -> None:
    g = game()
    last = g.compiled.items[max(i for i in range(g.compiled.nitems)
                                if g.compiled.items[i].group == group(g, "POSITIONING II"))]
    others = [it.label for it in g.compiled.items
              if it.group == last.group and it.index != last.index]
    assert last.kind == "E" and last.value <= 4
    st = position(g, dice=[(4, 4, 5)], items=others)
    play(st, f"fill {last.label}")
    s = st.seats[0]
    assert s.acq >> group(g, "POSITIONING II") & 1
    if s.phase == XP:
        play(st, "done")
    assert "POS2 4" in legal(st)
