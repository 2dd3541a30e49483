"""Rules at hand and keyboard play in the browser.

The board is played with the keyboard alone (Tab to a target, the arrow keys between targets,
Enter to act, a menu walked with the arrows) in two games; every focusable target has an
accessible name equal to its choices' labels; a refused choice shows its rule's text; a rule's
anchor shows that rule; the lobby's game cards link to the game's page.
"""

from __future__ import annotations

import json
import re

import httpx
import pytest

from nightsky.core.registry import packaged_game_ids
from tests.web.conftest import ARTIFACTS
from tests.web.test_browser import my_legal, new_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ACTIVE = """() => { const a = document.activeElement;
  return a ? {id: a.id, cls: a.getAttribute('class') || '', role: a.getAttribute('role'),
    label: a.getAttribute('aria-label'), menu: !!a.closest('.menu'),
    action: a.dataset ? a.dataset.action || null : null} : null; }"""


def tab_to_board(page) -> dict:
    """Press Tab from the top of the page until a board target has the focus."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(80):
        page.keyboard.press("Tab")
        a = page.evaluate(ACTIVE)
        if a and "ns-target" in a["cls"]:
            return a
    raise AssertionError("Tab never reached a board target")


def play_by_keyboard(page, game_id: str) -> str:
    """Reach the board by Tab, move with the arrow keys, act with Enter; returns the action."""
    page.wait_for_selector("#board svg .ns-target")
    legal = my_legal(page)
    first = tab_to_board(page)
    assert first["role"] == "button" and first["label"]
    moved = None
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        a = page.evaluate(ACTIVE)
        assert "ns-target" in a["cls"], (key, a)
        if a["id"] != first["id"]:
            moved = a
            break
    assert moved, "the arrow keys did not move between the board's targets"
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-keyboard-focus.png"))
    # The focused target has a visible ring: its outline shape is stroked white and solid.
    ring = page.evaluate("""() => { const el = document.activeElement;
      const hit = el.querySelector('.ns-hit') || el;
      const s = getComputedStyle(hit);
      return [s.stroke, s.strokeDasharray, parseFloat(s.strokeWidth)]; }""")
    assert ring[0] == "rgb(255, 255, 255)" and ring[1] == "none" and ring[2] >= 4, ring
    start = len(page.moves)  # every move the page sends (socket or POST): conftest
    focused = [moved["id"]]
    for _ in range(6):
        page.keyboard.press("Enter")
        page.wait_for_timeout(300)
        if page.moves[start:]:
            break
        a = page.evaluate(ACTIVE)
        assert a and (a["menu"] or "ns-target" in a["cls"]), f"the focus was lost: {a}"
        if a["menu"]:  # a menu of the choices on that spot has the focus: walk it, take one
            page.keyboard.press("ArrowDown")
            page.keyboard.press("ArrowUp")
            page.screenshot(path=str(ARTIFACTS / f"{game_id}-keyboard-menu.png"))
        else:
            focused.append(a["id"])
    posts = page.moves[start:]
    assert len(posts) == 1, posts
    action = posts[0]["action"]
    choice = next(c for c in legal if c["action"] == action)
    assert set(focused) <= set(choice["targets"]), (focused, choice)
    return action


@pytest.mark.parametrize("game_id", ["shooting-star", "starlight", "stars-are-right"])
def test_play_a_move_on_the_board_with_the_keyboard(page, game_id):
    new_game(page, game_id, ["human", "random"])
    page.wait_for_selector("#conn.live")
    before = page.inner_text("#log")
    play_by_keyboard(page, game_id)
    page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    # The keyboard keeps its place on the redrawn board when it has targets again.
    page.wait_for_selector("#board svg .ns-target, #actions button.action", timeout=15_000)
    if page.locator("#board svg .ns-target").count():
        page.wait_for_function("""() => { const a = document.activeElement;
          return a && a.closest('#board .ns-target'); }""", timeout=5_000)


@pytest.mark.parametrize("game_id", packaged_game_ids())
def test_every_focusable_target_is_named_by_its_choices_labels(page, game_id):
    new_game(page, game_id, ["human", "random"])
    page.wait_for_selector("#board svg .ns-target")
    page.wait_for_timeout(300)
    legal = my_legal(page)
    targets = page.eval_on_selector_all(
        "#board [tabindex]",
        """els => els.map(e => ({id: e.id, tab: e.getAttribute('tabindex'),
            role: e.getAttribute('role'), label: e.getAttribute('aria-label'),
            dash: getComputedStyle(e.querySelector('.ns-hit') || e).strokeDasharray}))""")
    assert targets
    for t in targets:
        labels = [c["label"] for c in legal if t["id"] in c["targets"]]
        assert t["tab"] == "0" and t["role"] == "button", t
        assert t["label"] and t["label"] == " / ".join(labels), (t, labels)
        # Legal targets are marked by a dashed outline, not by colour alone.
        assert t["dash"] not in ("none", ""), t
    # The list of choices: buttons named by their labels, reachable and walked with the arrows.
    # (textContent: a long list comes in folding groups, the closed ones' buttons unrendered)
    names = page.eval_on_selector_all("#actions button.action",
                                      "els => els.map(e => e.textContent)")
    assert names and all(n.strip() for n in names)
    assert set(names) <= {c["label"] for c in legal}
    page.focus("#actions button.action >> nth=0")
    page.keyboard.press("ArrowDown")
    if len(names) > 1:
        assert page.evaluate(ACTIVE)["action"] == page.eval_on_selector_all(
            "#actions button.action", "els => els[1].dataset.action")
    # Text, not colour alone, tells the turn and the connection.
    assert "Your turn" in page.inner_text("#banner")
    assert page.inner_text("#conn") in ("live", "reconnecting", "offline")


def test_a_refused_choice_shows_the_rule_it_breaks(page):
    # The page offers only legal choices: an illegal one is put in its place on the way (the
    # page's socket goes through this route; a POST, without a live socket, through the
    # HTTP route below).
    tamper = {"on": False}

    def socket_route(ws):  # type: ignore[no-untyped-def]
        server = ws.connect_to_server()

        def from_page(message):  # type: ignore[no-untyped-def]
            if tamper["on"] and isinstance(message, str) and '"act"' in message:
                message = json.dumps({**json.loads(message), "action": "step"})
            server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r".*/api/games/[0-9a-f]+/ws$"), socket_route)
    new_game(page, "starlight", ["human", "random"])
    page.wait_for_selector("#actions button.action")
    page.wait_for_selector("#rule-links a")
    # The page links the game's rules (its header, beside the log).
    assert page.get_attribute("#rules-link", "href") == "/games/starlight/rules"
    hrefs = page.eval_on_selector_all(
        "#rule-links a", "els => els.map(e => e.getAttribute('href'))")
    assert "/games/starlight/rules" in hrefs and "/games/starlight#tutorials" in hrefs

    # The page offers only legal choices: send an illegal one in its place ("step" on the
    # first turn, SL-2.1), as a table that moved on under a stale page could.
    def illegal(route):  # type: ignore[no-untyped-def]
        body = route.request.post_data_json
        route.continue_(post_data=httpx.Request("POST", "/", json={**body, "action": "step"})
                        .content)

    page.route("**/api/games/*/actions", illegal)
    tamper["on"] = True
    page.click("#actions button.action >> nth=0")
    page.wait_for_selector("#rule-note:not([hidden])")
    note = page.inner_text("#rule-note")
    rules = httpx.get(page.base + "/api/catalog/starlight/rules").json()
    assert "SL-2.1" in note and rules["SL-2.1"] in note
    assert page.get_attribute("#rule-note a.rule-anchor", "href") == "/games/starlight/rules#SL-2.1"
    page.screenshot(path=str(ARTIFACTS / "starlight-refused-rule.png"))
    page.unroute("**/api/games/*/actions")
    tamper["on"] = False
    # The link opens the rules at that rule.
    with page.context.expect_page() as opened:
        page.click("#rule-note a.rule-anchor")
    rules_page = opened.value
    rules_page.wait_for_load_state()
    assert rules_page.evaluate("document.querySelector(':target').id") == "SL-2.1"
    rules_page.close()
    # A legal choice clears the note.
    page.click("#actions button.action >> nth=0")
    page.wait_for_selector("#rule-note", state="hidden")


def test_a_rule_anchor_shows_that_rule(page):
    page.goto(page.base + "/games/shooting-star/rules#SS-4.2")
    target = page.locator(":target")
    assert target.get_attribute("id") == "SS-4.2"
    assert "Equal priorities" in target.inner_text() or target.inner_text().startswith("§")
    box = target.bounding_box()
    assert box and 0 <= box["y"] < 900, box  # scrolled into view, below the sticky top bar
    assert target.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"
    page.screenshot(path=str(ARTIFACTS / "rules-anchor.png"))
    # A mention of another rule links to it on the same page.
    page.click('[id="SS-4.3"] a[href="#SS-7"]')
    assert page.url.endswith("#SS-7")
    assert page.evaluate("document.querySelector(':target').textContent").startswith("SS-7")


def test_the_lobby_cards_link_to_the_game_pages(page):
    page.goto(page.base + "/")
    page.wait_for_selector(".game-card")
    links = page.eval_on_selector_all(".game-link", "els => els.map(e => e.getAttribute('href'))")
    assert links == [f"/games/{g}" for g in packaged_game_ids()] or set(
        f"/games/{g}" for g in packaged_game_ids()) <= set(links)
    page.click('.game-link[data-game="starlight"]')
    page.wait_for_url(re.compile(r"/games/starlight$"))
    assert page.inner_text("h1") == "Starlight"
    page.screenshot(path=str(ARTIFACTS / "starlight-about.png"), full_page=True)
    page.click("text=Start a table")
    page.wait_for_selector(".game-card.selected")
    assert page.get_attribute(".game-card.selected", "data-id") == "starlight"
    assert page.get_attribute(".game-card.selected", "aria-pressed") == "true"


def test_reduced_motion_stops_the_animations(browser, live_server):
    ctx = browser.new_context(reduced_motion="reduce", viewport={"width": 1400, "height": 900})
    page = ctx.new_page()
    page.base = live_server
    new_game(page, "shooting-star", ["human", "random"])
    page.wait_for_selector("#board svg .ns-target")
    names = page.evaluate("""() => [document.querySelector('#board .ns-target'),
      document.querySelector('#banner')].map(e => getComputedStyle(e).animationName)""")
    ctx.close()
    assert names == ["none", "none"]
