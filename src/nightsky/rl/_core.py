"""Shared plumbing of the RL adapters: a game driven by integer action ids.

Everything here goes through the game contract (``nightsky.core.game``): ``current_players``,
``legal_actions``, ``game.action_id`` / ``action_from_id``, ``observation`` /
``make_observer()``, ``chance_outcomes`` / ``sample_chance``. Nothing is game-specific.

Seats: the agents of every adapter are the live seats ``0 .. game.num_players - 1``. A game may
add seats of its own after them (``game.num_seats``, Starlight's Starbots); those never act
through ``legal_actions`` (their turns are chance draws), so the adapters treat them as part of
the environment.
"""

from __future__ import annotations

import random
from typing import Any

from nightsky._extras import missing

try:
    import numpy as np
except ModuleNotFoundError as exc:
    raise missing(exc, "rl", "nightsky.rl") from exc

from nightsky.core.errors import OptionError
from nightsky.core.game import CHANCE, Game, State
from nightsky.core.markup import console_text
from nightsky.core.observer import Observer
from nightsky.core.registry import load_game

REWARDS = ("auto", "win", "score", "shaped")
"""What every adapter's ``reward=`` takes (see ``Rewarder``)."""


def make_game(game_id: str, **params: Any) -> Game:
    """Load a game and check it offers what the RL adapters need."""
    game = load_game(game_id, **params)
    try:
        size = game.make_observer().size
    except NotImplementedError as exc:
        raise NotImplementedError(
            f"{game_id} defines no observation tensor (Game.observer_class), "
            "which the RL adapters need"
        ) from exc
    if size <= 0:
        raise ValueError(f"{game_id}: observation_size must be positive, got {size}")
    return game


def opponent_specs(game: Game, seat: int, opponents: str | list[str]) -> dict[int, str]:
    """The agent spec of every live seat but the learner's ``seat``: one spec for all, or a
    list with one per other seat in seat order. A bad seat or count is an ``OptionError``."""
    n = game.num_players
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise OptionError(f"seat must be a live seat 0..{n - 1} of {game.info.id}, got {seat!r}")
    others = [p for p in range(n) if p != seat]
    specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
    if len(specs) != len(others):
        raise OptionError(
            f"opponents: give one spec or {len(others)} (one per other seat), got {len(specs)}"
        )
    return dict(zip(others, specs, strict=True))


def legal_ids(game: Game, state: State, seat: int) -> list[int]:
    """Sorted integer ids of ``seat``'s legal actions."""
    return sorted(state.legal_action_ids(seat))


class StepArrays:
    """The observation and the action mask of one adapter (one per environment), built at
    every step into preallocated numpy buffers, without Python lists of floats.

    The observation buffer is zeroed (numpy's ``fill``) and the observer writes the entries
    that are not zero into it (``Observer.observation_into``, through a ``memoryview``); the
    mask buffer is zeroed and set from ``State.legal_action_ids``. What the adapters hand out
    are copies (learners and the PettingZoo/Gymnasium API checks keep the arrays of earlier
    steps), a few hundred nanoseconds each.
    """

    def __init__(self, game: Game, observer: Observer) -> None:
        self.game = game
        self.observer = observer
        self.size = observer.size
        self.mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
        self._mask_view = self.mask.data
        self.obs = np.zeros(self.size, dtype=np.float32)
        self._obs_view = self.obs.data

    def __getstate__(self) -> dict[str, Any]:
        # memoryviews do not pickle: environments are pickled and deep-copied by vectorising
        # libraries; the views are rebuilt from the arrays.
        state = self.__dict__.copy()
        del state["_mask_view"], state["_obs_view"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._mask_view = self.mask.data
        self._obs_view = self.obs.data

    def action_mask(self, state: State, seat: int) -> np.ndarray:
        """``int8`` mask over ``game.num_distinct_actions`` (a new array each call)."""
        self.mask.fill(0)
        if seat in state.current_players():
            view = self._mask_view
            # A few dozen ids at most: item by item beats numpy's list-index conversion.
            for i in state.legal_action_ids(seat):
                view[i] = 1
        return self.mask.copy()

    def observation(self, state: State, seat: int) -> np.ndarray:
        """``observer.observation(state, seat)`` as a new ``float32`` array."""
        self.obs.fill(0.0)
        self.observer.observation_into(state, seat, self._obs_view)
        return self.obs.copy()


def action_mask(game: Game, state: State, seat: int) -> np.ndarray:
    """``int8`` mask over ``game.num_distinct_actions``: 1 where ``seat`` may act now.

    One-off form; the adapters keep a ``StepArrays`` per environment."""
    mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
    if seat in state.current_players():
        mask[state.legal_action_ids(seat)] = 1
    return mask


def observation_array(observer: Observer, state: State, seat: int) -> np.ndarray:
    """``observer.observation(state, seat)`` as a ``float32`` array."""
    out = np.zeros(observer.size, dtype=np.float32)
    observer.observation_into(state, seat, out.data)
    return out


def resolve_chance(state: State, rng: random.Random) -> int:
    """Apply chance outcomes drawn from ``rng`` until a seat (or nobody) is to act.

    Returns how many chance events were applied.
    """
    n = 0
    while state.current_players() == (CHANCE,):
        state.step(state.sample_chance(rng), CHANCE)
        n += 1
    return n


def acting_seat(state: State) -> int | None:
    """The seat asked to act next: the lowest of ``current_players()``, None when over.

    When several seats act at once (simultaneous turns), the contract lets each of them act in
    any order, so the adapters ask them one after another, lowest seat first, and apply each
    action as it comes.
    """
    players = state.current_players()
    if not players:
        return None
    if players == (CHANCE,):
        raise RuntimeError("resolve chance before asking who acts")
    return min(players)


def live_returns(state: State, num_players: int) -> list[float]:
    """Win shares (``State.returns``) of the live seats at the end of a game."""
    return [float(r) for r in state.returns()[:num_players]]


def final_result(state: State) -> tuple[list[float], list[int]]:
    """``(state.scores(), state.winners())`` of a finished game, scoring it once.

    ``State.winners`` scores the position again (so does ``returns``, through it), and
    scoring is the dearest part of a game's end (Shooting Star's missions, Star Fire's
    majorities). Where the state's class keeps the contract's ``winners``, its rule (best
    ``(score, *tiebreakers)``) is applied here to the one list of scores; a game that
    overrides ``winners`` is asked for its own.
    """
    scores = state.scores()
    if type(state).winners is not State.winners:
        return scores, state.winners()
    keys = [(scores[p], *state.tiebreakers(p)) for p in range(len(scores))]
    best = max(keys)
    return scores, [p for p, k in enumerate(keys) if k == best]


def win_shares(state: State, winners: list[int], num_players: int) -> list[float]:
    """``live_returns`` from the game's ``winners`` (``State.returns``'s shares, ties split),
    without scoring again where the state's class keeps the contract's ``returns``."""
    if type(state).returns is not State.returns or type(state).winners is not State.winners:
        return live_returns(state, num_players)
    n = state.game.num_seats
    if not winners:
        return [0.0] * min(n, num_players)
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)][:num_players]


