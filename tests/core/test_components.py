"""The shared component loader: errors name the file, the entry and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from nightsky.core.components import Component, cached_per_file, load_components
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


def test_a_cached_loader_reads_a_file_again_once_it_changed(tmp_path: Path) -> None:
    calls: list[str] = []

    @cached_per_file
    def load(path: str = "") -> str:
        calls.append(path)
        return Path(path).read_text() if path else "shipped"

    f = tmp_path / "deck.toml"
    f.write_text("one")
    assert load(str(f)) == "one" and load(str(f)) == "one" and len(calls) == 1
    f.write_text("three")  # an edit (a new size; the modification time moves too)
    assert load(str(f)) == "three" and len(calls) == 2
    assert load() == load("") == "shipped" and len(calls) == 3
    missing = str(tmp_path / "gone.toml")
    with pytest.raises(FileNotFoundError):
        load(missing)  # the loader's own error, not the cache's
