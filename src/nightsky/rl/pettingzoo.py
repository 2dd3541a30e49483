"""One PettingZoo module per game, as PettingZoo's own environments come
(``from pettingzoo.classic import chess_v6``)::

    from nightsky.rl.pettingzoo import star_fire_v0
    env = star_fire_v0.env(players=3)            # AEC, with PettingZoo's standard wrappers
    env = star_fire_v0.raw_env(players=3)        # AEC, unwrapped
    from nightsky.rl.pettingzoo import mihi_anguli_v0
    env = mihi_anguli_v0.parallel_env(players=3) # Parallel: games with simultaneous turns only

The modules are made from the game registry when this module is imported (and, for a game
registered later, on first access), never written by hand: a new game, shipped in
``nightsky.games`` or by a plug-in's entry point, gets its module with no change here. Each is
``nightsky.rl.pettingzoo.<game_id>_v0`` (dashes become underscores) in ``sys.modules``, so
``import nightsky.rl.pettingzoo.star_fire_v0`` works too.

* ``raw_env(**params)``: ``nightsky.rl.aec.NightskyAECEnv`` (an illegal id raises
  ``IllegalActionError``).
* ``env(**params)``: ``raw_env`` inside ``TerminateIllegalWrapper`` (an illegal id ends the game,
  -1 for the seat that played it), ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``,
  the wrappers PettingZoo's classic environments use. Each is a subclass of PettingZoo's own
  (``isinstance`` holds, the behaviour is theirs) that reads the attributes a learner's loop
  touches at every step (``agent_selection``, ``rewards``, ``terminations``...) from the raw
  env directly instead of through every layer's ``__getattr__``: the wrapped env runs at
  0.55-0.9x the raw env's speed, against 0.35-0.65x with the stock wrappers
  (``docs/performance.md``).
* ``parallel_env(**params)``: ``nightsky.rl.parallel.NightskyParallelEnv``, only where the game
  has simultaneous turns (``GameInfo.simultaneous``).

``params`` are the game's parameters (``players=3``, its options) and ``render_mode``.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from nightsky._extras import missing

try:
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as exc:
    raise missing(exc, "pettingzoo", "The PettingZoo environments (nightsky.rl)") from exc

from nightsky.core.registry import game_class, game_ids
from nightsky.rl.aec import NightskyAECEnv
from nightsky.rl.parallel import NightskyParallelEnv

VERSION = 0
"""The environments' version suffix (``star_fire_v0``), bumped when what they expose changes."""

ILLEGAL_REWARD = -1.0
"""What ``env()``'s ``TerminateIllegalWrapper`` gives the seat that plays an illegal id."""


def module_name(game_id: str) -> str:
    """The attribute / submodule name of a game: ``star_fire_v0``."""
    return f"{game_id.replace('-', '_')}_v{VERSION}"


def raw_env(game_id: str, **params: Any) -> NightskyAECEnv:
    """The unwrapped AEC environment of ``game_id``."""
    return NightskyAECEnv(game_id, **params)


_HOT = ("agent_selection", "rewards", "terminations", "truncations", "infos", "agents",
        "_cumulative_rewards")
"""Attributes every wrapper layer forwards unchanged and a learner reads at every step."""


class _Direct:
    """Mixin: the ``_HOT`` attributes read from the raw env in one step. Before ``reset`` they
    raise ``AttributeError`` as ``OrderEnforcingWrapper`` does (a property's
    ``AttributeError`` falls back to the wrapper's ``__getattr__``, which names the attribute
    accessed too early)."""

    _raw_env: NightskyAECEnv


def _forward(name: str) -> property:
    def get(self: _Direct) -> Any:
        if not self._raw_env._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw_env, name)

    return property(get, doc=f"``{name}`` of the raw env.")


for _name in _HOT:
    setattr(_Direct, _name, _forward(_name))


class TerminateIllegalWrapper(_Direct, wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's ``TerminateIllegalWrapper``, reading the hot attributes directly."""

    def __init__(self, env: Any, illegal_reward: float) -> None:
        self._raw_env = env.unwrapped
        super().__init__(env, illegal_reward)


class AssertOutOfBoundsWrapper(_Direct, wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's ``AssertOutOfBoundsWrapper``, reading the hot attributes directly."""

    def __init__(self, env: Any) -> None:
        self._raw_env = env.unwrapped
        super().__init__(env)


class OrderEnforcingWrapper(_Direct, wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper``, reading the hot attributes directly."""

    def __init__(self, env: Any) -> None:
        self._raw_env = env.unwrapped
        super().__init__(env)


def env(game_id: str, **params: Any) -> Any:
    """The AEC environment of ``game_id`` in PettingZoo's standard wrappers."""
    wrapped: Any = raw_env(game_id, **params)
    wrapped = TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = AssertOutOfBoundsWrapper(wrapped)
    return OrderEnforcingWrapper(wrapped)


def parallel_env(game_id: str, **params: Any) -> NightskyParallelEnv:
    """The Parallel environment of ``game_id`` (a game with simultaneous turns)."""
    return NightskyParallelEnv(game_id, **params)


def _make_module(game_id: str) -> ModuleType:
    name = module_name(game_id)
    qualified = f"{__name__}.{name}"
    info = game_class(game_id).info
    mod = ModuleType(qualified, f"PettingZoo environments of {info.title} ({game_id}).")

    def _env(**params: Any) -> Any:
        return env(game_id, **params)

    def _raw_env(**params: Any) -> NightskyAECEnv:
        return raw_env(game_id, **params)

    def _parallel_env(**params: Any) -> NightskyParallelEnv:
        return parallel_env(game_id, **params)

    funcs = {
        "env": (_env, "The AEC environment in PettingZoo's standard wrappers"),
        "raw_env": (_raw_env, "The unwrapped AEC environment"),
    }
    if info.simultaneous:
        funcs["parallel_env"] = (_parallel_env, "The Parallel environment")
    for fname, (fn, doc) in funcs.items():
        fn.__name__ = fn.__qualname__ = fname
        fn.__module__ = qualified  # so pickle finds it (vectorising libraries pickle makers)
        fn.__doc__ = f"{doc} of {game_id}; ``params``: the game's parameters, render_mode."
        setattr(mod, fname, fn)
    mod.GAME_ID = game_id  # type: ignore[attr-defined]
    mod.__all__ = [*funcs, "GAME_ID"]  # type: ignore[attr-defined]
    sys.modules[qualified] = mod
    globals()[name] = mod
    return mod


def _names() -> dict[str, str]:
    return {module_name(g): g for g in game_ids()}


def __getattr__(name: str) -> ModuleType:
    game_id = _names().get(name)
    if game_id is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _make_module(game_id)


def __dir__() -> list[str]:
    return sorted({*globals(), *_names()})


def modules() -> dict[str, ModuleType]:
    """Every game's module, by name (``star_fire_v0``)."""
    return {name: sys.modules.get(f"{__name__}.{name}") or _make_module(g)
            for name, g in _names().items()}


modules()

__all__ = [
    "ILLEGAL_REWARD",
    "VERSION",
    "AssertOutOfBoundsWrapper",
    "OrderEnforcingWrapper",
    "TerminateIllegalWrapper",
    "env",
    "module_name",
    "modules",
    "parallel_env",
    "raw_env",
]
