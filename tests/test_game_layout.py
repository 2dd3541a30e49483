"""Every game package keeps the same module names for the same roles (docs/developing-a-game.md,
"Files of a game package"), so a contributor finds a role in the same file in every game."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from nightsky.core.registry import game_class, packaged_game_ids

REQUIRED = (
    "constants", "actions", "state", "evaluator", "observer", "ui", "svg", "tutorials", "game",
)
"""The roles every shipped game has, each in the module of that name."""

OPTIONAL = ("narrate",)
"""Roles a game may leave to the contract's default (``narrate``: the log in words beyond
``GameUI.describe_log_entry``'s default)."""

OLD_NAMES = {
    "observation": "observer",
    "observe": "observer",
    "tutorial": "tutorials",
    "evaluate": "evaluator",
}
"""Names a role had before the rooms were made uniform: none may come back. (A helper module
a role's module builds on keeps its own name: Mihi Anguli's ``heuristic`` and ``value`` are
what its ``evaluator`` judges by.)"""


def _package_dir(game_id: str) -> Path:
    module = importlib.import_module(game_class(game_id).__module__)
    assert module.__file__ is not None
    return Path(module.__file__).parent


@pytest.mark.parametrize("game_id", packaged_game_ids())
def test_game_package_has_every_role_module(game_id: str) -> None:
    modules = {p.stem for p in _package_dir(game_id).glob("*.py")}
    missing = [role for role in REQUIRED if role not in modules]
    assert not missing, f"{game_id} has no module for the roles {missing}"
    odd = {name: OLD_NAMES[name] for name in modules & OLD_NAMES.keys()}
    assert not odd, f"{game_id} names roles the old way (rename: {odd})"


@pytest.mark.parametrize("game_id", packaged_game_ids())
def test_roles_hold_what_the_game_names(game_id: str) -> None:
    """The game's UI and observer classes live in the modules of those roles."""
    cls = game_class(game_id)
    package = cls.__module__.rsplit(".", 1)[0]
    assert cls.__module__ == f"{package}.game"
    assert cls.ui_class is not None and cls.ui_class.__module__ == f"{package}.ui"
    assert cls.observer_class is not None
    assert cls.observer_class.__module__ == f"{package}.observer"
