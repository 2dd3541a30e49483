"""The club's threat-model rows in docs/server.md point at tests that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_every_test_the_club_rows_name_exists():
    doc = (ROOT / "docs" / "server.md").read_text()
    block = doc.split("### Threat model: the club")[1].split("\n## ")[0]
    named = re.findall(r"(test_\w+\.py)(?:::(\w+))?", block)
    assert len(named) >= 8
    last_file = None
    for file, fn in named:
        found = list((ROOT / "tests").rglob(file))
        assert found, file
        last_file = found[0]
        if fn:
            assert f"def {fn}(" in last_file.read_text(), f"{file}::{fn}"
    # a bare ``::name`` continues the file named before it
    for fn in re.findall(r"`::(\w+)`", block):
        assert any(f"def {fn}(" in p.read_text() for p in (ROOT / "tests").rglob("test_*.py")), fn
