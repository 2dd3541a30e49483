"""Fair scheduling of bot work (issue 52): the queue's order and budget on a fake clock, the
think workers' clock starting with the work, anytime ``greedy`` and the fallback move."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from typing import Any

import pytest

from nightsky.agents.base import AgentSpec, make_agent
from nightsky.core.game import CHANCE
from nightsky.core.registry import load_game
from nightsky.server.bounds import plan_bot
from nightsky.server.rooms.bots import BotRunner, BotTurn, within
from nightsky.server.rooms.fair import WINDOW, FairQueue
from nightsky.server.settings import Settings
from nightsky.server.thinking import ThinkPool


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def serve(q: FairQueue[str], cost: dict[str, float], n: int, clock: FakeClock) -> list[str]:
    """Take ``n`` jobs one after another, each taking its client's ``cost`` seconds."""
    order = []
    for _ in range(n):
        got = q.take()
        assert got is not None
        key, job, _ = got
        clock.t += cost[key]
        q.done(key, cost[key])
        order.append(key)
    return order


def test_one_clients_many_tables_share_one_slice() -> None:
    clock = FakeClock()
    q: FairQueue[str] = FairQueue(clock=clock)
    for t in range(17):  # the attacker's 17 tables, each with a bot move waiting
        q.push("attacker", f"a{t}")
    q.push("control", "c0")
    order = serve(q, {"attacker": 0.05, "control": 0.05}, 2, clock)
    assert order == ["attacker", "control"]  # the control table waits one move, not 17


def test_costly_bots_wait_more_turns_so_thinking_time_is_shared() -> None:
    clock = FakeClock()
    q: FairQueue[str] = FairQueue(quantum=0.05, clock=clock)
    cost = {"search": 1.0, "cheap": 0.05}
    served: Counter[str] = Counter()
    for _ in range(400):
        for key in cost:  # each client always has one more table whose bot is due
            if not q.clients.get(key) or not q.clients[key].jobs:
                q.push(key, key)
        served.update(serve(q, cost, 1, clock))
    seconds = {k: served[k] * cost[k] for k in cost}
    # Deficit round robin: equal thinking seconds, hence 20 cheap moves per search move.
    assert abs(seconds["search"] - seconds["cheap"]) <= 1.0 + 1e-9, seconds
    assert served["cheap"] >= 15 * served["search"]


def test_a_client_over_its_budget_waits_and_others_go_on() -> None:
    clock = FakeClock()
    q: FairQueue[str] = FairQueue(budget=1.0, clock=clock)
    for i in range(5):
        q.push("greedy", f"g{i}")
    assert serve(q, {"greedy": 0.6}, 2, clock) == ["greedy", "greedy"]
    assert q.left("greedy") == pytest.approx(-0.2)
    assert q.take() is None  # 1.2 s used this minute: its next move waits
    q.push("other", "o0")
    got = q.take()
    assert got is not None and got[0] == "other"
    q.done("other", 0.0)
    wake = q.wake_in()
    assert wake is not None and 0 < wake <= WINDOW
    clock.t += wake + 1e-6  # the first 0.6 s left the window
    got = q.take()
    assert got is not None and got[0] == "greedy"


def test_a_job_needing_a_process_waits_for_one_and_cheap_jobs_pass_it() -> None:
    q: FairQueue[str] = FairQueue(clock=FakeClock())
    q.push("a", "search", pooled=True)
    q.push("b", "random", pooled=False)
    got = q.take(processes=False)
    assert got is not None and got[1:] == ("random", False)
    assert q.take(processes=False) is None
    got = q.take(processes=True)
    assert got is not None and got[1:] == ("search", True)


def test_a_moves_time_budget_is_cut_to_what_its_client_has_left() -> None:
    bot = AgentSpec.parse("ismcts:seconds=5")
    assert within(bot, 10.0) is bot
    assert within(bot, 1.23).kwargs["seconds"] == 1.2
    assert within(bot, 0.0).kwargs["seconds"] == 0.1
    assert within(AgentSpec.parse("random"), 0.5) == AgentSpec.parse("random")


