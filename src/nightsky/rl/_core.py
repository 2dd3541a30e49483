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
from collections.abc import Callable
from typing import Any

from nightsky._extras import missing

try:
    import numpy as np
except ModuleNotFoundError as exc:
    raise missing(exc, "rl", "nightsky.rl") from exc

from nightsky.core.game import CHANCE, Action, Game, State
from nightsky.core.observer import Observer
from nightsky.core.registry import load_game


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


def action_id_function(game: Game) -> Callable[[Action], int]:
    """``game.action_id``, or the id table's own ``__getitem__`` when the game keeps the
    contract's (an action outside the table raises KeyError then, not InvalidActionError).

    The contract's ``Game.action_id`` is a dictionary lookup behind two Python calls; the
    adapters call it for every legal action at every step, so they look the id up directly
    where the game does not override it (Stars Are Right does: it maps tiled summons first).
    """
    if type(game).action_id is not Game.action_id:
        return game.action_id
    return game._index().__getitem__  # KeyError: callers fall back on game.action_id


def legal_ids(game: Game, state: State, seat: int) -> list[int]:
    """Sorted integer ids of ``seat``'s legal actions."""
    return sorted(map(game.action_id, state.legal_actions(seat)))


class StepArrays:
    """The observation and the action mask of one adapter (one per environment), built at
    every step without intermediate Python lists of ids or numpy's list conversion.

    The mask is one preallocated ``int8`` buffer, zeroed and set from the legal ids each step;
    what the adapters hand out is a copy of it (learners and the PettingZoo/Gymnasium API
    checks keep observations of earlier steps). The observation is read straight from the
    observer's numbers into a new ``float32`` array (``np.fromiter`` with a known count: one
    pass, no type discovery), which is already a fresh array, so it needs no copy.
    """

    def __init__(self, game: Game, observer: Observer) -> None:
        self.game = game
        self.observer = observer
        self.size = observer.size
        self.mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
        self._action_id = action_id_function(game)

    def action_mask(self, state: State, seat: int) -> np.ndarray:
        """``int8`` mask over ``game.num_distinct_actions`` (a new array each call)."""
        mask = self.mask
        mask.fill(0)
        if seat in state.current_players():
            legal = state.legal_actions(seat)
            try:
                ids = np.fromiter(map(self._action_id, legal), dtype=np.intp, count=len(legal))
            except KeyError:  # not an action of the game: the contract's error
                ids = np.fromiter(map(self.game.action_id, legal), np.intp, len(legal))
            mask[ids] = 1
        return mask.copy()

    def observation(self, state: State, seat: int) -> np.ndarray:
        """``observer.observation(state, seat)`` as a new ``float32`` array."""
        return np.fromiter(
            self.observer.observation(state, seat), dtype=np.float32, count=self.size
        )


def action_mask(game: Game, state: State, seat: int) -> np.ndarray:
    """``int8`` mask over ``game.num_distinct_actions``: 1 where ``seat`` may act now.

    One-off form; the adapters keep a ``StepArrays`` per environment."""
    mask = np.zeros(game.num_distinct_actions, dtype=np.int8)
    if seat in state.current_players():
        legal = state.legal_actions(seat)
        ids = np.fromiter(map(game.action_id, legal), dtype=np.intp, count=len(legal))
        mask[ids] = 1
    return mask


def observation_array(observer: Observer, state: State, seat: int) -> np.ndarray:
    """``observer.observation(state, seat)`` as a ``float32`` array."""
    return np.fromiter(observer.observation(state, seat), dtype=np.float32, count=observer.size)


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
