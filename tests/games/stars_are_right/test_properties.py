"""Random playouts keep the game's own invariants (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from nightsky.core.game import CHANCE
from nightsky.games.stars_are_right.constants import GOAL, MAX_CREATURES, OVERFLOW

from .util import game


@settings(max_examples=6)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 4))
def test_TSAR_6_8_and_TSAR_10_2_invariants_in_random_play(seed: int, players: int) -> None:
    g = game(players)
    rng = random.Random(seed)
    s = g.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.sample_chance(rng), CHANCE)
            continue
        p = s.current_players()[0]
        for q in range(players):
            limit = MAX_CREATURES + (1 if s.phase == OVERFLOW and q == p else 0)
            assert len(s.creatures[q]) <= limit
            if q != p or s.phase != OVERFLOW:  # a seventh creature's seat may count 10 VP
                assert s.vp(q) < GOAL  # the game stops at once on reaching the goal
        assert min(s.symbols) >= 0
        assert (s.invoked >= 0) == any(s.symbols)
        s.apply(rng.choice(s.legal_actions(p)), p)
    assert s.end_reason in ("goal", "deck", "rounds")
    if s.end_reason == "goal":
        assert max(s.scores()) >= GOAL
