"""The clocks on the page: a realtime table made in the lobby's form shows each seat's time in
words counting down, the away switch hands your seat to a bot (its moves marked in the log)
and takes it back."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_clock_counts_down_and_the_away_switch_hands_the_seat_to_a_bot(page):
    page.goto(page.base + "/")
    page.click('.game-card[data-id="shooting-star"]')
    page.fill("#players", "2")
    page.dispatch_event("#players", "input")
    for i in range(2):
        page.select_option(f'select[name="seat{i}"]', "human")
    page.select_option("#clock-mode", "realtime")
    page.fill("#clock-bank", "10")
    page.fill("#clock-inc", "5")
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/[0-9a-f]+$"))
    page.wait_for_selector("#conn.live")
    mine = page.locator('.seat[data-seat="0"] .clock')
    other = page.locator('.seat[data-seat="1"] .clock')
    page.wait_for_function(
        "() => /^9:5\\d left$/.test(document.querySelector('.seat[data-seat=\"0\"] .clock')"
        "?.textContent ?? '')"
    )  # 10:00 counted down on the page, in words
    assert other.inner_text() == "10:00 left · waiting"
    page.screenshot(path=str(ARTIFACTS / "clocks-running.png"))

    # Away: a bot plays seat 0 (its move is marked in the log); seat 1 (not yet joined) is next.
    page.check("#away")
    page.wait_for_selector(".log .by-bot")
    assert "by the bot" in page.inner_text(".log")
    page.wait_for_function(
        "() => document.querySelector('.seat[data-seat=\"0\"] .clock')?.textContent"
        "?.includes('bot playing')"
    )
    assert "away" in mine.inner_text()
    assert "untick to play again" in page.inner_text("#away-toggle")
    page.screenshot(path=str(ARTIFACTS / "clocks-away.png"))

    # Back: the seat is the player's again, its clock waiting for seat 1's move.
    page.uncheck("#away")
    page.wait_for_function(
        "() => document.querySelector('.seat[data-seat=\"0\"] .clock')?.textContent"
        "?.endsWith('left · waiting')"
    )
    assert not page.is_checked("#away")
    assert "I'm away" in page.inner_text("#away-toggle")