def _midgame(game_id: str = "shooting-star", players: int = 2, seed: int = 3) -> Any:
    state = load_game(game_id, players=players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(6):
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    while state.current_players()[0] == CHANCE:
        state.apply(state.sample_chance(rng), CHANCE)
    return state


def test_greedy_out_of_time_plays_the_best_scored_so_far_never_a_random_move() -> None:
    state = _midgame()
    seat = state.current_players()[0]
    actions = state.legal_actions(seat)
    assert len(actions) > 1
    # No time at all: one sample of the first action is scored, and that is the best so far.
    for k in range(8):
        agent = make_agent(AgentSpec.parse("greedy:samples=10000,seconds=0.000001,cheat=true"))
        assert agent.choose(state, seat, random.Random(k)) == actions[0]
    # Time enough: the same move as greedy without a budget.
    timed = make_agent(AgentSpec.parse("greedy:seconds=30,cheat=true"))
    plain = make_agent(AgentSpec.parse("greedy:cheat=true"))
    assert timed.choose(state, seat, random.Random(1)) == plain.choose(
        state, seat, random.Random(1)
    )


def test_greedy_with_many_samples_keeps_its_time_budget() -> None:
    state = _midgame()
    seat = state.current_players()[0]
    agent = make_agent(AgentSpec.parse("greedy:samples=10000,seconds=0.2"))
    t0 = time.perf_counter()
    assert agent.choose(state, seat, random.Random(0)) in state.legal_actions(seat)
    assert time.perf_counter() - t0 < 1.5  # 0.2 s and one sample (slack for a busy machine)


def test_a_bot_given_no_move_plays_greedys_not_a_random_one() -> None:
    runner = BotRunner(workers=1, delay=0, settings=Settings(bot_processes=0),
                       forget=lambda room: None)

    class FakeRoom:
        id = "x"

        def __init__(self, state: Any) -> None:
            self.state = state

    state = _midgame()
    seat = state.current_players()[0]
    plan = plan_bot("ismcts:seconds=1", Settings())
    for k in range(6):
        turn = BotTurn(seat, 0, plan, state.clone(), random.Random(k))
        expected = make_agent(AgentSpec.parse("greedy")).choose(
            state.clone(), seat, random.Random(k)
        )
        assert runner._fallback(FakeRoom(state), turn) == expected  # type: ignore[arg-type]
    runner.close()


def test_a_think_workers_clock_starts_when_it_takes_the_work() -> None:
    pool = ThinkPool(1, memory_mb=0)
    state = _midgame()
    seat = state.current_players()[0]
    try:
        # Warm the worker up (its process starts from the fork server).
        assert pool.choose("random", state, seat, random.Random(0), 30.0) is not None
        results: list[Any] = [None] * 3
        spec = "greedy:samples=10000,seconds=0.4"

        def one(i: int) -> None:
            results[i] = pool.choose(spec, state, seat, random.Random(i), 1.2)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        # The third waited about 0.8 s for the one worker, then thought 0.4 s: a clock started
        # at the call (1.2 s) would have killed it; each played a legal move.
        assert all(r in state.legal_actions(seat) for r in results), results
    finally:
        pool.close()


def test_the_guard_kills_a_worker_that_ignores_its_budget() -> None:
    pool = ThinkPool(1, memory_mb=0)
    state = _midgame()
    seat = state.current_players()[0]
    try:
        t0 = time.monotonic()
        # No time budget and a huge sample count: only the guard ends it.
        got = pool.choose("greedy:samples=10000", state, seat, random.Random(0), 0.5)
        assert got is None and time.monotonic() - t0 < 10
        # The pool starts a fresh worker for the next move.
        assert pool.choose("random", state, seat, random.Random(0), 30.0) is not None
    finally:
        pool.close()


def test_every_agent_a_table_accepts_plays_in_the_think_workers() -> None:
    """``tsar-planner`` (registered by its game's package) is known in a worker too."""
    pool = ThinkPool(1, memory_mb=0)
    state = _midgame("stars-are-right")
    seat = state.current_players()[0]
    try:
        action = pool.choose("tsar-planner", state, seat, random.Random(0), 30.0)
        assert action is not None and state.is_legal(action, seat)
    finally:
        pool.close()


def test_idle_tables_leave_memory_on_the_clock_drivers_timer(tmp_path) -> None:
    """No request needed: the manager's periodic ``tick`` drops a table idle past
    ``idle_seconds`` (the store keeps it; ``get`` brings it back)."""
    from nightsky.server.rooms import Manager, NewGame
    from nightsky.server.store import Store

    m = Manager(Store(f"sqlite:///{tmp_path / 'idle.sqlite3'}"), bot_workers=1, bot_delay=0,
                settings=Settings(bot_processes=0, idle_seconds=4.0))
    try:
        made = m.create(NewGame("shooting-star", ["human", "human"], players=2))
        gid = made.room.id
        m.tick()
        assert gid in m.rooms  # touched just now
        made.room.touched -= 10  # idle past idle_seconds
        m.trimmed -= 2  # the timer's period (idle_seconds / 4) passed
        m.tick()
        assert gid not in m.rooms
        assert m.get(gid).id == gid
    finally:
        m.close()
        m.store.close()
