"""MA-9 (game end, score, solo ranks) and MA-10 (simultaneous multiplayer)."""

from __future__ import annotations

import random

import pytest

from nightsky.core.errors import NotYourTurnError
from nightsky.core.game import CHANCE
from nightsky.games.mihi_anguli.constants import FINISHED, WAIT, rank_name

from .helpers import B, game, legal, play, position


def test_MA_9_1_week_six_begins_the_last_turn_which_is_finished() -> None:
    st = position(game(), dice=[(3, 5, 6)], week=5, day="FRI")
    s = st.seats[0]
    assert s.week == 6 and not st.is_terminal()  # the last turn is played out
    play(st, "done") if st.seats[0].phase == 3 else None
    assert "POS1 5 6" in legal(st)
    play(st, "end turn")
    assert s.phase == FINISHED and st.is_terminal() and st.current_players() == ()
    assert st.winners() == [0]


@pytest.mark.parametrize(("score", "rank"), [
    (0, "Messier"), (9, "Messier"), (10, "Ptolomy"), (19, "Ptolomy"), (20, "Brahe"),
    (25, "Copernicus"), (30, "Herschel"), (35, "Kepler"), (39, "Kepler"), (40, "Hubble"),
    (45, "Hipparchus"), (49, "Hipparchus"), (50, "Galileo"), (80, "Galileo")],
    ids=lambda v: f"MA-9.2-{v}")
def test_MA_9_2_solo_ranks(score: int, rank: str) -> None:
    assert rank_name(score) == rank


def test_MA_9_2_render_names_the_rank_in_solo() -> None:
    st = position(game(), points=("1,1",))
    assert "(Messier)" in st.game.ui.render(st, 0)


def _square_points(x: float, y: float) -> list[str]:
    """The four corners of the square whose top-left corner is (x, y)."""
    def f(v: float) -> str:
        return f"{v:g}"

    return [f"{f(x)},{f(y)}", f"{f(x + 0.5)},{f(y)}", f"{f(x)},{f(y + 0.5)}",
            f"{f(x + 0.5)},{f(y + 0.5)}"]


def test_MA_9_3_region_counts_squares_touching_by_side_or_corner() -> None:
    pts = _square_points(1, 1) + _square_points(1.5, 1.5) + _square_points(4, 4)
    st = position(game(), points=pts)
    s = st.seats[0]
    assert s.sq.bit_count() == 3
    assert B.largest_region(s.sq) == 2 and st.score_breakdown()[0]["region"] == 2


def test_MA_9_3_squares_only_sharing_no_corner_are_apart() -> None:
    pts = _square_points(1, 1) + _square_points(2.5, 1)
    st = position(game(), points=pts)
    assert st.seats[0].sq.bit_count() == 2 and st.score_breakdown()[0]["region"] == 1


def test_MA_9_4_stars_count_without_squares() -> None:
    st = position(game(), points=("1.5,2.5", "0.5,3", "3,3"))
    b = st.score_breakdown()[0]
    assert b["stars"] == 2 and b["region"] == 0 and b["total"] == 2


def test_MA_9_5_total_adds_circled_article_points_and_bonuses() -> None:
    g = game()
    st = position(g, acquired=("HEADHUNTER",), points=("1.5,2.5",),
                  items=("W1.1", "W1.2", "W1.3"))
    st.seats[0].claimed = 1  # week 1's 4 points circled
    b = st.score_breakdown()[0]
    assert (b["articles"], b["headhunter"], b["stars"]) == (g.compiled.article_points[0], 1, 1)
    assert b["total"] == b["articles"] + 1 + 1 == st.scores()[0]


# ---------------------------------------------------------------- MA-10
def test_MA_10_1_every_seat_acts_at_once_and_the_roll_waits_for_all() -> None:
    g = game(3)
    st = g.new_initial_state()
    st.apply(g.roll(((2, 3, 5), (1, 1, 4), (6, 6, 6))), CHANCE)
    assert st.current_players() == (0, 1, 2)
    for p in (0, 1, 2):
        if st.seats[p].phase == 3:
            play(st, "done", seat=p)
    play(st, "end turn", seat=1)
    assert st.current_players() == (0, 2)
    with pytest.raises(NotYourTurnError):
        st.apply(g.parse_action("end turn"), 1)
    play(st, "end turn", seat=0)
    play(st, "end turn", seat=2)
    assert st.current_players() == (CHANCE,)


def test_MA_10_2_a_finished_seat_waits_without_dice() -> None:
    g = game(2)
    st = position(g, dice=[(3, 5, 6), (1, 1, 1)], week=5, day="FRI", seat=0)
    play(st, "done", seat=0) if st.seats[0].phase == 3 else None
    play(st, "end turn", seat=0)
    assert st.seats[0].phase == FINISHED and not st.is_terminal()
    play(st, "done", seat=1) if st.seats[1].phase == 3 else None
    play(st, "end turn", seat=1)
    assert st.seats[1].phase == WAIT
    outs = st.sample_chance(random.Random(0))
    assert str(outs).startswith("roll -/")
    assert not st.is_legal_chance(g.roll(((1, 2, 3), (1, 2, 3))))
    st.apply(outs, CHANCE)
    assert st.current_players() == (1,)


def test_MA_10_3_all_sheets_are_public() -> None:
    g = game(2)
    st = g.new_initial_state()
    st.apply(g.roll(((2, 3, 5), (1, 4, 4))), CHANCE)
    v0, v1, vn = st.view(0), st.view(1), st.view(None)
    assert v0["sheets"] == v1["sheets"] == vn["sheets"]
    assert v0["sheets"][1]["dice"] == [1, 4, 4]
    assert st.resample(0, random.Random(1)).view(0) == v0


def test_MA_10_4_unique_completions_score_one_each() -> None:
    g = game(2)
    st = position(g, acquired=("RECORDING", "MENTOR"), items=("W1.1", "W1.2", "W1.3"), seat=0)
    s1 = st.seats[1]
    for name in ("MENTOR",):
        gi = g.compiled.group_names.index(name)
        s1.items |= g.compiled.group_mask[gi]
        s1.acq |= 1 << gi
    b = st.score_breakdown()
    assert b[0]["unique"] == 2  # RECORDING and the week-1 article; MENTOR is shared
    assert b[1]["unique"] == 0
    solo = position(game(1), acquired=("RECORDING",))
    assert solo.score_breakdown()[0]["unique"] == 0


def test_MA_10_5_ties_go_to_stars_then_are_shared() -> None:
    g = game(2)
    st = position(g, points=("1.5,2.5",), seat=0)
    st.seats[1].claimed = 0
    for s in st.seats:
        s.week, s.phase = 6, FINISHED
    st.seats[1].pts = 0
    sq_pts = _square_points(4, 4)
    for p in sq_pts:
        from .helpers import point

        st.seats[1].pts |= 1 << point(p)
    st.seats[1].sq = sum(1 << q for q, c in enumerate(B.SQ_CORNERS) if c & ~st.seats[1].pts == 0)
    assert st.scores() == [1, 1]
    assert st.winners() == [0]  # one star against none
    st.seats[0].pts = st.seats[1].pts
    st.seats[0].sq = st.seats[1].sq
    assert st.winners() == [0, 1]
