"""The rulebook's Example of Play, step by step (scenario test and tutorial)."""

from __future__ import annotations

from nightsky import load_game
from nightsky.core.game import CHANCE
from nightsky.games.starlight.constants import P_REFILL


def test_example_of_play_SL_2_3_SL_2_6_SL_7_6_SL_2_7():
    g = load_game("starlight", players=3)
    (tut,) = g.tutorials()
    s = tut.build()
    assert s.turn == 0 and s.ap == 5 and s.space(0) == "cores"
    steps = list(tut.steps)

    def run(k):
        for seat, text in steps[:k]:
            s.apply(g.parse_action(text), seat)
        del steps[:k]

    run(2)  # Red: two steps, passing the Launch space, onto Gain Long Rays
    assert s.space(0) == "long" and s.ap == 3
    run(3)  # three long rays
    assert s.ap == 0 and sum(s.rays[0]) == 3 and len(s.long_pool) == 2
    run(1)  # Red is done: the pool is refilled by three draws
    assert s.current_players() == (CHANCE,) and len(s.pending) == 3
    run(3)
    assert len(s.long_pool) == 5 and s.turn == 1
    assert s.ap == 7  # Yellow: 5 plus 2 saved
    run(2)  # a step to Gain Cores, where Blue stands: the Core costs 2
    assert s.ap == 4 and s.t.core_ids.index("C20") in s.cores[1]
    run(2)  # a step to the Aquila/Hydrus Launch space and the launch itself
    assert s.ap == 2
    run(4)  # Core C2 with three rays: magnitude 3
    assert s.star_magnitude() == 3
    legal = [str(a) for a in s.legal_actions()]
    assert [x for x in legal if x.startswith("to hydrus")] == ["to hydrus 2"]
    run(1)
    assert s.np[1] == 7 and s.privs[1] == P_REFILL
    assert s.aspects[1] == 1 << s.t.aspects.index("cornucopia")
    assert s.mags[1] == 1 << 1  # nothing new for magnitude 3
    assert sum(s.rays[1]) == 0 and s.t.core_ids.index("C2") in s.core_discard
    run(1)  # Yellow ends and saves 2
    assert s.saved[1] == 2
    run(1)
    assert s.turn == 2 and not steps


def test_tutorial_is_listed_and_rendered():
    g = load_game("starlight", players=3)
    tut = g.tutorial("example-of-play")
    s = tut.build()
    text = s.game.ui.render(s, 0)
    assert "Hydrus" in text and "Rondel" in text and "Seat 2" in text and "P1" not in text
