"""Every nightsky game as an OpenSpiel (pyspiel) Python game.

Importing this module registers ``nightsky_<id>`` (dashes become underscores) for every game of
the registry, as OpenSpiel's own Python games register on import, so
``pyspiel.load_game("nightsky_star_fire(players=3)")`` or
``pyspiel.load_game("nightsky_star_fire", {"players": 3})`` works after
``import nightsky.rl.openspiel``. ``register_all()`` registers games added since;
``load(game_id, **params)`` registers one if needed and returns
``pyspiel.load_game(short_name, params)``. Parameters are ``players`` plus the game's own options.

How the contract maps onto OpenSpiel:

* **Dynamics**: SEQUENTIAL. When several seats act at once (simultaneous turns), OpenSpiel's
  current player is the lowest of them; the others follow one after another, and each action is
  applied as it comes (the contract lets them act in any order). IS-MCTS needs sequential games.
* **Players**: the live seats ``0 .. num_players - 1``. Seats a game adds on its own (Starlight's
  Starbots) are part of the environment: their turns are chance events.
* **Actions**: ``game.action_id``; ``num_distinct_actions`` is the game's.
* **Chance**: EXPLICIT. At a chance node whose ``chance_outcomes()`` lists at most
  ``max_chance_outcomes`` outcomes, chance action ``i`` is the ``i``-th listed outcome, with its
  probability. Where the game only samples (``chance_outcomes()`` is None, e.g. a whole-deck
  shuffle) or the list is longer, the node offers ``SAMPLED_OUTCOMES`` equally likely chance
  actions; action ``k`` applies ``state.sample_chance(random.Random(seed(k, depth)))``, so the
  same action on the same state always gives the same outcome, and the ``k`` draws are
  independent samples of the true distribution. Algorithms that enumerate chance thus see an
  unbiased sample of ``SAMPLED_OUTCOMES`` outcomes instead of the full list.
* **Information**: IMPERFECT. The observation string is ``view(player)`` as JSON, the
  observation tensor is ``observation(player)``; the information state string adds the history
  as that seat saw it (``state.log_text``), so it has perfect recall.
  ``resample_from_infostate`` uses ``State.resample`` (what IS-MCTS calls).
* **Utility**: the parameter ``reward`` (``auto``, ``win``, ``score``, ``shaped``; see
  ``nightsky.rl._core.Rewarder``). ``win`` is the win share of ``State.returns``, in [0, 1];
  ``score`` the final score less the best other seat's; both are TERMINAL rewards. ``shaped``
  pays the change of the game's evaluation after every action (reward model REWARDS;
  ``returns()`` is their sum). ``auto`` is ``win``, or ``score`` in a game of one seat. Scores
  have no bound in the contract, so ``score`` and ``shaped`` declare +-``SCORE_BOUND``.
  General sum: the live seats' win shares add up to 1 except when a seat the game adds (a
  Starbot) wins.
* **Pickling**: each game's class is ``nightsky.rl.openspiel.NightskySpielGame_<id>`` at module
  level, so games and states pickle (OpenSpiel's ``games_sim_test`` and multiprocessing).
* **Information-state tensor**: none; the game type declares
  ``provides_information_state_tensor=False`` and asking for one raises ``SpielError``.
* ``max_game_length`` and the probed ``max_chance_outcomes`` come from playing a few random games
  when a game is first loaded (the contract bounds games by their own round limits, but does not
  state a length); ``max_game_length`` is three times the longest length seen.
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from nightsky._extras import missing

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as exc:
    raise missing(exc, "openspiel", "The OpenSpiel games (nightsky.rl.openspiel)") from exc

from nightsky.core.errors import OptionError
from nightsky.core.game import CHANCE, Action, Game, State
from nightsky.core.registry import game_class, game_ids
from nightsky.rl import _core

SAMPLED_OUTCOMES = 16
"""Chance actions offered at a chance node the game only samples (see the module doc)."""

SCORE_BOUND = 10_000.0
"""The utility bound ``reward=score`` / ``shaped`` declare (the contract bounds no score)."""

PROBE_GAMES = 8
"""Random games played at load time to size ``max_game_length`` and ``max_chance_outcomes``."""

_PREFIX = "nightsky_"


def short_name(game_id: str) -> str:
    """The pyspiel name of a nightsky game: ``nightsky_shooting_star``."""
    return _PREFIX + game_id.replace("-", "_")


@cache
def _probe(game_id: str, params_key: str) -> tuple[int, int]:
    """(longest history, longest chance list) over a few seeded random games."""
    params = json.loads(params_key)
    game = _core.make_game(game_id, **params)
    longest = 1
    widest = 1
    for seed in range(PROBE_GAMES):
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            players = state.current_players()
            if players == (CHANCE,):
                outs = state.chance_outcomes()
                if outs is not None:
                    widest = max(widest, len(outs))
                state.step(state.sample_chance(rng), CHANCE)
            else:
                seat = min(players)
                state.step(rng.choice(state.legal_actions(seat)), seat)
            n += 1
        longest = max(longest, n)
    return longest, widest


def _spiel_params(game_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """Nightsky parameters from pyspiel's (drop defaults and ``reward``, keep ``players``)."""
    cls = game_class(game_id)
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key == "reward":
            continue
        if key == "players":
            out["players"] = int(value)
            continue
        opt = cls.info.option(key)
        if opt is None:
            raise pyspiel.SpielError(f"{game_id} has no option {key!r}")
        if value != opt.default:
            out[key] = value
    return out


