"""Research adapters (extras ``pettingzoo``, ``gymnasium``, ``openspiel``; ``nightsky[rl]`` is
all three), registered the standard way of each library:

* Gymnasium: importing this package registers ``nightsky/<game-id>-v0`` for every game (when
  Gymnasium is installed), so ``gymnasium.make("nightsky/star-fire-v0", players=3)`` works after
  ``import nightsky.rl``, and ``gymnasium.make("nightsky.rl:nightsky/star-fire-v0")`` with no
  import at all. ``gym_env(game_id, seat=0, opponents="random", **params)`` builds one directly.
* PettingZoo: ``nightsky.rl.pettingzoo`` holds one module per game, ``<game_id>_v0`` (dashes
  become underscores), with ``env()``, ``raw_env()`` and, for games with simultaneous turns,
  ``parallel_env()``, as PettingZoo's own environments do:
  ``from nightsky.rl.pettingzoo import star_fire_v0; env = star_fire_v0.env(players=3)``.
  ``pettingzoo_env(game_id, **params)`` is the raw AEC environment of any game.
* OpenSpiel: importing ``nightsky.rl.openspiel`` registers ``nightsky_<game_id>`` for every game,
  so ``pyspiel.load_game("nightsky_star_fire(players=3)")`` works.
* A Gymnasium ``VectorEnv`` of many games stepped in one call: ``vector_env(game_id,
  num_envs=64, seat=0, opponents="random", **params)`` (``nightsky.rl.vector``), also
  ``gymnasium.make_vec("nightsky/<id>-v0", num_envs=64, vectorization_mode="vector_entry_point")``.

Every face takes ``reward="auto" | "win" | "score" | "shaped"`` (``nightsky.rl._core.Rewarder``):
the win share, the score margin, or the change of the game's evaluation at every step; a game
of one seat never pays a constant.

This package imports without any extra; a face whose library is missing raises
``MissingExtraError`` naming the extra to install. Each adapter goes through the game contract
only, so a game added to the registry (a package of ``nightsky.games`` or a plug-in's entry
point) appears in all three with no change here; see ``docs/rl.md``.
"""

from __future__ import annotations

from typing import Any


def pettingzoo_env(game_id: str, render_mode: str | None = None, **params: Any) -> Any:
    """PettingZoo AEC environment of ``game_id`` (see ``nightsky.rl.aec``)."""
    from nightsky.rl.aec import pettingzoo_env as make

    return make(game_id, render_mode=render_mode, **params)


def gym_env(
    game_id: str, seat: int = 0, opponents: str | list[str] = "random", **params: Any
) -> Any:
    """Gymnasium environment of one seat of ``game_id`` (see ``nightsky.rl.single``)."""
    from nightsky.rl.single import gym_env as make

    return make(game_id, seat=seat, opponents=opponents, **params)


def vector_env(game_id: str, num_envs: int = 16, **kwargs: Any) -> Any:
    """Gymnasium vector environment of ``num_envs`` games (see ``nightsky.rl.vector``)."""
    from nightsky.rl.vector import vector_env as make

    return make(game_id, num_envs=num_envs, **kwargs)


def register_gym_envs() -> list[str]:
    """Register ``nightsky/<game-id>-v0`` for ``gymnasium.make`` (idempotent; importing this
    package already did, for the games known then). Returns the ids."""
    from nightsky.rl.single import register_gym_envs as reg

    return reg()


def _register_on_import() -> None:
    """Gymnasium's standard: importing the module that defines the environments registers
    them (what ``gymnasium.make("nightsky.rl:nightsky/<id>-v0")`` relies on). Without
    Gymnasium there is nothing to register with."""
    try:
        import gymnasium  # noqa: F401
    except ModuleNotFoundError:
        return
    register_gym_envs()


_register_on_import()

__all__ = ["gym_env", "pettingzoo_env", "register_gym_envs", "vector_env"]
