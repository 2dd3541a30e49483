"""Light updates in the browser: after the first whole view the page is pushed patches
(``web/js/patch.js`` rebuilds the view), draws every move from them without asking for the
whole view again, and its board matches the server's."""

from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_moves_arrive_as_patches_and_the_page_draws_them(page):
    r = page.request.post(
        page.base + "/api/games",
        data={"game": "star-fire", "players": 2, "seats": ["human", "random"]},
    )
    made = r.json()
    frames: list[dict] = []
    fetched: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(json.loads(p))))
    page.on("request", lambda q: fetched.append(q.url) if q.url.endswith("/view") else None)
    page.goto(made["tokens"][0]["invite"])
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#actions button")
    fetched.clear()  # the page's first look (before its socket) is a whole view by HTTP
    for _ in range(3):
        page.wait_for_selector("#actions button")
        before = page.evaluate("document.querySelector('#log').innerText")
        page.locator("#actions button").first.click()
        page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    kinds = [f.get("type") for f in frames]
    assert kinds[0] == "view" and kinds.count("patch") >= 3, kinds
    assert fetched == [], fetched  # never the whole view again
    # What the page drew from the patches is the server's view: its turn banner and log.
    token = made["tokens"][0]["token"]
    server = page.request.get(f"{page.base}/api/games/{made['id']}/view",
                              headers={"Authorization": f"Bearer {token}"}).json()
    assert server["version"] >= 3
    assert server["log"][-1]["text"] in page.inner_text("#log")