def _game_type(game_id: str, shaped: bool = False) -> pyspiel.GameType:
    cls = game_class(game_id)
    info = cls.info
    model = pyspiel.GameType.RewardModel
    spec: dict[str, Any] = {"players": info.default_players or info.min_players, "reward": "auto"}
    for opt in info.options:
        spec[opt.name] = opt.default
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"nightsky {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=model.REWARDS if shaped else model.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


class NightskySpielGame(pyspiel.Game):  # type: ignore[misc]
    """A nightsky game seen by pyspiel. Subclassed per game by ``register``."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        ns_params = _spiel_params(self.game_id, params)
        self.ns_game: Game = _core.make_game(self.game_id, **ns_params)
        try:
            self.rewarder = _core.Rewarder(self.ns_game, str(params.get("reward", "auto")))
        except OptionError as exc:
            raise pyspiel.SpielError(str(exc)) from exc
        key = json.dumps(self.ns_game.params, sort_keys=True)
        longest, widest = _probe(self.game_id, key)
        self.max_chance = max(SAMPLED_OUTCOMES, widest)
        win = self.rewarder.kind == "win"
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.ns_game.num_distinct_actions,
            max_chance_outcomes=self.max_chance,
            num_players=self.ns_game.num_players,
            min_utility=0.0 if win else -SCORE_BOUND,
            max_utility=1.0 if win else SCORE_BOUND,
            utility_sum=None,
            max_game_length=3 * longest,
        )
        shaped = self.rewarder.kind == "shaped"
        super().__init__(_game_type(self.game_id, shaped), game_info, params)

    def new_initial_state(self) -> NightskySpielState:
        return NightskySpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> NightskyObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return NightskyObserver(self.ns_game, perfect_recall)


class _Shared:
    """What every state of one pyspiel game shares; deep copies return the same object."""

    def __init__(self, game: Game, max_chance: int, rewarder: _core.Rewarder) -> None:
        self.game = game
        self.max_chance = max_chance
        self.rewarder = rewarder
        self.shaped = rewarder.kind == "shaped"

    def __deepcopy__(self, memo: Any) -> _Shared:
        return self


class _Box:
    """Holds the nightsky state and, for ``reward=shaped``, the potential and the rewards so
    far; a deep copy is ``State.clone()`` (the cheap, exact copy) and copies of the lists."""

    def __init__(
        self,
        state: State,
        potential: list[float],
        rewards: list[float],
        returns: list[float],
    ) -> None:
        self.state = state
        self.potential = potential
        self.rewards = rewards
        self.returns = returns

    def __deepcopy__(self, memo: Any) -> _Box:
        return _Box(self.state.clone(), self.potential[:], self.rewards[:], self.returns[:])


class NightskySpielState(pyspiel.State):  # type: ignore[misc]
    """One nightsky state behind pyspiel's State API."""

    def __init__(self, game: NightskySpielGame) -> None:
        super().__init__(game)
        self._shared = _Shared(game.ns_game, game.max_chance, game.rewarder)
        state = game.ns_game.new_initial_state()
        zeros = [0.0] * game.ns_game.num_players
        potential = game.rewarder.potential_of(state) if self._shared.shaped else zeros
        self._box = _Box(state, potential, zeros[:], zeros[:])

    @property
    def ns_game(self) -> Game:
        return self._shared.game

    @property
    def ns_state(self) -> State:
        return self._box.state

    # ------------------------------------------------------------------ whose turn
    def current_player(self) -> int:
        players = self.ns_state.current_players()
        if not players:
            return int(pyspiel.PlayerId.TERMINAL)
        if players == (CHANCE,):
            return int(pyspiel.PlayerId.CHANCE)
        return min(players)

    def is_terminal(self) -> bool:
        return self.ns_state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        return _core.legal_ids(self.ns_game, self.ns_state, player)

    # ------------------------------------------------------------------ chance
    def _explicit(self) -> list[tuple[Action, float]] | None:
        outs = self.ns_state.chance_outcomes()
        if outs is None or len(outs) > self._shared.max_chance:
            return None
        return outs

    def _sampled(self, k: int) -> Action:
        seed = f"nightsky-chance/{k}/{len(self.ns_state.history)}"
        return self.ns_state.sample_chance(random.Random(seed))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outs = self._explicit()
        if outs is None:
            return [(k, 1.0 / SAMPLED_OUTCOMES) for k in range(SAMPLED_OUTCOMES)]
        total = sum(p for _, p in outs)
        return [(i, p / total) for i, (_, p) in enumerate(outs)]

    def _chance_outcome(self, action: int) -> Action:
        outs = self._explicit()
        if outs is None:
            if not 0 <= action < SAMPLED_OUTCOMES:
                raise pyspiel.SpielError(
                    f"chance action {action} outside 0..{SAMPLED_OUTCOMES - 1}"
                )
            return self._sampled(action)
        if not 0 <= action < len(outs):
            raise pyspiel.SpielError(f"chance action {action} outside 0..{len(outs) - 1}")
        return outs[action][0]

    # ------------------------------------------------------------------ acting
    def _apply_action(self, action: int) -> None:
        if self.ns_state.current_players() == (CHANCE,):
            self.ns_state.step(self._chance_outcome(int(action)), CHANCE)
        else:
            seat = self.current_player()
            self.ns_state.apply(self.ns_game.action_from_id(int(action)), seat)
        if self._shared.shaped:
            box = self._box
            new = self._shared.rewarder.potential_of(box.state)
            box.rewards = [a - b for a, b in zip(new, box.potential, strict=True)]
            box.returns = [r + d for r, d in zip(box.returns, box.rewards, strict=True)]
            box.potential = new

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.ns_state.current_players() == (CHANCE,):
                outcome = self._chance_outcome(int(action))
                if self._explicit() is None:  # distinct strings for equal samples
                    return f"chance:sample{int(action)}:{outcome}"
                return f"chance:{outcome}"
            return f"chance:{action}"
        return str(self.ns_game.action_from_id(int(action)))

    # ------------------------------------------------------------------ results
    def returns(self) -> list[float]:
        """The rewards so far (``shaped``), or the terminal reward of ``win`` / ``score``."""
        if self._shared.shaped:
            return self._box.returns[:]
        if not self.ns_state.is_terminal():
            return [0.0] * self.ns_game.num_players
        return self._shared.rewarder.final(self.ns_state)

    def rewards(self) -> list[float]:
        """The rewards of the last action (``shaped``); else the returns once over."""
        if self._shared.shaped:
            return self._box.rewards[:]
        return self.returns()

    # ------------------------------------------------------------------ copying
    def resample_from_infostate(self, player: int, sampler: Any) -> NightskySpielState:
        """A state ``player`` cannot tell from this one (``State.resample``); for IS-MCTS."""
        try:
            seed = int(float(sampler()) * 2**53)
        except TypeError:
            seed = random.getrandbits(53)
        new: NightskySpielState = self.clone()
        box = self._box
        resampled = self.ns_state.resample(player, random.Random(seed))
        new._box = _Box(resampled, box.potential[:], box.rewards[:], box.returns[:])
        return new

    def __str__(self) -> str:
        return self.ns_state.game.ui.render(self.ns_state, None)


