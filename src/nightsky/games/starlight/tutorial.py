"""The rulebook's Example of Play as a loadable position (built in ``tests`` too)."""

from __future__ import annotations

from nightsky.core.game import Tutorial


def example_of_play() -> Tutorial:
    raise NotImplementedError
