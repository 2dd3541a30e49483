"""SS-5 damage, SS-6 destroying cards, SS-8 Dark Planets, SS-9 isolation."""

from __future__ import annotations

import json

import pytest

from nightsky.games.shooting_star.constants import DARK_LEVEL
from nightsky.games.shooting_star.events import Capture, Destroy, Isolated, Resolve
from tests.games.shooting_star.helpers import build_position, cell, codes, planet_at, play

ALL2 = ["2 2 2 2", "2 2 2 2", "2 2 2 D"]


def _levels(s):
    return [s.lvl[c] for c in range(s.g.ncells)]


def test_SS_5_1_and_SS_5_2_each_blast_takes_one_level_level4_flips() -> None:
    s = build_position(["2 2 2 2", "4 2 4 2", "2 2 2 D"], players=2)
    p = s.pl[cell(s, 1, 2)]
    play(s, (0, "P6@2,2"), (1, "P7@4,3"))
    assert planet_at(s, 1, 2) == (s.g.p_code[p], 3) and planet_at(s, 3, 2)[1] == 3
    assert s.conq[0] == []


def test_SS_5_3_level3_captured_and_replaced_from_deck() -> None:
    s = build_position(["2 2 2 2", "3 2 2 2", "2 2 2 D"], players=2, deck=["p05", "p06"])
    taken = s.pl[cell(s, 1, 2)]
    play(s, (0, "P6@2,2"), (1, "P7@4,3"))
    assert s.conq[0][0] == taken
    assert planet_at(s, 1, 2) == ("p05", 2)
    assert [s.g.p_code[p] for p in reversed(s.deck)] == ["p06"]


def test_SS_5_4_and_SS_5_5_level2_flips_level1_captured_space_empty() -> None:
    s = build_position(["2 2 2 2", "2 2 1 2", "2 2 2 D"], players=2)
    one = s.pl[cell(s, 3, 2)]
    play(s, (0, "P6@2,2"), (1, "P7@4,3"))
    assert planet_at(s, 1, 2)[1] == 1
    assert planet_at(s, 3, 2) == (None, 0) and s.conq[0] == [one]


@pytest.mark.parametrize(
    ("level", "after", "captured"), [(4, 2, 1), (3, 1, 1), (2, 0, 1), (1, 0, 1)]
)
def test_SS_5_6_priority7_takes_two_levels(level: int, after: int, captured: int) -> None:
    s = build_position(["2 2 2 2", f"2 {level} 2 2", "2 2 2 D"], players=2)
    play(s, (0, "P7@2,2"), (1, "P7@4,3"))
    assert planet_at(s, 2, 2)[1] == after
    assert len(s.conq[0]) == captured


def test_SS_5_7_empty_deck_leaves_a_hole() -> None:
    s = build_position(["2 2 2 2", "3 2 2 2", "2 2 2 D"], players=2, deck=[])
    play(s, (0, "P6@2,2"), (1, "P7@4,3"))
    assert planet_at(s, 1, 2) == (None, 0) and len(s.conq[0]) == 1
    assert len(s.alive) == 11


def test_SS_5_8_off_grid_and_empty_spaces_hit_nothing() -> None:
    s = build_position(["2 2 2 2", "2 . 2 2", "2 2 2 D"], players=2)
    before = _levels(s)
    play(s, (0, "P2@1,1"), (1, "P7@4,3"))  # P2 at the corner: only 2,1 and 1,2 are on the grid
    after = _levels(s)
    changed = [c for c in range(12) if before[c] != after[c]]
    assert changed == [cell(s, 2, 1), cell(s, 1, 2)]
    assert s.g.blast[1][cell(s, 1, 1)] == (cell(s, 2, 1), cell(s, 1, 2))


def test_SS_5_9_a_pattern_damages_its_own_planet() -> None:
    s = build_position(ALL2, players=2)
    play(s, (0, "P4@2,2"), (1, "P7@4,3"))  # Pillar: above, own planet, below
    assert [planet_at(s, 2, r)[1] for r in (1, 2, 3)] == [1, 1, 1]


def test_SS_5_10_targets_in_pattern_order() -> None:
    s = build_position(["2 2 2 2", "3 2 3 2", "2 2 2 D"], players=2, deck=["p07", "p08"])
    play(s, (0, "P6@2,2"), (1, "P7@4,3"))  # Twin Lance: left first, then right
    assert planet_at(s, 1, 2) == ("p07", 2) and planet_at(s, 3, 2) == ("p08", 2)


def test_SS_6_1_blasting_a_card_destroys_it_and_spares_its_planet() -> None:
    s = build_position(["2 2 2 2", "1 4 3 2", "2 2 2 D"], players=2)
    play(s, (0, "P6@2,2"), (1, "P2@3,2"))
    assert codes(s, s.debris[0]) == ["yellow:P2", "red:P6"]
    assert planet_at(s, 3, 2)[1] == 3 and planet_at(s, 1, 2) == (None, 0)
    assert len(s.conq[0]) == 1