class NightskyObserver:
    """pyspiel observer: tensor = ``observation(player)``; strings from ``view(player)``."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.observer = None if perfect_recall else game.make_observer()
        size = 0 if self.observer is None else self.observer.size
        self.tensor = np.zeros(size, np.float32)
        self._view = self.tensor.data
        self.dict = {"observation": self.tensor} if size else {}

    def set_from(self, state: NightskySpielState, player: int) -> None:
        if self.observer is None:
            # Declared absent in the game type (provides_information_state_tensor=False):
            # say so rather than hand out an empty tensor.
            raise pyspiel.SpielError(
                f"{state.ns_game.info.id} provides no information-state tensor (no perfect-recall "
                "vector is defined); use observation_tensor, or information_state_string"
            )
        # pyspiel's observers refill one tensor in place (callers copy what they keep).
        self.tensor.fill(0.0)
        self.observer.observation_into(state.ns_state, player, self._view)

    def string_from(self, state: NightskySpielState, player: int) -> str:
        ns = state.ns_state
        doc: dict[str, Any] = {"seat": player, "view": ns.view(player)}
        if self.perfect_recall:
            doc["history"] = [
                [seat, ns.log_text(i, player)] for i, (seat, _) in enumerate(ns.history)
            ]
        return json.dumps(doc, sort_keys=True, default=str, separators=(",", ":"))


_REGISTERED: set[str] = set()
_CLASS_PREFIX = "NightskySpielGame_"


def class_name(game_id: str) -> str:
    """The module-level name of a game's pyspiel class: ``NightskySpielGame_star_fire``."""
    return _CLASS_PREFIX + game_id.replace("-", "_")


