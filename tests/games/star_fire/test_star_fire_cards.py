"""SF-7 to SF-13 (SF-7, SF-8, SF-9, SF-10, ...): Star Fire cards and discarding."""

from __future__ import annotations

from tests.games.star_fire.helpers import act, deal, game, illegal, names, position


def _acts(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def test_SF_7_1_play_is_one_action_and_scores_in_the_pile() -> None:
    s = position(game(2), hands={0: ["fission1", "P1"]})
    before = s.score_breakdown()[0]["star_fire"]
    act(s, "fission 1")
    assert s.actions_left == 1 and names(s, s.pile[0]) == ["fission1"]
    assert s.score_breakdown()[0]["star_fire"] == before + 1


def test_SF_7_2_effects_stack_against_one_player() -> None:
    s = position(game(2), hands={0: ["fission1", "fission2"], 1: ["P1"]})
    act(s, "fission 1")
    act(s, "fission 1")
    assert s.fission[1] == 0 and s.cur == 0  # seat 1 lost its whole turn
    assert s.round == 2


def test_SF_7_3_up_to_cards_may_fizzle_targeted_cards_need_a_target() -> None:
    s = position(game(2), hands={0: ["wormhole1", "transmute1", "gamma1", "divine1"]})
    acts = _acts(s)
    assert "wormhole" in acts and "transmute" in acts
    assert not any(a.startswith(("gamma", "divine")) for a in acts)
    illegal(s, "gamma S1", "SF-10.1")
    act(s, "wormhole")  # no element anywhere: it resolves at once, still +1
    assert s.sub == 0 and names(s, s.pile[0]) == ["wormhole1"]


def test_SF_8_1_wormhole_steals_up_to_three_units_from_several_players() -> None:
    s = position(game(3), hands={0: ["wormhole1"]}, nursery={1: ["H1", "C5"], 2: ["He1", "HM1"]})
    act(s, "wormhole")
    assert s.sub == 1 and "stop" in _acts(s)
    act(s, "steal C5")
    act(s, "steal He1")
    assert sorted(names(s, s.nursery[0])) == ["C5", "He1"]  # 3 units: done by itself
    assert s.sub == 0
    illegal(s, "steal H1", "SF-8.1")


def test_SF_8_2_at_most_two_units_from_one_player() -> None:
    s = position(game(2), hands={0: ["wormhole1"]}, nursery={1: ["H1", "H2", "H3", "C5"]})
    act(s, "wormhole")
    act(s, "steal H1")
    assert "steal C5" not in _acts(s)  # 1 + 2 would exceed 2 from seat 1
    illegal(s, "steal C5", "SF-8.2")
    act(s, "steal H2")
    assert s.sub == 0 and len(s.nursery[0]) == 2  # even in a 2-player game


def test_SF_8_3_stolen_cards_go_to_the_thiefs_nursery() -> None:
    s = position(game(2), hands={0: ["wormhole1"]}, nursery={0: ["C1"], 1: ["H5"]})
    act(s, "wormhole")
    act(s, "steal H5")
    assert names(s, s.nursery[0]) == ["C1", "H5"] and s.nursery[1] == []


def test_SF_9_1_fission_takes_one_action_from_the_next_turn() -> None:
    s = position(game(3), hands={0: ["fission1"]})
    illegal(s, "fission 0", "SF-9.1")
    act(s, "fission 2")
    act(s, "draw bodies")
    deal(s, "P1")
    assert s.cur == 1 and s.actions_left == 2
    act(s, "draw bodies")
    deal(s, "P2")
    act(s, "draw bodies")
    deal(s, "P3")
    assert s.cur == 2 and s.actions_left == 1
    act(s, "draw bodies")
    deal(s, "P4")
    assert s.cur == 0 and s.actions_left == 2  # next turn only


def test_SF_9_2_fission_never_eliminates() -> None:
    s = position(game(2), hands={0: ["fission1", "fission2"], 1: ["P1"]})
    act(s, "fission 1")
    act(s, "fission 1")
    assert not s.eliminated[1]


def test_SF_10_1_gamma_hits_the_lowest_body_and_sends_it_to_the_bottom() -> None:
    s = position(game(2), hands={0: ["gamma1"]}, systems={1: [(["S1"], [("P6", ["M1"])], ["M6"])]})
    acts = _acts(s)
    assert "gamma M1" in acts and "gamma M6" in acts and "gamma P6" not in acts
    illegal(s, "gamma P6", "SF-10.1")
    act(s, "gamma M6")
    assert s.systems[1][0][2] == [] and s.view(None)["decks"]["bodies"]["bottom"] == ["M6"]


def test_SF_10_1_gamma_may_target_own_system() -> None:
    s = position(game(2), hands={0: ["gamma1"]}, systems={0: [(["S1"], [("P1", [])], [])]})
    act(s, "gamma P1")
    assert s.systems[0][0][1] == []


def test_SF_10_2_a_star_costs_two_actions() -> None:
    s = position(game(2), hands={0: ["gamma1"]}, systems={1: [(["S1", "S2"], [], [])]})
    assert {"gamma S1", "gamma S2"} <= set(_acts(s))
    act(s, "draw bodies")
    deal(s, "P1")
    illegal(s, "gamma S1", "SF-10.2")


def test_SF_10_3_last_star_removed_dissolves_the_system() -> None:
    s = position(game(2), hands={0: ["gamma1"]}, systems={1: [(["S3"], [], [])]})
    act(s, "gamma S3")
    assert s.systems[1] == [] and s.cur == 1


def test_SF_11_1_divine_intervention_builds_without_paying() -> None:
    s = position(
        game(2), hands={0: ["divine1", "divine2", "P6", "S2"]}, systems={0: [(["S1"], [], [])]}
    )
    assert "build P6 at S1" not in _acts(s)
    act(s, "divine P6 at S1")
    assert s.actions_left == 1 and names(s, s.pile[0]) == ["divine1"]
    assert "divine S2 new" not in _acts(s)
    illegal(s, "divine S2 new", "SF-11.1")
    act(s, "draw bodies", 0)
    deal(s, "P1")
    act(s, "draw bodies", 1)
    deal(s, "P2")
    act(s, "draw bodies", 1)
    deal(s, "P3")
    act(s, "divine S2 new")  # a Star takes both actions
    assert s.cur == 1 and len(s.systems[0]) == 2


def test_SF_12_1_transmutation_makes_up_to_two_wilds() -> None:
    s = position(game(2), hands={0: ["transmute1"]}, nursery={0: ["H1", "C1", "HM1"]})
    act(s, "transmute")
    assert s.sub == 2
    act(s, "wild C1")
    illegal(s, "wild C1", "SF-12.1")
    act(s, "stop")
    assert s.sub == 0 and s.view(None)["players"][0]["nursery"][1]["wild"] is True
    assert s.actions_left == 1


def test_SF_12_2_wilds_are_immune_to_wormhole_and_crunch() -> None:
    g = game(2)
    s = position(g, hands={1: ["wormhole1"]}, nursery={0: ["H5", "C1"]}, seat=1)
    s.wild = 1 << g.cards.by_name["H5"]
    act(s, "wormhole")
    assert "steal H5" not in _acts(s)
    illegal(s, "steal H5", "SF-12.2")
    act(s, "stop")
    act(s, "draw elements")
    deal(s, "crunch")
    assert names(s, s.nursery[0]) == ["H5"]


def test_SF_12_3_transmutation_scores_at_once_discarded_wild_loses_status() -> None:
    s = position(game(2), hands={0: ["transmute1"]}, nursery={0: ["H1"]})
    act(s, "transmute")
    act(s, "wild H1")
    assert s.score_breakdown()[0]["star_fire"] == 1 and s.sub == 0
    act(s, "draw elements", 0)
    deal(s, "C3")
    act(s, "draw elements", 1)
    deal(s, "C1")
    act(s, "draw elements", 1)
    deal(s, "C2")
    act(s, "discard H1")
    assert s.wild == 0 and names(s, s.bottom[0]) == ["H1"]


def test_SF_13_1_discard_costs_two_actions_to_the_bottom_of_its_deck() -> None:
    s = position(game(2), hands={0: ["P1", "gamma2"], 1: ["fission1"]}, nursery={0: ["C5"]})
    acts = _acts(s)
    assert {"discard P1", "discard gamma", "discard C5"} <= set(acts)
    act(s, "discard gamma")
    assert s.cur == 1 and names(s, s.bottom[2]) == ["gamma2"]
    act(s, "draw elements")
    deal(s, "H1")
    illegal(s, "discard fission", "SF-13.1")
