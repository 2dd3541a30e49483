"""What every agent is built from: the ``Agent`` protocol, ``determinize`` (a state a seat cannot
tell from the true one), ``Bounds`` and ``check_flag`` for checking an agent's parameters.

The agents (``simple``, ``search``, a game's own bots) import this module. The registry that
names and builds them (``base``) declares them by ``module:attribute`` and imports each when it
is first needed, as it does a plug-in's, so an agent that builds others by spec (the search's
rollout policies) may import the registry: the package has no import cycle.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Protocol

from nightsky.core.errors import OptionError
from nightsky.core.game import Action, State


class Agent(Protocol):
    name: str

    def choose(self, state: State, player: int, rng: random.Random) -> Action: ...


def determinize(state: State, player: int, rng: random.Random) -> State:
    """A state ``player`` cannot tell from ``state``: ``state`` itself where nothing is hidden or
    where it already is such a redraw for ``player`` (``State.redrawn_for``), else a new
    ``resample``. So a bot's hidden state is drawn once, by whoever hands it the state."""
    if not state.game.info.hidden_information or state.redrawn_for == player:
        return state
    return state.resample(player, rng)


@dataclass(frozen=True)
class Bounds:
    """The range of a numeric agent parameter: a finite number from ``low`` to ``high`` (above
    ``low`` itself with ``above``), a whole number with ``whole``. Each agent declares one per
    numeric key and checks its keyword arguments with ``check``."""

    low: float
    high: float
    whole: bool = False
    above: bool = False

    def check(self, key: str, value: Any, where: str = "") -> Any:
        """``value`` as an int (``whole``) or a float, or ``OptionError`` naming ``where`` it
        came from (``"ismcts: "``), the key, the bounds and the value (NaN and infinities
        are refused)."""
        number = isinstance(value, int if self.whole else int | float)
        if number and not isinstance(value, bool) and not (
            isinstance(value, float) and not math.isfinite(value)
        ):
            low_ok = value > self.low if self.above else value >= self.low
            if low_ok and value <= self.high:
                return int(value) if self.whole else float(value)
        raise OptionError(f"{where}{key} must be {self.describe()}, got {value!r}")

    def describe(self) -> str:
        low, high = _number(self.low), _number(self.high)
        if self.whole:
            return f"a whole number between {low} and {high}"
        if self.above:
            return f"a finite number above {low} and at most {high}"
        return f"a finite number between {low} and {high}"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def check_flag(key: str, value: Any, where: str = "") -> bool:
    """``value`` if it is true or false, else ``OptionError`` naming the key."""
    if isinstance(value, bool):
        return value
    raise OptionError(f"{where}{key} must be true or false, got {value!r}")
