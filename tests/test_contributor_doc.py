"""docs/developing-a-game.md names every suite that runs over every registered game: its table
is checked against the test tree, so a new all-games suite cannot go unmentioned (a contributor
adding a game reads that table to know what the game must pass)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
DOC = TESTS.parent / "docs" / "developing-a-game.md"
READS_REGISTRY = re.compile(r"\b(?:packaged_)?game_ids\(\)|\bgame_classes\(\)")
SECTION = "## What `make test` runs over every registered game"


def suites_in_tree() -> set[str]:
    """Each test file reading the registry; a folder whose ``conftest.py`` does counts once."""
    found: set[str] = set()
    for path in sorted(TESTS.rglob("*.py")):
        rel = path.relative_to(TESTS.parent)
        if rel.parts[1] in {"support", "plugin_pkg", "games"} or not (
            path.name.startswith("test_") or path.name == "conftest.py"
        ):
            continue
        if not READS_REGISTRY.search(path.read_text(encoding="utf-8")):
            continue
        folder = path.parent
        if path.name == "conftest.py":
            found.add(f"{folder.relative_to(TESTS.parent).as_posix()}/")
        elif not (
            (folder / "conftest.py").exists()
            and READS_REGISTRY.search((folder / "conftest.py").read_text(encoding="utf-8"))
        ):
            found.add(rel.as_posix())
    return found


def suites_in_doc() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    table = text[text.index(SECTION):].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+)`", table, flags=re.M))


def test_the_doc_names_every_all_games_suite() -> None:
    tree, doc = suites_in_tree(), suites_in_doc()
    assert tree - doc == set(), f"add to {DOC.name}'s table: {sorted(tree - doc)}"
    assert doc - tree == set(), f"no longer over every game, drop from the table: {doc - tree}"


def test_the_tree_scan_sees_the_known_suites() -> None:
    tree = suites_in_tree()
    assert {"tests/test_conformance.py", "tests/rl/", "tests/test_golden.py"} <= tree
