"""Take-away: a pile of stones; in turn each seat takes one or two; whoever takes the last wins.

A complete nightsky game in one file, shipped as its own distribution: nightsky finds it
through the ``nightsky.games`` entry point of its ``pyproject.toml`` (and the agent
``greedy-take`` through ``nightsky.agents``), so no file of nightsky changes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from nightsky.core import Action, Game, GameInfo, Observer, Option, State


class TakeAwayState(State):
    game: TakeAwayGame

    def __init__(self, game: TakeAwayGame) -> None:
        super().__init__(game)
        self.stones: int = game.options["stones"]
        self.turn = 0
        self.winner: int | None = None

    def _copy(self) -> TakeAwayState:
        c = TakeAwayState.__new__(TakeAwayState)
        c.stones, c.turn, c.winner = self.stones, self.turn, self.winner
        return c

    def current_players(self) -> tuple[int, ...]:
        return () if self.winner is not None else (self.turn % self.game.num_players,)

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_players():
            return []
        return [a for a in self.game.all_actions() if int(str(a)[4:]) <= self.stones]

    def explain_illegal(self, action: Action, player: int) -> tuple[str, str | None]:
        return f"{action} takes more stones than the {self.stones} left", "TA-1"

    def _apply(self, action: Action, player: int) -> None:
        self.stones -= int(str(action)[4:])
        if self.stones == 0:
            self.winner = player
        self.turn += 1

    def score_breakdown(self) -> list[dict[str, float]]:
        return [{"total": float(p == self.winner)} for p in range(self.game.num_players)]

    def _view(self, player: int | None) -> dict[str, Any]:
        return {"stones": self.stones, "to_act": list(self.current_players())}

    def resample(self, player: int, rng: random.Random) -> TakeAwayState:
        return self.clone()  # nothing is hidden


class TakeAwayObserver(Observer):
    """Stones left (scaled) and whether the viewer is to act: what the RL adapters feed."""

    @property
    def size(self) -> int:
        return 2

    def observation(self, state: State, player: int) -> list[float]:
        assert isinstance(state, TakeAwayState)
        return [state.stones / 20, float(player in state.current_players())]


class TakeAwayGame(Game):
    info = GameInfo(
        id="take-away",
        title="Take-away (plug-in)",
        min_players=2,
        max_players=3,
        chance=False,
        hidden_information=False,
        simultaneous=False,
        description="Take one or two stones; whoever takes the last one wins.",
        options=(Option("stones", int, 7, "Stones on the pile.", minimum=1, maximum=20),),
    )
    observer_class = TakeAwayObserver
    _actions: tuple[str, ...] = ("take1", "take2")

    def new_initial_state(self) -> TakeAwayState:
        return TakeAwayState(self)

    def all_actions(self) -> Sequence[Action]:
        return self._actions


class GreedyTake:
    """Takes two stones whenever it may (the ``greedy-take`` agent of the plug-in)."""

    name = "greedy-take"

    def __init__(self, **kwargs: Any) -> None:
        if kwargs:
            raise TypeError(f"greedy-take takes no parameters, got {sorted(kwargs)}")

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        return state.legal_actions(player)[-1]
