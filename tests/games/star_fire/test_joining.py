"""SF-6.2: joining two of one's own systems "at any time" (free, during one's own turn), and
option ``join_any_time=false``, the older reading where a Star links only as it is built."""

from __future__ import annotations

import random
from typing import Any

import pytest

from nightsky.agents import make_agent
from nightsky.core import InvalidActionError
from nightsky.games.star_fire.constants import DECK_E, JOIN
from nightsky.games.star_fire.state import StarFireState
from nightsky.games.star_fire.tutorials import SystemSpec

from .helpers import act, deal, game, illegal, names, position

# Enough for Procyon-like S2 (2 H, 1 He, 1 C) and S3 (1 H, 2 He, 1 HM) in one turn.
TWO_STARS = ["H5", "H1", "He5", "He1", "C1", "HM1"]


def joins(s: StarFireState, seat: int = 0) -> list[str]:
    """The joins offered to ``seat`` now, in notation."""
    return [str(a) for a in s.legal_actions(seat) if getattr(a, "kind", None) == JOIN]


def _two_single_star_systems(**opts: Any) -> StarFireState:
    """Seat 0 builds two single-Star systems in one turn; seat 1 then draws twice, so seat 0
    is on its next turn with both systems standing."""
    s = position(game(2, **opts), hands={0: ["S2", "S3"]}, nursery={0: TWO_STARS})
    act(s, "build S2 new")
    act(s, "build S3 new")
    assert [names(s, sys[0]) for sys in s.systems[0]] == [["S2"], ["S3"]]
    assert s.cur == 1
    act(s, "draw elements")
    deal(s, "C2")
    act(s, "draw elements")
    deal(s, "C3")
    assert s.cur == 0 and s.actions_left == 2
    return s


def test_SF_6_2_two_single_star_systems_join_on_a_later_turn() -> None:
    s = _two_single_star_systems()
    assert joins(s) == ["join S2 S3"]
    act(s, "join S2 S3")
    # One binary system, named by its first Star; the join cost no action (SF-6.2 ruling).
    assert [names(s, sys[0]) for sys in s.systems[0]] == [["S2", "S3"]]
    assert s.cur == 0 and s.actions_left == 2 and s.actions_taken == 0
    assert not joins(s)
    act(s, "draw elements")
    deal(s, "C4")
    act(s, "draw elements")
    deal(s, "C5")
    assert s.cur == 1  # the turn still had its two actions


def test_SF_6_2_option_join_any_time_false_forbids_a_later_join() -> None:
    s = _two_single_star_systems(join_any_time=False)
    assert not joins(s)
    illegal(s, "join S2 S3", "SF-6.2")
    # Linking as a Star is built is still there under the option.
    s = position(
        game(2, join_any_time=False),
        hands={0: ["S2"]}, nursery={0: TWO_STARS}, systems={0: [(["S1"], [], [])]},
    )
    act(s, "build S2 link S1")
    assert names(s, s.systems[0][0][0]) == ["S1", "S2"]


def test_SF_6_2_join_is_also_offered_between_and_before_actions() -> None:
    s = position(
        game(2),
        systems={0: [(["S1"], [], []), (["S4"], [], [])]},
        nursery={0: ["H1", "H2"]},
    )
    assert joins(s) == ["join S1 S4"]  # before the first action
    act(s, "draw elements")
    deal(s, "C1")
    assert s.actions_left == 1
    act(s, "join S1 S4")  # between the two actions
    assert s.actions_left == 1 and len(s.systems[0]) == 1


def test_SF_6_2_a_star_joins_a_binary_and_they_share_bonuses() -> None:
    # Sirius (S1, +2 for 2 planets) and Rigel (S4, +4 for 3 planets) as a binary with P1, P2;
    # Vega-like S3 (+1 for 1 planet) alone with P3.
    s = position(
        game(2),
        systems={0: [(["S1", "S4"], [("P1", []), ("P2", [])], []),
                     (["S3"], [("P3", ["M1"])], ["M6"])]},
        nursery={0: ["H1", "H2"]},
    )
    before = s.score_breakdown()[0]
    assert before["system_bonus"] == 2 + 1
    act(s, "join S1 S3")
    (sys,) = s.systems[0]
    assert names(s, sys[0]) == ["S1", "S4", "S3"]
    assert names(s, sys[1]) == ["P1", "P2", "P3"] and names(s, sys[2]) == ["M6"]
    assert names(s, s.moons_on[s.C.by_name["P3"]]) == ["M1"]  # nothing moved (SF-5.7)
    after = s.score_breakdown()[0]
    assert after["system_bonus"] == 2 + 4 + 1  # SF-6.3: Rigel now counts all three planets
    assert after["largest_system"] == 3 and after["most_systems"] == 3


