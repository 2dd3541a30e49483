"""SF-16 to SF-18: elimination, the end of the game and scoring."""

from __future__ import annotations

import pytest

from tests.games.star_fire.helpers import act, deal, game, illegal, names, position

EMPTY = {0: [], 1: [], 2: []}


def _acts(s) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def test_SF_16_1_empty_handed_with_one_card_left_is_the_last_turn() -> None:
    s = position(game(2), hands={1: ["P1"]}, decks={0: [], 1: ["P2"], 2: []})
    assert s.last_turn and s.actions_left == 1
    act(s, "draw bodies")
    deal(s, "P2")
    assert s.eliminated[0] and s.cur == 1


def test_SF_16_1_discarding_does_not_keep_a_player_in() -> None:
    s = position(game(2), hands={0: ["P1"], 1: ["P2", "gamma1", "wormhole1"]}, decks=EMPTY)
    assert s.last_turn  # only a discard (which recycles) would be possible
    s2 = position(game(2, discard_keeps_alive=True), hands={0: ["P1"], 1: ["P2"]}, decks=EMPTY)
    assert not s2.last_turn and "discard P1" in _acts(s2)


def test_SF_16_1_builds_and_star_fire_plays_count() -> None:
    s = position(
        game(2),
        hands={0: ["wormhole1", "M1"], 1: ["P2"]},
        nursery={0: ["C1"]},
        systems={0: [(["S1"], [("P6", [])], [])]},
        decks=EMPTY,
    )
    assert not s.last_turn and s.actions_left == 2
    s = position(
        game(2),
        hands={0: ["M1"], 1: ["P2"]},
        nursery={0: ["C1"]},
        systems={0: [(["S1"], [("P6", [])], [])]},
        decks={0: [], 1: ["P3"], 2: []},
    )
    assert not s.last_turn  # one draw plus one payable build


# Seat 1 holds two Star Fire cards it can always play, so the game goes on to its turn.
ALIVE = ["wormhole4", "wormhole5"]


def test_sf_16_1_divine_intervention_on_a_star_counts_as_two_actions() -> None:
    # Divine Intervention on a Star costs 2 actions (SF-11.1): with it, the seat has 2 actions.
    s = position(game(2), hands={0: ["S2", "divine1"], 1: ALIVE}, decks=EMPTY)
    assert not s.last_turn and s.actions_left == 2 and "divine S2 new" in _acts(s)
    act(s, "divine S2 new")
    assert s.cur == 1 and not s.eliminated[0] and names(s, s.pile[0]) == ["divine1"]


def test_sf_16_1_gamma_ray_burst_on_a_star_counts_as_two_actions() -> None:
    s = position(
        game(2), hands={0: ["gamma1"], 1: ALIVE}, systems={1: [(["S1"], [], [])]}, decks=EMPTY
    )
    assert not s.last_turn and s.actions_left == 2 and "gamma S1" in _acts(s)
    act(s, "gamma S1")
    assert s.cur == 1 and not s.eliminated[0]


def test_sf_16_1_a_star_then_a_planet_on_it_are_two_actions() -> None:
    # Alone, the Planet has no system to go into; once the Star stands, it has. (The element
    # deck was reshuffled already, so the spent elements cannot be drawn instead, SF-15.2.)
    s = position(
        game(2),
        hands={0: ["S1", "P3"], 1: ALIVE},
        nursery={0: ["H5", "He5", "H1", "C1", "HM1"]},
        decks=EMPTY,
        reshuffled=True,
    )
    assert not s.last_turn and s.actions_left == 2
    act(s, "build S1 new")
    act(s, "build P3 at S1")
    assert s.cur == 1 and not s.eliminated[0]


def test_sf_16_1_a_planet_then_a_moon_on_it_are_two_actions() -> None:
    s = position(
        game(2),
        hands={0: ["P2", "M1"], 1: ALIVE},
        nursery={0: ["C5", "HM1", "C1"]},
        systems={0: [(["S1"], [], [])]},
        decks=EMPTY,
        reshuffled=True,
    )
    assert not s.last_turn and s.actions_left == 2
    act(s, "build P2 at S1")
    act(s, "build M1 on P2")
    assert s.cur == 1 and not s.eliminated[0]


def test_sf_16_1_a_worm_hole_can_steal_what_pays_the_second_action() -> None:
    s = position(
        game(2),
        hands={0: ["wormhole1", "M1"], 1: ALIVE},
        nursery={1: ["C1"]},
        systems={0: [(["S1"], [("P6", [])], [])]},
        decks=EMPTY,
        reshuffled=True,
    )
    assert not s.last_turn and s.actions_left == 2
    act(s, "wormhole")
    act(s, "steal C1")
    act(s, "build M1 on P6")
    assert s.cur == 1 and not s.eliminated[0]


