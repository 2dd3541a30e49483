"""The compiled engine plays exactly the games the pure-Python engine plays.

The hot path is compiled with mypyc from the same ``.py`` files (``setup.py``). Compilers can
change behaviour without an error (see ``docs/performance.md``), so for every game and player
count the fingerprints of seeded games (``tests/support/golden.py``: records, hence histories
and scores; every seat's and the spectator's views; log lines; legal action ids; observations;
text, SVG and labels) are computed in this process, on the compiled engine, and in a
subprocess forced to pure Python with ``NIGHTSKY_PURE=1``, and must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nightsky import _native
from nightsky.core.registry import game_ids
from tests.support.golden import fingerprints

ROOT = Path(__file__).resolve().parent.parent


def test_the_compiled_engine_is_in_use_where_required() -> None:
    # `make test` sets NIGHTSKY_REQUIRE_COMPILED=1: a build that fell back to pure Python
    # (no compiler, a mypyc error) must not pass CI silently.
    if os.environ.get("NIGHTSKY_REQUIRE_COMPILED") != "1":
        pytest.skip("NIGHTSKY_REQUIRE_COMPILED is not set")
    assert _native.compiled(), f"running {_native.engine()}"


def _pure_fingerprints(game_id: str) -> dict[str, object]:
    env = {**os.environ, "NIGHTSKY_PURE": "1"}
    code = (
        "import json, sys\n"
        "from nightsky import _native\n"
        "from nightsky.core.registry import register\n"
        "from tests.support.toygame import ToyGame\n"
        "from tests.support.golden import fingerprints\n"
        "register(ToyGame)\n"
        "assert not _native.compiled()\n"
        f"print(json.dumps(fingerprints({game_id!r})))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        check=True, timeout=300,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
@pytest.mark.parametrize("game_id", game_ids())
def test_compiled_and_pure_engines_play_identical_games(game_id: str) -> None:
    if not _native.compiled():
        pytest.skip(f"no compiled engine here ({_native.engine()})")
    compiled = fingerprints(game_id)
    pure = _pure_fingerprints(game_id)
    differing = sorted(k for k in set(compiled) | set(pure) if compiled.get(k) != pure.get(k))
    assert not differing, f"{game_id}: compiled and pure differ in {differing}"
