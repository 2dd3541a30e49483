"""Playing games between agents: one game (``play_game``) and many (``run_matches``).

Determinism: game ``i`` of a run with seed ``s`` draws its chance from ``Random(f"{s}:{i}:chance")``
and each seat's agent from ``Random(f"{s}:{i}:seat{p}")``, so results depend only on the seed and
the game index, never on how games are spread over workers or machines.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from nightsky.agents.base import Agent, make_agent
from nightsky.core.errors import GameError
from nightsky.core.game import CHANCE, Game, State
from nightsky.core.record import make_record
from nightsky.core.registry import load_game

DEFAULT_MAX_ACTIONS = 100_000


class RunawayGameError(GameError):
    """A game did not end within the action bound (a rules bug or a stalling agent)."""

    code = "runaway_game"


@dataclass
class GameResult:
    """What one finished game leaves behind (small and picklable)."""

    index: int
    scores: list[float]
    winners: list[int]
    actions: int  # player actions (chance outcomes not counted)
    chance_events: int
    seconds: float
    breakdown: list[dict[str, float]] = field(default_factory=list)
    record: dict[str, Any] | None = None
    # Per-seat score after each full round of actions, for lead-change statistics.
    trace: list[list[float]] = field(default_factory=list)
    # Counts of action kinds per seat (notation prefix up to the first non-letter), for usage stats.
    usage: list[dict[str, int]] = field(default_factory=list)


def _kind(notation: str) -> str:
    out = []
    for ch in notation:
        if ch.isalpha() or ch in "-_":
            out.append(ch)
        else:
            break
    return "".join(out) or notation[:1]


def play_game(
    game: Game,
    agents: Sequence[Agent | None],
    seed: int | str,
    index: int = 0,
    *,
    keep_record: bool = False,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    trace_every: int = 0,
    on_state: Callable[[State], None] | None = None,
) -> GameResult:
    """Play one game. ``agents[p]`` chooses for seat ``p`` (None only for seats the game drives)."""
    start = time.perf_counter()
    state = game.new_initial_state()
    chance_rng = random.Random(f"{seed}:{index}:chance")
    seat_rngs = [random.Random(f"{seed}:{index}:seat{p}") for p in range(len(agents))]
    actions = chance = 0
    trace: list[list[float]] = []
    usage: list[dict[str, int]] = [dict() for _ in agents]
    steps = 0
    while True:
        players = state.current_players()
        if not players:
            break
        steps += 1
        if steps > max_actions:
            raise RunawayGameError(
                f"{game.info.id} game {index} (seed {seed}) did not end "
                f"within {max_actions} actions"
            )
        seat = players[0]
        if seat == CHANCE:
            state.step(state.sample_chance(chance_rng), CHANCE)
            chance += 1
        else:
            agent = agents[seat]
            if agent is None:
                raise GameError(f"seat {seat} has no agent")
            action = agent.choose(state, seat, seat_rngs[seat])
            state.apply(action, seat) if getattr(agent, "untrusted", False) else state.step(
                action, seat
            )
            actions += 1
            if usage:
                k = _kind(str(action))
                usage[seat][k] = usage[seat].get(k, 0) + 1
            if trace_every and actions % trace_every == 0:
                trace.append(list(state.scores()) if _has_running_score(state) else [])
        if on_state is not None:
            on_state(state)
    breakdown = state.score_breakdown()
    return GameResult(
        index=index,
        scores=[b["total"] for b in breakdown],
        winners=state.winners(),
        actions=actions,
        chance_events=chance,
        seconds=time.perf_counter() - start,
        breakdown=breakdown,
        record=make_record(state) if keep_record else None,
        trace=[t for t in trace if t],
        usage=usage,
    )


def _has_running_score(state: State) -> bool:
    try:
        state.scores()
    except Exception:  # noqa: BLE001 - some games score only at the end
        return False
    return True


@dataclass(frozen=True)
class MatchSpec:
    """Everything needed to play game ``index`` anywhere (a worker process, a Ray task)."""

    game_id: str
    params: dict[str, Any]
    agent_specs: tuple[str, ...]
    seed: int | str
    keep_record: bool = False
    trace_every: int = 0


def play_spec(spec: MatchSpec, index: int) -> GameResult:
    game = load_game(spec.game_id, **spec.params)
    agents = [make_agent(s) for s in spec.agent_specs]
    return play_game(
        game, agents, spec.seed, index, keep_record=spec.keep_record, trace_every=spec.trace_every
    )


def _play_chunk(spec: MatchSpec, indices: list[int]) -> list[GameResult]:
    return [play_spec(spec, i) for i in indices]


def run_matches(
    spec: MatchSpec, games: int, *, workers: int = 1, chunk: int = 0
) -> Iterator[GameResult]:
    """Play ``games`` games; yields results as they finish (in any order)."""
    if workers <= 1:
        for i in range(games):
            yield play_spec(spec, i)
        return
    chunk = chunk or max(1, min(50, games // (workers * 8) or 1))
    batches = [list(range(i, min(games, i + chunk))) for i in range(0, games, chunk)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_play_chunk, spec, b) for b in batches]
        for fut in as_completed(futures):
            yield from fut.result()
