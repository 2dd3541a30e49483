"""The SVG sheets: well-formed, every legal click drawn, the same picture for every seat's
secrets (Mihi Anguli has none: every sheet is public)."""

from __future__ import annotations

import random

import pytest

from nightsky.core import load_game
from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.actions import Move
from tests.support.svgcheck import check_setup, check_targets, ids_of, parse, playout


def _button(a: object) -> bool:
    return isinstance(a, Move) and a.kind in ("go", "done", "end")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_svg_targets_drawn_over_playouts(players: int) -> None:
    checked = 0
    kinds: set[str] = set()
    for seed in range(2):
        s = load_game("mihi-anguli", players=players).new_initial_state()
        rng = random.Random(seed)
        for st in playout(s, rng, max_steps=120 * players, every=2 * players + 1):
            if st.is_terminal():
                parse(st.game.ui.board_svg(st, None))
                continue
            # turns are simultaneous: check one acting seat each time, in turn
            checked += check_targets(st, _button, (rng.choice(st.current_players()),))
            kinds |= {a.kind for p in st.current_players() if p >= 0
                      for a in st.legal_actions(p) if isinstance(a, Move)}
    assert checked > 100
    assert {"fill", "pos1", "plot1"} <= kinds


def test_svg_the_viewers_sheet_is_clickable_the_others_are_pictures() -> None:
    s = load_game("mihi-anguli", players=3).new_initial_state()
    for _ in playout(s, random.Random(2), max_steps=40):
        pass
    for seat in range(3):
        ids = ids_of(parse(s.game.ui.board_svg(s, seat)))
        # every map point can be chosen ("at x,y" after POSITIONING III/IV, PLOTTING III...)
        assert {f"p{seat}-pt-{B.point_name(q)}" for q in range(B.NPTS)} <= ids
        assert {f"p{seat}-item-W1.1", f"p{seat}-ab-POS1", f"p{seat}-ab-STUDY",
                f"p{seat}-mentor", f"p{seat}-item-W5"} <= ids
        assert not any(i.startswith(f"p{q}-") for i in ids for q in range(3) if q != seat)
    # the spectator sees the same public sheets, seat 0's in front, nothing to click
    spectator = s.game.ui.board_svg(s, None)
    assert "Seat 0 (you)" not in spectator
    assert all(i.startswith("ns-") for i in ids_of(parse(spectator)))
    # every sheet is public: resampling changes nothing a seat sees
    r = s.resample(1, random.Random(0))
    assert r.game.ui.board_svg(r, 1) == s.game.ui.board_svg(s, 1)


def test_svg_draws_every_set_up_step() -> None:
    s = load_game("mihi-anguli", players=2).new_initial_state()
    assert check_setup(s, random.Random(3)) >= 1


def test_svg_targets_of_every_ability_and_supporter() -> None:
    """A sheet with every ability and supporter acquired (built by hand) offers every kind of
    action; each one's targets are drawn on the seat's sheet."""
    kinds: set[str] = set()
    for seed in range(2):
        s = load_game("mihi-anguli", players=1).new_initial_state()
        s.seats[0].acq = sum(1 << g for g in range(B.G_AB0, B.NGROUPS))
        rng = random.Random(seed)
        for st in playout(s, rng, max_steps=150, every=2):
            if st.is_terminal():
                continue
            check_targets(st, _button)
            kinds |= {a.kind for p in st.current_players() if p >= 0
                      for a in st.legal_actions(p) if isinstance(a, Move)}
    assert {"pos2", "pos3", "pos4", "plot2", "plot3", "plot4", "plot5", "rec", "opt",
            "study", "at", "mentor", "promote"} <= kinds, kinds


def test_svg_week_reward_buttons_are_drawn() -> None:
    from nightsky.games.mihi_anguli.constants import REWARD

    s = load_game("mihi-anguli", players=1).new_initial_state()
    for _ in playout(s, random.Random(1), max_steps=3):
        pass
    seat = s.seats[0]
    seat.phase, seat.aux = REWARD, 1  # the week-1 article was just finished (MA-3.4)
    assert {str(a) for a in s.legal_actions(0)} == {"claim points", "claim map"}
    assert check_targets(s, _button) == 2
    ids = ids_of(parse(s.game.ui.board_svg(s, 0)))
    assert {"p0-claim0", "p0-claim1"} <= ids