def __getattr__(name: str) -> type[NightskySpielGame]:
    """A game registered after this module was imported gets its class on first access (what
    unpickling in a fresh process asks for)."""
    if name.startswith(_CLASS_PREFIX):
        ids = {class_name(g): g for g in game_ids()}
        if name in ids:
            register(ids[name])
            cls: type[NightskySpielGame] = globals()[name]
            return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register(game_id: str) -> str:
    """Register one nightsky game with pyspiel (idempotent); returns its pyspiel short name."""
    name = short_name(game_id)
    if game_id in _REGISTERED:
        return name
    game_class(game_id)  # unknown ids fail here with the list of known games
    cls_name = class_name(game_id)
    cls = type(cls_name, (NightskySpielGame,), {"game_id": game_id, "__module__": __name__})
    # A module-level name, so pickle finds the class (games_sim_test, multiprocessing).
    globals()[cls_name] = cls
    pyspiel.register_game(_game_type(game_id), cls)
    _REGISTERED.add(game_id)
    return name


def register_all() -> list[str]:
    """Register every game of the registry; returns their pyspiel short names."""
    return [register(g) for g in game_ids()]


def load(game_id: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` of a nightsky game (registering it first)."""
    return pyspiel.load_game(register(game_id), params)


register_all()

__all__ = [
    "SAMPLED_OUTCOMES",
    "SCORE_BOUND",
    "class_name",
    "NightskyObserver",
    "NightskySpielGame",
    "NightskySpielState",
    "load",
    "register",
    "register_all",
    "short_name",
]
