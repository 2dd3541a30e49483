"""Fixed-size numeric observations for learning agents (OpenSpiel's ``make_py_observer``).

``game.make_observer()`` returns an ``Observer``: ``size`` numbers describing exactly what one
seat may know, the same length in every state of that game. The RL adapters build observation
tensors only through it.

Two ways to read one: ``observation(state, seat)`` returns a new list of floats;
``observation_into(state, seat, buf)`` writes the same numbers into a caller's zeroed buffer
(a ``float32`` numpy array, a ``memoryview`` of one, or a list of ``0.0``), touching only the
entries that are not zero, so a learner's step costs no list of hundreds of floats. A game
writes both through one writer (any indexable ``buf``), so there is one encoding;
``write_bits`` is the writer's helper for bit masks.

A third way keeps a buffer between calls: ``update_into(state, seat, buf, memo)`` brings a
buffer that holds an earlier observation (described by ``memo``, which the previous call
returned) to the new one, writing only the entries that differ (zeros included). The vector
env's rows persist from step to step this way where a game's observer overrides it (one
action changes a few entries of hundreds); ``update_bits``, ``update_onehot`` and
``update_members`` are its helpers for bit masks, one-hot blocks and sets of indices.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Final

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from nightsky.core.game import Game, State


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled; tests subclass it
class Observer(ABC):
    """The observation tensor of one game (with fixed parameters)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its game: everything an observer holds is derived from it, and a compiled
        # observer has no __dict__ for pickle's and deepcopy's default way.
        return (type(self), (self.game,))

    @property
    @abstractmethod
    def size(self) -> int:
        """Length of every observation of this game."""

    @abstractmethod
    def observation(self, state: State, player: int) -> list[float]:
        """What ``player`` may know of ``state``, as ``size`` numbers."""

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        """Write ``observation(state, player)`` into ``buf``, which holds ``size`` zeros on
        entry (a ``float32`` numpy array, a ``memoryview`` of one, or a list): only the entries
        that are not zero are written.

        This default goes through ``observation``; games override it with the writer their
        ``observation`` is built on (one encoding, no intermediate list).
        """
        for i, v in enumerate(self.observation(state, player)):
            if v:
                buf[i] = v

    def update_into(self, state: State, player: int, buf: Any, memo: Any) -> Any:
        """Bring ``buf`` to ``observation(state, player)`` and return the new memo.

        On entry ``buf`` holds the observation that ``memo`` describes: ``memo`` is what this
        method returned for this very ``buf`` and ``player`` the last time, or None for a
        buffer of zeros. Only the entries that change are written (zeros included), so the
        same buffer can follow a game move by move, or move on to another game of the same
        ``game``.

        This default keeps the indices of the non-zero entries as its memo: it zeroes them,
        then writes the whole new observation. Games override it with a writer of their
        ``observation_into`` that compares against the memo (one encoding).
        """
        if memo is not None:
            zero: Any = 0.0
            for i in memo:
                buf[i] = zero
        written: list[int] = []
        for i, v in enumerate(self.observation(state, player)):
            if v:
                buf[i] = v
                written.append(i)
        return written


_BYTE_BITS: Final[list[list[int]]] = [[b for b in range(8) if v >> b & 1] for v in range(256)]
"""The set bits of every byte value, lowest first."""


def write_bits(buf: Any, base: int, mask: int, count: int) -> None:
    """Set ``buf[base + i] = 1.0`` for every set bit ``i < count`` of the non-negative
    ``mask`` (the other entries are left alone: a zeroed buffer stays zero there)."""
    if count < 0 or mask < 0:
        raise ValueError(f"write_bits needs a non-negative mask and count, got {mask}, {count}")
    if mask.bit_length() > count:
        mask &= (1 << count) - 1
    one: Any = 1.0  # boxed once per call, not at every set bit (compiled)
    _put_bits(buf, base, mask, count, one)


def update_bits(buf: Any, base: int, old: int, new: int, count: int) -> None:
    """Where ``buf[base:base + count]`` holds the low ``count`` bits of ``old`` (1.0 where set,
    0.0 elsewhere), make it hold those of ``new``: only the entries of the bits that differ
    are written (``write_bits`` when ``old`` is 0)."""
    if count < 0 or old < 0 or new < 0:
        raise ValueError(
            f"update_bits needs non-negative masks and count, got {old}, {new}, {count}"
        )
    diff = old ^ new
    if not diff:
        return
    if diff.bit_length() > count:
        diff &= (1 << count) - 1
    set_now = new & diff
    if set_now:
        one: Any = 1.0
        _put_bits(buf, base, set_now, count, one)
    if set_now != diff:
        zero: Any = 0.0
        _put_bits(buf, base, diff ^ set_now, count, zero)


def update_onehot(
    buf: Any, base: int, old: int, new: int, one: Any = 1.0, zero: Any = 0.0
) -> None:
    """Move the one-hot of the block at ``base`` from index ``old`` to ``new`` (-1: none set):
    nothing is written when they are equal. ``one`` and ``zero`` are the values written (a
    caller in a loop passes its own boxed ``1.0`` and ``0.0``: compiled, a default is boxed
    anew at every call)."""
    if old != new:
        if old >= 0:
            buf[base + old] = zero
        if new >= 0:
            buf[base + new] = one


def update_members(buf: Any, base: int, old: list[int], new: list[int]) -> None:
    """Where ``buf[base + i]`` is 1.0 for each ``i`` of ``old`` (0.0 at the other indices of
    the block), make it so for ``new``: only the indices in one and not the other are written.
    Both hold distinct non-negative indices, in any order (a hand, a pile, a set of cards)."""
    one: Any = 1.0
    k = len(old)
    n = len(new)
    if k == 0:
        for j in range(n):
            buf[base + new[j]] = one
        return
    if n >= k and new[:k] == old:
        # Grown at the end (a card laid on a pile): the new tail.
        for j in range(k, n):
            buf[base + new[j]] = one
        return
    zero: Any = 0.0
    if k <= 8 and n <= 8:
        # Small: scans of typed lists (unboxed ints, compiled) beat building sets.
        for a in range(k):
            if not _holds(new, old[a]):
                buf[base + old[a]] = zero
        for a in range(n):
            if not _holds(old, new[a]):
                buf[base + new[a]] = one
        return
    was = set(old)
    now = set(new)
    for i in old:
        if i not in now:
            buf[base + i] = zero
    for i in new:
        if i not in was:
            buf[base + i] = one


def _holds(items: list[int], x: int) -> bool:
    """``x in items``, as a loop over a typed list (compiled: no boxing per comparison)."""
    for j in range(len(items)):  # noqa: SIM110 - any() of a generator is slower compiled
        if items[j] == x:
            return True
    return False


def _put_bits(buf: Any, base: int, mask: int, count: int, value: Any) -> None:
    """``buf[base + i] = value`` for every set bit ``i`` of ``mask`` (below ``2 ** count``)."""
    if mask < 0x40000000:
        # A small integer (unboxed, when compiled): its bits one by one.
        while mask:
            low = mask & -mask
            buf[base + low.bit_length() - 1] = value
            mask ^= low
        return
    # A long mask: read its bytes once (no shift of a big integer per chunk), then the set
    # bits of each non-zero byte from a table.
    data = mask.to_bytes((count + 7) // 8, "little")
    for i in range(len(data)):
        byte = data[i]
        if byte:
            o = base + 8 * i
            for b in _BYTE_BITS[byte]:
                buf[o + b] = value
