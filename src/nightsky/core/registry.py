"""The registry of games: every subpackage of ``nightsky.games`` that exports ``GAME``.

Discovery is automatic, so adding a sixth game means adding a package and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from nightsky.core.errors import OptionError
from nightsky.core.game import Game


@cache
def _registry() -> dict[str, type[Game]]:
    import nightsky.games as games_pkg

    found: dict[str, type[Game]] = {}
    for mod in pkgutil.iter_modules(games_pkg.__path__):
        if not mod.ispkg or mod.name.startswith("_"):
            continue
        module = importlib.import_module(f"nightsky.games.{mod.name}")
        cls = getattr(module, "GAME", None)
        if cls is None:
            continue
        found[cls.info.id] = cls
    return dict(sorted(found.items()))


_EXTRA: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a game class from outside ``nightsky.games`` (tests, plug-ins)."""
    _EXTRA[cls.info.id] = cls
    return cls


def unregister(game_id: str) -> None:
    _EXTRA.pop(game_id, None)


def game_ids() -> list[str]:
    """Ids of every registered game, sorted."""
    return sorted({*_registry(), *_EXTRA})


def packaged_game_ids() -> list[str]:
    """Ids of the games shipped as packages of ``nightsky.games`` (not those added at run time
    with ``register``, such as the test suite's toy game), sorted."""
    return list(_registry())


def game_class(game_id: str) -> type[Game]:
    reg = {**_registry(), **_EXTRA}
    try:
        return reg[game_id]
    except KeyError:
        raise OptionError(
            f"unknown game {game_id!r}; known games: {', '.join(reg) or 'none'}"
        ) from None


def load_game(game_id: str, **params: Any) -> Game:
    """Build a game with its parameters (``players`` plus the game's own options)."""
    return game_class(game_id)(**params)
