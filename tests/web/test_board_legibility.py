"""Every board can be read and played without zooming, at 1280x800 and on a 390x844 phone.

For each shipped game a table is played a few moves in (over HTTP), then the page is opened:
at 1280 px no board text is drawn under 12 CSS px (font size times the SVG's scale on screen);
at 390 px every tap target (buttons, links, the board's clickable elements) is at least 40 px
across, the choices are in view without scrolling, and the page is no wider than the screen.
Screenshots go to test-artifacts/. Also: the detail panel, zoom, the "what you know" panel and
the API docs with the network blocked.
"""

from __future__ import annotations

import json
import random
import time

import httpx
import pytest

from nightsky.core.registry import packaged_game_ids
from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MIN_TEXT_PX = 12
MIN_TAP_PX = 40
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# The rendered size of each board text: its font size times its scale on screen.
TEXT_SIZES = """() => {
  const out = [];
  for (const t of document.querySelectorAll('#board svg text')) {
    if (!t.textContent.trim()) continue;
    const r = t.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const m = t.getScreenCTM();
    const scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    out.push([parseFloat(getComputedStyle(t).fontSize) * scale, t.textContent.slice(0, 30)]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}"""

# Everything a finger may tap: its smaller side on screen.
TAP_SIZES = """() => {
  const sel = 'button, select, input:not([type=checkbox]):not([type=radio]), a[href], summary, '
    + 'label.toggle, #board svg .ns-target';
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden]')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    out.push([Math.min(r.width, r.height), el.id || el.getAttribute('aria-label')
      || el.textContent.trim().slice(0, 30)]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}"""


