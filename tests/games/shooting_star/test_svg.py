"""The SVG board: well-formed, every legal click drawn, only what the viewer may know."""

from __future__ import annotations

import random

import pytest

from nightsky.core import load_game
from tests.support.svgcheck import (
    check_resample,
    check_setup,
    check_targets,
    ids_of,
    parse,
    playout,
)


@pytest.mark.parametrize("variant", ["standard", "personalized"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_svg_targets_drawn_and_nothing_hidden_over_playouts(players: int,
                                                            variant: str) -> None:
    checked = 0
    for seed in range(2):
        s = load_game("shooting-star", players=players, variant=variant).new_initial_state()
        for st in playout(s, random.Random(seed), every=3):
            if st.is_terminal():
                root = parse(st.game.ui.board_svg(st, 0))
                assert "winner" in "".join(root.itertext())
            else:
                checked += check_targets(st, lambda a: False)  # every action has a target
                check_resample(st, random.Random(checked))
    assert checked > 50


def _placing(players: int, seed: int, variant: str = "standard"):  # type: ignore[no-untyped-def]
    """A position in turn 2 or later with face-down cards of other seats on the table."""
    s = load_game("shooting-star", players=players, variant=variant).new_initial_state()
    rng = random.Random(seed)
    for st in playout(s, rng):
        if st.turn >= 1 and len(st.placed) == players - 1:
            return st
    raise AssertionError("no such position")  # pragma: no cover


@pytest.mark.parametrize("players", [2, 4])
def test_svg_resample_is_invisible_and_hides_others(players: int) -> None:
    s = _placing(players, 3)
    seat = s.current_players()[0]
    mine = s.game.ui.board_svg(s, seat)
    differ = 0
    for k in range(8):
        r = s.resample(seat, random.Random(k))
        assert r.game.ui.board_svg(r, seat) == mine
        differ += r.placed != s.placed or r.missions != s.missions
    assert differ
    g = s.g
    others = [m for q, trio in enumerate(s.missions) if q != seat for m in trio
              if m not in s.missions[seat]]
    shown = "".join(parse(mine).itertext())
    assert not any(g.missions[m].text in shown for m in others)
    assert all(g.missions[m].text in shown for m in s.missions[seat])


def test_svg_spectator_sees_no_hand() -> None:
    s = _placing(3, 5)
    root = parse(s.game.ui.board_svg(s, None))
    assert not any(i.startswith(("card-", "planet-")) for i in ids_of(root))
    text = "".join(root.itertext())
    assert "Secret Missions" not in text and "Your Destruction cards" not in text
    seat = s.current_players()[0]
    ids = ids_of(parse(s.game.ui.board_svg(s, seat)))
    assert {f"card-{k}" for k in s.view(seat)["seats"][seat]["hand"]} <= ids
    # the cards of the other seats lie face down: their keys are not drawn on the cells
    for _seat, _card, c in s.placed:
        col, row = s.g.cell_cr[c]
        cell = next(e for e in root.iter() if e.get("id") == f"cell-{col}-{row}")
        assert "face-down" in (cell.get("data-label") or "")


def test_svg_draws_every_set_up_step() -> None:
    s = load_game("shooting-star", players=2).new_initial_state()
    assert check_setup(s, random.Random(3)) >= 1