def test_SS_6_2_destroyed_cards_never_resolve_resolved_ones_are_gone() -> None:
    s = build_position(ALL2, players=2)
    play(s, (0, "P6@2,2"), (1, "P2@3,2"))
    assert [e.seat for e in s.events if type(e) is Resolve] == [0]
    assert planet_at(s, 4, 2)[1] == 2 and planet_at(s, 3, 1)[1] == 2  # P2 never fired
    t = build_position(ALL2, players=2)
    play(t, (0, "P8@2,2"), (1, "P6@3,2"))
    # P8 resolved and left 2,2 before P6 fired, so P6 damages the planet there
    assert planet_at(t, 2, 2)[1] == 1 and codes(t, t.debris[1]) == ["yellow:P6"]


def test_SS_8_1_cards_may_go_on_dark_planets() -> None:
    s = build_position(ALL2, players=2)
    assert s.g.parse_action("P1@4,3") in s.legal_actions(0)
    play(s, (0, "P1@4,3"))
    assert s.cov[cell(s, 4, 3)] == 0


def test_SS_8_2_dark_planets_take_no_damage() -> None:
    s = build_position(["2 2 2 2", "2 2 2 2", "2 2 2 D"], players=2)
    play(s, (0, "P6@3,3"), (1, "P7@4,3"))
    assert planet_at(s, 4, 3)[1] == DARK_LEVEL and planet_at(s, 2, 3)[1] == 1


def test_SS_8_3_dark_planet_captured_only_by_isolation() -> None:
    s = build_position([". . . 2", ". 1 D 2", ". . . D"], players=2)
    play(s, (0, "P6@3,2"), (1, "P7@4,3"))
    # P6 on the Dark Planet captures the Level 1 at 2,2 and flips 4,2; the Dark Planet
    # still touches 4,2, so it stays: damage alone never takes a Dark Planet
    assert planet_at(s, 3, 2)[1] == DARK_LEVEL and planet_at(s, 4, 2)[1] == 1
    t = build_position([". . . .", ". 1 D .", ". 2 . ."], players=2)
    dark = t.pl[cell(t, 3, 2)]
    play(t, (0, "P7@2,2"), (1, "S@2,3"))
    assert dark in t.debris[0] and dark not in t.conq[0]
    assert planet_at(t, 3, 2) == (None, 0)


def test_SS_9_1_and_SS_9_2_isolated_planets_go_to_debris() -> None:
    s = build_position(["2 2 . .", "1 . . .", "2 2 2 D"], players=2)
    # 1,1-2,1 hang on 1,2 alone; capturing 1,2 isolates nothing with a neighbour left
    play(s, (0, "P7@1,2"), (1, "P7@4,3"))
    assert planet_at(s, 1, 1)[1] == 2  # still touches 2,1
    t = build_position(["2 . . .", "1 . . .", "2 2 2 D"], players=2)
    top = t.pl[cell(t, 1, 1)]
    play(t, (0, "P7@1,2"), (1, "P7@4,3"))
    assert planet_at(t, 1, 1) == (None, 0)
    assert top in t.debris[0] and top not in t.conq[0]
    assert Isolated("isolated", 0, top, cell(t, 1, 1)) in t.events


def test_SS_9_3_card_on_an_isolated_planet_stays_and_resolves() -> None:
    s = build_position(["2 2 2 D", "1 . . 2", "2 . 2 2"], players=2)
    iso = s.pl[cell(s, 1, 3)]
    play(s, (0, "P8@1,1"), (1, "P3@1,3"))
    assert iso in s.debris[0]  # seat 0 isolated 1,3 by capturing the Level 1 at 1,2
    assert Resolve("resolve", 1, 2, cell(s, 1, 3)) in s.events  # seat 1's P3 still fired
    assert planet_at(s, 3, 3)[1] == 1


def test_SS_4_events_are_typed_records() -> None:
    s = build_position(["2 2 2 2", "1 4 3 2", "2 2 2 D"], players=2)
    play(s, (0, "P6@2,2"), (1, "P2@3,2"))  # rulebook example 2
    assert [type(e) for e in s.events] == [Resolve, Capture, Destroy]  # blast order: W, E
    fired, captured, destroyed = s.events
    assert (fired.seat, fired.card, fired.cell) == (0, 5, cell(s, 2, 2))
    assert (destroyed.seat, destroyed.victim, destroyed.card) == (0, 1, 1)
    assert (captured.seat, captured.cell, captured.level) == (0, cell(s, 1, 2), 1)
    # kinds differ, so records of different kinds with equal fields never compare equal
    assert Isolated("isolated", 0, 1, 2) != Resolve("resolve", 0, 1, 2)


def test_SS_4_views_tell_the_last_resolution_with_typed_values() -> None:
    s = build_position(["2 2 2 2", "1 4 3 2", "2 2 2 D"], players=2)
    play(s, (0, "P6@2,2"), (1, "P2@3,2"))
    told = s.view(None)["last_resolution"]
    assert told == [e._asdict() for e in s.events]
    assert told[0] == {"kind": "resolve", "seat": 0, "card": 5, "cell": cell(s, 2, 2)}
    assert all(type(v) is int for e in told for k, v in e.items() if k != "kind")
    assert json.loads(json.dumps(told)) == told