def evaluations(state: State, num_players: int) -> list[float]:
    """The game's own evaluation of every live seat (the potential of ``reward="shaped"``).

    The one place ``rl/`` reads a game's evaluation: the game's evaluator (``game.evaluator``),
    beside its observer.
    """
    return [float(v) for v in state.game.evaluator.evaluate_all(state)[:num_players]]


def score_rewards(state: State, num_players: int) -> list[float]:
    """``reward="score"`` of every live seat of a finished game: its final score, less the best
    score of the other seats (Starbots included) when there are any."""
    return score_differences(state.scores(), num_players)


def score_differences(raw: list[float], num_players: int) -> list[float]:
    """``score_rewards`` from the final ``scores`` of every seat (``State.scores``)."""
    scores = [float(s) for s in raw]
    if len(scores) == 1:
        return scores
    out = []
    for p in range(num_players):
        best_other = max(v for q, v in enumerate(scores) if q != p)
        out.append(scores[p] - best_other)
    return out


def resolve_reward(game: Game, reward: str) -> str:
    """The reward kind an adapter pays: ``reward`` checked; ``auto`` is ``win`` where a seat
    can lose and ``score`` in a game of one seat (whose win share is always 1)."""
    if reward not in REWARDS:
        raise OptionError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    solo = game.num_seats == 1
    if reward == "auto":
        return "score" if solo else "win"
    if reward == "win" and solo:
        raise OptionError(
            f"reward='win' is constant in {game.info.id} with one seat and no rival (the win "
            "share is always 1): use reward='score' or 'shaped'"
        )
    return reward


class Rewarder:
    """The rewards of the live seats of one environment, step by step.

    * ``win``: 0 until the end, then each seat's win share (``State.returns``).
    * ``score``: 0 until the end, then ``score_rewards``.
    * ``shaped``: after every step, the change of a potential: the game's own evaluation
      (``evaluations``) while the game runs, the ``score`` reward once it is over. An
      episode's shaped rewards thus add up to its ``score`` reward less the evaluation of the
      position the seat first saw: potential-based shaping (Ng, Harada, Russell 1999), which
      keeps the ``score`` objective's best policies and pays something at every step.
    """

    def __init__(self, game: Game, reward: str = "auto") -> None:
        self.kind = resolve_reward(game, reward)
        self.num_players = game.num_players
        self._zeros = [0.0] * self.num_players
        self.potential = self._zeros
        self.result: tuple[list[float], list[int]] | None = None

    def final(self, state: State) -> list[float]:
        """The terminal reward of ``win`` / ``score`` (the potential of a finished game).

        The game is scored once (``final_result``); its scores and winners are kept in
        ``result`` for the caller's infos (the vector env), until the next ``final``."""
        self.result = final_result(state)
        scores, winners = self.result
        if self.kind == "win":
            return win_shares(state, winners, self.num_players)
        return score_differences(scores, self.num_players)

    def potential_of(self, state: State) -> list[float]:
        """The potential of ``shaped``: the evaluation, or the ``score`` reward at the end."""
        if state.is_terminal():
            return self.final(state)
        return evaluations(state, self.num_players)

    def reset(self, state: State) -> None:
        """Start an episode at ``state``."""
        self.result = None
        if self.kind == "shaped":
            self.potential = self.potential_of(state)

    def step(self, state: State) -> list[float]:
        """Each live seat's reward for what happened since the last call (or ``reset``)."""
        if self.kind == "shaped":
            new = self.potential_of(state)
            out = [a - b for a, b in zip(new, self.potential, strict=True)]
            self.potential = new
            return out
        if state.is_terminal():
            return self.final(state)
        return self._zeros[:]


def ansi_render(text: str) -> str:
    """A render's rich style tags as terminal escape codes (what ``render_mode="ansi"`` and
    ``"human"`` print); its own brackets stay text."""
    import io

    from rich.console import Console

    console = Console(
        file=io.StringIO(), force_terminal=True, color_system="standard", width=200,
        highlight=False, emoji=False, soft_wrap=True,
    )
    with console.capture() as captured:
        console.print(console_text(text), end="")
    return captured.get()
