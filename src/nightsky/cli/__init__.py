"""The ``nightsky`` command. Each module of this package adds its commands to ``app``."""

from __future__ import annotations

import importlib
import pkgutil

from nightsky.cli.app import app


def _load_commands() -> None:
    for mod in pkgutil.iter_modules(__path__):
        if mod.name not in {"app"}:
            importlib.import_module(f"{__name__}.{mod.name}")


def main() -> None:
    """Entry point of the ``nightsky`` console script."""
    _load_commands()
    app()


__all__ = ["app", "main"]
