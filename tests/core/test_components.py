"""The shared component loader: errors name the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from nightsky.core.components import Component, load_components
from nightsky.core.errors import ComponentError


class Card(Component):
    id: str
    cost: int


class Deck(BaseModel):
    card: list[Card]


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "deck.toml"
    p.write_text(text)
    return p


def test_valid_file_loads(tmp_path: Path) -> None:
    deck = load_components(
        write(tmp_path, '[[card]]\nid = "a"\ncost = 2\nsource = "designed"\nwhy = "test"\n'), Deck
    )
    assert deck.card[0].cost == 2


def test_error_names_file_entry_and_field(tmp_path: Path) -> None:
    bad = write(tmp_path, '[[card]]\nid = "comet"\ncost = "lots"\nsource = "designed"\n')
    with pytest.raises(ComponentError, match=r"deck.toml: card\[0\] \('comet'\).cost"):
        load_components(bad, Deck)


def test_provenance_is_required_and_checked(tmp_path: Path) -> None:
    bad = write(tmp_path, '[[card]]\nid = "x"\ncost = 1\nsource = "dreamt"\n')
    with pytest.raises(ComponentError, match="source"):
        load_components(bad, Deck)


def test_broken_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="not valid TOML"):
        load_components(write(tmp_path, "[[card]\n"), Deck)
    with pytest.raises(ComponentError, match="cannot read"):
        load_components(tmp_path / "nope.toml", Deck)
