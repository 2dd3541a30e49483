"""The strength rows were measured on the components each game ships (issue 58's guard).

Every row of ``docs/data/strength-rows.jsonl`` names the components it was played on
(``components.file``: ``shipped`` or a components file of the repository) and their SHA-256
(``nightsky.sim.design.components_hash``, the hash reports and ``balance`` record). A change to a
game's shipped ``data/*.toml`` changes that hash, and then these tests fail until the game's
rows are played again on the new set (``scripts/agent_strength.py --save`` stamps the hash) and
the old rows are marked with a file that still holds the set they were measured on (as
Starlight's first sky is ``examples/starlight-first-sky.toml``). Starlight's search lost a third
of its edge on its second sky while the docs kept the first sky's figures: that is what this
guards against.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nightsky.sim.design import components_hash

ROOT = Path(__file__).resolve().parent.parent
ROWS = ROOT / "docs" / "data" / "strength-rows.jsonl"
OPPONENTS = ("random", "greedy")


def rows() -> list[dict[str, Any]]:
    return [json.loads(line) for line in ROWS.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def shipped_rows(game: str) -> dict[str, dict[str, Any]]:
    """The game's current rows (measured on its shipped set), by opponent."""
    return {r["opponent"]: r for r in rows()
            if r["game"] == game and r["components"]["file"] == "shipped"}


def test_every_row_names_its_components_and_their_hash() -> None:
    for i, r in enumerate(rows(), 1):
        comp = r.get("components")
        assert isinstance(comp, dict) and set(comp) >= {"file", "sha256"}, (
            f"{ROWS.name} line {i} ({r['game']} vs {r['opponent']}) does not say which "
            "components it was measured on ('components': {'file': ..., 'sha256': ...})")
        if comp["file"] != "shipped":
            path = ROOT / comp["file"]
            assert path.is_file(), f"line {i}: {comp['file']} is not a file of the repository"
            assert comp["sha256"] == components_hash(r["game"], path), (
                f"line {i}: {comp['file']} no longer holds the components the row was "
                "measured on (its hash changed)")


def check_game(game: str) -> None:
    """AssertionError unless ``game`` has one row against each opponent on its shipped set."""
    current = shipped_rows(game)
    for opponent in OPPONENTS:
        assert opponent in current, (
            f"{game} has no strength row against {opponent} on the components it ships: "
            f"play it again (scripts/agent_strength.py --only {game} --save FILE)")
        # One current row per pairing, so the README and docs/agents.md show one figure.
        assert sum(1 for r in rows() if r["game"] == game and r["opponent"] == opponent
                   and r["components"]["file"] == "shipped") == 1
        assert current[opponent]["components"]["sha256"] == components_hash(game), (
            f"{game}'s shipped components changed after its strength row against {opponent} "
            "was measured: play the row again on the new set, and mark the old row with a "
            "components file that holds the set it was measured on")


@pytest.mark.parametrize("game", sorted({r["game"] for r in rows()}))
def test_rows_are_on_the_components_the_game_ships(game: str) -> None:
    check_game(game)


def test_every_two_player_game_has_rows() -> None:
    from nightsky.core.registry import game_class, packaged_game_ids

    two = {g for g in packaged_game_ids()
           if game_class(g).info.min_players <= 2 <= game_class(g).info.max_players}
    assert two <= {r["game"] for r in rows()}


def test_a_changed_shipped_component_fails_the_guard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One number of Starlight's shipped set changed (daybreak 65 -> 66) and the guard fails."""
    from nightsky.sim import design

    copies = []
    for path in design.shipped_files("starlight"):
        copy = tmp_path / path.name
        copy.write_text(path.read_text(encoding="utf-8").replace(
            "daybreak = 65", "daybreak = 66", 1), encoding="utf-8")
        copies.append(copy)
    assert any("daybreak = 66" in c.read_text(encoding="utf-8") for c in copies)
    check_game("starlight")  # the shipped set passes
    monkeypatch.setattr(design, "shipped_files", lambda game_id: copies)
    with pytest.raises(AssertionError, match="shipped components changed"):
        check_game("starlight")
