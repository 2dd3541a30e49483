"""The registry of games: every subpackage that exports ``GAME`` of a package declared with
``declare_game_package`` (the distribution's root declares its ``games``), and every game an
installed distribution declares in the entry-point group ``nightsky.games``.

Discovery is automatic, so adding a sixth game means adding a package and nothing else; a game
published as its own distribution declares, in its ``pyproject.toml``::

    [project.entry-points."nightsky.games"]
    my-game = "my_package:MyGame"     # a Game subclass, or a module exporting GAME

A shipped game keeps its id if a plug-in claims it too; a plug-in that fails to load is skipped
with a warning, so a broken plug-in never breaks the shipped games.
"""

from __future__ import annotations

import importlib
import pkgutil
import warnings
from functools import cache
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from nightsky.core.errors import OptionError
from nightsky.core.game import Game

_PACKAGES: list[str] = []
"""Packages whose subpackages are games (``declare_game_package``)."""


def declare_game_package(name: str) -> None:
    """Declare ``name`` a package of game packages: each subpackage that exports ``GAME`` is
    a game. The distribution's root (``nightsky/__init__.py``) declares its own ``games``
    package this way, so the registry never names a higher layer; another distribution
    declares entry points instead (see the module doc)."""
    if name not in _PACKAGES:
        _PACKAGES.append(name)
        _registry.cache_clear()
        _plugins.cache_clear()


@cache
def _registry() -> dict[str, type[Game]]:
    found: dict[str, type[Game]] = {}
    for package in _PACKAGES:
        path = importlib.import_module(package).__path__
        for mod in pkgutil.iter_modules(path):
            if not mod.ispkg or mod.name.startswith("_"):
                continue
            module = importlib.import_module(f"{package}.{mod.name}")
            cls = getattr(module, "GAME", None)
            if cls is None:
                continue
            found[cls.info.id] = cls
    return dict(sorted(found.items()))


ENTRY_POINTS = "nightsky.games"
"""The entry-point group through which installed distributions add games."""


@cache
def _plugins() -> dict[str, type[Game]]:
    """Games of the ``nightsky.games`` entry points (not those of a declared game package)."""
    shipped = _registry()
    found: dict[str, type[Game]] = {}
    for ep in entry_points(group=ENTRY_POINTS):
        try:
            obj = ep.load()
            cls = getattr(obj, "GAME", None) if isinstance(obj, ModuleType) else obj
            if not (isinstance(cls, type) and issubclass(cls, Game)):
                raise TypeError(f"{ep.value} is not a Game subclass nor a module exporting GAME")
            game_id = cls.info.id
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not break the rest
            warnings.warn(
                f"nightsky: skipping the game plug-in {ep.name!r} ({ep.value}): {exc}",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        if game_id in shipped or game_id in found:
            warnings.warn(
                f"nightsky: the game plug-in {ep.name!r} ({ep.value}) reuses the id "
                f"{game_id!r} of another game; it is skipped",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        found[game_id] = cls
    return dict(sorted(found.items()))


_EXTRA: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a game class at run time (tests, a notebook); an installed distribution
    declares an entry point instead (see the module doc)."""
    _EXTRA[cls.info.id] = cls
    return cls


def unregister(game_id: str) -> None:
    _EXTRA.pop(game_id, None)


def _all() -> dict[str, type[Game]]:
    return {**_registry(), **_plugins(), **_EXTRA}


def game_ids() -> list[str]:
    """Ids of every registered game (shipped, plug-ins, registered at run time), sorted."""
    return sorted(_all())


def packaged_game_ids() -> list[str]:
    """Ids of the games shipped as packages of a declared game package (not those added at run
    time with ``register``, such as the test suite's toy game), sorted."""
    return list(_registry())


def game_classes() -> list[type[Game]]:
    """The class of every registered game, in ``game_ids`` order."""
    reg = _all()
    return [reg[gid] for gid in sorted(reg)]


def load_object(where: str) -> Any:
    """The object a declaration names as ``module:attribute`` (``Game.agents``, ``Game.bench``,
    the built-in agents), imported now."""
    module, sep, attr = where.partition(":")
    if not sep or not module or not attr:
        raise OptionError(f"a declaration must read 'module:attribute', got {where!r}")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def game_class(game_id: str) -> type[Game]:
    reg = _all()
    try:
        return reg[game_id]
    except KeyError:
        raise OptionError(
            f"unknown game {game_id!r}; known games: {', '.join(reg) or 'none'}"
        ) from None


def load_game(game_id: str, **params: Any) -> Game:
    """Build a game with its parameters (``players`` plus the game's own options)."""
    return game_class(game_id)(**params)
