"""The SVG board for the web client: well-formed, clickable targets exist, nothing leaks."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from nightsky.core import CHANCE
from nightsky.games.star_fire.actions import END, SETUP, STOP
from nightsky.games.star_fire.components import STARFIRE
from tests.support.svgcheck import hit_ids

from .helpers import game, position


def button_only(targets: list[str]) -> bool:
    return all(t.startswith("button:") for t in targets)


def check_seat(s, seat: int, rng: random.Random) -> None:  # noqa: ANN001
    svg = s.game.ui.board_svg(s, seat)
    ids = hit_ids(svg)
    assert len(ids) == len(set(ids)), "duplicate ids"
    have = {el.get("id") for el in ET.fromstring(svg).iter() if el.get("data-label")}
    for a in s.legal_actions(seat):
        targets = s.game.ui.action_targets(s, a, seat)
        assert s.game.ui.action_ui(s, a, seat)["targets"] == targets
        assert targets, str(a)
        if button_only(targets):
            # only stopping, ending and keeping the dealt Star are plain buttons
            assert a.kind in (STOP, END, SETUP) and not (a.kind == SETUP and a.a), str(a)
            continue
        for t in targets:
            if not t.startswith("button:"):
                assert t in have, f"{a}: target {t} not drawn"
    # what the seat sees cannot depend on what it cannot know
    r = s.resample(seat, rng)
    assert r.game.ui.board_svg(r, seat) == svg


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (6, 4)])
def test_svg_targets_exist_and_resample_invariant(players: int, seed: int) -> None:
    rng = random.Random(seed)
    s = game(players).new_initial_state()
    k = 0
    while not s.is_terminal():
        p = s.current_players()[0]
        if p == CHANCE:
            s.apply(s.sample_chance(rng), CHANCE)
            continue
        if k % 3 == 0:
            check_seat(s, p, rng)
        k += 1
        s.apply(rng.choice(s.legal_actions(p)), p)
    for viewer in [None, *range(players)]:
        ids = hit_ids(s.game.ui.board_svg(s, viewer))
        assert len(ids) == len(set(ids))


def test_svg_draws_every_kind_of_target() -> None:
    s = position(game(3), hands={0: ["P3", "fission1", "divine1", "M6", "wormhole2", "S4"],
                                 1: ["gamma1"]},
                 nursery={0: ["H1", "C1", "HM1", "H5", "He1"], 1: ["C2", "He5"]},
                 systems={0: [(["S1"], [("P6", ["M3"])], [])], 1: [(["S2"], [], ["M7"])]})
    kinds = {a.kind for a in s.legal_actions(0)}
    assert len(kinds) >= 5
    check_seat(s, 0, random.Random(0))
    ids = set(hit_ids(s.game.ui.board_svg(s, 0)))
    assert {"card:P3", "card:S4", "hand:0:fission", "hand:0:divine", "hand:0:wormhole",
            "system:0:S1", "systems:0", "card:P6", "card:M3", "card:M7", "seat:2",
            "deck:bodies", "card:C2"} <= ids


def test_svg_hides_hands_from_others_and_spectators() -> None:
    s = position(game(3), hands={0: ["P3", "fission1", "M6"], 1: ["S4", "gamma1"]},
                 nursery={0: ["H1"]}, systems={0: [(["S1"], [], [])]})
    C = s.C
    mine = s.game.ui.board_svg(s, 0)
    spectator = s.game.ui.board_svg(s, None)
    other = s.game.ui.board_svg(s, 1)
    for c in s.hands[0] + s.hands[1]:
        name, title = C.name[c], C.title[c]
        if C.cat[c] != STARFIRE:
            assert f'"card:{name}"' not in spectator and title not in spectator
        own = c in s.hands[0]
        assert (f"card:{name}" in mine) == (own and C.cat[c] != STARFIRE)
        assert title not in other if own else True
    assert "hand:0:fission" in mine and "fission" not in other.replace("Nuclear Fission", "")
    assert "Nuclear Fission" not in spectator
    # backs show how many cards of each category a seat holds
    assert "1 Star card, face down" in mine and "1 Star Fire card, face down" in mine


def test_svg_end_position_shows_breakdown() -> None:
    rng = random.Random(7)
    s = game(2).new_initial_state()
    while not s.is_terminal():
        p = s.current_players()[0]
        s.apply(s.sample_chance(rng) if p == CHANCE else rng.choice(s.legal_actions(p)), p)
    svg = s.game.ui.board_svg(s, None)
    assert "Game over" in svg
    assert "systems:0" not in svg  # nobody founds a system after the end
    for q in range(2):
        assert f"{s.scores()[q]:g} pts" in svg
