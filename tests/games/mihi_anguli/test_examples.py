"""The rulebook's worked examples, as scenario tests of the tutorials."""

from __future__ import annotations

import pytest

from nightsky.games.mihi_anguli.constants import ABIL, REWARD, XP

from .helpers import filled, game, item, legal, play, point, pos, position

G = game()
TUT = {t.name: t for t in G.tutorials()}


def test_tutorials_are_the_rulebook_examples() -> None:
    assert set(TUT) == {"emily-week-end", "maddy-experience", "dave-star-squares",
                        "katie-option-1", "katie-option-2", "katie-option-3"}
    for t in TUT.values():
        st = t.build()
        for seat, n in t.steps:
            st.apply(G.parse_action(n), seat)  # every step is legal in order
        assert st.game.ui.render(st, 0)


def test_MA_3_3_MA_3_4_MA_3_5_emily_ends_week_two_and_circles_six() -> None:
    st = TUT["emily-week-end"].build()
    s = st.seats[0]
    assert s.day == 1 and s.phase == REWARD  # Friday + 3 = Monday, past Sunday
    assert legal(st) == ["claim points", "claim map"]
    play(st, "claim points")
    assert s.week == 3 and s.phase == XP
    assert st.score_breakdown()[0]["articles"] == 6


def test_MA_3_4_unpaid_article_gives_no_reward_but_the_week_still_turns() -> None:
    st = position(G, dice=[(3, 4, 6)], week=2, day="FRI", items=("W2.1", "W2.2", "W2.3"))
    s = st.seats[0]
    assert s.phase != REWARD and s.week == 3 and s.day == 1


def test_MA_4_1_MA_4_2_MA_4_4_maddy_has_five_experience() -> None:
    st = TUT["maddy-experience"].build()
    s = st.seats[0]
    assert s.phase == XP and s.day == 1 and s.xp == 2 + 2 + 1
    play(st, "fill POS2.1")
    assert s.xp == 2
    play(st, "fill W2.1", "fill FRI.1")
    assert s.xp == 0 and s.phase == ABIL  # nothing left: the step ends by itself
    for lab in ("POS2.1", "W2.1", "FRI.1"):
        assert s.items >> item(G, lab) & 1


def test_MA_6_4_MA_6_5_MA_6_6_dave_spends_star_then_two_squares() -> None:
    st = TUT["dave-star-squares"].build()
    s = st.seats[0]
    play(st, "POS1 2 1", "PLOT1 6 r0")
    assert filled(st, "1.5,1") == [True] and st.c.star_mask >> point("1.5,1") & 1
    assert s.pstar == 1 and s.psq == 2
    # The star comes first: only star items may be filled now.
    assert all(G.compiled.items[G.parse_action(a).a].kind == "S"  # type: ignore[attr-defined]
               for a in legal(st))
    play(st, "fill OPT.1")
    assert s.pstar == 0 and s.psq == 2
    assert "fill OPT.2" in legal(st) and "fill W4.2" in legal(st) and "end turn" not in legal(st)
    play(st, "fill OPT.2", "fill W4.2")
    assert s.psq == 0 and "end turn" in legal(st)
    assert st.score_breakdown()[0]["region"] == 2 and st.score_breakdown()[0]["stars"] == 1


def test_MA_7_2_MA_7_6_katie_has_three_options() -> None:
    st = TUT["katie-option-1"].build()
    pos1 = sorted(a for a in legal(st) if a.startswith("POS1"))
    assert pos1 == ["POS1 2 3", "POS1 2 5", "POS1 3 2", "POS1 3 5", "POS1 5 2", "POS1 5 3"]
    expect = {
        "katie-option-1": ["2,3", "1.5,2.5", "2.5,2.5", "1.5,3.5", "2.5,3.5"],
        "katie-option-2": ["2,5", "1.5,4.5", "2.5,5.5"],
        "katie-option-3": ["3.5,4.5", "2.5,5.5"],  # the 2 turned 90 degrees
    }
    for name, pts in expect.items():
        st = TUT[name].build()
        for seat, n in TUT[name].steps:
            st.apply(G.parse_action(n), seat)
        s = st.seats[0]
        got = sorted(q for q in range(169) if s.pts >> q & 1)
        assert got == sorted(point(p) for p in pts), name
        assert st.seats[0].pos == -1  # the position is used up by the plot


@pytest.mark.parametrize("die,turns", [(2, 2), (3, 2), (5, 1), (6, 2), (1, 1), (4, 1)],
                         ids=["MA-7.6-die2", "MA-7.6-die3", "MA-7.6-die5", "MA-7.6-die6",
                              "MA-7.6-die1", "MA-7.6-die4"])
def test_MA_7_6_plotting_one_offers_the_90_degree_turns(die: int, turns: int) -> None:
    st = pos(dice=[(die, 3, 4) if die not in (3, 4) else (die, 1, 6)], skip_experience=True)
    a, b = [d for d in st.seats[0].dice if d != die][:2]
    play(st, f"POS1 {a} {b}")
    assert len([x for x in legal(st) if x.startswith(f"PLOT1 {die} ")]) == turns


def test_MA_7_7_katie_option_three_with_plotting_two_fills_all_four_corners() -> None:
    st = TUT["katie-option-3"].build()
    st.seats[0].acq |= 1 << G.compiled.group_names.index("PLOTTING II")
    play(st, "POS1 3 5", "PLOT2 2")
    assert filled(st, "2.5,4.5", "3.5,4.5", "2.5,5.5", "3.5,5.5", "3,5") == [
        True, True, True, True, False]
