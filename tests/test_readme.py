"""README.md's figures agree with the documents and data files they summarise.

The strength table must be the rows of ``docs/data/strength-rows.jsonl``, the speed table the
current table of ``docs/performance.md``, and the balance paragraph's claims what the games'
pages in ``docs/games/`` show. Re-measure there, then copy here: these tests say what drifted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"


def between(text: str, name: str) -> str:
    """The text between ``<!-- name:begin -->`` and ``<!-- name:end -->``."""
    m = re.search(rf"<!-- {name}:begin -->\n(.*?)<!-- {name}:end -->", text, re.S)
    assert m, f"README.md has no {name} table between its markers"
    return m.group(1)


def table_rows(markdown: str) -> list[list[str]]:
    """The body rows of the first Markdown table in ``markdown`` (header and rule skipped)."""
    rows: list[list[str]] = []
    started = False
    for line in markdown.splitlines():
        if line.startswith("|"):
            started = True
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif started:
            break
    assert len(rows) > 2, "no table found"
    return rows[2:]


def pct(x: float) -> str:
    return f"{round(100 * x)}%"


def test_strength_table_is_the_strength_rows() -> None:
    rows = [json.loads(line) for line in
            (DOCS / "data" / "strength-rows.jsonl").read_text().splitlines() if line.strip()]
    # The current rows: those measured on the components each game ships (older rows are
    # kept marked with the components file they were played on; tests/test_strength_rows.py).
    rows = [r for r in rows if r["components"]["file"] == "shipped"]
    by = {(r["game"], r["opponent"]): r for r in rows}
    games = sorted({g for g, _ in by})
    want = []
    for g in games:
        rnd, gr = by[(g, "random")], by[(g, "greedy")]
        lo, hi = gr["ci95"]
        cells = [pct(rnd["win_rate"]), f"{pct(gr['win_rate'])} ({pct(lo)}-{pct(hi)})"]
        # The README says a row's size where it is not the usual 200 games.
        cells = [c if r["games"] == 200 else f"{c} of {r['games']}"
                 for c, r in zip(cells, (rnd, gr), strict=True)]
        want.append([g, *cells])
    assert table_rows(between(README, "strength")) == want
    assert "200 two-player games a pairing" in README


def current_performance_table() -> tuple[str, list[list[str]]]:
    """The heading and rows of the table ``docs/performance.md`` marks as the current one."""
    text = (DOCS / "performance.md").read_text(encoding="utf-8")
    m = re.search(r"^### (Rerun, [^\n]*\(the current table\))\n(.*)", text, re.S | re.M)
    assert m, "docs/performance.md marks no table '(the current table)'"
    return m.group(1), table_rows(m.group(2))


def test_speed_table_is_the_current_performance_table() -> None:
    heading, rows = current_performance_table()
    title = heading.removesuffix(" (the current table)")
    assert f'its table "{title}"' in README.replace("\n", " ")
    want = []
    ratios = []
    for r in rows:
        game, players, compiled, pure = r[0], r[1], r[2], r[3]
        c, p, _pre = (x.strip() for x in r[7].split("/"))
        want.append([game, players, f"{compiled} / {pure}", f"{c} / {p}"])
        ratios.append(float(r[4].split("x")[0]))
    assert table_rows(between(README, "speed")) == want
    said = re.search(r"That is ([\d.]+) to ([\d.]+) times OpenSpiel", README)
    assert said, "README no longer compares with OpenSpiel's dominoes"
    assert (float(said.group(1)), float(said.group(2))) == (min(ratios), max(ratios))


def first_balance_table(page: str) -> list[list[str]]:
    text = (DOCS / "games" / page).read_text(encoding="utf-8")
    return table_rows(text[text.index("## Seat balance"):])


@pytest.mark.parametrize(
    "page", ["shooting-star.md", "star-fire.md", "mihi-anguli.md", "stars-are-right.md"]
)
def test_readme_no_seat_flagged_matches_the_games_pages(page: str) -> None:
    rows = first_balance_table(page)
    assert all(r[-1] in ("fair", "-") for r in rows), f"{page} now flags a seat"
    text = (DOCS / "games" / page).read_text(encoding="utf-8")
    section = text[text.index("## Seat balance"):]
    assert "--agents greedy" in section.split("|", 1)[0]


def test_readme_starlight_exceptions_are_on_its_page() -> None:
    text = (DOCS / "games" / "starlight.md").read_text(encoding="utf-8")
    start = text.index("### The turn-order compensation now")
    now = text[start:text.index("\n### ", start + 1)]  # the current rows' section only
    flagged = re.findall(r"\*\*([^*|]*)\*\*", now)
    para = README[README.index("What still differs is in Starlight"):]
    para = para[: para.index("## For contributors")]
    figures = re.findall(r"\d+\.\d%", para)
    assert figures
    for figure in figures:
        assert any(figure in cell for cell in flagged), (
            f"{figure} is not a flagged figure of the current rows in docs/games/starlight.md"
        )


def test_readme_does_not_offer_an_unpublished_package() -> None:
    assert "not published on PyPI" in README
    blocks = re.findall(r"```(?:sh|console)?\n(.*?)```", README, re.S)
    for block in blocks:
        for line in block.splitlines():
            assert not re.match(r"\s*\$?\s*pip install [\"']?nightsky\b", line), line
