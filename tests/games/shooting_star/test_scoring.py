"""SS-12 scoring and winning, SS-13 Secret Missions."""

from __future__ import annotations

from pathlib import Path

from nightsky.core.components import data_path
from nightsky.games.shooting_star.constants import CARD_KEYS, PH_OVER, pile_card
from tests.games.shooting_star.helpers import build_position

GRID = ["2 2 2 2", "2 2 2 2", "2 2 2 D"]


def ended(conq, debris, missions=(("1e", "2e", "3a"), ("1a", "2a", "3b")), **kw):
    """A finished 2-player game with the given piles (codes: p.., n.., d.., or 'seat:card')."""
    s = build_position(GRID, players=2, missions=missions, **kw)
    g = s.g

    def item(x: str) -> int:
        if ":" in x:
            seat, card = x.split(":")
            return pile_card(int(seat), CARD_KEYS.index(card))
        return g.code_index[x]

    s.conq = [[item(x) for x in pile] for pile in conq]
    s.debris = [[item(x) for x in pile] for pile in debris]
    s.hands = [0, 0]
    s.phase = PH_OVER
    return s


def test_SS_12_1_one_point_per_conquest_card() -> None:
    s = ended([["p01", "p02", "1:P3"], []], [["0:P1"], ["1:P1"]])
    assert s.score_breakdown()[0]["cards"] == 3


def test_SS_12_2_moons_only_in_the_conquest_pile() -> None:
    s = ended([["p03", "p01"], []], [["0:P1", "p07"], ["1:P1", "1:P2"]])
    b = s.score_breakdown()[0]
    assert b["moons"] == 1 and b["cards"] == 2


def test_SS_12_3_completed_missions_score_their_value() -> None:
    s = ended([["p01", "p02", "n02"], []], [["1:P4"], ["1:P1"]])  # 1e: destroyed yellow's P4
    b = s.score_breakdown()[0]
    assert b["missions"] == 1 + 1  # 1e and Aurelia (3a, without Zero)


def test_SS_12_4_debris_bonus_shared_on_ties() -> None:
    s = ended([[], []], [["0:P1", "0:P2"], ["1:P1"]])
    assert [b["debris_bonus"] for b in s.score_breakdown()] == [3, 0]
    t = ended([[], []], [["0:P1", "0:P2"], ["1:P1", "1:P2"]])
    assert [b["debris_bonus"] for b in t.score_breakdown()] == [3, 3]


def test_SS_12_5_most_points_wins() -> None:
    s = ended([["p01"], ["p02", "p04"]], [["0:P1"], ["1:P1"]])
    assert s.scores() == [4.0, 5.0] and s.winners() == [1]


def test_SS_12_6_tie_most_captured_cards() -> None:
    s = ended([["p01", "p02"], ["p03"]], [["0:P1"], ["1:P1"]])
    assert s.scores()[0] == s.scores()[1]
    assert s.winners() == [0]


def test_SS_12_7_tie_then_most_moons() -> None:
    s = ended(
        [["p01", "p02"], ["p03", "p07"]],
        [["0:P1", "0:P2"], ["1:P1"]],
        missions=(("1e", "2a", "3a"), ("1b", "2e", "3b")),
    )
    assert s.scores() == [5.0, 5.0] and s.tiebreakers(0)[0] == s.tiebreakers(1)[0]
    assert s.winners() == [1]


def test_SS_12_8_still_tied_shared_victory() -> None:
    s = ended([["p01"], ["p02"]], [["0:P1"], ["1:P1"]])
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5]


def _points(s, seat: int, code: str) -> int:
    return s.mission_points(seat, s.g.mission_index[code])


def test_SS_13_1_dark_planets_do_not_count() -> None:
    s = ended([["p01", "p02", "n05"], []], [["d1"], []])
    assert _points(s, 0, "1a") == 0  # three planets and a Dark Planet are not four planets
    t = ended([["p01", "p02", "n05", "n06"], []], [["d1"], []])
    assert _points(t, 0, "1a") == 1
    assert _points(t, 0, "1c") == 1 and _points(t, 0, "1d") == 0
    assert _points(s, 0, "1c") == 0
    u = ended([["p03", "p07", "n02"], []], [[], []])  # Aurelia (n02) has a Moon
    assert _points(u, 0, "2b") == 2


def test_SS_13_2_named_planet_and_zero() -> None:
    aurelia, zero = "n02", "n01"
    assert _points(ended([[aurelia], []], [[], []]), 0, "3a") == 1
    assert _points(ended([[zero], []], [[], []]), 0, "3a") == 1
    assert _points(ended([[zero, aurelia], []], [[], []]), 0, "3a") == 3
    assert _points(ended([["n03"], []], [[], []]), 0, "3a") == 0


def test_SS_13_3_copies_count_once(tmp_path: Path) -> None:
    text = data_path("nightsky.games.shooting_star", "components.toml").read_text()
    own = tmp_path / "twins.toml"
    own.write_text(text.replace('name = "Borealis"', 'name = "Aurelia"'))
    s = ended([["n02", "n03"], []], [[], []], components=str(own))
    assert _points(s, 0, "3a") == 1
    t = ended([["n02", "n03", "n01"], []], [[], []], components=str(own))
    assert _points(t, 0, "3a") == 3


def test_SS_13_4_isolation_captures_count_for_missions() -> None:
    s = ended([[], []], [["n02", "p01", "p02", "p04"], []])
    assert _points(s, 0, "3a") == 1 and _points(s, 0, "1a") == 1
    assert s.score_breakdown()[0]["cards"] == 0


def test_SS_13_destroy_missions_count_enemy_cards_only() -> None:
    s = ended([[], []], [["0:P1", "0:P2", "1:P3"], []])
    assert _points(s, 0, "1e") == 1 and _points(s, 0, "2e") == 0
    t = ended([[], []], [["1:P3", "1:P5"], []])
    assert _points(t, 0, "2e") == 2
