"""TSAR-12.1: our ruling on a player who resigns (the rulebook is silent) is declared by the
game and written in its catalogue; the server applies it (tests/server/test_resign.py)."""

from __future__ import annotations

from nightsky.core.registry import game_class
from nightsky.core.rulebook import rulebook


def test_tsar_12_1_the_resign_ruling_is_declared_and_written() -> None:
    assert game_class("stars-are-right").info.resign_rule == "TSAR-12.1"
    book = rulebook("stars-are-right")
    assert book is not None and "stand-in bot" in book.rules["TSAR-12.1"]
