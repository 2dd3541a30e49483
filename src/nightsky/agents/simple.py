"""The baseline agents: ``random`` and ``greedy`` (one-ply lookahead on the game's ``evaluate``,
``game.evaluator``)."""

from __future__ import annotations

import math
import random
import time

from nightsky.agents.kit import Bounds, check_flag, determinize
from nightsky.core.errors import OptionError
from nightsky.core.game import CHANCE, Action, State


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions(player))


class GreedyAgent:
    """One-ply lookahead: takes the action whose resulting position evaluates best.

    It looks from a determinization (``resample``) so it never reads hidden cards, unless
    ``cheat=true``. Chance right after an action is averaged over ``samples`` draws (1 to
    10,000). With ``epsilon`` (0 to 1) it plays a uniformly random legal action instead with
    that probability (a weaker bot; no random draw is spent on it at 0). With
    ``value=learned`` it maximises the game's learned ``value`` instead of ``evaluate`` (both of
    ``game.evaluator``; a game whose ``GameInfo.value_model`` names one).
    Ties are broken at random so the agent is not predictable. With ``seconds`` (above 0, at
    most 60) it is an anytime agent: it scores the legal actions in order and, when the time is
    up, plays the best scored so far (an action cut short counts with the samples it got).
    """

    name = "greedy"
    SAMPLES = Bounds(1, 10_000, whole=True)
    EPSILON = Bounds(0, 1)
    SECONDS = Bounds(0, 60, above=True)

    def __init__(
        self, samples: int = 1, cheat: bool = False, epsilon: float = 0.0,
        value: str = "heuristic", seconds: float | None = None,
    ) -> None:
        self.seconds: float | None = (
            None if seconds is None else self.SECONDS.check("seconds", seconds, "greedy: ")
        )
        self.samples: int = self.SAMPLES.check("samples", samples, "greedy: ")
        self.cheat = check_flag("cheat", cheat, "greedy: ")
        self.epsilon: float = self.EPSILON.check("epsilon", epsilon, "greedy: ")
        if value not in ("heuristic", "learned"):
            raise OptionError(f"greedy: value must be 'heuristic' or 'learned', got {value!r}")
        self.learned = value == "learned"

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        actions = state.legal_actions(player)
        if len(actions) == 1:
            return actions[0]
        if self.epsilon > 0 and rng.random() < self.epsilon:
            return rng.choice(actions)
        if self.learned and not getattr(state.game.info, "value_model", ""):
            raise OptionError(
                f"greedy: value=learned, but game {state.game.info.id!r} has no learned value "
                "(GameInfo.value_model)"
            )
        base = state if self.cheat else determinize(state, player, rng)
        best: list[Action] = []
        best_value = float("-inf")
        end = math.inf if self.seconds is None else time.perf_counter() + self.seconds
        for action in actions:
            if best and time.perf_counter() >= end:
                break  # out of time: the best scored so far
            total, n = 0.0, 0
            for _ in range(self.samples):
                if n and time.perf_counter() >= end:
                    break
                n += 1
                child = base.clone()
                child.step(action, player)
                # Resolve immediate chance so the evaluation sees its effect.
                guard = 0
                while child.current_players() == (CHANCE,) and guard < 64:
                    child.step(child.sample_chance(rng), CHANCE)
                    guard += 1
                total += self.score(child, player)
            value = total / n
            if value > best_value + 1e-12:
                best_value = value
                best = [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return rng.choice(best)

    def score(self, state: State, player: int) -> float:
        """What the agent maximises: the game's learned ``value`` with ``value=learned``, else
        its ``evaluate`` (both of ``game.evaluator``; a subclass may score positions its own
        way, e.g. a candidate model while training one, ``scripts/train_value.py --method
        play``)."""
        judge = state.game.evaluator
        return judge.value(state, player) if self.learned else judge.evaluate(state, player)
