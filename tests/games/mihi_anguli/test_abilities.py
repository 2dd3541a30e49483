"""MA-7 abilities and MA-8 supporters."""

from __future__ import annotations

import pytest

from nightsky.core.errors import IllegalActionError
from nightsky.games.mihi_anguli.constants import START, XP

from .helpers import B, filled, game, item, legal, play, point, pos, position


def rule_of(st, notation: str, seat: int = 0) -> str | None:
    with pytest.raises(IllegalActionError) as exc:
        st.apply(st.game.parse_action(notation), seat)
    return exc.value.rule


def new_points(st, before: int) -> set[str]:
    s = st.seats[0]
    return {B.point_name(q) for q in range(B.NPTS) if (s.pts & ~before) >> q & 1}


# ---------------------------------------------------------------- MA-7
def test_MA_7_0_no_positioning_at_a_full_block_and_no_empty_plot() -> None:
    block = [B.point_name(q) for q in range(B.NPTS) if B.BLOCK[B.major(2, 3)] >> q & 1]
    st = pos(dice=[(2, 3, 5)], points=block, skip_experience=True)
    assert "POS1 2 3" not in legal(st) and "POS1 3 2" in legal(st)
    assert rule_of(st, "POS1 2 3") == "MA-7.0"
    # Positioned at 2,5 with its corners and centre filled, a 3 (diagonal) would fill nothing.
    st = pos(dice=[(1, 2, 5)], points=("2,5", "1.5,4.5", "2.5,5.5"), skip_experience=True)
    play(st, "POS1 2 5")
    assert "PLOT1 1 r0" not in legal(st)


def test_MA_7_0_positioning_needs_a_plotting_die_left() -> None:
    st = pos(dice=[(2, 3, 5)], acquired=("RECORDING",), skip_experience=True)
    play(st, "REC 5 W1")
    assert not any(a.startswith("POS1") for a in legal(st))


def test_MA_7_1_plotting_needs_a_position_which_serves_one_plot() -> None:
    st = pos(dice=[(2, 3, 5)], acquired=("PLOTTING II",), skip_experience=True)
    assert rule_of(st, "PLOT1 5 r0") == "MA-7.1"
    play(st, "POS1 2 3", "PLOT1 5 r0", "fill MATH.3")
    assert st.seats[0].pos == -1
    assert not any(a.startswith("PLOT") for a in legal(st))


def test_MA_7_1_ruling_an_unplotted_position_is_lost_at_the_end_of_the_turn() -> None:
    st = pos(dice=[(2, 3, 5)], skip_experience=True)
    play(st, "POS1 2 3")
    assert st.seats[0].pos == point("2,3")
    play(st, "end turn")
    assert st.seats[0].pos == -1


def test_MA_7_2_positioning_one_takes_either_order() -> None:
    st = pos(dice=[(1, 4, 6)], skip_experience=True)
    play(st, "POS1 4 1")
    assert st.seats[0].pos == point("4,1")


def test_MA_7_3_positioning_two_uses_one_die_twice_as_coordinate() -> None:
    st = pos(dice=[(1, 4, 6)], acquired=("POSITIONING II",), skip_experience=True)
    assert {a for a in legal(st) if a.startswith("POS2")} == {"POS2 1", "POS2 4", "POS2 6"}
    play(st, "POS2 4")
    assert st.seats[0].pos == point("4,4") and st.seats[0].dice == (1, 6)


def test_MA_7_4_positioning_three_any_major_on_that_line() -> None:
    st = pos(dice=[(3, 4, 6)], acquired=("POSITIONING III",), skip_experience=True)
    play(st, "POS3 3")
    targets = {a[3:] for a in legal(st)}
    assert targets == {f"3,{y}" for y in range(1, 7)} | {f"{x},3" for x in range(1, 7)}
    assert len(targets) == 11
    play(st, "at 6,3")
    assert st.seats[0].pos == point("6,3")


def test_MA_7_5_positioning_four_any_major_for_two_dice() -> None:
    st = pos(dice=[(1, 1, 6)], acquired=("POSITIONING IV",), skip_experience=True)
    play(st, "POS4 1 1")
    assert len(legal(st)) == 36 and st.seats[0].dice == (6,)
    play(st, "at 5,2", "PLOT1 6 r0")
    assert new_points(st, 0) == {"4.5,1.5", "4.5,2", "4.5,2.5", "5.5,1.5", "5.5,2", "5.5,2.5"}


def test_MA_7_7_plotting_two_with_a_six_fills_the_whole_ring() -> None:
    st = pos(dice=[(2, 3, 6)], acquired=("PLOTTING II",), skip_experience=True)
    play(st, "POS1 2 3", "PLOT2 6")
    s = st.seats[0]
    assert s.pts == B.RINGMASK[point("2,3")]


