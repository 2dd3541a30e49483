"""SF-1: the deck, the designed cards and the component loader."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from nightsky.core import ComponentError
from nightsky.core.components import load_toml
from nightsky.games.star_fire.components import (
    ELEMENT,
    EVENT,
    MOON,
    PLANET,
    STAR,
    STARFIRE,
    default_path,
    load_cards,
)
from tests.games.star_fire.helpers import game


def test_SF_1_1_deck_counts() -> None:
    C = load_cards()
    assert C.n == 79
    cats = Counter(C.cat)
    assert cats == {ELEMENT: 28, EVENT: 5, STAR: 8, PLANET: 11, MOON: 7, STARFIRE: 20}
    per_element = Counter(C.element[c] for c in C.elements)
    assert per_element == {0: 7, 1: 7, 2: 7, 3: 7}
    assert {C.units[c] for c in C.elements} == {1, 2}


def test_SF_1_2_star_fire_kinds() -> None:
    C = load_cards()
    assert Counter(C.sf_kind[c] for c in C.starfire) == {0: 5, 1: 3, 2: 4, 3: 4, 4: 4}


def test_SF_1_3_body_points() -> None:
    C = load_cards()
    assert {C.points(c) for c in C.stars} == {5}
    assert {C.points(c) for c in C.planets} == {3}
    assert {C.points(c) for c in C.moons} == {1}


def test_SF_1_4_designed_cards_say_why_and_fit_the_rules() -> None:
    raw = load_toml(default_path())
    for section in ("elements", "stars", "planets", "moons"):
        for entry in raw[section]:
            assert entry["source"] == "designed" and len(entry["why"]) > 10, entry
    C = load_cards()
    assert all(sum(C.cost[s]) == 4 for s in C.stars)
    assert all(sum(C.cost[p]) == 3 for p in C.planets)
    assert all(1 <= sum(C.cost[m]) <= 2 for m in C.moons)
    # Moon bonuses are reachable and moon limits leave room for every moon.
    assert all(C.moon_bonus[p][0] <= C.moon_limit[p] for p in C.planets)
    assert sum(C.moon_limit[p] for p in C.planets) >= len(C.moons)
    assert 0 < sum(not C.needs_host[m] for m in C.moons) < len(C.moons)
    total = sum(sum(C.cost[b]) for b in C.bodies)
    units = sum(C.units[c] for c in C.elements)
    assert units < total < 2 * units  # elements stay the bottleneck (one reshuffle)


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "mine.toml"
    p.write_text(text)
    return str(p)


def test_SF_1_5_components_option_loads_a_user_file(tmp_path: Path) -> None:
    text = default_path().read_text().replace('name = "Sirius"', 'name = "Procyon"')
    g = game(components=_write(tmp_path, text))
    assert "Procyon" in g.cards.title
    assert g.params["components"].endswith("mine.toml")


@pytest.mark.parametrize(
    ("old", "new", "needle"),
    [
        pytest.param(
            "moon_limit = 3",
            "moon_limit = 9",
            "planets[5] ('Zephyr').moon_limit",
            id="SF-1.5-bad-field",
        ),
        pytest.param("units = 2", "units = 3", "elements[4] ('H5').units", id="SF-1.5-units"),
        pytest.param("count = 5", "count = 6", "starfire", id="SF-1.2-counts"),
        pytest.param(
            'name = "C7"\nelement = "carbon"',
            'name = "C7"\nelement = "helium"',
            "7 helium cards, this file has 8",
            id="SF-1.1-counts",
        ),
    ],
)
def test_SF_1_5_bad_files_name_file_entry_field(
    tmp_path: Path, old: str, new: str, needle: str
) -> None:
    text = default_path().read_text()
    assert old in text
    path = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(ComponentError) as err:
        game(components=path)
    assert "mine.toml" in str(err.value) and needle in str(err.value), str(err.value)


def test_SF_1_5_missing_file_is_a_component_error(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="cannot read"):
        game(components=str(tmp_path / "nope.toml"))
