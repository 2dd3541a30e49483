"""Learn in the browser: a rulebook example of every game completed move by move in headless
Chromium, the example's move made on the board where it can be, another move answered with a
hint; and each game's How to play page with its pictures (screenshots in test-artifacts/)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from nightsky.core.registry import load_game, packaged_game_ids
from tests.web.conftest import ARTIFACTS

# One example per game: the first one, and Shooting Star's with three admirals.
LESSONS = {g: load_game(g).tutorials()[0].name for g in packaged_game_ids()}
LESSONS["shooting-star"] = "example-3"


def _banner(page: Any) -> str:
    return str(page.locator("#learn-banner").inner_text())


def _advance(page: Any, before: str) -> None:
    page.wait_for_function(
        "b => document.getElementById('learn-banner').textContent !== b", arg=before,
        timeout=10_000,
    )


def _by_board(page: Any) -> bool:
    """Make the glowing move by clicking its glowing targets on the board; True if it moved."""
    before = _banner(page)
    marks = page.locator("#learn-board .learn-expected")
    for i in range(marks.count()):
        mark = marks.nth(i)
        if "ns-target" not in (mark.get_attribute("class") or ""):
            continue  # already picked (a narrowed choice), or not clickable now
        mark.dispatch_event("click")
        try:  # a loaded machine can take a while to draw the next step: wait for it
            _advance(page, before)
        except PlaywrightTimeout:
            continue  # that target only narrowed the choice; try the next one
        return True
    return False


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_an_example_of_every_game_is_completed_in_the_browser(
    live_server: str, browser: Any, game: str
) -> None:
    name = LESSONS[game]
    steps = load_game(game).tutorial(name).steps
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server}/games/{game}/learn/{name}")
    page.wait_for_selector("#learn-board svg, #learn-board pre", timeout=15_000)
    page.screenshot(path=str(ARTIFACTS / f"learn-{game}-start.png"))
    hinted = boarded = False
    for k in range(len(steps)):
        banner = _banner(page)
        assert banner.startswith(f"Move {k + 1} of {len(steps)}"), banner
        if page.locator("#learn-continue").count():
            page.click("#learn-continue")
            _advance(page, banner)
            continue
        expected = page.locator(".learn-expected-choice")
        assert expected.count() == 1
        label = expected.inner_text()
        assert label in page.locator("#learn-now").inner_text()  # said in words
        others = page.locator(".learn-others button")
        if not hinted and others.count():
            page.click(".learn-others summary")
            wrong = others.first.inner_text()
            others.first.click()
            hint = page.locator("#learn-hint")
            hint.wait_for(state="visible")
            assert wrong in hint.inner_text() and label in hint.inner_text()
            assert _banner(page) == banner, "a wrong move must not advance the example"
            hinted = True
        if not boarded and _by_board(page):
            boarded = True
        else:
            page.locator(".learn-expected-choice").click()
            _advance(page, banner)
        # What the move did is told.
        assert page.locator("#learn-told li").count() >= 1
    page.wait_for_function(
        "() => document.getElementById('learn-banner').textContent.includes('complete')"
    )
    assert page.locator("#learn-steps li.done").count() == len(steps)
    page.screenshot(path=str(ARTIFACTS / f"learn-{game}-done.png"))
    assert not errors, errors
    if game == "shooting-star":
        assert boarded, "the example's move could not be made on the board"
    page.close()


@pytest.mark.parametrize("game", sorted(LESSONS))
def test_how_to_play_shows_the_boards_and_links_the_lessons(
    live_server: str, browser: Any, game: str
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{live_server}/games/{game}/how-to-play")
    images = page.locator(".howto-figure img")
    assert images.count() >= 3
    for i in range(images.count()):
        assert page.evaluate("img => img.naturalWidth > 0", images.nth(i).element_handle())
    link = page.locator(f'a[href="/games/{game}/learn/{LESSONS[game]}"]').first
    page.screenshot(path=str(ARTIFACTS / f"howto-{game}.png"), full_page=True)
    link.click()
    page.wait_for_selector("#learn-board svg", timeout=15_000)
    page.close()


def test_the_lobby_and_the_table_link_to_how_to_play(live_server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{live_server}/")
    page.click('.game-card[data-id="stars-are-right"]')
    link = page.locator("#howto-link")
    assert link.get_attribute("href") == "/games/stars-are-right/how-to-play"
    assert link.is_visible()
    link.click()
    page.wait_for_url("**/games/stars-are-right/how-to-play")
    assert "How to play The Stars Are Right" in page.inner_text("h1")
    # The table page's rule links (rules.js) name it too.
    made = page.request.post(f"{live_server}/api/games", data={
        "game": "stars-are-right", "players": 2, "seats": ["human", "random"]}).json()
    page.goto(f"{live_server}/g/{made['id']}")
    page.wait_for_selector('#rule-links a[href="/games/stars-are-right/how-to-play"]',
                           state="attached", timeout=15_000)
    page.close()


def test_a_lesson_on_a_phone_puts_the_move_first_and_never_scrolls_sideways(
    live_server: str, browser: Any
) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(f"{live_server}/games/stars-are-right/learn/harvey-byakhee")
    page.wait_for_selector("#learn-board svg", timeout=15_000)
    steps = load_game("stars-are-right").tutorial("harvey-byakhee").steps
    for _ in steps:
        button = page.locator(".learn-expected-choice")
        box = button.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, (
            "the move is out of view", box)
        # The element under the button's centre is the button (nothing covers it).
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('.learn-expected-choice')"
            " !== null", [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert hit
        before = _banner(page)
        button.click()
        _advance(page, before)
        assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
        page.evaluate("window.scrollTo(0, 0)")
    assert "complete" in _banner(page)
    page.screenshot(path=str(ARTIFACTS / "learn-phone-done.png"))
    page.close()
