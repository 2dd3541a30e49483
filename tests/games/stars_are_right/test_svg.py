"""The SVG board: well-formed, every legal click drawn, only what the viewer may know."""

from __future__ import annotations

import random

import pytest

from nightsky.core import load_game
from nightsky.games.stars_are_right.actions import End
from tests.support.svgcheck import (
    check_resample,
    check_setup,
    check_targets,
    ids_of,
    parse,
    playout,
)

from .util import game, setup


@pytest.mark.parametrize("players", [2, 3, 4])
def test_svg_targets_drawn_and_nothing_hidden_over_playouts(players: int) -> None:
    checked = 0
    for seed in range(2):
        s = game(players).new_initial_state()
        for st in playout(s, random.Random(seed), max_steps=150, every=5):
            if not st.is_terminal():
                checked += check_targets(st, lambda a: isinstance(a, End))
                check_resample(st, random.Random(checked))
            else:
                parse(st.game.ui.board_svg(st, 0))
    assert checked > 100


def test_svg_push_arrows_and_cards_have_ids() -> None:
    s = setup(game(2), 4)
    ids = ids_of(parse(s.game.ui.board_svg(s, 0)))
    assert {"push-row-0-left", "push-row-4-right", "push-col-2-up", "push-col-2-down",
            "deck", "discard", "tile-0-0", "tile-4-4"} <= ids
    assert {f"card-{s.game.cards[c].id}" for c in s.hands[0]} <= ids


def test_svg_hides_other_hands_and_resample_is_invisible() -> None:
    g = game(3)
    s = setup(g, 5)
    rng = random.Random(1)
    for _ in playout(s, rng, max_steps=100):  # some turns in: discards, creatures
        pass
    assert not s.is_terminal()
    mine = s.game.ui.board_svg(s, 0)
    theirs = [g.cards[c].id for q in (1, 2) for c in s.hands[q] if c not in s.known[q]]
    assert theirs and not any(f"card-{c}\"" in mine for c in theirs)
    differ = 0
    for k in range(5):
        r = s.resample(0, random.Random(k))
        assert r.game.ui.board_svg(r, 0) == mine
        differ += r.hands[1] != s.hands[1] or r.hands[2] != s.hands[2]
    assert differ
    spectator = s.game.ui.board_svg(s, None)
    hands = [g.cards[c].id for q in range(3) for c in s.hands[q] if c not in s.known[q]]
    assert not any(f"card-{c}\"" in spectator for c in hands)
    assert "Your hand" not in spectator and "Your hand" in mine


def test_svg_draws_every_set_up_step() -> None:
    s = load_game("stars-are-right", players=2).new_initial_state()
    assert check_setup(s, random.Random(3)) >= 1
