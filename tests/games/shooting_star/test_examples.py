"""The rulebook's worked examples 1-4, as scenario tests of the tutorials."""

from __future__ import annotations

import pytest

from nightsky.core import load_game
from tests.games.shooting_star.helpers import codes, planet_at

TUTORIALS = {t.name: t for t in load_game("shooting-star").tutorials()}


def run(name: str):
    t = TUTORIALS[name]
    s = t.build()
    before = s.clone()
    for seat, text in t.steps:
        s.apply(s.game.parse_action(text), seat)
    return before, s


def test_tutorials_are_the_four_examples() -> None:
    assert sorted(TUTORIALS) == ["example-1", "example-2", "example-3", "example-4"]
    for t in TUTORIALS.values():
        assert t.text and t.steps


def test_example_1_SS_5_1_effects_of_a_card() -> None:
    before, s = run("example-1")
    assert planet_at(before, 2, 3)[1] == 4  # the card lies on a Level 4 at the bottom edge
    lv3, lv1 = before.pl[s.g.cell_of(1, 3)], before.pl[s.g.cell_of(2, 2)]
    assert planet_at(s, 1, 3) == ("p01", 2)  # Level 3 captured, a Level 2 takes its place
    assert planet_at(s, 3, 3)[1] == 1  # Level 2 flipped
    assert planet_at(s, 2, 2) == (None, 0)  # Level 1 captured, hole left
    assert sorted(s.conq[0]) == sorted([lv3, lv1])
    assert planet_at(s, 2, 3)[1] == 4  # Starburst does not hit its own planet
    assert codes(s, s.debris[0]) == ["red:P2"]


def test_example_2_SS_6_1_card_destroys_card() -> None:
    before, s = run("example-2")
    assert codes(s, s.debris[0]) == ["yellow:P2", "red:P6"]
    assert planet_at(s, 3, 2) == planet_at(before, 3, 2)
    assert s.conq[0] == [before.pl[s.g.cell_of(1, 2)]] and planet_at(s, 1, 2) == (None, 0)
    assert s.conq[1] == [] and s.debris[1] == []


def test_example_3_SS_7_3_shield_captures() -> None:
    before, s = run("example-3")
    assert codes(s, s.conq[2]) == ["red:P6", "green:S"]
    assert planet_at(s, 1, 2) == planet_at(before, 1, 2)  # the Level 1 was protected
    assert s.conq[0] == [] and "red:P6" not in codes(s, s.debris[0])


def test_example_4_SS_9_1_isolated_planet() -> None:
    before, s = run("example-4")
    lone = before.pl[s.g.cell_of(4, 2)]
    assert planet_at(s, 1, 2) == ("p01", 2)
    assert planet_at(s, 3, 2) == (None, 0) and planet_at(s, 4, 2) == (None, 0)
    assert len(s.conq[3]) == 2 and lone in s.debris[3]
    assert codes(s, s.debris[3]) == ["blue:P6", s.g.p_code[lone]]


@pytest.mark.parametrize("name", ["example-1", "example-2", "example-3", "example-4"])
def test_tutorial_positions_render_and_conserve(name: str) -> None:
    before, s = run(name)
    for st in (before, s):
        assert "Shooting Star" in st.game.ui.render(st, 0)
        seen = [x for items in st.census().values() for x in items]
        assert len(seen) == len(set(seen)) == 49 + 45 + 15 + 1
