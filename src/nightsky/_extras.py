"""Optional dependencies: a clear error naming the extra that installs a missing one.

The core (games, agents, the CLI, the server, simulations) needs only the dependencies of
``[project]``. The rest come with extras (``pyproject.toml``)::

    pettingzoo, gymnasium, openspiel   the research faces (``rl`` = all three)
    report                             plots (matplotlib)
    postgres                           a PostgreSQL database for the server
    ray                                the Ray simulation engine

A module that needs one imports it inside ``try``/``except ModuleNotFoundError`` and raises
``missing(exc, extra, what)``, so ``import`` of the module, or the call that needs the library,
fails with ``MissingExtraError``: an ``ImportError`` whose message says what to install.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

EXTRAS: dict[str, tuple[str, ...]] = {
    "pettingzoo": ("pettingzoo", "gymnasium", "numpy"),
    "gymnasium": ("gymnasium", "numpy"),
    "openspiel": ("pyspiel", "open_spiel", "numpy"),
    "rl": ("pettingzoo", "gymnasium", "pyspiel", "open_spiel", "numpy"),
    "report": ("matplotlib",),
    "postgres": ("psycopg",),
    "ray": ("ray",),
}
"""Extra -> the top-level modules it provides (the import names, not the distributions)."""


class MissingExtraError(ImportError):
    """An optional dependency is not installed; the message names the extra to install."""

    def __init__(self, message: str, *, extra: str, name: str | None = None) -> None:
        super().__init__(message, name=name)
        self.extra = extra


def install_hint(extra: str) -> str:
    """The command that installs ``extra``: ``pip install "nightsky[report]"``."""
    return f'pip install "nightsky[{extra}]"'


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def missing(exc: ModuleNotFoundError, extra: str, what: str) -> ImportError:
    """The error to raise when importing a library of ``extra`` failed with ``exc``.

    A ``MissingExtraError`` when the missing module is one the extra provides; otherwise
    ``exc`` itself (a module missing *inside* an installed library is a broken install, not a
    missing extra, and its own message says more)."""
    name = (exc.name or "").partition(".")[0]
    if extra not in EXTRAS:
        raise ValueError(f"unknown extra {extra!r}; extras: {', '.join(EXTRAS)}")
    if name not in EXTRAS[extra] or (name != exc.name and _installed(name)):
        return exc
    return MissingExtraError(
        f"{what} needs {name}, which is not installed: {install_hint(extra)}",
        extra=extra,
        name=exc.name,
    )


def require(module: str, extra: str, what: str) -> ModuleType:
    """``importlib.import_module(module)``, or ``MissingExtraError`` naming ``extra``."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise missing(exc, extra, what) from exc


__all__ = ["EXTRAS", "MissingExtraError", "install_hint", "missing", "require"]
