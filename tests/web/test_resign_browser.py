"""Resign and leave on the game page: the resign button asks first, names the game's ruling
(SS-15.1) and ends a two-player game; then the finished table can be left (it leaves this
browser's games). The lobby's turn-based clock starts at 10 minutes."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_resign_asks_first_then_ends_the_game_and_the_table_can_be_left(page):
    r = page.request.post(
        page.base + "/api/games",
        data={"game": "shooting-star", "players": 2, "seats": ["human", "random"]},
    )
    assert r.status == 201
    made = r.json()
    gid = made["id"]
    page.goto(made["tokens"][0]["invite"])  # the creator's seat link: /g/ID#token=...
    page.wait_for_selector("#conn.live")
    page.click("#resign")
    box = page.locator(".resign-confirm")
    assert "You lose this game (SS-15.1)" in box.inner_text()
    assert box.locator('a[href$="/rules#SS-15.1"]').count() == 1
    page.click("#resign-no")  # keep playing: nothing happened
    assert page.locator(".resign-confirm").count() == 0
    assert page.locator("#resign").is_visible()

    page.click("#resign")
    page.screenshot(path=str(ARTIFACTS / "resign-confirm.png"))
    page.click("#resign-yes")
    page.wait_for_selector("#end:not([hidden])")
    assert "random bot 1 won" in page.inner_text("#endcard")
    assert "Ended by resignation" in page.inner_text("#endcard")
    assert "resigned and loses (SS-15.1): the game is over" in page.inner_text("#notices")
    page.screenshot(path=str(ARTIFACTS / "resign-ended.png"))

    page.click("#endcard >> text=See the board")
    page.click("#leave-table")
    assert "Leave this finished table?" in page.inner_text(".resign-confirm")
    page.click("#resign-yes")
    page.wait_for_url(re.compile(r"/$"))
    games = page.evaluate("() => JSON.parse(localStorage.getItem('nightsky.games') || '{}')")
    assert gid not in games


def test_the_lobbys_turn_based_clock_starts_at_ten_minutes(page):
    page.goto(page.base + "/")
    page.click('.game-card[data-id="shooting-star"]')
    page.select_option("#clock-mode", "turnbased")
    options = page.locator("#clock-move option").all_inner_texts()
    assert options[0] == "10 minutes" and page.input_value("#clock-move") == "86400"
    page.select_option("#clock-move", "600")
    with page.expect_request(lambda q: q.url.endswith("/api/games") and q.method == "POST") as req:
        page.click("#create")
    assert req.value.post_data_json["clock"]["move_seconds"] == 600


def test_a_view_pushed_after_the_table_was_forgotten_does_not_bring_it_back(page):
    """The race CI met: leaving forgets the table, and a view pushed before the page is gone
    used to write the seat back into this browser's games."""
    r = page.request.post(
        page.base + "/api/games",
        data={"game": "shooting-star", "players": 2, "seats": ["human", "random"], "seed": 5},
    )
    made = r.json()
    gid = made["id"]
    page.goto(made["tokens"][0]["invite"])
    page.wait_for_selector("#conn.live")
    mine = f"(JSON.parse(localStorage.getItem('nightsky.games') || '{{}}')['{gid}'] || {{}})"
    page.wait_for_function(f"() => {mine}.tokens")
    token = page.evaluate(f"() => {mine}.token")
    view = page.request.get(
        f"{page.base}/api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert view["legal"], "the human seat moves first in this seeded game"
    page.evaluate(
        """(gid) => {
        window.__views = 0;
        document.addEventListener('nightsky:view', () => { window.__views += 1; });
        const all = JSON.parse(localStorage.getItem('nightsky.games'));
        delete all[gid];
        localStorage.setItem('nightsky.games', JSON.stringify(all));
    }""",
        gid,
    )
    moved = page.request.post(
        f"{page.base}/api/games/{gid}/actions",
        headers={"Authorization": f"Bearer {token}"},
        data={"action": view["legal"][0]["action"], "version": view["version"]},
    )
    assert moved.ok
    page.wait_for_function("() => window.__views >= 1")
    games = page.evaluate("() => JSON.parse(localStorage.getItem('nightsky.games') || '{}')")
    assert gid not in games
