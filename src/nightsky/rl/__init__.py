"""Research adapters (extras ``nightsky[rl]``): PettingZoo, Gymnasium and OpenSpiel.

* ``pettingzoo_env(game_id, **params)``: an AEC environment of every seat.
* ``gym_env(game_id, seat=0, opponents="random", **params)``: a Gymnasium environment of one
  seat, the others played by agent specs.
* ``nightsky.rl.openspiel``: ``register_all()`` / ``load(game_id, **params)`` make every game a
  pyspiel game.

Each adapter goes through the game contract only; see ``docs/rl.md``.
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


def register_gym_envs() -> list[str]:
    """Register ``nightsky/<game-id>-v0`` for ``gymnasium.make`` (see ``nightsky.rl.single``)."""
    from nightsky.rl.single import register_gym_envs as reg

    return reg()


__all__ = ["gym_env", "pettingzoo_env", "register_gym_envs"]
