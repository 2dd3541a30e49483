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

# In the page: a drawing's nodes as lines (tag, attributes, text), leaving out what the page
# adds to a board (focus stops, glows, tooltips listing the choices, its size).
SIGNATURE = """
  const PAGE = ["tabindex", "role", "aria-label", "data-ns-stop", "data-ns-own", "style",
    "width", "height"];
  const sig = (root) => {
    const out = [];
    const walk = (n, d) => {
      if (n.nodeType === 3) { out.push(d + '#' + n.nodeValue); return; }
      if (n.nodeType !== 1 || n.hasAttribute('data-ns-added')) return;
      const attrs = [...n.attributes].filter((a) => !PAGE.includes(a.name))
        .map((a) => a.name === 'class'
        ? 'class=' + a.value.split(/\\s+/).filter((c) => c && !c.startsWith('ns-')).join(' ')
        : a.name + '=' + a.value).filter((a) => a !== 'class=').sort();
      out.push(d + '<' + n.localName + ' ' + attrs.join(' '));
      if (n.localName === 'title' && n.hasAttribute('data-ns-own')) {
        out.push((d + 1) + '#' + n.getAttribute('data-ns-own'));
        return;
      }
      for (const c of n.childNodes) walk(c, d + 1);
    };
    walk(root, 0);
    return out;
  };
  const parse = (text) => new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
  const differ = (a, b) => {
    const x = sig(a), y = sig(b);
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (x[i] !== y[i]) return `node ${i}: ${x[i]} | ${y[i]}`;
    }
    return null;
  };
"""


@pytest.mark.parametrize("game", GAMES)
def test_the_board_is_redrawn_in_place_and_matches_the_servers(page, game):
    """Issue 50 item 8: a move redraws only what changed. The board's <svg> stays the same node
    over several moves (so focus, zoom and scroll stay), and what it shows is what a fresh
    parse of the server's SVG shows; the redraw code (morph.js) also turns every pushed board
    into the next one exactly, from the server's string edits and without them."""
    made = page.request.post(page.base + "/api/games",
                             data={"game": game, "players": 2, "seats": ["human", "random"]}).json()
    frames: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(json.loads(p))))
    page.goto(made["tokens"][0]["invite"])
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#board svg")
    page.evaluate("window.firstBoard = document.querySelector('#board svg')")
    for _ in range(4):
        try:
            page.wait_for_selector("#actions button.action", timeout=20_000)
        except Exception:  # noqa: BLE001 - the game ended
            break
        before = page.evaluate("document.body.dataset.version")
        page.locator("#actions button.action").first.click()
        page.wait_for_function("b => document.body.dataset.version !== b", arg=before)
    token = page.evaluate(
        "(gid) => JSON.parse(localStorage.getItem('nightsky.games'))[gid].token", made["id"])
    for _ in range(5):  # (a bot may move while we look: look again)
        server = page.request.get(f"{page.base}/api/games/{made['id']}/view",
                                  headers={"Authorization": f"Bearer {token}"}).json()
        try:
            page.wait_for_function("v => Number(document.body.dataset.version) >= v",
                                   arg=server["version"], timeout=10_000)
        except Exception:  # noqa: BLE001
            continue
        if page.evaluate("Number(document.body.dataset.version)") == server["version"]:
            break
    else:
        raise AssertionError("the page never settled on the server's version")
    replaced = not page.evaluate("window.firstBoard === document.querySelector('#board svg')")
    diff = page.evaluate("(text) => { " + SIGNATURE + " return differ("
                         "document.querySelector('#board svg'), parse(text)); }", server["svg"])
    assert diff is None, diff
    # Every pushed board turned into the next by morph.js alone: with the patch's edit, and
    # (where a page lacks it) by comparing the two texts.
    from nightsky.server.patches import EARLIER, apply_patch
    pairs: list[tuple[str, str, dict | None]] = []
    views: dict[int, dict] = {}
    view = None
    for msg in frames:
        if msg.get("type") == "view":
            view = msg["data"]
        elif msg.get("type") == "patch" and view is not None:
            old = view
            back = {v: views[v] for v in sorted(views)[-EARLIER - 1 : -1]}
            view = apply_patch(view, msg["data"], back)
            assert view is not None
            if view["svg"] != old["svg"]:
                pairs.append((old["svg"], view["svg"], msg["data"]["diff"].get("svg")))
        else:
            continue
        views[view["version"]] = view
    assert len(pairs) >= 3, len(pairs)
    (ARTIFACTS / f"board-pairs-{game}.json").write_text(json.dumps(pairs))  # to debug
    bad = page.evaluate("""async (pairs) => {
      const { morphSvg } = await import('/static/js/morph.js');
      const { hunksOf } = await import('/static/js/patch.js');
      """ + SIGNATURE + """
      const out = [];
      for (const [a, b, op] of pairs) {
        for (const hunks of [op && op.s ? hunksOf(op) : null, null]) {
          const live = parse(a);
          const put = morphSvg(live, a, b, hunks, { sanitize() {}, skip: () => false });
          const d = put === null ? 'not redrawn in place' : differ(live, parse(b));
          if (d) out.push(d);
        }
      }
      return out;
    }""", pairs)
    assert bad == [], bad[:3]
    assert not replaced, "the board was replaced whole"

