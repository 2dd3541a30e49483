"""Shared fixtures. The toy game is registered for every test so the shared machinery is
tested on its own, independent of the real games."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from nightsky import _native
from nightsky.core.registry import register
from tests.support.toygame import ToyGame

register(ToyGame)

settings.register_profile(
    "nightsky",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=int(os.environ.get("NIGHTSKY_HYPOTHESIS_EXAMPLES", "8")),
)
settings.load_profile("nightsky")


ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "pure_engine: the test intercepts Python-level calls (monkeypatched methods, guard "
        "objects) that compiled code makes natively; with the compiled engine it runs in a "
        "subprocess on the pure-Python engine (the differential test shows both play alike)",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    if pyfuncitem.get_closest_marker("pure_engine") is None or not _native.compiled():
        return None
    env = {**os.environ, "NIGHTSKY_PURE": "1"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", pyfuncitem.nodeid]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"failed on the pure-Python engine:\n{run.stdout[-4000:]}"
    return True  # the test ran, in a pure-Python subprocess