def test_sf_16_1_a_gamma_ray_burst_then_drawing_the_body_it_sent_back() -> None:
    # The burst puts the Planet on the (public) bottom of the bodies deck: it can be drawn.
    s = position(
        game(2),
        hands={0: ["gamma1"], 1: ALIVE},
        systems={1: [(["S1"], [("P1", [])], [])]},
        decks=EMPTY,
    )
    assert not s.last_turn and s.actions_left == 2
    act(s, "gamma P1")
    act(s, "draw bodies")
    assert s.cur == 1 and not s.eliminated[0] and names(s, s.hands[0]) == ["P1"]


def test_sf_16_1_two_stars_each_payable_alone_but_not_together_are_one_action() -> None:
    # Both Stars cost one unit of each element; the nursery pays for one of them only.
    s = position(
        game(2),
        hands={0: ["S5", "S6"], 1: ALIVE},
        nursery={0: ["H1", "He1", "C1", "HM1"]},
        decks=EMPTY,
        reshuffled=True,
    )
    assert s.last_turn and s.actions_left == 1
    act(s, "build S5 new")
    assert s.cur == 1 and s.eliminated[0]


def test_sf_16_1_an_unseen_card_to_draw_is_not_counted_on() -> None:
    # The one card left could be the Planet the nursery pays for, but nobody has seen it.
    kw = {
        "hands": {1: ALIVE},
        "nursery": {0: ["H1", "C1", "HM1"]},
        "systems": {0: [(["S1"], [], [])]},
        "reshuffled": True,
    }
    s = position(game(2), decks={0: [], 1: ["P3"], 2: []}, **kw)
    assert s.last_turn and s.actions_left == 1
    # The same card seen on the bottom of the deck (SF-4.3) is drawn and built: two actions.
    s = position(game(2), decks=EMPTY, bottoms={1: ["P3"]}, **kw)
    assert not s.last_turn and s.actions_left == 2
    act(s, "draw bodies")
    act(s, "build P3 at S1")
    assert s.cur == 1 and not s.eliminated[0]


def test_SF_16_2_fission_alone_never_eliminates() -> None:
    s = position(game(2), hands={0: ["fission1"], 1: ["P2"]})
    act(s, "fission 1")
    act(s, "draw bodies")
    deal(s, "P3")
    assert s.cur == 1 and s.actions_left == 1 and not s.last_turn
    act(s, "draw bodies")
    deal(s, "P4")
    assert not s.eliminated[1]


def test_SF_16_3_one_action_or_end_before_elimination() -> None:
    # Fission is one action and leaves nothing to do after it: the last turn.
    s = position(game(2), hands={0: ["fission1"], 1: ["P2"]}, decks=EMPTY)
    assert s.last_turn and s.actions_left == 1
    assert set(_acts(s)) == {"fission 1", "end"}
    act(s, "end")
    assert s.eliminated[0] and s.cur == 1


def test_SF_16_4_eliminated_players_keep_their_bodies_and_elements() -> None:
    s = position(
        game(2),
        systems={0: [(["S1"], [("P1", [])], [])]},
        hands={1: ["wormhole1", "gamma1"]},
        decks={0: [], 1: ["P2"], 2: []},
    )
    act(s, "draw bodies")
    deal(s, "P2")
    assert s.eliminated[0] and names(s, s.hands[0]) == ["P2"]
    row = s.score_breakdown()[0]
    assert row["bodies"] == 8


def test_SF_16_5_eliminated_players_are_skipped_but_still_targets() -> None:
    s = position(
        game(3),
        hands={1: ["fission1", "gamma1", "P2"], 2: ["P3", "M1"]},
        systems={0: [(["S1"], [("P1", [])], [])]},
        decks={0: [], 1: ["P4", "P5"], 2: []},
    )
    s.eliminated[0] = True
    s._start_turn(1)
    s._legal = None
    acts = _acts(s)
    assert "fission 2" in acts and "fission 0" not in acts and "gamma P1" in acts
    illegal(s, "fission 0", "SF-9.1")
    act(s, "gamma P1")
    act(s, "draw bodies")
    deal(s, "P4")
    assert s.cur == 2


def test_SF_17_1_game_ends_when_nobody_can_act() -> None:
    s = position(game(2), decks={0: [], 1: ["P2"], 2: []})
    act(s, "draw bodies")
    deal(s, "P2")
    assert s.eliminated == [True, True] and s.is_terminal()
    assert s.current_players() == () and s.legal_actions(0) == []


