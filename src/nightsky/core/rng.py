"""The draws of ``random.Random``'s methods, compiled: same numbers, without Python frames.

A game's ``sample_chance`` draws with the caller's ``random.Random``. Its ``shuffle``,
``sample``, ``choice``, ``randrange`` and ``randint`` are written in Python (``random.py``):
every die or card costs a few interpreted calls around the one C call that makes the bits
(``getrandbits``). The functions here do the very same arithmetic (CPython 3.11-3.13's
``random.py``: ``_randbelow_with_getrandbits`` and the methods built on it) and are compiled
with the engine (``setup.py``), so a seeded game deals exactly what it dealt before, faster.

For anything but a plain ``random.Random`` (a subclass may draw differently) they call the
object's own method.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import ceil, log
from typing import Any, Final, TypeVar

T = TypeVar("T")

_RANDOM: Final = random.Random
# The C method itself, called with the generator: from compiled code a call to it skips the
# method lookup that ``rng.getrandbits(k)`` makes at every draw (a plain Random only).
_GETRANDBITS: Final = random.Random.getrandbits


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)``, ``n > 0``: ``rng._randbelow(n)``."""
    if type(rng) is not _RANDOM:
        return int(rng._randbelow(n))  # type: ignore[attr-defined]
    k = n.bit_length()
    r: int = _GETRANDBITS(rng, k)
    while r >= n:
        r = _GETRANDBITS(rng, k)
    return r


def randrange(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for a positive ``n``."""
    if n <= 0:
        raise ValueError("empty range for randrange()")
    return randbelow(rng, n)


def randint(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)``: a uniform integer in ``[a, b]``."""
    if b < a:
        raise ValueError(f"empty range for randint({a}, {b})")
    return a + randbelow(rng, b - a + 1)


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``."""
    if not len(seq):
        raise IndexError("Cannot choose from an empty sequence")
    return seq[randbelow(rng, len(seq))]


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: shuffle the list in place."""
    if type(rng) is not _RANDOM:
        rng.shuffle(x)
        return
    # randbelow(rng, i + 1) inlined, with the bound method looked up once: same draws
    getrandbits = rng.getrandbits
    i = len(x) - 1
    while i >= 1:
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
        i -= 1


_SETSIZE: Final = tuple([21 + (4 ** ceil(log(k * 3, 4)) if k > 5 else 0) for k in range(64)])
"""``sample``'s ``setsize`` for small ``k``, worked out once by ``random.py``'s own formula."""


def sample(rng: random.Random, population: Sequence[T], k: int) -> list[T]:
    """``rng.sample(population, k)``: ``k`` distinct elements in selection order."""
    if type(rng) is not _RANDOM:
        return rng.sample(population, k)
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result: list[T] = []
    # random.py's choice between a pool list and a set of the picks
    setsize = _SETSIZE[k] if k < len(_SETSIZE) else 21 + 4 ** ceil(log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = randbelow(rng, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for _ in range(k):
            j = randbelow(rng, n)
            while j in selected:
                j = randbelow(rng, n)
            selected.add(j)
            result.append(population[j])
    return result
