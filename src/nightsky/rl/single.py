"""Gymnasium environment of one seat of a nightsky game (``nightsky.rl.gym_env``).

The learner plays ``seat``; every other live seat is played by an agent built from a spec
(``"random"``, ``"greedy"``, ``"mcts:iterations=50"``...; one spec for all, or a list with one per
other seat in seat order). Chance events and the opponents' moves happen inside ``step``, from
``random.Random`` streams drawn from the environment's ``np_random`` (seeded by ``reset``).

* Observation: ``{"observation": float32[observation_size], "action_mask":
  int8[num_distinct_actions]}`` for the learner's seat; ``info["action_mask"]`` repeats the mask
  and ``action_masks()`` returns it as booleans (sb3-contrib's ``MaskablePPO`` reads it).
* Action: an integer id (``game.action_id``). An illegal id, by default (``illegal="lose"``),
  ends the episode with reward ``illegal_reward`` (-1) and ``info["illegal_action"] = True``
  without touching the game; ``illegal="raise"`` raises ``IllegalActionError`` instead.
* Reward (``reward=``, see ``nightsky.rl._core.Rewarder``): ``"win"`` (the seat's win share at
  the end), ``"score"`` (its final score less the best other seat's; the score itself in a game
  of one seat), ``"shaped"`` (the change of the game's evaluation over each step, ending on the
  ``score`` reward); ``"auto"``, the default, is ``win``, or ``score`` in a game of one seat.
"""

from __future__ import annotations

import random
from typing import Any

from nightsky._extras import missing

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ModuleNotFoundError as exc:
    raise missing(exc, "gymnasium", "The Gymnasium environments (nightsky.rl)") from exc

from nightsky.agents import Agent, make_agent
from nightsky.core.errors import IllegalActionError
from nightsky.core.game import Game, State
from nightsky.rl import _core


class NightskyGymEnv(gymnasium.Env):  # type: ignore[type-arg]
    """Single-seat Gymnasium environment; build it with ``gym_env``."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: str | list[str] = "random",
        render_mode: str | None = None,
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        reward: str = "auto",
        **params: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be ansi, human or None, got {render_mode!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', got {illegal!r}")
        self.game: Game = _core.make_game(game_id, **params)
        specs = _core.opponent_specs(self.game, seat, opponents)
        self.seat = seat
        self.opponents: dict[int, Agent] = {p: make_agent(s) for p, s in specs.items()}
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.rewarder = _core.Rewarder(self.game, reward)
        self.observer = self.game.make_observer()
        self._arrays = _core.StepArrays(self.game, self.observer)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=-np.inf, high=np.inf, shape=(self.observer.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(
                    low=0, high=1, shape=(self.game.num_distinct_actions,), dtype=np.int8
                ),
            }
        )
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.state: State = self.game.new_initial_state()
        self._chance_rng = random.Random(0)
        self._agent_rng = random.Random(0)
        self._done = True

    # ------------------------------------------------------------------ helpers
    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "observation": self._arrays.observation(self.state, self.seat),
            "action_mask": self._arrays.action_mask(self.state, self.seat),
        }

    def _info(self, obs: dict[str, np.ndarray]) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": obs["action_mask"].copy()}
        if self.state.is_terminal():
            info["scores"] = list(self.state.scores())
            info["winners"] = list(self.state.winners())
        return info

    def _advance(self) -> None:
        """Play chance and opponents until the learner acts or the game ends."""
        while True:
            _core.resolve_chance(self.state, self._chance_rng)
            seat = _core.acting_seat(self.state)
            if seat is None or seat == self.seat:
                return
            action = self.opponents[seat].choose(self.state, seat, self._agent_rng)
            self.state.apply(action, seat)

    # ------------------------------------------------------------------ gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self._chance_rng = random.Random(int(self.np_random.integers(0, 2**62)))
        self._agent_rng = random.Random(int(self.np_random.integers(0, 2**62)))
        self.state = self.game.new_initial_state()
        self._advance()
        self.rewarder.reset(self.state)
        self._done = self.state.is_terminal()
        obs = self._obs()
        return obs, self._info(obs)

    def step(
        self, action: Any
    ) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        act_id = int(action)
        in_range = 0 <= act_id < self.game.num_distinct_actions
        move = self.game.action_from_id(act_id) if in_range else None
        if move is None or not self.state.is_legal(move, self.seat):
            if self.illegal == "raise":
                if move is None:
                    self.game.action_from_id(act_id)  # raises with the id range
                self.state.apply(move, self.seat)  # raises, naming the rule
            self._done = True
            obs = self._obs()
            info = self._info(obs)
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        self.state.apply(move, self.seat)
        self._advance()
        terminated = self.state.is_terminal()
        reward = self.rewarder.step(self.state)[self.seat]
        self._done = terminated
        obs = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, self._info(obs)

    def action_masks(self) -> np.ndarray:
        """The learner's legal action ids as a boolean array over ``num_distinct_actions``
        (sb3-contrib's convention; all False once the episode is over)."""
        if self._done:
            return np.zeros(self.game.num_distinct_actions, dtype=bool)
        return self._arrays.action_mask(self.state, self.seat).astype(bool)

    def render(self) -> str | None:  # type: ignore[override]
        """The position as the learner sees it, styled with terminal escape codes (``ansi``
        returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        text = _core.ansi_render(self.game.ui.render(self.state, self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gym_env(
    game_id: str,
    seat: int = 0,
    opponents: str | list[str] = "random",
    **params: Any,
) -> NightskyGymEnv:
    """Gymnasium environment of ``seat`` in ``game_id``; the other seats play ``opponents``.

    ``params`` are the game's parameters (``players=3``...) plus ``render_mode``, ``illegal``,
    ``illegal_reward`` and ``reward``.
    """
    return NightskyGymEnv(game_id, seat=seat, opponents=opponents, **params)




def register_gym_envs() -> list[str]:
    """Register ``nightsky/<game-id>-v0`` with Gymnasium for every game (idempotent).

    ``gymnasium.make("nightsky/star-fire-v0", players=3, seat=1)`` then builds ``gym_env``;
    ``gymnasium.make_vec(..., num_envs=64, vectorization_mode="vector_entry_point")`` builds
    ``nightsky.rl.vector.NightskyVectorEnv``.
    """
    from nightsky.core.registry import game_ids

    names = []
    for gid in game_ids():
        name = f"nightsky/{gid}-v0"
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="nightsky.rl.single:NightskyGymEnv",
                vector_entry_point="nightsky.rl.vector:NightskyVectorEnv",
                kwargs={"game_id": gid},
            )
        names.append(name)
    return names


__all__ = ["IllegalActionError", "NightskyGymEnv", "gym_env", "register_gym_envs"]
