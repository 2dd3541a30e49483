"""Issue 52: every agent a table accepts exists in the think workers and plays there. Each
(game, spec) the server's bounds accept at table creation (every registered agent and every
difficulty level, in every game) is chosen once through a real ``ThinkPool`` worker process,
and must give a legal move, never None (which the bot runner would replace by a fallback)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from nightsky.agents.base import LEVEL_NAMES, agent_names, register_agent
from nightsky.agents.simple import RandomAgent
from nightsky.core.errors import GameError
from nightsky.core.game import State
from nightsky.core.registry import game_ids, load_game
from nightsky.server.bounds import plan_bot
from nightsky.server.settings import Settings
from nightsky.server.thinking import ThinkPool

pytestmark = pytest.mark.slow

SETTINGS = Settings(think_seconds=0.3, bot_processes=1, inline_agents=())
GAMES = [g for g in game_ids() if not g.startswith("toy")]  # (the workers know shipped games)


OURS = "test-registered-at-run-time"


def accepted() -> list[tuple[str, str]]:
    """Every (game, spec) a table of that game accepts: what ``plan_bot`` lets through."""
    out = []
    for gid in GAMES:
        game = load_game(gid)
        for spec in [*agent_names(), *LEVEL_NAMES]:
            if spec.startswith("test-") and spec != OURS:
                continue  # another test module's agent (a slow one, say), imported beside us
            try:
                plan_bot(spec, SETTINGS, game)
            except GameError:
                continue
            out.append((gid, spec))
    return out


@register_agent("test-registered-at-run-time", "Registered by this test module on import.")
class RegisteredAtRunTime(RandomAgent):
    """An agent no game declares and no entry point names: the workers learn it only by
    importing this module (the bot runner tells them the agent's module)."""


@pytest.fixture(scope="module")
def pool() -> Iterator[ThinkPool]:
    p = ThinkPool(1, memory_mb=SETTINGS.bot_memory_mb)
    yield p
    p.close()


def position(gid: str) -> State:
    """A few moves into a two-player game of ``gid``, a bot's seat to move."""
    rng = random.Random(5)
    state = load_game(gid).new_initial_state()
    for _ in range(3):
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
        if state.is_terminal():
            break
        seat = state.current_players()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def test_every_registered_agent_is_accepted_somewhere() -> None:
    names = {spec for _, spec in accepted()}
    assert {"tsar-planner", "test-registered-at-run-time"} <= names
    assert {n for n in agent_names() if not n.startswith("test-")} <= names


@pytest.mark.parametrize(("gid", "spec"), accepted())
def test_every_agent_a_table_accepts_plays_in_a_think_worker(
    pool: ThinkPool, gid: str, spec: str
) -> None:
    game = load_game(gid)
    plan = plan_bot(spec, SETTINGS, game)
    assert plan.pooled  # (``random`` goes through a worker too here: no inline agents)
    state = position(gid)
    seat = state.current_players()[0]
    view = state.resample(seat, random.Random(1)) if game.info.hidden_information else state
    deadline = (plan.bot.kwargs.get("seconds") or SETTINGS.think_seconds) + 10
    action = pool.choose(plan.bot, view, seat, random.Random(2), deadline, wait=60,
                         home=type(plan.agent).__module__)  # (as the bot runner calls it)
    assert action is not None, f"{spec} gave no move in {gid}"
    assert state.is_legal(action, seat)


def test_a_fresh_workers_start_up_is_not_charged_to_the_move() -> None:
    # A new pool forks its first worker from a fresh fork server that imports the agents and
    # every game first: far longer than this move's 0.3 s, which must still be played.
    fresh = ThinkPool(1, memory_mb=SETTINGS.bot_memory_mb)
    try:
        state = position("star-fire")
        seat = state.current_players()[0]
        t0 = time.monotonic()
        action = fresh.choose("random", state.resample(seat, random.Random(1)), seat,
                              random.Random(2), 0.3, wait=60)
        print(f"first move of a fresh pool after {time.monotonic() - t0:.2f} s")
        assert action is not None and state.is_legal(action, seat)
    finally:
        fresh.close()
