"""Every rule id of every shipped game's catalogue is named by at least one test (its name, a
parametrize id or its text: ``test_SS_4_2_...`` or ``"SS-4.2"``), so no rule goes untested."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

import pytest

from nightsky.core.registry import game_class, packaged_game_ids

TESTS = Path(__file__).resolve().parent
RULE = re.compile(r"^- \*\*([A-Z]+-[0-9.]+[a-z]?)\*\*", re.M)


@cache
def _test_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py"))


def _named(rule_id: str, text: str) -> bool:
    dashed = re.escape(rule_id)
    snake = re.escape(rule_id.replace("-", "_").replace(".", "_"))
    return re.search(rf"(?<![\w.]){dashed}(?![\d.]\d|[a-z\d])|{snake}(?![\da-z])", text) is not None


@pytest.mark.parametrize("game_id", packaged_game_ids())
def test_every_rule_id_is_named_by_a_test(game_id: str) -> None:
    package = game_class(game_id).__module__.rsplit(".", 1)[0]
    rules = resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
    ids = RULE.findall(rules)
    assert ids, f"{game_id}: rules.md lists no rule ids"
    text = _test_text()
    missing = [rid for rid in ids if not _named(rid, text)]
    assert not missing, f"{game_id}: no test names the rules {missing}"


def test_a_rule_id_is_named_only_whole() -> None:
    assert _named("AB-1.2", "def test_AB_1_2_keeps(): ...") and _named("AB-1.2", 'ids=["AB-1.2"]')
    assert not _named("AB-1.2", "AB-1.21, AB-1.2.3, test_AB_1_21, AB-1.2a")
