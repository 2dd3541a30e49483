"""The compiled copies of ``random.Random``'s choice, shuffle and sample that the set-up draws
use must draw exactly what CPython's do, or seeded games (and the golden records) would change."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightsky.games.shooting_star.state import _choice, _sample, _shuffle


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(1, 300), data=st.data())
def test_draws_match_cpython_random(seed: int, n: int, data: st.DataObject) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    population = tuple(range(100, 100 + n))
    k = data.draw(st.integers(0, n))
    assert _sample(ours, population, k) == theirs.sample(population, k)
    assert _choice(ours, population) == theirs.choice(population)
    a, b = list(population), list(population)
    _shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()


def test_draws_of_other_generators_and_bad_input_are_left_to_them() -> None:
    class Mine(random.Random):
        def random(self) -> float:  # no getrandbits of its own: another _randbelow
            return 0.5

    pool = list(range(10))
    assert _choice(Mine(1), pool) == Mine(1).choice(pool)
    assert _sample(Mine(1), pool, 3) == Mine(1).sample(pool, 3)
    with pytest.raises(IndexError):
        _choice(random.Random(1), [])
    with pytest.raises(ValueError):
        _sample(random.Random(1), pool, 11)
