"""``nightsky.core.rng`` draws exactly what ``random.Random``'s methods draw (seeded games must
not change when a game switches to it), and defers to any other generator."""

from __future__ import annotations

import random

import pytest

from nightsky.core import rng as R


class Odd(random.Random):
    """A subclass that draws its own way: the helpers must use its methods."""

    def random(self) -> float:
        return 0.0

    def _randbelow(self, n: int) -> int:
        return n - 1


@pytest.mark.parametrize("seed", range(8))
def test_the_same_stream_as_random_random(seed: int) -> None:
    mine, theirs = random.Random(seed), random.Random(seed)
    for n in (1, 2, 3, 6, 7, 8, 31, 32, 33, 100, 2**70 + 3):
        assert R.randbelow(mine, n) == theirs._randbelow(n)  # type: ignore[attr-defined]
        assert R.randrange(mine, n) == theirs.randrange(n)
        assert R.randint(mine, -2, n) == theirs.randint(-2, n)
        seq = list(range(n)) if n < 1000 else [0, 1]
        assert R.choice(mine, seq) == theirs.choice(seq)
        a, b = seq.copy(), seq.copy()
        R.shuffle(mine, a)
        theirs.shuffle(b)
        assert a == b
    for n, k in [(5, 0), (5, 5), (21, 3), (30, 3), (30, 6), (200, 7), (1000, 40), (60, 50)]:
        pop = tuple(range(100, 100 + n))
        assert R.sample(mine, pop, k) == theirs.sample(pop, k)
    assert mine.getstate() == theirs.getstate()


def test_bad_arguments_are_refused_like_random() -> None:
    rng = random.Random(0)
    with pytest.raises(IndexError):
        R.choice(rng, [])
    with pytest.raises(ValueError):
        R.sample(rng, [1, 2], 3)
    with pytest.raises(ValueError):
        R.randrange(rng, 0)
    with pytest.raises(ValueError):
        R.randint(rng, 3, 2)


def test_other_generators_draw_their_own_way() -> None:
    odd = Odd(0)
    assert R.randbelow(odd, 10) == 9
    assert R.choice(odd, "abc") == "c"
    x, y = [1, 2, 3], [1, 2, 3]
    R.shuffle(odd, x)
    Odd(0).shuffle(y)
    assert x == y
    assert R.sample(odd, [1, 2, 3], 2) == odd.sample([1, 2, 3], 2)
