"""Many games of one seat stepped in one call: a Gymnasium ``VectorEnv`` at engine speed.

``NightskyVectorEnv(game_id, num_envs=64, seat=0, opponents="random", **params)`` plays
``num_envs`` independent games in one process. Each ``step(actions)`` applies one action id per
game for the learner's ``seat``, plays chance and the other seats (agents from ``opponents``, as
in ``nightsky.rl.gym_env``) until the learner acts again, and writes every game's observation
and action mask into two preallocated numpy batches (``Observer.observation_into`` into a row
of the batch, no Python list of floats, no per-game array). Where the game's observer
overrides ``Observer.update_into``, the rows persist between steps and only the entries that
an action changed are written (Mihi Anguli: a few of some 500).

* Spaces: ``single_observation_space`` / ``single_action_space`` are the Gymnasium env's
  (``Dict(observation, action_mask)``, ``Discrete(num_distinct_actions)``); the batched ones
  come from Gymnasium's ``batch_space``. ``action_masks()`` is the ``(num_envs,
  num_distinct_actions)`` boolean mask (sb3-contrib's convention).
* Autoreset: ``metadata["autoreset_mode"]`` is Gymnasium's ``SAME_STEP``: a game that ends
  in a step is reset in that same step, so every returned row is a position where the learner
  acts and its mask is never empty. The terminal observation is in ``infos["final_obs"]`` and
  the scores and winners in ``infos["final_info"]`` (with the boolean ``_final_obs`` /
  ``_final_info`` masks of Gymnasium's vector infos).
* Rewards: ``reward=`` as in every adapter (``auto``, ``win``, ``score``, ``shaped``).
* Illegal ids: ``illegal="lose"`` (default) ends that game with ``illegal_reward`` and sets
  ``infos["illegal_action"]``; ``illegal="raise"`` raises ``IllegalActionError`` before any
  game moves (all or nothing). Legality is read from the mask batch, one lookup per game.
* Seeds: ``reset(seed=s)`` seeds game ``i`` with ``s + i`` (or ``seed`` may be a list, one per
  game); without a seed the games' random streams go on.
* ``copy=False`` returns the batches themselves (overwritten by the next step) instead of
  copies, for learners that consume them at once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from nightsky._extras import missing

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ModuleNotFoundError as exc:
    raise missing(exc, "gymnasium", "The vector environment (nightsky.rl.vector)") from exc

from nightsky.agents import Agent, make_agent
from nightsky.core.errors import IllegalActionError, OptionError
from nightsky.core.game import Game, State
from nightsky.core.observer import Observer
from nightsky.rl import _core, _stepper


class NightskyVectorEnv(VectorEnv):  # type: ignore[misc]
    """``num_envs`` games of ``game_id``, the learner at ``seat`` in each; see the module doc."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        game_id: str,
        num_envs: int = 16,
        seat: int = 0,
        opponents: str | list[str] = "random",
        reward: str = "auto",
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        copy: bool = True,
        **params: Any,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        if illegal not in ("lose", "raise"):
            raise OptionError(f"illegal must be 'lose' or 'raise', got {illegal!r}")
        self.game: Game = _core.make_game(game_id, **params)
        specs = _core.opponent_specs(self.game, seat, opponents)
        self.game_id = game_id
        self.num_envs = num_envs
        self.seat = seat
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        # One agent per game and seat: search agents may keep state between their moves.
        self._opponents: list[dict[int, Agent]] = [
            {p: make_agent(s) for p, s in specs.items()}
            for _ in range(num_envs)
        ]
        self.rewarders = [_core.Rewarder(self.game, reward) for _ in range(num_envs)]
        self.observer = self.game.make_observer()
        size, nda = self.observer.size, self.game.num_distinct_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(nda,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(nda)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        # Rows kept between steps (update_into) where the observer can bring a row up to date;
        # _memos[i] says what row i holds (None: zeros).
        self._incremental = type(self.observer).update_into is not Observer.update_into
        self._memos: list[Any] = [None] * num_envs
        # The mask batch is a view of a bytearray, which compiled code reads directly.
        self._mask_bytes = bytearray(num_envs * nda)
        self._rows()
        self._actions = list(self.game.all_actions())  # keeps the objects (and their id()s)
        # Legal actions to ids where the game's objects are the id table's own (measured faster
        # than the state's legal_action_ids in every game); None where the state computes its
        # ids itself. Keyed by id() (no hash per action) or by the objects themselves (no int
        # made per lookup), whichever the compiled lookup ran faster here (_id_table).
        own_ids = type(self.game.new_initial_state()).legal_action_ids is not State.legal_action_ids
        self._by_object = False
        self._alt: dict[Any, Any] | None = None  # by object, behind an id()-keyed _ident
        self._ident: dict[Any, Any] | None = None if own_ids else self._id_table()
        self._final_arrays = _core.StepArrays(self.game, self.observer)
        self._env_index = np.arange(num_envs)
        self.states: list[State] = [self.game.new_initial_state() for _ in range(num_envs)]
        self._chance_rngs = [random.Random(i) for i in range(num_envs)]
        self._agent_rngs = [random.Random(-1 - i) for i in range(num_envs)]
        self._counts = [0, 0]  # chance events, the other seats' moves (_stepper.advance)
        self._every_step = self.rewarders[0].kind == "shaped"
        self._ready = False

    @property
    def chance_steps(self) -> int:
        """Chance events applied so far (for speed figures that count every game action)."""
        return self._counts[0]

    @property
    def opponent_steps(self) -> int:
        """Moves the other seats made so far."""
        return self._counts[1]

    def _rows(self) -> None:
        # The observers set entries of a row through a memoryview (item assignment without
        # numpy's per-item overhead); the mask batch is the bytearray's view (step_games reads
        # a learner's id in the bytearray).
        self._obs_rows = [self._obs[i].data for i in range(self.num_envs)]
        self._mask = np.frombuffer(self._mask_bytes, dtype=np.int8).reshape(self.num_envs, -1)
        self._mask_rows = [self._mask[i].data for i in range(self.num_envs)]

    def __getstate__(self) -> dict[str, Any]:
        # The row views (memoryviews) do not pickle, nor do id()s carry over: both are rebuilt.
        state = self.__dict__.copy()
        del state["_obs_rows"], state["_mask"], state["_mask_rows"], state["_memos"]
        state["_ident"] = state["_ident"] is not None  # rebuilt: id()s do not carry over
        state["_alt"] = state["_alt"] is not None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._rows()
        self._ident = self._keyed(self._by_object) if self._ident else None
        self._alt = self._keyed(True) if self._alt else None
        # The memos are the observer's own objects: the rows are written afresh instead.
        self._memos = [None] * self.num_envs
        if self._ready:
            self._obs.fill(0.0)
            self._write_all()

    # ------------------------------------------------------------------ internals
    def _keyed(self, by_object: bool) -> dict[Any, Any]:
        """The id table's actions to their ids, keyed by object or by ``id()``."""
        if by_object:
            return {a: i for i, a in enumerate(self._actions)}
        return {id(a): i for i, a in enumerate(self._actions)}

    def _id_table(self) -> dict[Any, Any]:
        """The legal-action-to-id table of ``write_rows``. Keyed by object only where that is
        sound (every action hashable and distinct from the others, so each maps to its own
        id) and the compiled lookup was faster on a sample of the game's actions: hashing is
        cheap where a game caches it (Mihi Anguli's moves) and dear where it is not (Star
        Fire's); either way the ids are the same."""
        by_id = self._keyed(False)
        try:
            by_obj = self._keyed(True)
        except TypeError:  # an unhashable action
            return by_id
        if len(by_obj) != len(self._actions):
            return by_id
        sample = self._actions[:: max(1, len(self._actions) // 400)] * 4
        timings = [
            min(_stepper.lookup_seconds(table, sample, flag) for _ in range(3))
            for table, flag in ((by_id, False), (by_obj, True))
        ]
        self._by_object = timings[1] < timings[0]
        # Keyed by id(), the object table still finds an equal action that is not one of the
        # table's own objects (a summoning with its tiles), far faster than game.action_id.
        self._alt = None if self._by_object else by_obj
        return by_obj if self._by_object else by_id

    def _advance(self, i: int) -> bool:
        """Play chance and the other seats of game ``i`` until the learner acts (False) or the
        game ends (True)."""
        return _stepper.advance(
            self.states[i], self.seat, self._opponents[i], self._chance_rngs[i],
            self._agent_rngs[i], self._counts,
        )

    def _start(self, i: int) -> None:
        state = self.states[i] = self.game.new_initial_state()
        self._advance(i)
        self.rewarders[i].reset(state)

    def _write_all(self) -> None:
        """Every game's observation into its row (zeroed first, or brought up to date where
        the observer can), and the mask batch from all games' legal ids in one numpy
        assignment."""
        memos: list[Any] | None = None
        blank: list[int] = []
        if self._incremental:
            memos = self._memos
        else:
            self._obs.fill(0.0)
        self._mask.fill(0)
        _stepper.write_rows(
            self.states, self.seat, self.observer, self._obs_rows, self._mask_rows,
            self._ident, self.game, memos, blank, self._by_object, self._alt,
        )
        if blank:
            self._obs[blank] = 0.0

    def _observations(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _seed(self, seed: int | Sequence[int] | None) -> None:
        if seed is None:
            return
        seeds = [seed + i for i in range(self.num_envs)] if isinstance(seed, int) else list(seed)
        if len(seeds) != self.num_envs:
            raise OptionError(f"seed: give one int or {self.num_envs} (one per game)")
        for i, s in enumerate(seeds):
            chance, agents = np.random.SeedSequence(int(s)).generate_state(2)
            self._chance_rngs[i] = random.Random(int(chance))
            self._agent_rngs[i] = random.Random(int(agents))

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every game afresh (``seed``: see the module doc)."""
        self._seed(seed)
        for i in range(self.num_envs):
            self._start(i)
        self._obs.fill(0.0)
        self._memos = [None] * self.num_envs
        self._write_all()
        self._ready = True
        return self._observations(), {}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner action id per game; see the module doc."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        ids = np.asarray(actions, dtype=np.int64).reshape(-1)
        if ids.shape[0] != self.num_envs:
            raise ValueError(f"need {self.num_envs} action ids, got {ids.shape[0]}")
        if self.illegal == "raise":
            # Legal where in range and set in the mask batch: one numpy lookup for all games.
            in_range = (ids >= 0) & (ids < self.game.num_distinct_actions)
            ok = np.zeros(self.num_envs, dtype=bool)
            ok[in_range] = self._mask[self._env_index[in_range], ids[in_range]] == 1
            if not ok.all():
                i = int(np.flatnonzero(~ok)[0])
                a = int(ids[i])
                move = self.game.action_from_id(a)  # an id out of range raises here
                self.states[i].apply(move, self.seat)  # raises, naming the rule; changes nothing
                raise IllegalActionError(f"action id {a} is not legal in game {i}")
        rewards = [0.0] * self.num_envs
        illegal_rows: list[int] = []
        # Legality is read from the mask rows inside: an illegal id ends its game (``lose``).
        finals = _stepper.step_games(
            self.states, ids.tolist(), self._actions, self._mask_bytes, self.seat,
            self._opponents, self._chance_rngs, self._agent_rngs, self.rewarders,
            self._every_step, rewards, self._counts, self.illegal_reward, illegal_rows,
        )
        terms = np.zeros(self.num_envs, dtype=bool)
        terms[finals] = True
        infos: dict[str, Any] = {}
        if finals:
            self._final_infos(infos, finals, illegal_rows)
            for i in finals:
                self._start(i)
        self._write_all()
        return (
            self._observations(),
            np.array(rewards, dtype=np.float64),
            terms,
            np.zeros(self.num_envs, dtype=bool),
            infos,
        )

    def _final_infos(self, infos: dict[str, Any], finals: list[int], illegal: list[int]) -> None:
        """The terminal observation, scores and winners of the games that end in this step."""
        n = self.num_envs
        final_obs = np.empty(n, dtype=object)
        final_info = np.empty(n, dtype=object)
        mask = np.zeros(n, dtype=bool)
        arrays = self._final_arrays
        for i in finals:
            state = self.states[i]
            mask[i] = True
            final_obs[i] = {
                "observation": arrays.observation(state, self.seat),
                "action_mask": arrays.action_mask(state, self.seat),
            }
            info: dict[str, Any] = {"illegal_action": i in illegal}
            if state.is_terminal():
                # Scored once, by the rewarder of this step (the game's end pays it).
                result = self.rewarders[i].result
                scores, winners = result if result is not None else _core.final_result(state)
                info["scores"] = list(scores)
                info["winners"] = list(winners)
            final_info[i] = info
        infos["final_obs"], infos["_final_obs"] = final_obs, mask
        infos["final_info"], infos["_final_info"] = final_info, mask.copy()
        if illegal:
            flags = np.zeros(n, dtype=bool)
            flags[illegal] = True
            infos["illegal_action"], infos["_illegal_action"] = flags, flags.copy()

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_distinct_actions)`` booleans: the learner's legal ids per game."""
        return self._mask.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        pass


def vector_env(game_id: str, num_envs: int = 16, **kwargs: Any) -> NightskyVectorEnv:
    """``NightskyVectorEnv`` of ``game_id``: ``seat``, ``opponents``, ``reward``, ``illegal``,
    ``illegal_reward``, ``copy`` and the game's parameters (``players=3``...)."""
    return NightskyVectorEnv(game_id, num_envs=num_envs, **kwargs)


__all__ = ["NightskyVectorEnv", "vector_env"]
