"""Fixed-size numeric observations for learning agents (OpenSpiel's ``make_py_observer``).

``game.make_observer()`` returns an ``Observer``: ``size`` numbers describing exactly what one
seat may know, the same length in every state of that game. The RL adapters build observation
tensors only through it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from nightsky.core.game import Game, State


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled; tests subclass it
class Observer(ABC):
    """The observation tensor of one game (with fixed parameters)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    @abstractmethod
    def size(self) -> int:
        """Length of every observation of this game."""

    @abstractmethod
    def observation(self, state: State, player: int) -> list[float]:
        """What ``player`` may know of ``state``, as ``size`` numbers."""
