"""The rulebook's Example of Play as a loadable position and its steps.

Red (seat 0), Yellow (seat 1) and Blue (seat 2). Red stands on Gain Cores, Yellow on Gain Short
Rays with 2 saved action points, Blue on Gain Cores. Hydrus already holds one star (Blue's).
Yellow has already launched a magnitude 3 star before and holds Core C2 (red/blue, any sizes,
the cornucopia Aspect) with three suitable rays.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from nightsky.core.game import CHANCE, Tutorial

if TYPE_CHECKING:
    from .state import StarlightState

TEXT = """Red has 5 action points: two steps (the first onto the Aquila/Hydrus Launch space,
which Red passes by) reach Gain Long Rays, where three long rays cost the other 3. The pool is
refilled only when Red's turn is over (three draws). Yellow starts on Gain Short Rays with 2
saved points, so 7 to spend: one step to Gain Cores, where Blue's marker stands, so the Core
costs 1 plus the 1-point occupation surcharge. One more step to the Aquila/Hydrus Launch space
and 1 point to launch: Yellow's three rays make a magnitude 3 star. Hydrus already has a star,
so the new one must be linked to it: the small slot (the medium one is too big). Yellow scores
7 night points, records the Refill Rays privilege and the cornucopia Aspect (magnitude 3 was
recorded before), returns the rays, discards the Core, and saves the last 2 points."""

STEPS: tuple[tuple[int, str], ...] = (
    (0, "step"),
    (0, "step"),
    (0, "take long white"),
    (0, "take long white"),
    (0, "take long violet"),
    (0, "end"),
    (CHANCE, "draw long red"),
    (CHANCE, "draw long blue"),
    (CHANCE, "draw long yellow"),
    (1, "step"),
    (1, "core C20"),
    (1, "step"),
    (1, "launch"),
    (1, "star C2"),
    (1, "attach long red"),
    (1, "attach short red"),
    (1, "attach short blue"),
    (1, "to hydrus 2"),
    (1, "end"),
    (CHANCE, "draw C30"),
)


def build() -> StarlightState:
    """The position at the start of Red's turn."""
    from nightsky.core.registry import load_game

    # The book's example knows nothing of our designed turn-order compensation (Ruling
    # SL-1.5): it is played on the uncompensated set-up so that it runs exactly as printed.
    g = load_game("starlight", players=3, turn_order_compensation=False)
    s = cast("StarlightState", g.new_initial_state())
    rng = random.Random(2024)
    while s.current_players() == (CHANCE,):
        s.apply(s.sample_chance(rng), CHANCE)
    t = s.t
    nc = len(t.colors)

    def cid(x: str) -> int:
        return t.core_ids.index(x)

    def col(x: str) -> int:
        return t.colors.index(x)

    # Core pool: C20, C21, C22; C2 in Yellow's hand; C30 still in the deck.
    s.core_deck.extend(s.core_pool)
    s.core_pool = []
    for x in ("C20", "C21", "C22"):
        s.core_deck.remove(cid(x))
        s.core_pool.append(cid(x))
    s.core_deck.remove(cid("C2"))
    s.cores[1].append(cid("C2"))
    s.core_deck.sort()
    # Long pool: white, white, violet, blue, blue.
    for c in s.long_pool:
        s.long_bag[c] += 1
    s.long_pool = []
    for x in ("white", "white", "violet", "blue", "blue"):
        s.long_bag[col(x)] -= 1
        s.long_pool.append(col(x))
    # Yellow's rays: one long red, one short red, one short blue.
    s.long_bag[col("red")] -= 1
    s.rays[1][col("red")] += 1
    for x in ("red", "blue"):
        s.short_bag[col(x)] -= 1
        s.rays[1][nc + col(x)] += 1
    s.mags[1] = 1 << (3 - 2)  # magnitude 3 recorded earlier
    s.saved[1] = 2
    hydrus = t.constellations.index("hydrus")
    s.board[t.slots_of[hydrus][0]] = 2  # Blue's star in Hydrus 1
    s.pos[0] = t.rondel.index("cores")
    s.pos[1] = t.rondel.index("short")
    s.pos[2] = t.rondel.index("cores")
    s.round = 3
    s.turn = 0
    s._start_live_turn(0)
    # The example starts here: forget the set-up draws and how the log reads them.
    s.forget_history()
    return s


def example_of_play() -> Tutorial:
    return Tutorial(
        name="example-of-play",
        title="Example of Play: Red's rays, Yellow's Core and a launch into Hydrus",
        text=TEXT,
        build=build,
        steps=STEPS,
        names=("Red", "Yellow", "Blue"),
    )
