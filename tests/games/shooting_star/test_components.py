"""SS-1: the components and the designed cards."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from nightsky.core import ComponentError, load_game
from nightsky.core.components import data_path
from nightsky.games.shooting_star.components import load

DEFAULT = data_path("nightsky.games.shooting_star", "components.toml")


def test_SS_1_1_rulebook_counts() -> None:
    comp = load()
    kinds = [p.kind for p in comp.planet]
    assert (kinds.count("minor"), kinds.count("major"), kinds.count("dark")) == (30, 15, 4)
    assert len(comp.colour) == 5 and len(comp.card) == 9
    assert [m.value for m in comp.ordered_missions()] == [1] * 5 + [2] * 5 + [3] * 5
    assert 49 + 5 * 9 + 15 == 109  # plus the Dark Invader card = 110 cards


def test_SS_1_1_user_file_must_keep_counts(tmp_path: Path) -> None:
    text = DEFAULT.read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('code = "d4"\nkind = "dark"', 'code = "d4"\nkind = "minor"'))
    with pytest.raises(ComponentError, match="bad.toml.*SS-1.1"):
        load_game("shooting-star", components=str(bad))


def test_SS_1_1_error_names_entry_and_field(tmp_path: Path) -> None:
    text = DEFAULT.read_text()
    bad = tmp_path / "typo.toml"
    bad.write_text(text.replace('key = "P3"\npriority = 3', 'key = "P3"\npriority = "three"', 1))
    with pytest.raises(ComponentError, match=r"typo.toml: card\[2\] \('P3'\)\.priority"):
        load_game("shooting-star", components=str(bad))
    with pytest.raises(ComponentError, match="no such component file"):
        load_game("shooting-star", components=str(tmp_path / "missing.toml"))


def test_SS_1_2_user_file_changes_the_game(tmp_path: Path) -> None:
    own = tmp_path / "mine.toml"
    shutil.copy(DEFAULT, own)
    own.write_text(
        own.read_text().replace(
            'code = "p01"\nkind = "minor"\nmoon = false',
            'code = "p01"\nkind = "minor"\nmoon = true',
        )
    )
    g = load_game("shooting-star", components=str(own))
    assert g.p_moon[g.code_index["p01"]] is True
    assert load_game("shooting-star").p_moon[g.code_index["p01"]] is False


def test_SS_1_2_some_planets_have_moons() -> None:
    comp = load()
    moons = {k: sum(p.moon for p in comp.planet if p.kind == k) for k in ("minor", "major", "dark")}
    assert moons == {"minor": 8, "major": 5, "dark": 0}


def test_SS_1_3_levels_by_kind() -> None:
    from tests.games.shooting_star.helpers import setup

    s = setup(5, seed=3)
    g = s.g
    for c in range(g.ncells):
        kind = g.p_kind[s.pl[c]]
        assert s.lvl[c] in ((1, 2), (3, 4), (5,))[kind]


def test_SS_1_4_designed_blast_patterns() -> None:
    cards = {c.key: c for c in load().card}
    assert all(c.source == "designed" and c.why for c in cards.values())
    assert cards["P7"].blast.count((0, 0)) == 2
    assert cards["S"].blast == [] and cards["S"].priority == 0
    assert set(cards["P2"].blast) == {(0, -1), (-1, 0), (1, 0), (0, 1)}  # example 1's card
    assert {(-1, 0), (1, 0)} <= set(cards["P6"].blast)  # example 2's card
    assert sorted(int(k[1:]) for k in cards if k != "S") == list(range(1, 9))


def test_SS_1_4_P7_must_hit_its_own_planet_twice(tmp_path: Path) -> None:
    bad = tmp_path / "p7.toml"
    bad.write_text(DEFAULT.read_text().replace("blast = [[0, 0], [0, 0]]", "blast = [[0, 0]]"))
    with pytest.raises(ComponentError, match="SS-5.6"):
        load_game("shooting-star", components=str(bad))


def test_SS_1_5_named_planets_with_zero() -> None:
    names = [p.name for p in load().planet if p.kind == "major"]
    assert len(set(names)) == 15 and "Zero" in names
    assert all(p.source == "designed" and p.why for p in load().planet)


def test_SS_1_6_designed_missions() -> None:
    ms = load().ordered_missions()
    assert all(m.source == "designed" and m.why for m in ms)
    threes = [m for m in ms if m.value == 3]
    assert all(m.kind == "named" and m.planet != "Zero" for m in threes)
    assert len({m.planet for m in threes}) == 5
    assert all(m.kind in ("planets", "destroy") for m in ms if m.value < 3)
