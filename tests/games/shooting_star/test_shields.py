"""SS-7: Space Shields."""

from __future__ import annotations

from nightsky.games.shooting_star.events import Resolve, ShieldCapture
from tests.games.shooting_star.helpers import build_position, codes, planet_at, play

ROW3 = ["2 2 2 2 2 2", "1 4 2 2 D 2", "2 2 2 2 2 2"]


def test_SS_7_1_shield_acts_only_when_blasted() -> None:
    s = build_position(ROW3, players=3)
    play(s, (0, "S@3,2"), (1, "P7@5,2"), (2, "P8@6,1"))
    assert s.conq[0] == [] and codes(s, s.debris[0]) == ["red:S"]
    assert s.events and not any(type(e) is ShieldCapture for e in s.events)


def test_SS_7_2_whole_blast_void() -> None:
    s = build_position(ROW3, players=3)
    # red's Twin Lance hits yellow's card at 1,2 and green's Shield at 3,2
    play(s, (0, "P6@2,2"), (1, "P1@1,2"), (2, "S@3,2"))
    assert "yellow:P1" not in codes(s, s.debris[0])  # the blast never fired
    assert Resolve("resolve", 1, 0, s.g.cell_of(1, 2)) in s.events  # yellow's card still resolved
    assert planet_at(s, 2, 2)[1] == 4


def test_SS_7_3_shield_captures_the_card() -> None:
    s = build_position(ROW3, players=3)
    play(s, (0, "P6@2,2"), (1, "P7@5,2"), (2, "S@3,2"))
    assert codes(s, s.conq[2]) == ["red:P6", "green:S"]
    assert planet_at(s, 1, 2)[1] == 1 and planet_at(s, 3, 2)[1] == 2
    assert "red:P6" not in codes(s, s.debris[0])


def test_SS_7_4_several_shields_first_in_turn_order_captures() -> None:
    s = build_position(ROW3, players=3)
    play(s, (0, "P6@2,2"), (1, "S@1,2"), (2, "S@3,2"))
    assert codes(s, s.conq[1]) == ["red:P6", "yellow:S"]
    assert codes(s, s.debris[2]) == ["green:S"]  # stayed in play, then left at turn end
    t = build_position(ROW3, players=3, invader=2)
    play(t, (2, "S@3,2"), (0, "P6@2,2"), (1, "S@1,2"))
    assert codes(t, t.conq[2]) == ["red:P6", "green:S"] and t.conq[1] == []


def test_SS_7_5_shield_hit_by_two_cards() -> None:
    s = build_position(ROW3, players=3)
    # red's P6 (first) and yellow's P4 (later, its column covers 3,2) both reach green's Shield
    play(s, (0, "P6@2,2"), (1, "P4@3,3"), (2, "S@3,2"))
    assert codes(s, s.conq[2]) == ["red:P6", "green:S"]
    assert planet_at(s, 3, 2)[1] == 1  # the Shield had left: yellow's blast damages the planet
    assert planet_at(s, 3, 3)[1] == 1 and planet_at(s, 3, 1)[1] == 2


def test_SS_7_6_unused_shields_to_debris_at_turn_end() -> None:
    s = build_position(ROW3, players=3)
    play(s, (0, "P8@6,1"), (1, "S@4,1"), (2, "S@4,3"))
    assert codes(s, s.debris[1]) == ["yellow:S"] and codes(s, s.debris[2]) == ["green:S"]
    assert all(c < 0 for c in s.cov)
