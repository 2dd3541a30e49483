"""SF-2 to SF-6: set-up, turns, drawing, building and solar systems."""

from __future__ import annotations

import random

import pytest

from nightsky.core import CHANCE
from tests.games.star_fire.helpers import act, deal, game, illegal, names, position


def _setup(players: int = 2):
    s = game(players).new_initial_state()
    for i in range(players):
        deal(s, f"S{i + 1}")
    return s


def test_SF_2_1_each_player_is_dealt_one_star() -> None:
    s = game(3).new_initial_state()
    outs = s.chance_outcomes()
    assert [str(o) for o, _ in outs] == [f"card S{i}" for i in range(1, 9)]
    assert all(abs(p - 1 / 8) < 1e-12 for _, p in outs)
    for i in range(3):
        deal(s, f"S{i + 2}")
    assert [names(s, h) for h in s.hands] == [["S2"], ["S3"], ["S4"]]
    assert s.current_players() == (0,)


def test_SF_2_2_other_stars_join_the_bodies_deck() -> None:
    s = _setup(2)
    v = s.view(None)
    assert v["decks"] == {
        "elements": {"count": 33, "bottom": []},
        "bodies": {"count": 24, "bottom": []},
        "starfire": {"count": 20, "bottom": []},
    }
    assert v["setup_stars"] == 0
    act(s, "keep")
    act(s, "keep")
    act(s, "draw bodies")
    outs = s.chance_outcomes()
    assert len(outs) == 24 and {str(o) for o, _ in outs} >= {"card S3", "card P1", "card M7"}


def test_SF_2_3_dealt_star_placed_before_play_or_built_free() -> None:
    s = _setup(2)
    act(s, "place")  # seat 0 places Sirius before play
    act(s, "keep")
    assert names(s, s.systems[0][0][0]) == ["S1"] and s.hands[0] == []
    assert s.current_players() == (0,)
    act(s, "draw elements")
    deal(s, "H1")
    act(s, "draw elements")
    deal(s, "H2")
    # Seat 1 builds its dealt Vega for free, as one action, with an empty nursery.
    assert s.nursery[1] == []
    act(s, "build S2 new")
    assert s.actions_left == 1 and names(s, s.systems[1][0][0]) == ["S2"]


def test_SF_2_3_free_star_privilege_ends_when_the_card_leaves_the_hand() -> None:
    g = game(2)
    s = position(g, hands={0: ["S1", "P1"]}, nursery={0: ["C1"]})
    s.free_star[0] = g.cards.by_name["S1"]
    act(s, "discard S1")
    assert s.free_star[0] == -1 and s.bottom[1] == [g.cards.by_name["S1"]]


def test_SF_2_4_zones_nursery_public_hand_hidden() -> None:
    s = position(game(2), hands={0: ["P3", "wormhole1"]}, nursery={0: ["H5"]})
    other = s.view(1)["players"][0]
    assert "hand" not in other and other["hand_backs"]["planets"] == 1
    assert other["hand_backs"]["star_fire"] == 1
    assert other["nursery"][0]["card"] == "H5"
    assert s.view(0)["players"][0]["hand"] == ["P3", "wormhole1"]


def test_SF_3_1_turns_go_clockwise_from_seat_0() -> None:
    s = _setup(3)
    for _ in range(3):
        act(s, "keep")
    assert s.current_players() == (0,)
    for seat in (0, 1, 2, 0):
        assert s.cur == seat
        act(s, "draw starfire")
        deal(s, s.C.name[sorted(s.pool[2])[0]])
        act(s, "draw starfire")
        deal(s, s.C.name[sorted(s.pool[2])[0]])


def test_SF_3_2_two_actions_any_order_repeats_allowed() -> None:
    s = position(
        game(2), hands={0: ["M6"]}, nursery={0: ["H1", "HM1"]}, systems={0: [(["S1"], [], [])]}
    )
    act(s, "draw bodies")
    deal(s, "P2")
    assert s.cur == 0 and s.actions_left == 1
    act(s, "build M6 at S1")
    assert s.cur == 1 and s.actions_left == 2


def test_SF_3_3_end_only_where_stopping_is_optional() -> None:
    s = position(game(2), hands={0: ["P2"]})
    assert "end" not in [str(a) for a in s.legal_actions()]
    illegal(s, "end", "SF-3.3")
    s.fusion_now = True
    s.actions_left = 3
    s._legal = None
    act(s, "draw starfire")
    deal(s, "gamma1")
    act(s, "draw starfire")
    deal(s, "gamma2")
    assert "end" in [str(a) for a in s.legal_actions()]
    act(s, "end")
    assert s.cur == 1


def test_SF_3_3_turn_ends_itself_when_nothing_is_legal() -> None:
    g = game(2)
    s = position(g, hands={0: ["P2"]}, decks={0: [], 1: ["P3"], 2: []})
    act(s, "draw bodies")
    deal(s, "P3")
    # No deck left, nothing payable, a discard needs 2 actions: the turn passes.
    assert s.cur == 1