def test_SF_17_2_lone_player_continues() -> None:
    s = position(
        game(2),
        hands={1: ["wormhole1", "gamma1", "fission1"]},
        systems={0: [(["S1"], [("P1", [])], [])]},
        decks=EMPTY,
    )
    # Seat 0 has nothing to do at all: eliminated at once; seat 1 plays on alone.
    assert s.eliminated[0] and s.cur == 1 and not s.is_terminal() and not s.last_turn
    act(s, "wormhole")
    act(s, "gamma P1")
    assert s.round == 2 and s.cur == 1
    # Fission has no one to target and only P1 (bottom of the deck) can be drawn: last turn.
    assert s.last_turn and set(_acts(s)) == {"draw bodies", "end"}
    act(s, "draw bodies")
    assert s.is_terminal() and s.eliminated == [True, True]


def test_SF_17_3_round_cap_ends_a_stalled_game() -> None:
    s = position(game(2, max_rounds=1), hands={0: ["P1"], 1: ["P2"]})
    for seat in (0, 0, 1, 1):
        act(s, "draw elements", seat)
        deal(s, s.C.name[sorted(s.pool[0])[0]])
    assert s.is_terminal() and s.round == 1 and not any(s.eliminated)


def _score_pos(**kw):
    return position(game(3), decks=EMPTY, **kw)


@pytest.mark.parametrize(
    ("key", "want"),
    [
        pytest.param("bodies", 5 + 3 + 4, id="SF-18.1-body-points"),
        pytest.param("system_bonus", 3, id="SF-18.2-aldebaran-1-planet-2-moons"),
        pytest.param("moon_bonus", 4, id="SF-18.3-zephyr-3-moons"),
        pytest.param("star_fire", 2, id="SF-18.4-pile"),
        pytest.param("elements", 2, id="SF-18.5-cards-left"),
    ],
)
def test_score_parts(key: str, want: int) -> None:
    s = _score_pos(
        systems={0: [(["S7"], [("P6", ["M1", "M2", "M3"])], ["M6"])]},
        piles={0: ["gamma1", "divine1"]},
        nursery={0: ["H5", "C1"]},
    )
    assert s.score_breakdown()[0][key] == want


@pytest.mark.parametrize("rid", ["SF-18.2", "SF-18.3"])
def test_bonus_not_met_scores_nothing(rid: str) -> None:
    s = _score_pos(systems={0: [(["S7"], [("P6", ["M1"])], [])]})
    row = s.score_breakdown()[0]
    assert row["system_bonus"] == 0 and row["moon_bonus"] == 0


@pytest.mark.parametrize(
    ("key", "want"),
    [
        pytest.param("largest_system", [3, 0, 0], id="SF-18.6-largest-system"),
        pytest.param("most_systems", [0, 3, 0], id="SF-18.7-most-systems"),
        pytest.param("largest_nebula", [0, 0, 3], id="SF-18.8-largest-nebula"),
    ],
)
def test_end_bonuses(key: str, want: list[int]) -> None:
    s = _score_pos(
        systems={
            0: [(["S1"], [("P1", []), ("P2", [])], [])],  # largest system: 3 bodies
            1: [(["S2"], [("P3", [])], []), (["S3"], [("P4", [])], [])],  # most systems
            2: [(["S4"], [], [])],  # a Star alone is not a solar system for SF-18.7
        },
        nursery={2: ["H5", "He5"], 1: ["C1", "C2", "C3"]},  # nebula: 4 units vs 3
    )
    assert [r[key] for r in s.score_breakdown()] == want


def test_SF_18_9_tied_bonuses_full_or_split_and_none_at_zero() -> None:
    kw = {"systems": {0: [(["S1"], [("P1", [])], [])], 1: [(["S2"], [("P2", [])], [])]}}
    rows = position(game(3), decks=EMPTY, **kw).score_breakdown()
    assert [r["largest_system"] for r in rows] == [3, 3, 0]
    assert [r["largest_nebula"] for r in rows] == [0, 0, 0]
    rows = position(game(3, bonus_ties="split"), decks=EMPTY, **kw).score_breakdown()
    assert [r["most_systems"] for r in rows] == [1.5, 1.5, 0]


def test_SF_18_10_tiebreaker_most_built_bodies_then_shared() -> None:
    s = position(
        game(2),
        systems={0: [(["S1"], [("P1", [])], [])], 1: [(["S6"], [], ["M6", "M7"])]},
        nursery={0: ["H5"]},
        piles={1: ["gamma1", "gamma2", "gamma3"]},
        decks={0: [], 1: ["P2"], 2: []},
    )
    act(s, "draw bodies")
    deal(s, "P2")
    assert s.is_terminal() and s.scores() == [15, 15]
    assert s.winners() == [1]  # 3 built bodies beat 2
    s = position(
        game(2),
        systems={0: [(["S1"], [("P1", [])], [])], 1: [(["S2"], [("P2", [])], [])]},
        decks={0: [], 1: ["P3"], 2: []},
    )
    act(s, "draw bodies")
    deal(s, "P3")
    assert s.is_terminal() and s.scores() == [14, 14] and s.winners() == [0, 1]
    assert s.returns() == [0.5, 0.5]
