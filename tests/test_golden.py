"""Engine refactors change nothing a user can see: fingerprints match ``tests/golden/``.

See ``tests/support/golden.py`` for what is fingerprinted and how to rewrite the files after a
change that is meant to alter behaviour.
"""

from __future__ import annotations

import json

import pytest

from nightsky.core.registry import game_ids
from tests.support.golden import fingerprints, golden_path


@pytest.mark.slow
@pytest.mark.parametrize("game_id", game_ids())
def test_fingerprints_match_golden(game_id: str) -> None:
    path = golden_path(game_id)
    if not path.exists():  # a new game: nothing to compare with until it is right
        pytest.skip(f"no golden file yet: python -m tests.support.golden --write {game_id}")
    want = json.loads(path.read_text())
    got = fingerprints(game_id)
    differing = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
    assert not differing, f"{game_id}: these fingerprints changed: {differing}"
