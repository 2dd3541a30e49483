"""Signals on the game page (issue 50, item 6): while the server cannot be reached the page says
so, disables the moves and reconnects by itself; the tab's title and icon mark your move."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_an_unreachable_server_pauses_the_moves_and_the_page_reconnects(page):
    down = {"now": False}
    sockets = []

    def socket_route(ws):  # type: ignore[no-untyped-def]
        if down["now"]:
            ws.close()
            return
        sockets.append(ws)
        ws.connect_to_server()

    page.route_web_socket(re.compile(r".*/api/games/[0-9a-f]+/ws$"), socket_route)
    page.route(re.compile(r".*/api/.*"),
               lambda route: route.abort() if down["now"] else route.continue_())
    made = httpx.post(page.base + "/api/games", json={
        "game": "toy-secret-sum", "players": 2, "seats": ["human", "random"]}).json()
    page.goto(f"{page.base}/g/{made['id']}#token={made['tokens'][0]['token']}")
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#actions button.action")
    assert page.title().startswith("▶ Your move · ")
    assert page.get_attribute('link[rel="icon"]', "data-own") == "true"
    # The server goes away: the page says so, the moves wait, no raw network error shows.
    down["now"] = True
    sockets[-1].close()
    page.wait_for_selector("#offline:not([hidden])", timeout=10_000)
    assert "Connection lost" in page.inner_text("#banner")
    assert page.locator("#actions button.action:not([disabled])").count() == 0
    assert page.locator("#actions button.action[disabled]").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "table-offline.png"))
    assert "Failed to fetch" not in page.inner_text("body")
    # It comes back: the page finds it by itself, and a move goes through.
    down["now"] = False
    page.wait_for_selector("#conn.live", timeout=20_000)
    page.wait_for_selector("#offline", state="hidden")
    assert "Your turn" in page.inner_text("#banner")
    before = page.inner_text("#log")
    page.click("#actions button.action >> nth=0")
    page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    # At the end it is nobody's move: the title and the icon say nothing of it.
    page.check("#autoplay")
    page.wait_for_selector("#endcard", timeout=20_000)
    page.wait_for_function("() => !document.title.includes('Your move')")
    assert page.get_attribute('link[rel="icon"]', "data-own") == "false"


def test_a_background_tab_is_notified_when_its_table_becomes_your_move(browser, live_server):
    """Only a move that is new since the page opened: the page's first view never notifies."""
    from tests.web.test_social import FAKE_NOTIFICATION

    ctx = browser.new_context(permissions=["notifications"])
    ctx.add_init_script(FAKE_NOTIFICATION + """
      window.__asked = 1;  // permission given earlier
      localStorage.setItem('nightsky.notify', 'on');
      Object.defineProperty(document, 'hidden', { get: () => true });
    """)
    page = ctx.new_page()
    try:
        made = httpx.post(live_server + "/api/games", json={
            "game": "toy-secret-sum", "players": 2, "seats": ["human", "human"]}).json()
        first = made["tokens"][0]["token"]
        claimed = httpx.post(f"{live_server}/api/games/{made['id']}/claim",
                             json={"invite": made["invites"][0]["code"]}).json()
        page.goto(f"{live_server}/g/{made['id']}#token={claimed['token']}")
        page.wait_for_selector("#conn.live")
        page.wait_for_function(
            "() => document.querySelector('#banner').innerText.includes('Waiting')")
        assert page.evaluate("window.__notes") == []
        v = httpx.get(f"{live_server}/api/games/{made['id']}/view",
                      headers={"Authorization": f"Bearer {first}"}).json()
        httpx.post(f"{live_server}/api/games/{made['id']}/actions",
                   headers={"Authorization": f"Bearer {first}"},
                   json={"action": v["legal"][0]["action"], "version": v["version"]})
        page.wait_for_function("() => window.__notes.length === 1")
        assert page.evaluate("window.__notes")[0]["title"].startswith("Your move: ")
    finally:
        ctx.close()
