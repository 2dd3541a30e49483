"""One complete game of each title played through the page against a bot, in Chromium.

The human seat clicks the listed legal actions for its first turns, then switches on the page's
"Autoplay for me" (a random legal action each turn, still through the page and the HTTP API)
until the end screen shows; screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from nightsky.core.registry import game_ids
from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REAL_GAMES = [g for g in game_ids() if g != "toy-secret-sum"]


def new_game(page, game_id: str, seats: list[str], options: dict[str, str] | None = None):
    page.goto(page.base + "/")
    page.click(f'.game-card[data-id="{game_id}"]')
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "input")
    for i, spec in enumerate(seats):
        page.select_option(f'select[name="seat{i}"]', spec)
    for key, value in (options or {}).items():
        page.fill(f"#opt-{key}", value)
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/[0-9a-f]+$"))
    page.wait_for_selector(".seat")


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_play_a_complete_game_in_the_browser(page, game_id):
    new_game(page, game_id, ["human", "random"])
    page.wait_for_selector("#conn.live")
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-start.png"))
    clicked = 0
    for _ in range(3):  # a few real clicks on listed choices
        page.wait_for_selector("#actions button.action, #end:not([hidden])", timeout=15_000)
        if page.is_visible("#end"):
            break
        before = page.inner_text("#log")
        page.click("#actions button.action >> nth=0")
        page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
        clicked += 1
    assert clicked >= 1
    page.check("#autoplay")
    page.wait_for_timeout(1500)
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-midgame.png"))
    page.wait_for_selector("#endcard", timeout=90_000)
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-end.png"))
    rows = page.locator(".breakdown tr")
    assert rows.count() == 3  # header + two seats
    assert page.locator(".breakdown tr.win").count() >= 1
    # Step through the replay.
    page.click("#replay-btn")
    page.wait_for_selector("#replaybar")
    page.click("#rp-next")
    page.click("#rp-next")
    page.wait_for_function(
        "() => /Replay · step [1-9]/.test(document.querySelector('#banner').innerText)"
    )
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-replay.png"))


def test_board_svg_targets_are_highlighted_and_clicks_take_actions(page):
    """The toy game's SVG: legal targets glow; a target shared by two actions opens a menu."""
    new_game(page, "toy-secret-sum", ["human", "random"])
    page.wait_for_selector("#board svg .ns-target")
    ids = sorted(page.eval_on_selector_all(".ns-target", "els => els.map(e => e.id)"))
    assert ids == ["card0", "card1", "deck", "keep"]
    page.screenshot(path=str(ARTIFACTS / "toy-board-svg.png"))
    before = page.inner_text("#log")
    page.click("#board svg #keep")  # one action on this target: taken at once
    page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    assert "keep" in page.inner_text("#log")
    page.wait_for_selector("#board svg .ns-target")  # our turn again, after the bot
    page.click("#board svg #deck")  # two swaps share the deck: a menu narrows the choice
    page.wait_for_selector("#menu")
    assert page.locator("#menu button[data-action]").count() == 2
    assert page.locator("#actions button.action").count() == 2
    page.screenshot(path=str(ARTIFACTS / "toy-menu.png"))
    page.click('#menu button[data-action="swap1"]')
    page.wait_for_selector("#endcard", timeout=15_000)
    assert "swap1" in page.inner_text("#log")


def test_lobby_join_takes_the_free_seat_and_spectators_watch(page):
    import httpx

    made = httpx.post(
        page.base + "/api/games",
        json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"]},
    ).json()
    page.goto(page.base + "/")
    item = page.locator(f'.lobby-item[data-id="{made["id"]}"]')
    item.locator("button", has_text="Join").click()
    page.fill('input[aria-label="your name"]', "Rigel")
    page.click("text=Take seat")
    page.wait_for_url(f"**/g/{made['id']}")
    page.wait_for_selector(".seat.me")
    assert "Rigel" in page.inner_text(".seat.me")
    assert "you are Rigel" in page.inner_text("#crumb")
    # A bot-only table seen without a token: the spectator view, played to its end.
    bots = httpx.post(
        page.base + "/api/games",
        json={"game": "toy-secret-sum", "players": 2, "seats": ["random", "greedy"]},
    ).json()
    page.goto(f"{page.base}/g/{bots['id']}")
    page.wait_for_selector("#endcard")
    assert "spectator" in page.inner_text("#crumb")
    page.screenshot(path=str(ARTIFACTS / "toy-spectator-end.png"))