def mid_game(base: str, game_id: str, moves: int) -> tuple[str, str]:
    """A table (you against a random bot) after up to ``moves`` of your random legal moves."""
    made = httpx.post(
        base + "/api/games",
        json={"game": game_id, "players": 2, "seats": ["human", "random"], "seed": 11},
    ).json()
    gid, token = made["id"], made["tokens"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(f"legibility:{game_id}")
    for _ in range(moves):
        deadline = time.monotonic() + 10
        while True:
            v = httpx.get(f"{base}/api/games/{gid}/view", headers=auth).json()
            if v["legal"] or v["terminal"] or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if not v["legal"]:
            break
        choice = rng.choice(v["legal"])
        httpx.post(f"{base}/api/games/{gid}/actions", headers=auth,
                   json={"action": choice["action"], "version": v["version"]})
    return gid, token


MOVES = {"shooting-star": 2}


def open_table(browser, base: str, gid: str, token: str, viewport: dict, phone: bool):  # type: ignore[no-untyped-def]
    ctx = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/g/{gid}#token={token}")
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#board svg")
    page.wait_for_timeout(300)  # the push after the first view settles
    return ctx, page, errors


@pytest.mark.parametrize("game_id", packaged_game_ids())
def test_board_text_is_readable_at_1280_and_targets_are_tappable_on_a_phone(
    browser, live_server, game_id
):
    ARTIFACTS.mkdir(exist_ok=True)
    gid, token = mid_game(live_server, game_id, MOVES.get(game_id, 6))

    ctx, page, errors = open_table(browser, live_server, gid, token, WIDE, phone=False)
    sizes = page.evaluate(TEXT_SIZES)
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-1280.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    ctx.close()
    assert sizes, "no board text drawn"
    print(f"{game_id} at 1280: {len(sizes)} texts, smallest {sizes[0][0]:.2f} px "
          f"({sizes[0][1]!r}), median {sizes[len(sizes) // 2][0]:.2f} px")
    small = [s for s in sizes if s[0] < MIN_TEXT_PX]
    assert not small, f"{len(small)} board texts under {MIN_TEXT_PX} px: {small[:5]}"
    assert width <= WIDE["width"], f"the page is {width} px wide"
    assert not errors, errors

    ctx, page, errors = open_table(browser, live_server, gid, token, PHONE, phone=True)
    taps = page.evaluate(TAP_SIZES)
    choices_top = page.evaluate(
        "document.querySelector('#actions-panel').getBoundingClientRect().top")
    width = page.evaluate("document.documentElement.scrollWidth")
    phone_text = page.evaluate(TEXT_SIZES)
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-390.png"))
    ctx.close()
    print(f"{game_id} at 390: smallest tap target {taps[0][0]:.1f} px ({taps[0][1]!r}), "
          f"smallest text {phone_text[0][0]:.2f} px, choices start at {choices_top:.0f} px")
    tiny = [t for t in taps if t[0] < MIN_TAP_PX]
    assert not tiny, f"tap targets under {MIN_TAP_PX} px: {tiny[:5]}"
    assert choices_top < PHONE["height"] - 60, "the choices are not in view"
    assert phone_text[0][0] >= MIN_TEXT_PX
    assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
    assert not errors, errors


def test_detail_panel_zoom_and_what_you_know(browser, live_server):
    gid, token = mid_game(live_server, "starlight", 3)
    ctx, page, errors = open_table(browser, live_server, gid, token, WIDE, phone=False)
    # Hovering a part of the board shows its words in the detail panel.
    target = page.locator("#board svg .ns-target").first
    target.scroll_into_view_if_needed()
    target.hover()
    page.wait_for_selector("#board-detail:not([hidden])")
    assert page.inner_text("#board-detail").strip()
    page.screenshot(path=str(ARTIFACTS / "starlight-detail.png"))
    # Zoom in and out; the section buttons jump to a part of the board.
    w0 = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    page.click("#board-tools .zoom-in")
    w1 = page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width")
    assert w1 > w0 * 1.2
    page.click("#board-tools .zoom-fit")
    fit = page.evaluate("""() => { const b = document.querySelector('#board');
      const r = document.querySelector('#board svg').getBoundingClientRect();
      return r.width <= b.clientWidth + 1 && r.height <= b.clientHeight + 1; }""")
    assert fit
    page.click("#board-tools .zoom-reset")
    assert page.locator("#board-tools button.section").count() >= 3
    page.click("#board-tools button.section >> text=Your mat")
    page.wait_for_timeout(600)
    assert page.evaluate("document.querySelector('#board').scrollTop") > 100
    # "What you know": labelled sections, no page wider than the screen, raw JSON on demand.
    page.click("#more > summary")
    page.wait_for_selector("#viewtree .vt-section h4")
    heads = page.eval_on_selector_all(
        "#viewtree .vt-section h4", "els => els.map(e => e.textContent)")
    assert "Seats" in heads, heads
    shown = page.inner_text("#viewtree")
    assert "[object" not in shown and "Night points" in shown
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    page.screenshot(path=str(ARTIFACTS / "starlight-what-you-know.png"), full_page=True)
    page.click("#raw > summary")
    page.wait_for_function("() => document.querySelector('#rawjson').textContent.length > 2")
    raw = json.loads(page.inner_text("#rawjson"))
    assert raw["game"] == "starlight"
    ctx.close()
    assert not errors, errors


def test_api_docs_render_with_the_network_blocked(browser, live_server):
    ctx = browser.new_context(viewport=WIDE)
    blocked: list[str] = []

    def only_local(route) -> None:  # type: ignore[no-untyped-def]
        if route.request.url.startswith(live_server):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    ctx.route("**/*", only_local)
    page = ctx.new_page()
    page.goto(live_server + "/docs")
    page.wait_for_selector(".opblock", timeout=20_000)
    assert page.locator(".opblock").count() >= 8
    page.screenshot(path=str(ARTIFACTS / "api-docs-offline.png"))
    page.goto(live_server + "/redoc")
    page.wait_for_selector("text=Create a game", timeout=20_000)
    ctx.close()
    assert not blocked, f"the docs asked the network for {blocked}"
