"""The whole turn at a glance (issue 50, items 1, 2 and 5), in Chromium, for every game.

At 1280x800 and 1440x900 the table is one screen: the turn banner, the board framed on the
choosable targets, the choices, every player's one-line summary, the last five log lines and
the docked hand all lie inside the window, with no page scroll either way. At 390x844 and
360x740 (a phone) the page is one column no wider than the screen, and the choices are an
opaque sheet. At every size: the element under the centre of each visible control is that
control (nothing overlaps it), no text is under 12 px, board text included. Checked at first
paint and again after a few moves made through the page; screenshots go to test-artifacts/.
"""

from __future__ import annotations

import random
import time

import httpx
import pytest

from nightsky.core.registry import packaged_game_ids
from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOPS = [(1280, 800), (1440, 900)]
PHONES = [(390, 844), (360, 740)]
MIN_TEXT_PX = 12
MOVES = 3

# Every visible control's hit test: [what, why] for each control whose centre (inside the
# window and inside every scrolled pane around it) is not the control itself. A control behind
# the phone's opaque sheet is hidden by it, not overlapped, and is skipped.
HIT_TEST = """() => {
  const sel = 'button, select, input, a[href], summary, label.toggle, #board svg .ns-target';
  const sheet = innerWidth <= 700 ? document.querySelector('#actions-panel') : null;
  const bad = [];
  let seen = 0;
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden], details:not([open]) > :not(summary)')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    let x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(cs.overflow + cs.overflowX + cs.overflowY)) continue;
      const q = p.getBoundingClientRect();
      if (x < q.left || x > q.right || y < q.top || y > q.bottom) { clipped = true; break; }
    }
    if (clipped) continue;
    const top = document.elementFromPoint(x, y);
    if (sheet && !sheet.contains(el) && top && sheet.contains(top)) continue;
    seen += 1;
    if (top && (top === el || el.contains(top))) continue;
    const name = el.id || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30);
    const over = top
      ? (top.id || top.className.baseVal || top.className || top.tagName) : 'nothing';
    bad.push([name, String(over).slice(0, 40)]);
  }
  return {bad, seen};
}"""

# Every text on screen: [px, text] under MIN_TEXT_PX (board texts: font size times scale).
SMALL_TEXT = """(min) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el) continue;
    if (el.closest('[hidden], .sr-only, title, style, script, .overview')) continue;
    if (el.closest('details:not([open])') && !el.closest('summary')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.bottom < 0 || r.top > innerHeight) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    if (el.closest('svg')) {
      const m = el.getScreenCTM();
      if (m) px *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    if (px < min - 0.01) out.push([Math.round(px * 100) / 100, n.textContent.trim().slice(0, 30)]);
  }
  return out;
}"""

