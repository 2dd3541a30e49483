"""Extra figures for ``nightsky bench stars-are-right``: matcher speed and planner time.

Declared by the game (``StarsAreRightGame.bench``); ``nightsky bench`` imports it when asked.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import TYPE_CHECKING, Any, cast

from nightsky.core.game import CHANCE, Game

from . import matcher
from .constants import SETUP

if TYPE_CHECKING:
    from .state import StarsAreRightState


def check_all(game: Any, masks: list[int]) -> int:
    """How many creatures of the game show in one sky (the matcher's whole job for a sky)."""
    n = 0
    for card in range(len(game.cards)):
        shapes, need = game.shapes_for(card)
        if any(masks[f].bit_count() < k for f, k in need):
            continue
        if matcher.find(shapes, masks) is not None:
            n += 1
    return n


def bench_extra(game: Game, seconds: float) -> dict[str, Any]:
    """The matcher's time per sky and the planner's time per decision."""
    from nightsky.agents import make_agent

    rng = random.Random(0)
    # Matcher: all creatures against each of 200 set-up skies.
    skies = []
    for _ in range(200):
        setup = cast("StarsAreRightState", game.new_initial_state())
        while setup.phase == SETUP:
            setup.step(setup.sample_chance(rng), CHANCE)
        skies.append(setup.masks())
    check_all(game, skies[0])  # fill the shape cache
    times = []
    cpu0 = time.process_time()
    for m in skies:
        t0 = time.perf_counter()
        check_all(game, m)
        times.append((time.perf_counter() - t0) * 1e6)
    # CPU time too: on a shared machine the wall clock also counts other processes' turns.
    matcher_cpu_us = (time.process_time() - cpu0) * 1e6 / len(skies)
    # Planner: time per decision of seat 0 in planner-vs-random games.
    planner = make_agent("tsar-planner")
    rand = make_agent("random")
    decisions: list[float] = []
    cpu: list[float] = []
    deadline = time.perf_counter() + max(1.0, seconds)
    while time.perf_counter() < deadline:
        s = game.new_initial_state()
        while not s.is_terminal() and time.perf_counter() < deadline:
            seat = s.current_players()[0]
            if seat == CHANCE:
                s.step(s.sample_chance(rng), CHANCE)
                continue
            if seat == 0:
                t0, c0 = time.perf_counter(), time.process_time()
                a = planner.choose(s, 0, rng)
                decisions.append((time.perf_counter() - t0) * 1e3)
                cpu.append((time.process_time() - c0) * 1e3)
            else:
                a = rand.choose(s, seat, rng)
            s.apply(a, seat)
    return {
        "matcher_all_creatures_us_median": round(statistics.median(times), 1),
        "matcher_all_creatures_us_max": round(max(times), 1),
        "matcher_all_creatures_cpu_us_mean": round(matcher_cpu_us, 1),
        "planner_decisions": len(decisions),
        "planner_ms_per_decision_mean": (
            round(statistics.fmean(decisions), 2) if decisions else None),
        "planner_ms_per_decision_max": round(max(decisions), 2) if decisions else None,
        "planner_cpu_ms_per_decision_mean": round(statistics.fmean(cpu), 2) if cpu else None,
        "planner_cpu_ms_per_decision_median": (
            round(statistics.median(cpu), 2) if cpu else None),
    }

