"""PettingZoo AEC environment for any nightsky game (``nightsky.rl.pettingzoo_env``).

* Agents are ``"seat_0" .. "seat_{n-1}"``, the live seats (see ``nightsky.rl._core``).
* Observation of an agent: ``{"observation": float32[observer.size],
  "action_mask": int8[game.num_distinct_actions]}``; the observation is
  ``game.make_observer()`` (only what that seat may know), the mask marks its legal action
  ids (all zeros when it is not its turn).
* Actions are the game's integer ids (``game.action_id``); an id that is not legal raises
  ``IllegalActionError`` naming the rule, and changes nothing.
* Chance events (shuffles, dice, draws) are taken inside the environment with a
  ``random.Random`` seeded by ``reset(seed=...)``: same seed and same actions, same game.
  ``reset()`` without a seed continues the same random stream (a new game each time).
* Simultaneous turns: when several seats act at once, they are asked one after another (lowest
  seat first) and each action is applied as it comes, which the game contract allows.
* Rewards (``reward=``, see ``nightsky.rl._core.Rewarder``): ``"win"`` pays each live seat its
  win share (``State.returns``: 1 for a sole winner, split on a shared win, 0 otherwise) at the
  end; ``"score"`` its final score less the best other seat's (the score itself alone);
  ``"shaped"`` the change of the game's evaluation after every step, ending on the ``score``
  reward; ``"auto"`` (the default) is ``win``, or ``score`` in a game of one seat.
* ``state()`` is PettingZoo's global state: every live seat's observation, one after another
  (what a centralised critic reads); ``state_space`` its Box. The nightsky state itself is
  ``env.game_state``.
"""

from __future__ import annotations

import random
from typing import Any

from nightsky._extras import missing

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as exc:
    raise missing(exc, "pettingzoo", "The PettingZoo environments (nightsky.rl)") from exc

from nightsky.core.game import CHANCE, Game, State
from nightsky.rl import _core


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def state_space(game: Game, obs_size: int) -> spaces.Box:
    """The Box of ``state()``: every live seat's observation, concatenated."""
    n = game.num_players * obs_size
    return spaces.Box(low=-np.inf, high=np.inf, shape=(n,), dtype=np.float32)


def global_state(arrays: _core.StepArrays, state: State, num_players: int) -> np.ndarray:
    """``state()`` of the PettingZoo environments (see ``state_space``)."""
    return np.concatenate([arrays.observation(state, p) for p in range(num_players)])


def seat_spaces(
    game: Game, obs_size: int, agents: list[str]
) -> tuple[dict[str, spaces.Dict], dict[str, spaces.Discrete]]:
    """Each agent's observation space (the observation and its action mask) and action space:
    shared by the AEC and the parallel environments."""
    nda = game.num_distinct_actions
    observation: dict[str, spaces.Dict] = {
        a: spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-np.inf, high=np.inf, shape=(obs_size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(nda,), dtype=np.int8),
            }
        )
        for a in agents
    }
    return observation, {a: spaces.Discrete(nda) for a in agents}



class NightskyAECEnv(AECEnv):  # type: ignore[misc]
    """AEC environment of one nightsky game; build it with ``pettingzoo_env``."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "nightsky",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        reward: str = "auto",
        **params: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        self.game: Game = _core.make_game(game_id, **params)
        self.game_id = game_id
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"nightsky_{game_id.replace('-', '_')}"}
        n = self.game.num_players
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._num_live = n
        self._seat = {agent_name(p): p for p in range(n)}
        self.observer = self.game.make_observer()
        self._arrays = _core.StepArrays(self.game, self.observer)
        self._observation_spaces, self._action_spaces = seat_spaces(
            self.game, self.observer.size, self.possible_agents
        )
        self.state_space = state_space(self.game, self.observer.size)
        self.rewarder = _core.Rewarder(self.game, reward)
        self._rng = random.Random()
        self.game_state: State = self.game.new_initial_state()
        self.chance_steps = 0
        self.agents: list[str] = []
        self._has_reset = False  # read by the wrappers of nightsky.rl.pettingzoo.env()

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ life cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` fixes every chance event of it."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state()
        self.chance_steps = _core.resolve_chance(self.game_state, self._rng)
        self.rewarder.reset(self.game_state)
        self._has_reset = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        self._finish_if_over()

    def _select(self) -> None:
        seat = _core.acting_seat(self.game_state)
        if seat is not None:
            if not 0 <= seat < self._num_live:
                raise RuntimeError(
                    f"{self.game_id}: seat {seat} acts through legal_actions but is not a live "
                    f"seat (0..{self.game.num_players - 1})"
                )
            self.agent_selection = self.possible_agents[seat]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def _finish_if_over(self) -> None:
        if not self.game_state.is_terminal():
            return
        winners = self.game_state.winners()
        scores = self.game_state.scores()
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"scores": list(scores), "winners": list(winners)}
        self.agent_selection = self.agents[0]

    def _pay(self) -> None:
        """Every live seat's reward for the step just taken (``Rewarder``)."""
        paid = self.rewarder.step(self.game_state)
        for a in self.agents:
            self.rewards[a] = paid[self._seat[a]]
        self._accumulate_rewards()

    def state(self) -> np.ndarray:
        """PettingZoo's global state: every live seat's observation, concatenated."""
        return global_state(self._arrays, self.game_state, self._num_live)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        return {
            "observation": self._arrays.observation(self.game_state, seat),
            "action_mask": self._arrays.action_mask(self.game_state, seat),
        }

    def step(self, action: Any) -> None:
        """Apply the selected agent's action id (None for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        move = self.game.action_from_id(int(action))
        self.game_state.apply(move, seat)  # raises IllegalActionError and changes nothing
        self._cumulative_rewards[agent] = 0.0
        self.chance_steps += _core.resolve_chance(self.game_state, self._rng)
        self._pay()
        self._select()
        self._finish_if_over()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Text drawing of the position from the selected seat's point of view, styled with
        terminal escape codes (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        seat = self._seat.get(self.agent_selection) if self.agents else None
        text = _core.ansi_render(self.game.ui.render(self.game_state, seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])


def pettingzoo_env(game_id: str, render_mode: str | None = None, **params: Any) -> NightskyAECEnv:
    """PettingZoo AEC environment of ``game_id`` with the game's parameters (``players=3``...)
    and ``reward`` (``"auto"``, ``"win"``, ``"score"``, ``"shaped"``)."""
    return NightskyAECEnv(game_id, render_mode=render_mode, **params)


__all__ = ["CHANCE", "NightskyAECEnv", "agent_name", "pettingzoo_env"]
