"""Playing games between agents: one game (``play_game``) and many (``run_matches``).

Determinism: game ``i`` of a run with seed ``s`` draws its chance from ``Random(f"{s}:{d}:chance")``
(``d`` is the deal number: ``i`` itself, or ``i // L`` in a tournament of ``L`` seat rotations so
that every rotation plays the same deals) and each seat's agent from ``Random(f"{s}:{i}:seat{p}")``,
so results depend only on the seed and the game index, never on how games are spread over
workers, engines or machines.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from nightsky.agents.base import Agent, make_agent
from nightsky.core.errors import GameError, OptionError
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
    # ``[player actions so far, *scores]`` each time the running score changes (``trace=True``),
    # for lead-change and decisiveness statistics.
    trace: list[list[float]] = field(default_factory=list)
    # Counts of action kinds per seat (see ``action_kind``), for usage statistics.
    usage: list[dict[str, int]] = field(default_factory=list)
    # The agent spec of every seat (tournaments vary them from game to game).
    agents: list[str] = field(default_factory=list)
    # How the game ended (``Evaluator.end_condition``: ``goal``, ``deck``, ...), None where the game
    # does not say.
    end: str | None = None
    # ``[seat, verb, component, player actions before it]`` for every named component a seat
    # took, played, built or scored (``Game.component_events``; ``attribute=True``).
    components: list[tuple[int, str, str, int]] = field(default_factory=list)
    # Turns: runs of consecutive player actions by one seat (a game's own length unit where
    # a turn is many small actions; a round is ``turns / players``).
    turns: int = 0


def action_kind(notation: str) -> str:
    """The kind of an action for usage statistics: its notation's first word, cut at the first
    ``@ , ; : (`` (``discard M5`` -> ``discard``; ``P7@4,1`` -> ``P7``, a card)."""
    word = notation.split(None, 1)[0] if notation.strip() else notation
    for i, ch in enumerate(word):
        if ch in "@,;:(":
            return word[:i] or word
    return word


_kind = action_kind  # the older private name


def play_game(
    game: Game,
    agents: Sequence[Agent | None],
    seed: int | str,
    index: int = 0,
    *,
    keep_record: bool = False,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    trace: bool = False,
    deal: int | None = None,
    on_state: Callable[[State], None] | None = None,
    trace_every: int = 0,
    attribute: bool = False,
) -> GameResult:
    """Play one game. ``agents[p]`` chooses for seat ``p`` (None only for seats the game drives).

    ``deal`` numbers the chance stream (default: ``index``); ``trace`` records the running score
    whenever it changes (``trace_every`` is its older spelling: any value > 0 turns it on);
    ``attribute`` records the named components each seat takes (``Game.component_events``).
    """
    start = time.perf_counter()
    trace = trace or trace_every > 0
    state = game.new_initial_state()
    chance_rng = random.Random(f"{seed}:{index if deal is None else deal}:chance")
    seat_rngs = [random.Random(f"{seed}:{index}:seat{p}") for p in range(len(agents))]
    actions = chance = 0
    points: list[list[float]] = []
    last: list[float] | None = None
    scored = trace and _has_running_score(state)
    usage: list[dict[str, int]] = [dict() for _ in agents]
    taken: list[tuple[int, str, str, int]] = []
    hook = game.component_events if attribute else None
    turns = 0
    last_seat = CHANCE
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
            outcome = state.sample_chance(chance_rng)
            if hook is not None:
                taken.extend((p, v, c, actions) for p, v, c in hook(state, outcome, CHANCE))
            state.step(outcome, CHANCE)
            chance += 1
        else:
            agent = agents[seat]
            if agent is None:
                raise GameError(f"seat {seat} has no agent")
            action = agent.choose(state, seat, seat_rngs[seat])
            if hook is not None:
                taken.extend((p, v, c, actions) for p, v, c in hook(state, action, seat))
            if seat != last_seat:
                turns += 1
                last_seat = seat
            state.apply(action, seat) if getattr(agent, "untrusted", False) else state.step(
                action, seat
            )
            actions += 1
            k = action_kind(str(action))
            counts = usage[seat]
            counts[k] = counts.get(k, 0) + 1
            if scored:
                now = state.scores()
                if now != last:
                    last = list(now)
                    points.append([float(actions), *now])
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
        trace=points,
        usage=usage,
        agents=[getattr(a, "name", "game") if a is not None else "game" for a in agents],
        end=state.game.evaluator.end_condition(state),
        components=taken,
        turns=turns,
    )


def play_out(state: State, agent: Agent, rng: random.Random) -> list[float]:
    """Play ``state`` to its end in place, ``agent`` choosing for every seat and chance drawn
    from ``rng`` (a look-ahead's continuation: scripts compare positions by finishing them);
    the final scores."""
    while not state.is_terminal():
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
        else:
            state.step(agent.choose(state, seat, rng), seat)
    return [float(x) for x in state.scores()]


def _has_running_score(state: State) -> bool:
    try:
        state.scores()
    except Exception:  # noqa: BLE001 - some games score only at the end
        return False
    return True


@dataclass(frozen=True)
class MatchSpec:
    """Everything needed to play game ``index`` anywhere (a worker process, a Ray task).

    ``lineups`` (tournaments): game ``i`` seats ``lineups[i % L]`` instead of ``agent_specs`` and
    plays deal ``i // L``, so each rotation of the seats meets the same shuffles.
    """

    game_id: str
    params: dict[str, Any]
    agent_specs: tuple[str, ...]
    seed: int | str
    keep_record: bool = False
    trace_every: int = 0
    trace: bool = False
    lineups: tuple[tuple[str, ...], ...] = ()
    attribute: bool = False

    def seats_of(self, index: int) -> tuple[str, ...]:
        """The agent specs seated in game ``index``."""
        return self.lineups[index % len(self.lineups)] if self.lineups else self.agent_specs

    def deal_of(self, index: int) -> int:
        """The chance stream of game ``index``."""
        return index // len(self.lineups) if self.lineups else index


_GAMES: dict[tuple[str, str], Game] = {}


def _game(game_id: str, params: dict[str, Any]) -> Game:
    # One Game per process and parameter set: loading may compile boards or read data files.
    key = (game_id, repr(sorted(params.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_game(game_id, **params)
    return game


def play_spec(spec: MatchSpec, index: int) -> GameResult:
    """Play game ``index`` of ``spec`` (a pure function of the spec and the index)."""
    game = _game(spec.game_id, spec.params)
    agents = [make_agent(s, game) for s in spec.seats_of(index)]
    return play_game(
        game,
        agents,
        spec.seed,
        index,
        keep_record=spec.keep_record,
        trace=spec.trace or spec.trace_every > 0,
        deal=spec.deal_of(index),
        attribute=spec.attribute,
    )


def _play_chunk(spec: MatchSpec, indices: list[int]) -> list[GameResult]:
    return [play_spec(spec, i) for i in indices]


def batches(games: int, workers: int, chunk: int = 0, first: int = 0) -> list[list[int]]:
    """Game indices ``first`` .. ``first + games - 1`` split into chunks: big enough to amortise
    a task, small enough to balance the load and move the progress bar."""
    chunk = chunk or max(1, min(50, games // (workers * 8) or 1))
    end = first + games
    return [list(range(i, min(end, i + chunk))) for i in range(first, end, chunk)]


def run_matches(
    spec: MatchSpec, games: int, *, workers: int = 1, chunk: int = 0, first: int = 0
) -> Iterator[GameResult]:
    """Play ``games`` games, indices from ``first`` (a long run split in parts plays the same
    games as one run); yields results as they finish (in any order)."""
    if first < 0:
        raise OptionError(f"the first game index must be 0 or more, got {first}")
    if workers <= 1:
        for i in range(first, first + games):
            yield play_spec(spec, i)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(_play_chunk, spec, b)
                   for b in batches(games, workers, chunk, first)]
        for fut in as_completed(futures):
            yield from fut.result()