def test_MA_7_8_plotting_three_picks_die_points_of_the_ring_not_the_centre() -> None:
    st = pos(dice=[(3, 4, 4)], acquired=("PLOTTING III",), skip_experience=True)
    play(st, "POS1 4 4", "PLOT3 3")
    opts = legal(st)
    assert len(opts) == 8 and "at 4,4" not in opts
    play(st, "at 3.5,4", "at 4,3.5", "at 3.5,3.5")
    s = st.seats[0]
    assert s.sub == 0 and s.pts.bit_count() == 3 and s.pstar == 2  # 3.5,3.5 and 4,3.5 are stars
    assert filled(st, "4,4") == [False]


def test_MA_7_8_ruling_fewer_empty_points_than_the_die_fills_them_all() -> None:
    ring = [B.point_name(q) for q in B.ring_points(point("1,1"))][:6]
    st = pos(dice=[(1, 1, 6)], acquired=("PLOTTING III",), points=ring, skip_experience=True)
    play(st, "POS1 1 1", "PLOT3 6")
    assert len(legal(st)) == 2
    while st.seats[0].sub:
        play(st, legal(st)[0])
    assert st.seats[0].sub == 0 and st.seats[0].pts == B.RINGMASK[point("1,1")]


def test_MA_7_9_plotting_four_fills_the_block_and_closes_four_squares() -> None:
    st = pos(dice=[(2, 3, 3)], acquired=("PLOTTING IV", "POSITIONING II"),
             skip_experience=True, week=4)
    play(st, "POS2 3", "PLOT4 2 3")
    s = st.seats[0]
    assert s.pts == B.BLOCK[point("3,3")] and s.sq.bit_count() == 4
    assert s.dice == ()


def test_MA_7_10_plotting_five_any_non_star_point_without_positioning() -> None:
    st = pos(dice=[(2, 3, 5)], acquired=("PLOTTING V",), skip_experience=True)
    play(st, "PLOT5 2 5")
    opts = legal(st)
    nstars = st.c.star_mask.bit_count()
    assert len(opts) == B.NPTS - nstars and "at 1.5,2.5" not in opts and "at 3,3" in opts
    play(st, "at 0.5,6")
    assert filled(st, "0.5,6") == [True] and st.seats[0].dice == (3,)


def test_MA_7_11_recording_fills_the_leftmost_open_article_item() -> None:
    st = pos(dice=[(2, 3, 5)], week=2, acquired=("RECORDING",), items=("W3.1",),
             skip_experience=True)
    assert {a for a in legal(st) if a.startswith("REC 2")} == {
        "REC 2 W2", "REC 2 W3", "REC 2 W4", "REC 2 W5"}
    play(st, "REC 2 W3")
    s = st.seats[0]
    assert s.items >> item(st.game, "W3.2") & 1 and not s.items >> item(st.game, "W3.3") & 1


def test_MA_7_12_optimizing_fills_a_star_or_one_square_item() -> None:
    st = pos(dice=[(2, 3, 5)], acquired=("OPTIMIZING",), skip_experience=True)
    play(st, "OPT 5")
    kinds = {(st.c.items[st.game.parse_action(a).a].kind,  # type: ignore[attr-defined]
              st.c.items[st.game.parse_action(a).a].value) for a in legal(st)}  # type: ignore[attr-defined]
    assert kinds == {("S", 1), ("Q", 1)}
    play(st, "fill W1.1") if "fill W1.1" in legal(st) else play(st, legal(st)[0])
    assert st.seats[0].sub == 0


def test_MA_7_13_studying_spends_the_die_value_only() -> None:
    st = pos(dice=[(2, 3, 5)], acquired=("STUDYING",))
    s = st.seats[0]
    assert s.phase == XP and s.xp == 2
    play(st, "done", "STUDY 3")
    assert s.xp == 3
    assert "fill POS4.1" not in legal(st)  # a 4-item is beyond 3
    play(st, "fill W1.3")  # 2
    assert s.xp == 1
    play(st, "fill W1.1")
    assert s.xp == 0 and s.sub == 0


# ---------------------------------------------------------------- MA-8
def test_MA_8_1_promoter_on_a_lowest_one() -> None:
    st = pos(dice=[(1, 3, 5)], week=2, acquired=("PROMOTER",))
    s = st.seats[0]
    assert s.phase == START
    assert legal(st) == ["advance", "PROMOTER W2", "PROMOTER W3", "PROMOTER W4", "PROMOTER W5"]
    play(st, "PROMOTER W4")
    assert s.items >> item(st.game, "W4.1") & 1 and s.phase == XP
    st = pos(dice=[(2, 3, 5)], acquired=("PROMOTER",))
    assert st.seats[0].phase == XP  # lowest 2: nothing to decide


