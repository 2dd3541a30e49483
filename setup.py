"""Build script: compiles the engine's hot path with mypyc from the same ``.py`` sources.

Everything else about the package is in ``pyproject.toml``. The modules in ``COMPILED`` are
turned into C extensions; the ``.py`` files stay the readable reference and the fallback. When
the compiler or a C toolchain is missing, or the build fails, the install says so and carries
on with pure Python (``NIGHTSKY_PURE=1`` at build time skips compiling on purpose).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"

# The hot path: the contract's base classes and, per game, the rules and what they call per
# move. Presentation, data loading (pydantic) and the server stay interpreted.
COMPILED = [
    "nightsky/core/state.py",
    "nightsky/core/observer.py",
    "nightsky/core/evaluator.py",
    "nightsky/core/rng.py",
    "nightsky/core/linear_value.py",  # a learned value's dot product, at every search cut-off
    "nightsky/agents/search.py",
    "nightsky/rl/_stepper.py",  # the vector env's per-game loops (no numpy in it)
    *(
        f"nightsky/games/{game}/{module}.py"
        for game, modules in {
            "shooting_star": (
                "constants", "actions", "events", "tables", "state", "views", "observer",
                "evaluator",
            ),
            "stars_are_right": (
                "constants", "actions", "matcher", "tables", "evaluator", "state", "observer",
            ),
            "star_fire": ("constants", "actions", "state", "observer", "evaluator"),
            "mihi_anguli": (
                "constants", "board", "actions", "heuristic", "value", "evaluator", "state",
                "observer",
            ),
            "starlight": ("constants", "actions", "evaluator", "views", "state", "observer"),
        }.items()
        for module in modules
    ),
]
MANIFEST = "nightsky/_compiled.json"


_BUILT: dict[str, str] = {}
"""``_manifest()`` taken when the sources were handed to mypyc."""


def _say(message: str) -> None:
    bar = "=" * 78
    print(f"\n{bar}\nnightsky: {message}\n{bar}\n", file=sys.stderr, flush=True)


def _manifest() -> dict[str, str]:
    """Module name -> SHA-256 of the source compiled, so a stale extension is never used."""
    out = {}
    for rel in COMPILED:
        name = rel[: -len(".py")].replace("/", ".")
        out[name] = hashlib.sha256((SRC / rel).read_bytes()).hexdigest()
    return out


def _extensions() -> list:
    if os.environ.get("NIGHTSKY_PURE") == "1":
        _say("NIGHTSKY_PURE=1: building without compiled extensions (pure Python).")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        _say(f"mypyc is not available ({exc}); installing pure Python.")
        return []
    try:
        # The package's third-party imports are not in the build environment: Any is fine.
        flags = ["--ignore-missing-imports", "--python-version", "3.11"]
        paths = [f"src/{rel}" for rel in COMPILED]
        # The hashes of the sources as compiled: a source edited while the C compiler runs
        # must not be recorded as built.
        _BUILT.update(_manifest())
        return mypycify([*flags, *paths], opt_level="3", debug_level="0")
    except BaseException as exc:  # noqa: BLE001 - any failure means: fall back, loudly
        _say(f"compiling with mypyc failed ({exc!r}); installing pure Python.")
        return []


class OptionalBuildExt(build_ext):
    """Build the extensions, or none of them: a half-built set would not import."""

    def run(self) -> None:
        if self.inplace or self.editable_mode:
            # Extensions of modules no longer compiled would shadow their sources.
            for old in (SRC / "nightsky").rglob("*.so"):
                old.unlink()
        if not self.extensions:
            return
        try:
            super().run()
        except BaseException as exc:  # noqa: BLE001 - a C compiler error, a missing header...
            _say(f"building the compiled extensions failed ({exc!r}); installing pure Python.")
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            self.extensions = []
            return
        self._write_manifest()

    def _write_manifest(self) -> None:
        text = json.dumps(_BUILT or _manifest(), indent=1, sort_keys=True) + "\n"
        targets = [Path(self.build_lib) / MANIFEST]
        if self.inplace:
            targets.append(SRC / MANIFEST)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)

    def get_outputs(self) -> list[str]:
        outs = super().get_outputs()
        return [*outs, str(Path(self.build_lib) / MANIFEST)] if self.extensions else outs


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
