"""Compiled or pure: which engine this process runs, decided before any engine module loads.

``pip install`` compiles the hot path with mypyc (``setup.py``) next to the ``.py`` files, and
Python prefers an extension module to the source of the same name. This module, imported first
by ``nightsky/__init__.py``, keeps that choice honest:

* ``NIGHTSKY_PURE=1`` forces the pure-Python engine (an import hook skips the extensions);
* an extension built from a different source than the ``.py`` now beside it (a developer edited
  the rules since the last build) is never used: the whole package falls back to pure Python,
  with a warning saying how to rebuild, since a compiled and a pure module must not be mixed.

``compiled()`` says which engine is in use (``nightsky --version``, ``nightsky bench --json``).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent
_MANIFEST = _HERE / "_compiled.json"
_PREFIX = __package__ + "."


class _SourceOnlyFinder(importlib.abc.MetaPathFinder):
    """Finds ``nightsky.*`` modules from their ``.py`` files only, never an extension."""

    _loaders = [
        (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES),
        (importlib.machinery.SourcelessFileLoader, importlib.machinery.BYTECODE_SUFFIXES),
    ]

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(_PREFIX) or path is None:
            return None
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, *self._loaders).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def _manifest() -> dict[str, str]:
    try:
        data = json.loads(_MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _stale(manifest: dict[str, str]) -> list[str]:
    """Compiled modules whose source changed since they were built, and extensions of modules
    the last build did not compile (left over from an older one)."""
    root = _HERE.parent
    out = []
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    for path in _HERE.rglob("*.*"):
        rel = path.relative_to(root).as_posix()
        ext = next((x for x in suffixes if rel.endswith(x)), None)
        if ext is None:
            continue
        name = rel[: -len(ext)].replace("/", ".")
        if not name.endswith("__mypyc") and name not in manifest:
            out.append(name)
    for name, digest in manifest.items():
        source = root / (name.replace(".", "/") + ".py")
        try:
            now = hashlib.sha256(source.read_bytes()).hexdigest()
        except OSError:
            now = ""
        if now != digest:
            out.append(name)
    return out


def _decide() -> tuple[bool, str]:
    """(use the extensions?, why not)."""
    manifest = _manifest()
    if not manifest:
        return False, "no compiled extensions are installed"
    if os.environ.get("NIGHTSKY_PURE", "") not in ("", "0"):
        return False, "NIGHTSKY_PURE is set"
    stale = _stale(manifest)
    if stale:
        warnings.warn(
            f"nightsky: the compiled {', '.join(stale[:3])}{' ...' if len(stale) > 3 else ''} "
            "do not match their sources; running pure Python. Rebuild with "
            "`make build` (or `pip install -e .`).",
            RuntimeWarning,
            stacklevel=3,
        )
        return False, "the compiled extensions are older than their sources"
    return True, ""


_USE_EXTENSIONS, WHY_PURE = _decide()
if not _USE_EXTENSIONS and _manifest():
    sys.meta_path.insert(0, _SourceOnlyFinder())


def compiled() -> bool:
    """Whether the engine modules in this process are the mypyc-compiled ones."""
    if not _USE_EXTENSIONS:
        return False
    import nightsky.core.state as base  # the contract's compiled base

    origin = getattr(base, "__file__", "") or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def engine() -> str:
    """``"compiled (mypyc)"`` or ``"pure Python (<why>)"``."""
    return "compiled (mypyc)" if compiled() else f"pure Python ({WHY_PURE or 'not built'})"
