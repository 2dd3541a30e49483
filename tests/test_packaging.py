"""Packaging: one version, ranges not pins, a lock that covers them, extras that import
cleanly when missing and say what to install. (``scripts/wheel_check.sh``, run by
``make test``, checks the built wheel itself in a fresh environment.)"""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import nightsky
from nightsky._extras import EXTRAS, MissingExtraError, install_hint, missing, require
from tests.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PROJECT = PYPROJECT["project"]


def _requirements() -> list[Requirement]:
    reqs = [Requirement(r) for r in PROJECT["dependencies"]]
    for extra in PROJECT["optional-dependencies"].values():
        reqs += [Requirement(r) for r in extra]
    for group in PYPROJECT["dependency-groups"].values():
        reqs += [Requirement(r) for r in group if isinstance(r, str)]
    return [r for r in reqs if canonicalize_name(r.name) != "nightsky"]


def _lock() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if m:
            out[canonicalize_name(m.group(1))] = m.group(2)
    return out


def test_one_version_source() -> None:
    version = runpy.run_path(str(ROOT / "src/nightsky/_version.py"))["__version__"]
    assert nightsky.__version__ == version
    assert PROJECT["dynamic"] == ["version"] and "version" not in PROJECT
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "nightsky._version.__version__"
    run = subprocess.run([sys.executable, "-m", "nightsky", "--version"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.stdout.startswith(f"nightsky {version}, engine: ")
    pytest.importorskip("fastapi")
    from nightsky.server import create_app

    assert create_app("sqlite://").openapi()["info"]["version"] == version


def test_dependencies_are_ranges_and_the_lock_satisfies_them() -> None:
    lock = _lock()
    for req in _requirements():
        assert not any(s.operator in ("==", "===") for s in req.specifier), (
            f"{req}: state a range in pyproject.toml; exact versions belong in constraints.txt"
        )
        name = canonicalize_name(req.name)
        assert name in lock, f"{req.name} is not in constraints.txt: run `make lock`"
        assert req.specifier.contains(lock[name], prereleases=True), (
            f"constraints.txt has {req.name}=={lock[name]}, outside {req.specifier}: `make lock`"
        )


def test_extras_by_face_and_test_tools_in_groups() -> None:
    extras = PROJECT["optional-dependencies"]
    assert set(EXTRAS) <= set(extras)
    assert extras["rl"] == ["nightsky[pettingzoo,gymnasium,openspiel]"]
    runtime = {canonicalize_name(Requirement(r).name) for r in PROJECT["dependencies"]}
    for test_only in ("httpx", "pytest", "hypothesis", "playwright", "matplotlib", "ray"):
        assert test_only not in runtime
    assert "httpx" in {canonicalize_name(Requirement(r).name)
                       for r in PYPROJECT["dependency-groups"]["test"]}
    # httpx is only the test client's: no module of the package imports it.
    for path in (ROOT / "src/nightsky").rglob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+httpx\b", path.read_text(), re.M), path
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    assert "Copyright (c) 2026 The nightsky developers" in (ROOT / "LICENSE").read_text()
    assert (ROOT / "src/nightsky/py.typed").exists()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["nightsky"]


def test_missing_names_the_extra_only_for_its_own_modules() -> None:
    err = missing(ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib"),
                  "report", "Plots")
    assert isinstance(err, MissingExtraError) and isinstance(err, ImportError)
    assert str(err) == f"Plots needs matplotlib, which is not installed: {install_hint('report')}"
    assert install_hint("report") == 'pip install "nightsky[report]"'
    # A module missing inside an installed library is not a missing extra.
    inner = ModuleNotFoundError("No module named 'kiwisolver'", name="kiwisolver")
    assert missing(inner, "report", "Plots") is inner
    with pytest.raises(ValueError, match="unknown extra"):
        missing(inner, "no-such-extra", "Plots")


def test_require_imports_or_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(EXTRAS, "fake", ("no_such_library_anywhere", "json"))
    assert require("json", "fake", "Fake").dumps(1) == "1"
    with pytest.raises(MissingExtraError, match=r'Fake needs no_such_library_anywhere, .*'
                       r'pip install "nightsky\[fake\]"') as caught:
        require("no_such_library_anywhere.sub", "fake", "Fake")
    assert caught.value.extra == "fake"
    # A submodule missing from an installed library is a broken install: its own error.
    with pytest.raises(ModuleNotFoundError) as broken:
        require("json.no_such_submodule", "fake", "Fake")
    assert not isinstance(broken.value, MissingExtraError)


# A subprocess in which the optional libraries cannot be imported, as without the extras.
BLOCK = """
import importlib.abc, sys
BLOCKED = {blocked!r}
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Block())
"""
OPTIONAL = ["matplotlib", "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "ray", "psycopg"]


def _blocked_python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    src = BLOCK.format(blocked=OPTIONAL) + code
    return subprocess.run([sys.executable, "-c", src, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_every_module_imports_without_the_extras_or_names_its_extra() -> None:
    code = """
import importlib, pkgutil, nightsky
from nightsky._extras import MissingExtraError
for mod in pkgutil.walk_packages(nightsky.__path__, "nightsky."):
    if mod.name == "nightsky.__main__":  # runs the CLI
        continue
    try:
        importlib.import_module(mod.name)
    except MissingExtraError as exc:
        print(mod.name, "->", exc.extra)
"""
    run = _blocked_python(code)
    assert run.returncode == 0, run.stderr[-3000:]
    faces = dict(line.split(" -> ") for line in run.stdout.splitlines())
    # Only the research faces refuse to import, each naming its own extra.
    assert faces == {
        "nightsky.rl._core": "rl",
        "nightsky.rl.aec": "pettingzoo",
        "nightsky.rl.bench": "pettingzoo",
        "nightsky.rl.openspiel": "openspiel",
        "nightsky.rl.parallel": "pettingzoo",
        "nightsky.rl.pettingzoo": "pettingzoo",
        "nightsky.rl.single": "gymnasium",
    } or all(v in EXTRAS for v in faces.values()), faces


def test_the_cli_names_the_extra_of_a_missing_library(tmp_path: Path) -> None:
    code = "import sys; from nightsky.cli import main; sys.argv[0] = 'nightsky'; main()"
    run = _blocked_python(code, "simulate", "mihi-anguli", "--players", "1", "--agents",
                          "random", "--games", "2", "--out", str(tmp_path / "out"))
    assert run.returncode == 2, run.stdout + run.stderr
    assert 'pip install "nightsky[report]"' in run.stderr
    assert "Traceback" not in run.stderr
    run = _blocked_python(code, "simulate", "mihi-anguli", "--players", "1", "--agents",
                          "random", "--games", "2", "--engine", "ray")
    assert run.returncode != 0 and 'pip install "nightsky[ray]"' in run.stderr, run.stderr
    run = _blocked_python("import nightsky.rl as r; r.pettingzoo_env('star-fire')")
    assert 'pip install "nightsky[pettingzoo]"' in run.stderr
    run = _blocked_python("import nightsky.rl as r; r.gym_env('star-fire')")
    assert 'pip install "nightsky[gymnasium]"' in run.stderr
