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


_BYTE_BITS: Final[list[list[int]]] = [[b for b in range(8) if v >> b & 1] for v in range(256)]
"""The set bits of every byte value, lowest first."""


def write_bits(buf: Any, base: int, mask: int, count: int) -> None:
    """Set ``buf[base + i] = 1.0`` for every set bit ``i < count`` of the non-negative
    ``mask`` (the other entries are left alone: a zeroed buffer stays zero there)."""
    if count < 0 or mask < 0:
        raise ValueError(f"write_bits needs a non-negative mask and count, got {mask}, {count}")
    one: Any = 1.0  # boxed once per call, not at every set bit (compiled)
    if mask.bit_length() > count:
        mask &= (1 << count) - 1
    if mask < 0x40000000:
        # A small integer (unboxed, when compiled): its bits one by one.
        while mask:
            low = mask & -mask
            buf[base + low.bit_length() - 1] = one
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
                buf[o + b] = one
