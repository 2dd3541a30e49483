"""Rating maths of the club (``server/club/rating.py``) and the bots' reference ratings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nightsky.core.registry import game_class, packaged_game_ids
from nightsky.server.club import rating

DOCS = Path(__file__).resolve().parents[3] / "docs" / "agents.md"


def test_family_splits_duels_from_multi_player_tables():
    assert rating.family(2) == "duel"
    assert rating.family(3) == rating.family(5) == "multi"
    with pytest.raises(ValueError, match="players"):
        rating.family(1)


def test_ranks_put_winners_first_then_scores_and_resigners_last():
    assert rating.ranks(2, [0], None, []) == [1, 2]
    assert rating.ranks(3, [2], [10, 30, 40], []) == [3, 2, 1]
    assert rating.ranks(3, [], [10, 10, 5], []) == [1, 1, 2]
    # a resigner loses even with the best score
    assert rating.ranks(3, [1], [99, 10, 20], [0]) == [3, 1, 2]


def test_a_win_raises_and_a_loss_lowers_the_shown_rating():
    a, b = rating.Skill(), rating.Skill()
    assert a.shown == 1500
    a2, b2 = rating.update([a, b], [1, 2])
    assert a2.mu > a.mu and b2.mu < b.mu and a2.games == 1
    assert a2.shown > 1500 > b2.shown
    with pytest.raises(ValueError):
        rating.update([a], [1])


def test_references_come_from_each_games_ladder_in_the_docs():
    doc = DOCS.read_text()
    for gid in packaged_game_ids():
        section = doc.split(f"<!-- ladder:{gid}:begin -->")[1].split("<!-- ladder:")[0]
        table = {
            m[1]: float(m[2])
            for m in re.finditer(r"^\| (\w+) \| `[^`]*` \| (-?[\d.]+) \|", section, re.M)
            if m[1] in rating.LEVELS
        }
        assert rating.references(gid) == table, gid
        package = game_class(gid).__module__.rsplit(".", 1)[0].replace(".", "/")
        assert "ladder" in json.loads(
            (Path(__file__).resolve().parents[3] / "src" / package / "data" / "ladder.json")
            .read_text()
        )["source"]


def test_like_level_names_the_nearest_bot():
    refs = rating.references("shooting-star")
    assert rating.like_level("shooting-star", refs["hard"] + 0.1) == "hard"
    assert rating.like_level("shooting-star", -100) == "random"
    assert rating.like_level("no-such-game", 0) is None
