"""MA-1.4: the designed sheet, a user's own sheet, and clear errors for a broken one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nightsky.core.errors import ComponentError
from nightsky.games.mihi_anguli.components import DEFAULT_PATH, load_sheet

from .helpers import B, game


def test_MA_1_4_every_entry_is_designed_with_a_reason() -> None:
    sh = load_sheet()
    entries = [sh.map, *sh.days, *sh.articles, *sh.abilities, *sh.supporters]
    assert len(entries) == 1 + 7 + 5 + 10 + 7
    for e in entries:
        assert e.source == "designed" and len(e.why) > 20


def test_MA_1_4_designed_sheet_fits_the_rulebook_examples() -> None:
    g = game()
    c = g.compiled
    label = {it.label: it for it in c.items}
    assert (label["POS2.1"].kind, label["POS2.1"].value) == ("E", 3)  # Maddy's 3-item
    assert (label["W2.1"].kind, label["W2.1"].value) == ("E", 1)  # Maddy's week-2 1-item
    assert (label["FRI.1"].kind, label["FRI.1"].value) == ("E", 1)  # Maddy's Friday 1-item
    assert label["OPT.1"].kind == "S" and (label["OPT.2"].kind, label["OPT.2"].value) == ("Q", 1)
    assert (label["W4.2"].kind, label["W4.2"].value) == ("Q", 1)  # Dave's week-4 item
    assert c.article_points[1] == 6  # Emily's reward
    assert all(len([i for i in c.items if i.group == B.G_DAY0 + d]) == 4 for d in range(7))


def _edit(tmp_path: Path, old: str, new: str) -> str:
    text = DEFAULT_PATH.read_text(encoding="utf-8")
    assert re.search(old, text), old
    p = tmp_path / "mine.toml"
    p.write_text(re.sub(old, new, text, count=1), encoding="utf-8")
    return str(p)


def test_MA_1_4_a_user_sheet_replaces_the_designed_one(tmp_path: Path) -> None:
    path = _edit(tmp_path, r"points = 6\n", "points = 7\n")
    assert game(components=path).compiled.article_points[1] == 7


@pytest.mark.parametrize(("old", "new", "message"), [
    (r'items = \["E1", "S", "Q1", "E2"\]', 'items = ["E1", "X", "Q1", "E2"]',
     r"mine\.toml: days\[0\] \('Sunday'\)\.items: .*'X'"),
    (r'name = "Week 2"\nweek = 2\ncost = \[[^\]]*\]\npoints = 6', 'name = "Week 2"\nweek = 2\n'
     'cost = ["E1"]\npoints = -1', r"mine\.toml: articles\[1\] \('Week 2'\)\.points"),
    (r'"0\.5,0\.5", ', '"1,1", ', r"mine\.toml: map\.stars: .*major point"),
    (r'name = "MENTOR"', 'name = "MENTOS"', r"mine\.toml: .*supporters must be exactly"),
    (r'source = "designed"', 'source = "invented"', r"mine\.toml: map\.source"),
], ids=["MA-1.4-bad-item", "MA-1.4-bad-points", "MA-1.4-star-on-major", "MA-1.4-unknown-name",
        "MA-1.4-bad-source"])
def test_MA_1_4_broken_sheet_names_file_entry_and_field(tmp_path: Path, old: str, new: str,
                                                       message: str) -> None:
    path = _edit(tmp_path, old, new)
    with pytest.raises(ComponentError, match=message):
        game(components=path)


def test_MA_1_4_missing_or_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ComponentError, match="cannot read"):
        game(components=str(tmp_path / "nope.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("title = [", encoding="utf-8")
    with pytest.raises(ComponentError, match="not valid TOML"):
        game(components=str(bad))


def test_MA_1_6_the_sheet_is_the_only_option() -> None:
    g = game()
    assert [o.name for o in g.info.options] == ["components"]