def test_MA_8_2_mentor_steps_back_a_day_first() -> None:
    st = pos(dice=[(3, 4, 5)], day="WED", acquired=("MENTOR",))
    play(st, "MENTOR")
    assert st.seats[0].day == 5  # Wed - 1 + 3 = Fri
    st = pos(dice=[(2, 4, 5)], day="WED", acquired=("MENTOR",))
    assert st.seats[0].phase == XP  # lowest 2: MENTOR cannot be used


def test_MA_8_2_back_to_saturday_and_over_sunday_is_no_week_end() -> None:
    st = pos(dice=[(3, 4, 5)], day="SUN", week=2, acquired=("MENTOR",),
             items=("W2.1", "W2.2", "W2.3", "W2.4"))
    play(st, "MENTOR")
    s = st.seats[0]
    assert s.week == 2 and s.day == 2 and s.phase == XP


def test_MA_8_3_researcher_not_in_the_turn_it_is_acquired() -> None:
    g = game()
    res = [it for it in g.compiled.items if it.group == g.compiled.group_names.index("RESEARCHER")]
    q1 = [it for it in res if it.kind == "Q" and it.value == 1]
    assert q1, "the designed RESEARCHER cost has a 1-squares item"
    others = [it.label for it in res if it.index != q1[0].index]
    # Week 1 ends on Tuesday; the reward point closes a square that pays RESEARCHER's last item.
    st = position(g, dice=[(3, 4, 6)], week=1, day="SAT", items=("W1.1", "W1.2", "W1.3", *others),
                  points=("2,2", "2.5,2", "2,2.5"))
    play(st, "claim map", "at 2.5,2.5", f"fill {q1[0].label}")
    s = st.seats[0]
    assert s.acq >> g.compiled.group_names.index("RESEARCHER") & 1
    assert s.xp == 3  # not 4
    play(st, "done", "end turn")
    st.apply(g.roll(((2, 2, 2),)), -1)
    assert s.xp == 2 + 1


@pytest.mark.parametrize("die,extra", [(2, 2), (3, 2), (4, 1), (5, 1), (1, 0), (6, 0)],
                         ids=["MA-8.4-2", "MA-8.4-3", "MA-8.4-4", "MA-8.4-5", "MA-8.4-1",
                              "MA-8.4-6"])
def test_MA_8_4_mathematician_adds_45_degree_turns_for_two_to_five(die: int, extra: int) -> None:
    def plots(acq: tuple[str, ...]) -> list[str]:
        d = (die, 1, 1) if die != 1 else (1, 2, 2)
        st = pos(dice=[d], acquired=acq, skip_experience=True, points=("0.5,3",))
        a = 1 if die != 1 else 2
        play(st, f"POS1 {a} {a}")
        return [x for x in legal(st) if x.startswith(f"PLOT1 {die} ")]

    assert len(plots(("MATHEMATICIAN",))) - len(plots(())) == extra
    if die == 4:
        st = pos(dice=[(4, 1, 1)], acquired=("MATHEMATICIAN",), skip_experience=True)
        play(st, "POS1 1 1", "PLOT1 4 r1")
        assert new_points(st, 0) == {"1,0.5", "1.5,1", "1,1.5", "0.5,1"}


def test_MA_8_4_no_45_degree_turn_without_mathematician() -> None:
    st = pos(dice=[(4, 1, 1)], skip_experience=True)
    play(st, "POS1 1 1")
    assert rule_of(st, "PLOT1 4 r1") == "MA-8.4"


def test_MA_8_5_coordinator_adds_the_major_point() -> None:
    st = pos(dice=[(2, 3, 5)], acquired=("COORDINATOR",), skip_experience=True)
    play(st, "POS1 3 5", "PLOT1 2 r0")
    assert new_points(st, 0) == {"3,5", "2.5,4.5", "3.5,5.5"}
    st = pos(dice=[(4, 4, 4)], acquired=("COORDINATOR", "PLOTTING III"), skip_experience=True)
    play(st, "POS1 4 4", "PLOT3 4")
    assert filled(st, "4,4") == [True]
    for _ in range(4):
        play(st, legal(st)[0]) if st.seats[0].sub else None
    assert st.seats[0].pts.bit_count() == 5


def test_MA_8_6_publisher_scores_articles_and_full_days() -> None:
    g = game()
    days = [it.label for it in g.compiled.items if it.label.startswith(("MON.", "TUE."))]
    arts = [it.label for it in g.compiled.items if it.label.startswith("W1.")]
    st = position(g, acquired=("PUBLISHER",), items=(*days, *arts, "WED.1"))
    assert st.score_breakdown()[0]["publisher"] == 1 + 3 * 2
    st = position(g, items=(*days, *arts))
    assert st.score_breakdown()[0]["publisher"] == 0


def test_MA_8_7_headhunter_counts_acquisitions_itself_included() -> None:
    st = position(game(), acquired=("HEADHUNTER", "RECORDING", "MENTOR"))
    assert st.score_breakdown()[0]["headhunter"] == 3
