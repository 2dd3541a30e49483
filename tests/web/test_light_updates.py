"""Light updates in the browser: after the first whole view the page is pushed patches
(``web/js/patch.js`` rebuilds the view), draws every move from them without asking for the
whole view again, and its board matches the server's."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import ARTIFACTS

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
    token = page.evaluate(  # the page's own token: opening the link retired the link's
        "(gid) => JSON.parse(localStorage.getItem('nightsky.games'))[gid].token", made["id"]
    )
    server = page.request.get(f"{page.base}/api/games/{made['id']}/view",
                              headers={"Authorization": f"Bearer {token}"}).json()
    assert server["version"] >= 3
    # the bot may have moved again since: wait for the page to draw the server's last line
    page.wait_for_function(
        "t => document.querySelector('#log').innerText.includes(t)", arg=server["log"][-1]["text"],
        timeout=10_000,
    )


GAMES = ["shooting-star", "stars-are-right", "star-fire", "mihi-anguli", "starlight"]
CLICKS = 8  # measured moves per game
# In the page: click the first choice, resolve with the milliseconds until the board's nodes
# were replaced or added to (a redraw; hover glows only change attributes) and painted.
CLICK_TO_BOARD = """() => new Promise((done) => {
  const board = document.querySelector('#board');
  const t0 = performance.now();
  const seen = new MutationObserver(() => {
    seen.disconnect();
    requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
  });
  seen.observe(board, { childList: true, subtree: true });
  document.querySelector('#actions button').click();
})"""


@pytest.mark.bench
@pytest.mark.parametrize("game", GAMES)
def test_click_to_redrawn_board_under_4x_cpu_throttling(page, game):
    """Issue 50's targets, measured: click to redrawn board under Chromium's 4x CPU throttling
    (DevTools protocol), median at most 250 ms; bytes of the pushed patches per move at most a
    tenth of the whole views they make (rebuilt here from the frames, as the page does)."""
    from statistics import median

    import orjson

    from nightsky.server.patches import EARLIER, apply_patch

    made = page.request.post(page.base + "/api/games",
                             data={"game": game, "players": 2, "seats": ["human", "random"]}).json()
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(p)))
    page.goto(made["tokens"][0]["invite"])
    page.wait_for_selector("#conn.live")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    took: list[float] = []
    for _ in range(CLICKS):
        try:
            page.wait_for_selector("#actions button", timeout=30_000)
        except Exception:  # noqa: BLE001 - the game ended: measure what was played
            break
        took.append(page.evaluate(CLICK_TO_BOARD))
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    views: dict[int, dict] = {}
    view = None
    sent = full = 0
    for text in frames:
        msg = json.loads(text)
        if msg.get("type") == "view":
            view = msg["data"]
        elif msg.get("type") == "patch" and view is not None:
            earlier = {v: views[v] for v in sorted(views)[-EARLIER - 1 : -1]}
            view = apply_patch(view, msg["data"], earlier)
            assert view is not None, "a patch the page could not apply"
            sent += len(text.encode())
            full += len(orjson.dumps(view))
        else:
            continue
        views[view["version"]] = view
    ratio = sent / full if full else 0.0
    (ARTIFACTS / f"light-frames-{game}.json").write_text(json.dumps(frames))  # to profile
    print(f"\n{game}: click to redrawn board under 4x CPU throttling, median "
          f"{median(took):.0f} ms (min {min(took):.0f}, max {max(took):.0f}, {len(took)} clicks); "
          f"bytes per move {ratio:.1%} of a whole view ({sent} of {full} bytes)")
    assert len(took) >= 3, took
    assert full and ratio <= 0.10, ratio
    assert median(took) <= 250, took
