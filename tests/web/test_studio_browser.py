"""The design studio in a browser: a designer edits a field of the shipped set, sees a syntax
error next to the editor, runs a small balance and reads the report with its plot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.conftest import ARTIFACTS, serve_app


@pytest.fixture(scope="module")
def studio_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from nightsky.server import create_app
    from nightsky.server.settings import Settings

    root = tmp_path_factory.mktemp("studio")
    app = create_app(f"sqlite:///{root / 'games.sqlite3'}", settings=Settings(
        studio=True, studio_dir=str(root / "studio"), studio_workers=1,
        rate_requests="100000/minute"))
    with serve_app(app) as base:
        yield base


def test_edit_a_field_run_a_balance_and_read_the_report(browser, studio_server) -> None:  # type: ignore[no-untyped-def]
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{studio_server}/studio?game=starlight")
    pg.wait_for_function("() => document.getElementById('editor').value.includes('aquila')")
    shipped = pg.input_value("#editor")
    at = shipped.index("np = 4") + len("np = ")  # Aquila 1's night points
    line = shipped[:at].count("\n") + 1

    def select(start: int, end: int) -> None:
        pg.evaluate("([a, b]) => { const e = document.getElementById('editor'); e.focus();"
                    " e.setSelectionRange(a, b); }", [start, end])

    # A typo is shown next to the editor with its line and column.
    select(at, at)
    pg.keyboard.type("= ")
    pg.click("#check")
    first = pg.locator("#errors li").first
    first.wait_for()
    assert f"line {line}, column 6" in first.inner_text()
    assert pg.locator("#gutter .bad").inner_text() == str(line)
    # The designer fixes it, makes Aquila 1 worth 30 night points and runs a small balance.
    select(at, at + 3)
    pg.keyboard.type("30")
    assert pg.input_value("#editor") == shipped[:at] + "30" + shipped[at + 1:]
    pg.fill("#players", "2")
    pg.fill("#agents", "random")
    pg.fill("#games", "30")
    pg.fill("#seed", "5")
    pg.click("#start")
    pg.locator("#report").wait_for(state="visible", timeout=90_000)
    img = pg.locator("#report-plots img").first
    img.wait_for()
    pg.wait_for_function(
        "() => { const i = document.querySelector('#report-plots img');"
        " return i && i.complete && i.naturalWidth > 100; }", timeout=30_000)
    job = pg.locator(".job").first
    assert "done" in job.inner_text() and "30 / 30 games" in job.inner_text()
    assert "seed 5" in pg.inner_text("#report-provenance")
    assert "design.toml sha256" in pg.inner_text("#report-provenance")
    assert pg.locator("#report-body table tbody tr").count() == 2  # two seats
    assert pg.locator("#report-plots img").count() == 1  # balance.png
    pg.evaluate("() => window.scrollTo({top: 0, behavior: 'instant'})")
    pg.wait_for_timeout(300)
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / "studio.png"), full_page=True)
    assert errors == []
    ctx.close()