def test_the_board_ends_at_the_newest_view_whatever_order_the_pushes_arrive_in(page):
    """Issue 50 item 8, the ordering: the page's own move is drawn at once (not on the next
    frame) and the bots' replies once per frame; pushes held back and then delivered newest
    first (a patch on a view the page lacks makes it ask for the whole view), with the answer
    to its move last, still leave the board at the newest view the server holds, and the page
    never draws an older version after a newer one."""
    made = page.request.post(page.base + "/api/games",
                             data={"game": "starlight", "players": 2, "seats": ["human", "random"],
                                   "seed": 5}).json()
    held: list[str] = []
    hold = [False]
    pages = []

    def route(ws):  # type: ignore[no-untyped-def]
        server = ws.connect_to_server()
        pages.append(ws)
        ws.on_message(lambda m: server.send(m))
        server.on_message(lambda m: held.append(m) if hold[0] else ws.send(m))

    page.route_web_socket("**/ws", route)
    page.add_init_script("""window.__drawn = [];
      document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => {
        const v = document.body.dataset.version;
        const at = window.__drawn;
        if (v !== undefined && at[at.length - 1] !== v) at.push(v);
      }).observe(document.body, { attributes: true, attributeFilter: ['data-version'] }));""")
    page.goto(made["tokens"][0]["invite"])
    page.wait_for_selector("#conn.live")
    reordered = 0
    for _ in range(6):
        try:
            page.wait_for_selector("#actions button.action", timeout=20_000)
        except Exception:  # noqa: BLE001 - the game ended
            break
        hold[0] = True
        page.locator("#actions button.action").first.click()
        for _ in range(200):  # until the answer to the move is held (it follows its view)
            if any('"ack"' in m or '"error"' in m for m in held):
                break
            page.wait_for_timeout(25)
        page.wait_for_timeout(400)  # and the bots' replies, if the turn passed
        hold[0] = False
        views = [m for m in held if '"type":"patch"' in m.replace(" ", "")
                 or '"type":"view"' in m.replace(" ", "")]
        rest = [m for m in held if m not in views]
        held.clear()
        reordered += len(views) > 1
        for m in [*reversed(views), *rest]:
            pages[-1].send(m)
    token = page.evaluate(
        "(gid) => JSON.parse(localStorage.getItem('nightsky.games'))[gid].token", made["id"])
    for _ in range(5):  # (a bot may move while we look: look again)
        server = page.request.get(f"{page.base}/api/games/{made['id']}/view",
                                  headers={"Authorization": f"Bearer {token}"}).json()
        page.wait_for_function("v => Number(document.body.dataset.version) >= v",
                               arg=server["version"], timeout=10_000)
        if page.evaluate("Number(document.body.dataset.version)") == server["version"]:
            break
    else:
        raise AssertionError("the page never settled on the server's version")
    diff = page.evaluate("(text) => { " + SIGNATURE + " return differ("
                         "document.querySelector('#board svg'), parse(text)); }", server["svg"])
    assert diff is None, diff
    drawn = [int(v) for v in page.evaluate("window.__drawn")]
    # never an older version drawn after a newer one
    assert len(drawn) >= 4 and drawn == sorted(drawn), drawn
    assert reordered >= 1, "no move brought several pushes: nothing was delivered out of order"


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
