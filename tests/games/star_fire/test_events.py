"""SF-14 and SF-15: Cosmic Events and the element reshuffle."""

from __future__ import annotations

from tests.games.star_fire.helpers import act, deal, game, illegal, names, position


def test_SF_14_1_event_acts_at_once_and_leaves_the_game() -> None:
    s = position(game(2), nursery={1: ["H1"]}, hands={0: ["P1"]})
    act(s, "draw elements")
    deal(s, "crunch")
    assert names(s, s.events_used) == ["crunch"] and s.nursery[1] == []
    assert "crunch" not in names(s, s.pool[0])
    assert s.census()["events_used"] == ["crunch"]


def test_SF_14_2_drawn_event_uses_the_draw_action() -> None:
    s = position(game(2), hands={0: ["P1"]})
    act(s, "draw elements")
    deal(s, "freeze")
    assert s.actions_left == 1 and s.nursery[0] == []


def test_SF_14_2_option_event_redraw() -> None:
    s = position(game(2, event_redraw=True), hands={0: ["P1"]})
    act(s, "draw elements")
    deal(s, "freeze")
    deal(s, "He3")  # the replacement draw
    assert s.actions_left == 1 and names(s, s.nursery[0]) == ["He3"]


def test_SF_14_3_nuclear_fusion_gives_a_round_of_third_actions() -> None:
    s = position(game(3))
    act(s, "draw elements")
    deal(s, "fusion")
    assert s.actions_left == 2  # the drawer's turn: 3 actions in all
    for _ in range(2):
        act(s, "draw bodies")
        deal(s, s.C.name[sorted(s.pool[1])[0]])
    for seat in (1, 2):
        assert s.cur == seat and s.actions_left == 3
        for _ in range(2):
            act(s, "draw starfire")
            deal(s, s.C.name[sorted(s.pool[2])[0]])
        act(s, "end")  # the third action is optional
    assert s.cur == 0 and s.actions_left == 2


def test_SF_14_4_nebula_bloom_two_elements_each_from_the_drawer() -> None:
    s = position(game(3), seat=1)
    act(s, "draw elements")
    deal(s, "bloom")
    order = [q for q, _ in s.view(None)["pending_draws"]]
    assert order == [1, 1, 2, 2, 0, 0]
    deal(s, "H1")
    deal(s, "rip")  # an Event during the bloom is discarded and replaced
    assert names(s, s.events_used) == ["bloom", "rip"]
    for c in ("H2", "H3", "H4", "H5", "H6"):
        deal(s, c)
    assert [names(s, n) for n in s.nursery] == [["H5", "H6"], ["H1", "H2"], ["H3", "H4"]]
    assert s.cur == 1 and s.actions_left == 1


def test_SF_14_5_big_crunch_returns_every_nursery() -> None:
    s = position(game(2), nursery={0: ["C1"], 1: ["H1", "H5"]})
    act(s, "draw elements")
    deal(s, "crunch")
    assert s.nursery == [[], []]
    assert {"C1", "H1", "H5"} <= set(names(s, s.pool[0]))


def test_SF_14_6_big_rip_returns_every_hand_body_including_stars() -> None:
    g = game(2)
    s = position(g, hands={0: ["S1", "P1", "gamma1"], 1: ["M1"]})
    s.free_star[0] = g.cards.by_name["S1"]
    act(s, "draw elements")
    deal(s, "rip")
    assert names(s, s.hands[0]) == ["gamma1"] and s.hands[1] == []
    assert s.free_star[0] == -1
    assert {"S1", "P1", "M1"} <= set(names(s, s.pool[1]))


def test_SF_14_7_big_freeze_returns_every_hand_star_fire() -> None:
    s = position(game(2), hands={0: ["P1", "gamma1"], 1: ["wormhole2"]})
    act(s, "draw elements")
    deal(s, "freeze")
    assert names(s, s.hands[0]) == ["P1"] and s.hands[1] == []
    assert {"gamma1", "wormhole2"} <= set(names(s, s.pool[2]))


def test_SF_14_8_returned_cards_are_shuffled_in_with_the_bottom() -> None:
    s = position(game(2), hands={0: ["P1", "P2"], 1: ["P3"]})
    act(s, "discard P1")
    assert names(s, s.bottom[1]) == ["P1"]
    act(s, "draw elements", 1)
    deal(s, "rip")
    assert s.bottom[1] == [] and {"P1", "P2", "P3"} <= set(names(s, s.pool[1]))
    act(s, "draw bodies", 1)
    assert "card P1" in [str(o) for o, _ in s.chance_outcomes()]


def test_SF_15_1_first_depletion_reshuffles_spent_elements_without_events() -> None:
    g = game(2)
    s = position(
        g,
        hands={0: ["M1"]},
        nursery={0: ["C1"]},
        systems={0: [(["S1"], [("P6", [])], [])]},
        decks={0: [], 1: ["P1"], 2: []},
    )
    s.spent = [g.cards.by_name["H1"], g.cards.by_name["H2"]]
    s.events_used = [g.cards.by_name["bloom"]]
    s._legal = None
    act(s, "build M1 on P6")
    act(s, "draw elements")
    assert s.reshuffled and sorted(names(s, s.pool[0])) == ["C1", "H1", "H2"]
    deal(s, "H2")
    assert names(s, s.nursery[0]) == ["H2"] and s.spent == []


def test_SF_15_2_after_the_reshuffle_spent_elements_are_out_of_play() -> None:
    g = game(2)
    s = position(
        g,
        hands={0: ["M1"], 1: ["P2"]},
        nursery={0: ["C1"]},
        systems={0: [(["S1"], [("P6", [])], [])]},
        decks={0: [], 1: ["P1", "P3", "P4"], 2: []},
    )
    s.reshuffled = True
    s._legal = None
    act(s, "build M1 on P6")
    assert "out_of_play" in s.census() and s.census()["out_of_play"] == ["C1"]
    illegal(s, "draw elements", "SF-4.2")
