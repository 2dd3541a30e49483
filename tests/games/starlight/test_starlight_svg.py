"""The SVG board for the web client: well-formed, clickable targets exist, nothing leaks."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from nightsky import load_game
from nightsky.core.game import CHANCE
from nightsky.games.starlight.constants import DONE, END, SKIP
from tests.support.svgcheck import hit_ids

from .starlight_helpers import do, give_core, give_rays, new, turn

BUTTONS = (END, DONE, SKIP)  # stop-like choices the client lists as buttons


def check_seat(s, seat: int, rng: random.Random) -> set[str]:  # noqa: ANN001
    ui = s.game.ui
    svg = ui.board_svg(s, seat)
    ids = hit_ids(svg)
    assert len(ids) == len(set(ids)), "duplicate ids"
    have = {el.get("id") for el in ET.fromstring(svg).iter() if el.get("data-label")}
    for a in s.legal_actions(seat):
        targets = ui.action_ui(s, a, seat)["targets"]
        assert targets, str(a)
        if all(t.startswith("button:") for t in targets):
            assert a.kind in BUTTONS, f"{a} has no target on the board"
            continue
        for t in targets:
            assert t in have, f"{a}: target {t} not drawn"
    # what the seat sees cannot depend on what it cannot know (Laurels, God deals)
    assert ui.board_svg(s.resample(seat, rng), seat) == svg
    return have


@pytest.mark.parametrize(
    "opts,seed",
    [({"players": 2}, 1), ({"players": 1, "starbots": 2}, 2),
     ({"players": 3, "starbots": 1, "gods": True}, 3), ({"players": 5, "gods": True}, 4)],
    ids=["2p", "solo+2bots", "3p+bot+gods", "5p+gods"],
)
def test_svg_targets_exist_and_resample_invariant(opts: dict, seed: int) -> None:
    rng = random.Random(seed)
    s = load_game("starlight", **opts).new_initial_state()
    k = 0
    kinds: set[int] = set()
    while not s.is_terminal():
        p = s.current_players()[0]
        if p == CHANCE:
            s.apply(s.sample_chance(rng), CHANCE)
            continue
        legal = s.legal_actions(p)
        if k % 7 == 0 or any(a.kind not in kinds for a in legal):
            check_seat(s, p, rng)
            kinds |= {a.kind for a in legal}
        k += 1
        s.apply(rng.choice(legal), p)
    assert len(kinds) >= 10
    for viewer in [None, *range(s.game.num_players)]:
        ids = hit_ids(s.game.ui.board_svg(s, viewer))
        assert len(ids) == len(set(ids))


def test_svg_launch_targets_core_rays_slots_and_flare() -> None:
    s = turn(new(2), 0, "cores", ap=5)
    give_core(s, 0, "C1")
    give_rays(s, 0, long_red=2, short_yellow=1)
    do(s, "step", "launch", "star C1")
    have = check_seat(s, 0, random.Random(0))
    assert {"hand:ray:long:red", "hand:ray:short:yellow", "hand:core:C1"} <= have
    do(s, "attach long red", "attach long red")
    have = check_seat(s, 0, random.Random(0))
    slots = [s.game.ui.action_ui(s, a, 0)["targets"][0] for a in s.legal_actions(0)
             if str(a).startswith("to ")]
    assert slots and set(slots) <= have
    svg = s.game.ui.board_svg(s, 1)  # the other seat sees the star but cannot click the mat
    assert "launching a star of magnitude 2" in svg and "hand:core:C1" not in svg


def test_svg_hides_laurels_and_gods_of_others() -> None:
    s = new(3, gods=True)
    t = s.t
    assert s.phase == 1  # choosing Gods
    mine = s.game.ui.board_svg(s, 0)
    spectator = s.game.ui.board_svg(s, None)
    for q in range(3):
        for li in s.laurels[q]:
            lid = t.laurel_ids[li]
            assert (f"Laurel {lid}:" in mine) == (q == 0)
            assert f"Laurel {lid}:" not in spectator
        for gi in s.god_hand[q]:
            gid = t.god_ids[gi]
            assert (f'"hand:god:{gid}"' in mine) == (q == 0)
            assert gid not in spectator.replace("hand:god", "")
    assert "2 secret Laurels" in mine and "2 God cards to choose from" in mine
    assert "hand:" not in spectator  # no seat's mat is clickable for a spectator


def test_svg_reveals_laurels_at_the_end() -> None:
    rng = random.Random(5)
    s = load_game("starlight", players=2).new_initial_state()
    while not s.is_terminal():
        p = s.current_players()[0]
        s.apply(s.sample_chance(rng) if p == CHANCE else rng.choice(s.legal_actions(p)), p)
    svg = s.game.ui.board_svg(s, None)
    assert "Game over" in svg
    for q in range(2):
        for li in s.laurels[q]:
            assert f"Laurel {s.t.laurel_ids[li]}:" in svg


def test_svg_final_and_slotless_launch_have_board_targets() -> None:
    s = new(2)
    for sl in s.t.slots:
        if sl.size == 0:
            s.board[sl.index] = 1
    s.daybreak_round = 1
    give_rays(s, 0, long_red=1)
    turn(s, 0, "cores", ap=5)
    f4 = s.t.flare_ids.index("F4")
    s.flare_deck = [f for f in s.flare_deck if f != f4]
    s.flare_pool = [-1 if f == f4 else f for f in s.flare_pool]
    s.flares[0] = [f4]
    assert "mat:final" in check_seat(s, 0, random.Random(0))
    do(s, "final launch", "star S1", "attach long red")
    assert "hand:flare:F4" in check_seat(s, 0, random.Random(0))
    do(s, "use F4")
    assert [str(a) for a in s.legal_actions(0)][-1] == "to nowhere"
    assert "board:slotless" in check_seat(s, 0, random.Random(0))