def test_SF_6_2_join_refused_beyond_three_stars_or_for_others_systems() -> None:
    s = position(
        game(2),
        systems={0: [(["S1", "S4"], [], []), (["S2", "S5"], [], []), (["S3"], [], [])],
                 1: [(["S6"], [], [])]},
        nursery={0: ["H1", "H2"]},
    )
    assert joins(s) == ["join S1 S3", "join S2 S3"]
    illegal(s, "join S1 S2", "SF-6.2")  # 4 Stars
    illegal(s, "join S3 S6", "SF-6.2")  # seat 1's system
    illegal(s, "join S3 S4", "SF-6.2")  # S4 is not the first Star of its system
    # One action per pair, written with the lower Star first; either order reads as it.
    assert s.game.parse_action("join S3 S1") is s.game.parse_action("join S1 S3")
    with pytest.raises(InvalidActionError):
        s.game.parse_action("join S3 S3")


def test_SF_6_2_join_not_during_a_worm_hole() -> None:
    s = position(
        game(2),
        hands={0: ["wormhole1"]},
        systems={0: [(["S1"], [], []), (["S3"], [], [])]},
        nursery={1: ["H1", "H2", "He1"]},
    )
    act(s, "wormhole")
    assert not joins(s)
    illegal(s, "join S1 S3", "SF-8.1")


def test_SF_6_2_SF_16_1_a_join_keeps_nobody_in_the_game() -> None:
    systems: dict[int, list[SystemSpec]] = {
        0: [(["S1"], [], []), (["S3"], [], [])], 1: [(["S2"], [], [])]
    }
    # Nothing in hand or nursery, every deck empty: no real action, so the free join is never
    # offered; the turn passes and the seat is out (SF-16.1).
    s = position(game(2), systems=systems, hands={1: ["wormhole1", "fission1"]}, decks={})
    assert s.eliminated[0] and len(s.systems[0]) == 2
    # One card left to draw: a single action (the last turn, SF-16.3). The join is offered
    # beside it but is no action of its own, so the seat still leaves the game.
    s = position(game(2), systems=systems, hands={1: ["wormhole1"]}, decks={DECK_E: ["H2"]})
    assert s.cur == 0 and s.last_turn and s.actions_left == 1
    act(s, "join S1 S3")
    assert s.actions_left == 1 and len(s.systems[0]) == 1
    act(s, "draw elements")
    deal(s, "H2")
    assert s.eliminated[0]


def test_SF_6_2_notation_words_and_board_targets() -> None:
    g = game(3)
    every = [a for a in g.all_actions() if a.kind == JOIN]
    assert len(every) == 28  # one per pair of the 8 Stars
    for a in every:
        assert g.parse_action(str(a)) is a
    # Every older action keeps its id: the joins come last.
    assert [g.action_id(a) for a in every] == list(
        range(len(g.all_actions()) - 28, len(g.all_actions()))
    )
    s = position(g, systems={0: [(["S1"], [], []), (["S4"], [], [])]}, nursery={0: ["H1"]})
    a = g.parse_action("join S1 S4")
    label = g.ui.describe_action(s, a, 0)
    assert label.startswith("make one binary system of your systems of")
    assert "free (no action)" in label
    assert g.ui.action_targets(s, a, 0) == ["system:0:S1", "system:0:S4"]
    svg = g.ui.board_svg(s, 0)
    assert 'id="system:0:S1"' in svg and 'id="system:0:S4"' in svg
    before = s.clone()
    act(s, "join S1 S4")
    log = g.ui.describe_log_entry(before, s, len(s.history) - 1, 1, ["Ann", "Bo", "Cy"])
    assert log == [f"Ann made one binary system of their systems of {s.C.title[s.C.by_name['S1']]}"
                   f" (S1) and {s.C.title[s.C.by_name['S4']]} (S4), free (no action)."]
    assert "<S1 " in g.ui.render(s, 0) and "+<S4 " in g.ui.render(s, 0)


def test_SF_6_2_greedy_joins_when_it_completes_a_star_bonus() -> None:
    # Rigel (S4) needs 3 planets for +4: joining its system to Sirius's two planets meets it.
    # The other choices are two draws from a deck of one-unit elements.
    g = game(2)
    agent = make_agent("greedy")
    chosen: set[str] = set()
    for seed in range(5):
        s = position(
            g,
            systems={0: [(["S1"], [("P1", []), ("P2", [])], []), (["S4"], [("P3", [])], [])]},
            decks={DECK_E: ["H1", "H2", "H3"]},
        )
        chosen.add(str(agent.choose(s, 0, random.Random(seed))))
    assert chosen == {"join S1 S4"}


def test_SF_6_2_SF_6_3_join_systems_tutorial() -> None:
    t = game(2).tutorial("join-systems")
    s = t.build()
    assert s.score_breakdown()[0]["system_bonus"] == 2  # Sirius only
    act(s, "join S1 S4")
    assert s.score_breakdown()[0]["system_bonus"] == 2 + 4  # Rigel counts all three planets
    assert s.actions_left == 2
    # Every step of the example is playable as written (the lesson walks it to the end).
    s = t.build()
    for seat, notation in t.steps:
        assert seat in s.current_players(), notation
        s.apply(s.game.parse_action(notation), seat)
