"""PettingZoo Parallel environment of a game with simultaneous turns (Mihi Anguli's rounds).

Every step takes one action from each live agent; the seats that act now
(``State.current_players()`` at the start of the step) apply theirs, lowest seat first, and the
other seats' actions are ignored (their action mask is all zeros, so a masked sample is 0).
The contract lets simultaneous seats act in any order, so this is the same game the AEC
environment plays, one round of decisions per step. Chance is drawn inside the environment as
in ``nightsky.rl.aec``; observations, masks, spaces, ``state()`` and rewards (``reward=``) are
the same. ``max_cycles`` (None: no limit) truncates the game after that many steps, as
PettingZoo's ``parallel_api_test`` expects of an env it sets ``max_cycles`` on.

A step is all or nothing. An illegal id of an acting seat, by default (``illegal="lose"``, as
the Gymnasium environment and the wrapped AEC ``env()`` do, so that PettingZoo's checks may
sample blindly), ends the game without touching it: ``illegal_reward`` (-1) for each seat that
played one, 0 for the others, ``info["illegal_action"]`` set. ``illegal="raise"`` raises
``IllegalActionError`` (naming the rule) and leaves the game as it was.
"""

from __future__ import annotations

import random
from typing import Any

from nightsky._extras import missing

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ModuleNotFoundError as exc:
    raise missing(exc, "pettingzoo", "The PettingZoo environments (nightsky.rl)") from exc

from nightsky.core.errors import OptionError
from nightsky.core.game import Game, State
from nightsky.rl import _core
from nightsky.rl.aec import agent_name, global_state, seat_spaces, state_space


class NightskyParallelEnv(ParallelEnv):  # type: ignore[misc]
    """Parallel environment of one nightsky game; see the module doc."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "nightsky"}

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        reward: str = "auto",
        max_cycles: int | None = None,
        **params: Any,
    ) -> None:
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise OptionError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.max_cycles = max_cycles
        self.cycles = 0
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', got {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        self.game: Game = _core.make_game(game_id, **params)
        if not self.game.info.simultaneous:
            raise OptionError(
                f"{game_id} has no simultaneous turns: use its AEC environment (env())"
            )
        self.game_id = game_id
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{game_id.replace('-', '_')}_v0"}
        n = self.game.num_players
        self.possible_agents = [agent_name(p) for p in range(n)]
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

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        return {
            "observation": self._arrays.observation(self.game_state, seat),
            "action_mask": self._arrays.action_mask(self.game_state, seat),
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start a new game; ``seed`` fixes every chance event of it (without one, the
        environment's random stream goes on)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.game.new_initial_state()
        self.chance_steps = _core.resolve_chance(self.game_state, self._rng)
        self.rewarder.reset(self.game_state)
        self.cycles = 0
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the action of every seat that acts now (lowest first); see the module doc."""
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        live = range(self.game.num_players)
        acting = sorted(p for p in self.game_state.current_players() if p in live)
        missing_agents = [agent_name(p) for p in acting if agent_name(p) not in actions]
        if missing_agents:
            raise ValueError(f"no action for {', '.join(missing_agents)}, which must act now")
        state = self.game_state.clone()  # all or nothing: an illegal id changes nothing
        offenders = []
        for seat in acting:
            act_id = int(actions[agent_name(seat)])
            if self.illegal == "raise":
                state.apply(self.game.action_from_id(act_id), seat)  # raises, naming the rule
                continue
            in_range = 0 <= act_id < self.game.num_distinct_actions
            move = self.game.action_from_id(act_id) if in_range else None
            if move is None or not state.is_legal(move, seat):
                offenders.append(agent_name(seat))
            elif not offenders:
                state.apply(move, seat)
        agents = self.agents
        rewards = dict.fromkeys(agents, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if offenders:
            for a in agents:
                infos[a]["illegal_action"] = a in offenders
            for a in offenders:
                rewards[a] = self.illegal_reward
            observations = {a: self._observe(a) for a in agents}
            self.agents = []
            return (observations, rewards, dict.fromkeys(agents, True),
                    dict.fromkeys(agents, False), infos)
        self.game_state = state
        self.chance_steps += _core.resolve_chance(self.game_state, self._rng)
        self.cycles += 1
        over = self.game_state.is_terminal()
        paid = self.rewarder.step(self.game_state)
        for a in agents:
            rewards[a] = paid[self._seat[a]]
        if over:
            scores, winners = list(self.game_state.scores()), list(self.game_state.winners())
            for a in agents:
                infos[a] = {"scores": scores, "winners": winners}
        cut = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        observations = {a: self._observe(a) for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, cut)
        if over or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        """PettingZoo's global state: every live seat's observation, concatenated."""
        return global_state(self._arrays, self.game_state, self.game.num_players)

    def render(self) -> str | None:
        """Text drawing of the position (the spectator's view: every seat may act)."""
        if self.render_mode is None:
            return None
        text = _core.ansi_render(self.game.ui.render(self.game_state, None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def parallel_env(game_id: str, **params: Any) -> NightskyParallelEnv:
    """Parallel environment of a game with simultaneous turns: the game's parameters
    (``players=3``...) plus ``render_mode``, ``illegal``, ``illegal_reward``, ``reward`` and
    ``max_cycles``."""
    return NightskyParallelEnv(game_id, **params)


__all__ = ["NightskyParallelEnv", "parallel_env"]