def test_SF_4_1_elements_to_nursery_bodies_and_star_fire_to_hand() -> None:
    s = position(game(2))
    act(s, "draw elements")
    deal(s, "He6")
    act(s, "draw starfire")
    deal(s, "divine2")
    assert names(s, s.nursery[0]) == ["He6"] and names(s, s.hands[0]) == ["divine2"]


def test_SF_4_2_empty_deck_cannot_be_drawn() -> None:
    s = position(game(2), hands={0: ["P1"]}, decks={0: ["H1"], 1: ["P2"], 2: []})
    assert "draw starfire" not in [str(a) for a in s.legal_actions()]
    illegal(s, "draw starfire", "SF-4.2")


def test_SF_4_3_public_bottom_drawn_last_and_known() -> None:
    g = game(2)
    s = position(g, hands={0: ["P1", "P2"], 1: []}, decks={0: ["H1", "H2"], 1: ["M1"], 2: []})
    act(s, "discard P1")
    assert s.view(1)["decks"]["bodies"]["bottom"] == ["P1"]
    act(s, "draw bodies", 1)
    deal(s, "M1")  # the unseen card comes first
    act(s, "draw bodies", 1)  # then the public bottom, with no chance node
    assert s.current_players() == (0,)
    assert names(s, s.hands[1]) == ["M1", "P1"]
    assert s.view(0)["players"][1]["known_hand"] == ["P1"]


def test_SF_5_1_build_spends_the_cost_and_refuses_what_cannot_be_paid() -> None:
    s = position(
        game(2),
        hands={0: ["P3", "P6"]},
        nursery={0: ["H1", "C1", "HM1"]},
        systems={0: [(["S1"], [], [])]},
    )
    illegal(s, "build P6 at S1", "SF-5.1")  # Zephyr needs Helium
    illegal(s, "build P2 at S1", "SF-5.1")  # not in hand
    act(s, "build P3 at S1")
    assert s.nursery[0] == [] and s.systems[0][0][1] == [s.C.by_name["P3"]]


def test_SF_5_2_spent_cards_go_to_the_spent_pile() -> None:
    s = position(
        game(2),
        hands={0: ["M1"]},
        nursery={0: ["C2", "C3"]},
        systems={0: [(["S1"], [("P6", [])], [])]},
    )
    act(s, "build M1 on P6")
    assert names(s, s.spent) == ["C2"] and names(s, s.nursery[0]) == ["C3"]
    assert s.census()["spent"] == ["C2"]


@pytest.mark.parametrize("tutorial", ["split-double"], ids=["SF-5.3-split"])
def test_SF_5_3_double_card_split_across_two_builds(tutorial: str) -> None:
    g = game(2)
    t = g.tutorial(tutorial)
    s = t.build()
    seat, note = t.steps[0]
    act(s, note, seat)
    assert s.credit[0] == 1 and names(s, s.spent) == ["H5", "HM1"]
    seat, note = t.steps[1]
    act(s, note, seat)
    assert names(s, s.spent) == ["H5", "HM1", "C1"] and s.nursery[0] == []
    assert s.cur == 1 and s.credit == [0, 0, 0, 0, 0]


def test_SF_5_4_surplus_is_lost_at_the_end_of_the_turn() -> None:
    g = game(2)
    t = g.tutorial("surplus-lost")
    s = t.build()
    for seat, note in t.steps:
        act(s, note, seat)
        while s.current_players() == (CHANCE,):
            deal(s, "P1")
    assert s.cur == 1 and s.credit == [0, 0, 0, 0, 0]
    assert "H5" in names(s, s.spent) and "H5" not in names(s, s.nursery[0])
    # Europa would need the lost Hydrogen: next turn seat 0 cannot build it with C1 alone.
    act(s, "draw starfire", 1)
    deal(s, "gamma1")
    act(s, "draw starfire", 1)
    deal(s, "gamma2")
    illegal(s, "build M3 on P6", "SF-5.1")


def test_SF_5_5_payment_wastes_least_then_uses_fewest_cards() -> None:
    s = position(
        game(2),
        hands={0: ["P2"]},
        nursery={0: ["C1", "C2", "C5", "HM1", "HM5"]},
        systems={0: [(["S1"], [], [])]},
    )
    act(s, "build P2 at S1")  # Cinder: 2 Carbon, 1 Heavy Metal
    assert sorted(names(s, s.spent)) == ["C5", "HM1"]
    assert sorted(names(s, s.nursery[0])) == ["C1", "C2", "HM5"]


