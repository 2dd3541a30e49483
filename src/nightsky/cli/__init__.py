"""The ``nightsky`` command. Each module of this package adds its commands to ``app``."""

from __future__ import annotations

import importlib
import pkgutil

import typer

from nightsky.cli.app import app


def _load_commands() -> None:
    for mod in pkgutil.iter_modules(__path__):
        if mod.name not in {"app"}:
            importlib.import_module(f"{__name__}.{mod.name}")


def main() -> None:
    """Entry point of the ``nightsky`` console script."""
    from nightsky._extras import MissingExtraError

    _load_commands()
    try:
        app()
    except MissingExtraError as exc:  # an optional dependency: say which extra installs it
        from nightsky.cli.app import fail

        try:
            fail(str(exc))
        except typer.Exit as done:
            raise SystemExit(done.exit_code) from None


__all__ = ["app", "main"]