# The boxes the glance needs, and whether each lies inside the window.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height}; };
  const inside = (b) => b.w > 0 && b.h > 0 && b.l >= -0.5 && b.t >= -0.5
    && b.r <= innerWidth + 0.5 && b.b <= innerHeight + 0.5;
  const out = {};
  const parts = {banner: '#banner', board: '#board', choices: '#actions-panel', players: '#seats',
    log: '#log', dock: '#dock'};
  for (const [k, sel] of Object.entries(parts)) {
    const el = document.querySelector(sel);
    out[k] = el && !el.closest('[hidden]') ? inside(box(el)) : null;
  }
  out.seats = [...document.querySelectorAll('#seats .seat')].map((el) => inside(box(el)));
  // The last five log lines: inside the window and inside the log's visible part.
  const log = document.querySelector('#log').getBoundingClientRect();
  out.lastLines = [...document.querySelectorAll('#log .line')].slice(-5).map((el) => {
    const b = box(el);
    return inside(b) && b.t >= log.top - 0.5 && b.b <= log.bottom + 0.5;
  });
  // The choosable targets: at least one in the board's view (or in the dock, where the hand is).
  const port = document.querySelector('#board').getBoundingClientRect();
  const targets = [...document.querySelectorAll('#board svg .ns-target')];
  const seen = (r) => r.right > port.left && r.left < port.right
    && r.bottom > port.top && r.top < port.bottom;
  out.targets = targets.length;
  out.targetInView = targets.some((el) => seen(el.getBoundingClientRect()))
    || document.querySelectorAll('#dock-view .ns-target').length > 0;
  out.scrollWidth = document.documentElement.scrollWidth;
  out.scrollHeight = document.documentElement.scrollHeight;
  out.sheetOpaque = (() => {
    const c = getComputedStyle(document.querySelector('#actions-panel')).backgroundColor;
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    const parts = m ? m[1].split(',').map(Number) : [];
    return parts.length < 4 || parts[3] === 1;
  })();
  return out;
}"""


def new_table(base: str, game_id: str) -> tuple[str, str]:
    """A table of ``game_id``: you (seat 1) against a random bot, your move first or soon."""
    made = httpx.post(base + "/api/games", json={
        "game": game_id, "players": 2, "seats": ["human", "random"], "seed": 5}).json()
    gid, token = made["id"], made["tokens"][0]["token"]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:  # the bot may move first: wait for our turn
        v = httpx.get(f"{base}/api/games/{gid}/view",
                      headers={"Authorization": f"Bearer {token}"}).json()
        if v["legal"] or v["terminal"]:
            break
        time.sleep(0.05)
    return gid, token


def check(page, tag: str, width: int, height: int) -> None:
    page.screenshot(path=str(ARTIFACTS / f"table-{tag}.png"))
    boxes = page.evaluate(BOXES)
    assert boxes["scrollWidth"] <= width, f"{tag}: the page is {boxes['scrollWidth']} px wide"
    hits = page.evaluate(HIT_TEST)
    assert hits["seen"] >= 3, f"{tag}: only {hits['seen']} controls tested"
    assert not hits["bad"], f"{tag}: controls covered by something else: {hits['bad'][:6]}"
    small = page.evaluate(SMALL_TEXT, MIN_TEXT_PX)
    assert not small, f"{tag}: text under {MIN_TEXT_PX} px: {small[:6]}"
    if boxes["targets"]:
        assert boxes["targetInView"], f"{tag}: no choosable target of the board is in view"
    if width > 700:
        tall = boxes["scrollHeight"]
        assert tall <= height, f"{tag}: the page scrolls ({tall} px)"
        for key in ("banner", "board", "choices", "players", "log"):
            assert boxes[key], f"{tag}: the {key} is not inside the window: {boxes}"
        assert boxes["dock"] in (None, True), f"{tag}: the docked hand is cut off"
        assert boxes["seats"] and all(boxes["seats"]), f"{tag}: a player's line is cut off"
        assert all(boxes["lastLines"]), f"{tag}: the last five log lines are not all in view"
    else:
        assert boxes["banner"] and boxes["sheetOpaque"], f"{tag}: {boxes}"
        # The sheet of choices is in view at the bottom.
        top = page.evaluate("document.querySelector('#actions-panel').getBoundingClientRect().top")
        assert top < height - 60


def play_a_few(page, moves: int) -> int:
    """Take up to ``moves`` of your choices through the page (the first one listed)."""
    made = 0
    for _ in range(moves):
        try:
            page.wait_for_selector("#actions button.action, #end:not([hidden])", timeout=15_000)
        except Exception:
            break
        if page.is_visible("#end"):
            break
        before = page.inner_text("#log")
        page.locator("#actions button.action").first.click()
        page.wait_for_function(
            "b => document.querySelector('#log').innerText !== b", arg=before, timeout=15_000)
        made += 1
    page.wait_for_timeout(400)  # the bot's answer and the redraw
    return made


@pytest.mark.parametrize("game_id", packaged_game_ids())
def test_the_whole_turn_fits_every_screen(browser, live_server, game_id):
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in DESKTOPS + PHONES:
        phone = width <= 700
        gid, token = new_table(live_server, game_id)
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=phone, has_touch=phone)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        try:
            page.goto(f"{live_server}/g/{gid}#token={token}")
            page.wait_for_selector("#conn.live")
            page.wait_for_selector("#board svg")
            page.wait_for_timeout(400)
            check(page, f"{game_id}-{width}x{height}", width, height)
            if (width, height) in ((1280, 800), (390, 844)):
                if phone:  # the sheet's buttons are under the fold of the board: scroll to them
                    page.locator("#actions button.action").first.scroll_into_view_if_needed()
                assert play_a_few(page, MOVES) >= 1
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(200)
                check(page, f"{game_id}-{width}x{height}-moved", width, height)
        finally:
            ctx.close()
        assert not errors, errors


def test_the_lobby_create_button_is_above_the_fold(browser, live_server):
    for width, height in DESKTOPS:
        ctx = browser.new_context(viewport={"width": width, "height": height})
        page = ctx.new_page()
        page.goto(live_server + "/")
        page.wait_for_selector(".game-card")
        bottom = page.evaluate("document.querySelector('#create').getBoundingClientRect().bottom")
        page.screenshot(path=str(ARTIFACTS / f"lobby-{width}x{height}.png"))
        ctx.close()
        assert bottom <= height, f"Create game ends at {bottom} px in a {height} px window"


def test_every_seat_has_its_line_with_the_games_counts(browser, live_server):
    """Four players: each seat's line shows the counts the game's glance reads from the view."""
    game_id = random.Random(3).choice(["stars-are-right", "shooting-star"])
    made = httpx.post(live_server + "/api/games", json={
        "game": game_id, "players": 4, "seats": ["human"] * 4}).json()
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(f"{live_server}/g/{made['id']}#token={made['tokens'][0]['token']}")
        page.wait_for_selector("#seats .seat >> nth=3")
        lines = page.eval_on_selector_all(
            "#seats .seat .counts", "els => els.map(e => e.innerText)")
        view = httpx.get(f"{live_server}/api/games/{made['id']}/view").json()
        want = [" · ".join(f"{c['value']} {c['label']}" for c in s["counts"])
                for s in view["glance"]["seats"]]
        assert lines == want and all(want), (lines, want)
        page.screenshot(path=str(ARTIFACTS / f"table-{game_id}-4-players.png"))
    finally:
        ctx.close()


# A point of the board's view on a part that names itself (not a choice): a finger's tap there
# shows the part's detail.
NAMED_POINT = """() => {
  const port = document.querySelector('#board').getBoundingClientRect();
  for (let y = port.top + 10; y < port.bottom - 10; y += 12) {
    for (let x = port.left + 10; x < port.right - 10; x += 12) {
      const top = document.elementFromPoint(x, y);
      if (!top || !top.closest('#board svg') || top.closest('.ns-target')) continue;
      for (let el = top; el && el.localName !== 'svg'; el = el.parentElement) {
        if (el.dataset && (el.dataset.detail || el.dataset.label)) return [x, y];
      }
    }
  }
  return null;
}"""


def phone_table(browser, live_server: str, game_id: str):  # type: ignore[no-untyped-def]
    """A new table of ``game_id`` opened in a 390x844 touch phone: (context, page)."""
    gid, token = new_table(live_server, game_id)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True)
    page = ctx.new_page()
    page.goto(f"{live_server}/g/{gid}#token={token}")
    return ctx, page


def test_a_tapped_detail_goes_away_with_a_tap_off_the_board(browser, live_server):
    """Phone: a tap on a part of the board pins its detail; a tap elsewhere lets it go."""
    ctx, page = phone_table(browser, live_server, "starlight")
    try:
        page.wait_for_selector("#board svg")
        page.wait_for_timeout(300)
        point = page.evaluate(NAMED_POINT)
        if point is None:  # the view is framed on the choices: look at the sky's corner
            page.evaluate("() => { const b = document.querySelector('#board'); "
                          "b.scrollLeft = 0; b.scrollTop = 0; }")
            page.wait_for_timeout(100)
            point = page.evaluate(NAMED_POINT)
        assert point, "no named part of the board in view"
        page.touchscreen.tap(*point)
        page.wait_for_selector("#board-detail:not([hidden])")
        page.screenshot(path=str(ARTIFACTS / "table-starlight-390-detail.png"))
        page.touchscreen.tap(200, 80)  # the turn banner, off the board
        page.wait_for_selector("#board-detail", state="hidden")
    finally:
        ctx.close()


# In the page: the centre of the first glowing target that lies inside the board's box and
# the screen, with the target on top there (a tap lands on it); null when there is none.
TAPPABLE_TARGET = """() => {
  const port = document.querySelector('#board').getBoundingClientRect();
  for (const t of document.querySelectorAll('#board svg .ns-target')) {
    const r = t.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x > port.left && x < port.right && y > port.top && y < port.bottom && y < innerHeight
        && document.elementFromPoint(x, y)?.closest('.ns-target') === t) return [x, y];
  }
  return null;
}"""


def test_a_tapped_choice_leaves_no_detail_over_the_board(browser, live_server):
    """Phone: a tap on a glowing target makes its choice and pins no detail (one did, and
    stayed over the board drawn after the move, naming the choice already made)."""
    ctx, page = phone_table(browser, live_server, "star-fire")
    try:
        page.wait_for_selector("#board svg .ns-target")
        page.wait_for_timeout(300)
        before = page.evaluate("document.body.dataset.version")
        point = page.evaluate(TAPPABLE_TARGET)
        assert point, "no glowing target in view"
        page.touchscreen.tap(*point)
        page.wait_for_function("b => document.body.dataset.version !== b", arg=before)
        page.wait_for_timeout(300)
        assert page.locator("#board-detail").is_hidden(), page.inner_text("#board-detail")
    finally:
        ctx.close()


def test_after_a_tapped_spot_the_choices_that_finish_it_are_in_view(browser, live_server):
    """Phone, Shooting Star: a tap on a planet leaves the cards that may go there to choose
    from; they glow in the hand, below the sky, and the board brings them into view (they
    were off-screen), so the next tap finishes the move."""
    ctx, page = phone_table(browser, live_server, "shooting-star")
    try:
        page.wait_for_selector("#board svg .ns-target")
        page.wait_for_timeout(300)
        point = page.evaluate(TAPPABLE_TARGET)
        assert point, "no glowing target in view"
        page.touchscreen.tap(*point)
        page.wait_for_selector(".narrowed")
        page.wait_for_timeout(200)
        page.screenshot(path=str(ARTIFACTS / "table-shooting-star-390-picked.png"))
        left = page.eval_on_selector_all("#board svg .ns-target", "els => els.map(e => e.id)")
        assert left and all(t.startswith("card-") for t in left), left
        point = page.evaluate(TAPPABLE_TARGET)
        assert point, f"none of the cards left to choose ({left}) is in view"
        before = page.evaluate("document.body.dataset.version")
        page.touchscreen.tap(*point)
        page.wait_for_function("b => document.body.dataset.version !== b", arg=before)
    finally:
        ctx.close()


def test_a_choice_under_the_pointer_lights_its_targets(browser, live_server):
    """The choice list's buttons (kept from move to move, one delegated handler) light the
    board targets of the choice under the pointer, and let go when the pointer leaves."""
    gid, token = new_table(live_server, "shooting-star")
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    try:
        page.goto(f"{live_server}/g/{gid}#token={token}")
        page.wait_for_selector("#actions button.action")
        button = page.locator("#actions button.action").first
        want = button.get_attribute("data-action")
        button.hover()
        lit = page.eval_on_selector_all("#board .ns-hover", "els => els.map(e => e.id)")
        assert lit, f"hovering {want!r} lit nothing on the board"
        page.locator("#actions button.action").nth(1).hover()
        page.mouse.move(5, 5)
        assert page.locator("#board .ns-hover").count() == 0
    finally:
        ctx.close()


def test_a_click_on_the_docked_hand_acts_on_the_board(page):
    """The Stars Are Right: the hand docked under the board glows like the board's, and a click
    on one of its cards does what a click on that card on the board does (here: a card both
    invoked and discarded, so the menu of both opens, and its choice is sent)."""
    gid, token = new_table(page.base, "stars-are-right")
    page.goto(f"{page.base}/g/{gid}#token={token}")
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#dock-view .ns-target")
    assert page.locator("#dock-view [id]").count() == 0  # ids stay unique on the page
    ref = page.get_attribute("#dock-view .ns-target >> nth=0", "data-ref")
    assert page.locator("#board svg").locator(f'[id="{ref}"]').count() == 1
    start = len(page.moves)
    page.click("#dock-view .ns-target >> nth=0")
    page.wait_for_selector("#menu, #board svg .ns-picked", timeout=5_000)
    if page.is_visible("#menu"):
        page.click("#menu button[data-action] >> nth=0")
    page.wait_for_function("n => document.querySelectorAll('#log .line').length > 0", arg=0)
    page.wait_for_timeout(500)
    sent = page.moves[start:]
    assert len(sent) <= 1
    if sent:
        import httpx as _httpx  # the move names the card clicked in the dock
        token = page.evaluate(  # the page's own token: opening the link retired ours
            "(gid) => JSON.parse(localStorage.getItem('nightsky.games'))[gid].token", gid
        )
        log = _httpx.get(f"{page.base}/api/games/{gid}/view",
                         headers={"Authorization": f"Bearer {token}"}).json()["log"]
        assert any(line.get("seat") == 0 for line in log)
    else:
        assert page.locator(f'#board svg [id="{ref}"].ns-picked').count() == 1