def test_SF_5_6_wild_cards_only_cover_what_is_missing() -> None:
    s = position(
        game(2),
        hands={0: ["M1", "M2"]},
        nursery={0: ["C1", "H1"]},
        systems={0: [(["S1"], [("P6", [])], [])]},
    )
    s.wild = 1 << s.C.by_name["H1"]
    act(s, "build M1 on P6")  # Luna: 1 Carbon -> C1, not the wild H1
    assert names(s, s.spent) == ["C1"]
    act(s, "build M2 on P6")  # Phobos: 1 Heavy Metal -> only the wild can pay
    assert names(s, s.spent) == ["C1", "H1"] and s.wild == 0


def test_SF_5_7_build_order_star_then_planet_then_moon() -> None:
    s = position(
        game(2),
        hands={0: ["P3", "M1", "S2"]},
        nursery={0: ["H5", "H1", "He5", "C5", "C1", "C2", "HM5"]},
    )
    illegal(s, "build P3 at S1", "SF-5.7")
    illegal(s, "build M1 on P3", "SF-6.4")
    act(s, "build S2 new")
    act(s, "build P3 at S2")
    act(s, "draw elements", 1)
    deal(s, "H2")
    act(s, "draw elements", 1)
    deal(s, "H3")
    act(s, "build M1 on P3")
    assert s.moons_on[s.C.by_name["P3"]] == [s.C.by_name["M1"]]


def test_SF_6_1_several_single_star_systems() -> None:
    s = position(
        game(2), hands={0: ["S2", "S3"]}, nursery={0: ["H5", "H6", "He5", "He6", "C1", "HM1"]}
    )
    act(s, "build S2 new")
    act(s, "build S3 new")
    assert len(s.systems[0]) == 2


def test_SF_6_2_linking_makes_binary_and_tertiary_at_most() -> None:
    s = position(
        game(2),
        hands={0: ["S2", "S3", "S4"]},
        nursery={0: ["H5", "H6", "H7", "He5", "He6", "C1", "HM1", "HM2"]},
        systems={0: [(["S1"], [], [])], 1: [(["S8"], [], [])]},
    )
    illegal(s, "build S2 link S8", "SF-6.2")  # not your system
    act(s, "build S2 link S1")
    act(s, "build S3 link S1")
    assert names(s, s.systems[0][0][0]) == ["S1", "S2", "S3"]
    act(s, "draw elements", 1)
    deal(s, "C2")
    act(s, "draw elements", 1)
    deal(s, "C3")
    illegal(s, "build S4 link S1", "SF-6.2")


def test_SF_6_3_linked_stars_share_the_system_for_bonuses() -> None:
    g = game(2)
    # Sirius (2 planets: +2) linked with Rigel (3 planets: +4).
    s = position(g, systems={0: [(["S1", "S4"], [("P1", []), ("P2", [])], [])]})
    assert s.score_breakdown()[0]["system_bonus"] == 2
    s = position(g, systems={0: [(["S1", "S4"], [("P1", []), ("P2", []), ("P3", [])], [])]})
    assert s.score_breakdown()[0]["system_bonus"] == 6
    # The same planets split over two systems earn neither star its bonus.
    s = position(g, systems={0: [(["S1"], [("P1", [])], []), (["S4"], [("P2", [])], [])]})
    assert s.score_breakdown()[0]["system_bonus"] == 0


def test_SF_6_4_moon_limit() -> None:
    s = position(
        game(2),
        hands={0: ["M1", "M2"]},
        nursery={0: ["C1", "HM1"]},
        systems={0: [(["S1"], [("P1", []), ("P2", [])], [])]},
    )
    illegal(s, "build M1 on P1", "SF-6.4")  # Ember holds no moon
    act(s, "build M1 on P2")
    illegal(s, "build M2 on P2", "SF-6.4")  # Cinder is full


def test_SF_6_5_hostless_moons_sit_in_a_system() -> None:
    s = position(
        game(2),
        hands={0: ["M6", "M1"]},
        nursery={0: ["H1", "HM1", "C1"]},
        systems={0: [(["S1"], [], [])]},
    )
    illegal(s, "build M1 at S1", "SF-6.5")
    act(s, "build M6 at S1")
    assert s.systems[0][0][2] == [s.C.by_name["M6"]]


@pytest.mark.parametrize("players", [2, 4])
def test_sf_5_5_affordable_agrees_with_payment(players: int) -> None:
    """The legal-move check of a build (``affordable``: sums only) says yes exactly when the
    automatic payment (SF-5.5) finds the cards, for every seat and every body's cost, at every
    step of random games (credit from split doubles, SF-5.3, included)."""
    g = game(players)
    costs = sorted({g.new_initial_state().C.cost[c] for c in g.body_set})
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            for seat in range(s.n):
                units, wild = s.units_held(seat)
                for cost in costs:
                    assert s.affordable(cost, units, wild) == (s.payment(seat, cost) is not None)
                    checked += 1
            p = s.current_players()[0]
            s.step(s.sample_chance(rng) if p == CHANCE else rng.choice(s.legal_actions(p)), p)
    assert checked > 1000
