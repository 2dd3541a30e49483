"""Your games with the your-move badge and notifications, chat between two browsers, and a
rematch both players accept, in Chromium (issue 20, items 3 and 4)."""

from __future__ import annotations

import random
import re

import httpx
import pytest

from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# A Notification that records what it is asked to show (the real one needs a desktop).
FAKE_NOTIFICATION = """
window.__notes = [];
window.__asked = 0;
class FakeNotification {
  constructor(title, options) { window.__notes.push({ title, body: (options || {}).body }); }
  static get permission() { return window.__asked ? "granted" : "default"; }
  static requestPermission() { window.__asked += 1; return Promise.resolve("granted"); }
}
window.Notification = FakeNotification;
"""


def auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def new_table(base: str, seats: list[str], names: list[str] | None = None) -> dict:
    r = httpx.post(f"{base}/api/games", json={
        "game": "toy-secret-sum", "players": len(seats), "seats": seats, "names": names})
    assert r.status_code == 201, r.text
    return r.json()


def claim(base: str, made: dict, k: int = 0, name: str | None = None) -> str:
    r = httpx.post(f"{base}/api/games/{made['id']}/claim",
                   json={"invite": made["invites"][k]["code"], "name": name})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def play_out(base: str, gid: str, tokens: list[str]) -> None:
    """Random legal moves for every human seat until the game is over."""
    rng = random.Random(4)
    for _ in range(400):
        for tok in tokens:
            v = httpx.get(f"{base}/api/games/{gid}/view", headers=auth(tok)).json()
            if v["terminal"]:
                return
            if v["legal"]:
                httpx.post(f"{base}/api/games/{gid}/actions", headers=auth(tok), json={
                    "action": rng.choice(v["legal"])["action"], "version": v["version"]})
    raise AssertionError("the game did not end")


def hold(page, base: str, seats: dict[str, dict]) -> None:
    """Put seat tokens in this browser's localStorage, as the lobby and invite links do."""
    page.goto(base + "/me")
    page.evaluate("(s) => localStorage.setItem('nightsky.games', JSON.stringify(s))", seats)


def test_your_games_page_badge_title_icon_and_notification(browser, live_server):
    base = live_server
    ctx = browser.new_context(
        permissions=["notifications"], viewport={"width": 1300, "height": 900}
    )
    ctx.add_init_script(FAKE_NOTIFICATION)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        a = new_table(base, ["human", "greedy"])  # seat 0 moves first: your move
        b = new_table(base, ["human", "random"])  # your move too
        c = new_table(base, ["human", "human"])   # you are seat 1: the other's move
        c1 = claim(base, c)
        tok = {x["id"]: x["tokens"][0]["token"] for x in (a, b)}
        hold(page, base, {
            a["id"]: {"token": tok[a["id"]], "seat": 0, "at": 3},
            b["id"]: {"token": tok[b["id"]], "seat": 0, "at": 2},
            c["id"]: {"token": c1, "seat": 1, "at": 1},
            "0123456789ab": {"token": "forged-token", "seat": 0, "at": 0},
        })
        page.goto(base + "/me")
        page.wait_for_selector(".mine-item >> nth=3")
        items = page.locator(".mine-item")
        ids = [items.nth(i).get_attribute("data-id") for i in range(4)]
        assert set(ids[:2]) == {a["id"], b["id"]} and ids[2] == c["id"] and ids[3] == "0123456789ab"
        assert page.locator(".mine-item.your-move").count() == 2
        assert "waiting for Player 1" in items.nth(2).text_content()
        assert "no longer works" in items.nth(3).text_content()
        page.wait_for_function("() => document.title.startsWith('(2) ')")
        icon = page.locator('link[rel="icon"]')
        assert icon.get_attribute("data-badge") == "2"
        assert icon.get_attribute("href").startswith("data:image/png;base64,")
        # Nothing is asked or shown before the button is pressed; turning notifications on
        # announces no table that was already waiting when the page opened.
        assert page.evaluate("window.__asked") == 0 and page.evaluate("window.__notes") == []
        page.click("#notify")
        page.wait_for_function(
            "() => document.querySelector('#notify').innerText === 'Stop notifications'")
        assert page.evaluate("window.__asked") == 1
        page.wait_for_timeout(300)
        assert page.evaluate("window.__notes") == []
        # A move made since the page opened is news: table c becomes your move.
        v = httpx.get(f"{base}/api/games/{c['id']}/view",
                      headers=auth(c["tokens"][0]["token"])).json()
        r = httpx.post(f"{base}/api/games/{c['id']}/actions", headers=auth(c["tokens"][0]["token"]),
                       json={"action": v["legal"][0]["action"], "version": v["version"]})
        assert r.status_code == 200, r.text
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_function("() => window.__notes.length === 1")
        assert page.evaluate("window.__notes")[0]["title"] == "Your move: Secret Sum (test game)"
        page.wait_for_function("() => document.title.startsWith('(3) ')")
        # A display name kept in the browser, used when taking seats.
        page.fill("#name", "Zoë")
        page.click("#name-form button")
        page.screenshot(path=str(ARTIFACTS / "your-games.png"))
        # The lobby and a game page show the badge too (a game page: the other tables only).
        page.goto(base + "/")
        page.wait_for_function("() => document.title === '(3) nightsky · lobby'")
        assert page.input_value('input[name="name0"]') == "Zoë"
        page.click("#me-link")
        page.wait_for_url(base + "/me")
        page.goto(f"{base}/g/{a['id']}")
        page.wait_for_selector("#conn.live")
        # This table's own move leads the title and rings the icon; the count is the others'.
        page.wait_for_function("() => /^\\(2\\) ▶ Your move · nightsky · /.test(document.title)")
        assert icon.get_attribute("data-own") == "true"
        # A move there: the turn goes to the bot and back; the count stays honest.
        assert page.locator("#me-link").count() == 1
    finally:
        ctx.close()
    assert not errors, errors


def test_two_players_chat_and_a_spectator_reads_along(browser, live_server):
    base = live_server
    contexts = [browser.new_context(viewport={"width": 1300, "height": 900}) for _ in range(3)]
    alice, bob, watcher = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (alice, bob, watcher):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        made = new_table(base, ["human", "human"], ["Alice", ""])
        gid = made["id"]
        # Bob set his name on /me; his invite link seats him under it.
        bob.goto(base + "/me")
        bob.fill("#name", "Bob")
        bob.click("#name-form button")
        bob.goto(f"{base}/g/{gid}#invite={made['invites'][0]['code']}")
        alice.goto(f"{base}/g/{gid}#token={made['tokens'][0]['token']}")
        watcher.goto(f"{base}/g/{gid}")
        for p in (alice, bob, watcher):
            p.wait_for_selector("#conn.live")
        bob.wait_for_selector("#chat-form:not([hidden])")
        assert "you are Bob" in bob.inner_text("#crumb")
        # A spectator reads but has no box to write in.
        watcher.wait_for_selector("#chat-note >> text=Spectators read the chat")
        assert watcher.locator("#chat-form").is_hidden()
        evil = '<img src=x onerror="window.__pwned=1"> hi Bob'
        alice.fill("#chat-input", evil)
        alice.click("#chat-form button")
        for p in (alice, bob, watcher):
            p.wait_for_selector(".chat-line >> text=hi Bob")
            line = p.locator(".chat-line").last
            assert line.locator(".chat-text").inner_text() == evil
            assert line.locator(".who").inner_text() == "Alice"
            assert p.locator("#chat-lines img").count() == 0
            assert p.evaluate("window.__pwned") is None
        bob.fill("#chat-input", "hello Alice")
        bob.press("#chat-input", "Enter")
        alice.wait_for_selector(".chat-line >> text=hello Alice")
        watcher.wait_for_selector(".chat-line >> text=hello Alice")
        who = alice.locator(".chat-line").last.locator(".who")
        assert who.inner_text() == "Bob"
        colors = [s["color"] for s in httpx.get(f"{base}/api/games/{gid}/view").json()["seats"]]
        assert colors[1].lower() in (who.get_attribute("style") or "").lower()
        # A reload shows the same lines (they are kept with the game).
        watcher.reload()
        watcher.wait_for_selector(".chat-line >> nth=1")
        assert watcher.locator(".chat-line").count() == 2
        alice.screenshot(path=str(ARTIFACTS / "chat.png"))
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors


def test_a_rematch_offered_and_accepted_by_both_players(browser, live_server):
    base = live_server
    contexts = [browser.new_context(viewport={"width": 1300, "height": 900}) for _ in range(3)]
    alice, bob, watcher = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (alice, bob, watcher):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        made = new_table(base, ["human", "human"], ["Alice", "Bob"])
        gid = made["id"]
        t0, t1 = made["tokens"][0]["token"], claim(base, made)
        play_out(base, gid, [t0, t1])
        alice.goto(f"{base}/g/{gid}#token={t0}")
        bob.goto(f"{base}/g/{gid}#token={t1}")
        watcher.goto(f"{base}/g/{gid}")
        for p in (alice, bob, watcher):
            p.wait_for_selector("#endcard")
            p.wait_for_selector("#conn.live")
        assert watcher.locator('#end [data-rematch="offer"]').count() == 0
        alice.click('#end [data-rematch="offer"]')
        alice.wait_for_selector('#end [data-rematch="open"]')
        assert "Waiting for Bob" in alice.inner_text('#end [data-rematch="open"]')
        # Bob hears of it by push and accepts.
        bob.click('#end [data-rematch="accept"]')
        for p in (alice, bob, watcher):
            p.wait_for_selector('#end [data-rematch="link"]')
        new_id = re.search(r"/g/([0-9a-f]+)", alice.inner_text('#end [data-rematch="link"]'))[1]
        assert new_id != gid
        assert f"/g/{new_id}" in watcher.inner_text('#end [data-rematch="link"]')
        assert watcher.locator('[data-rematch="go"]').count() == 0  # no seat, no token
        alice.wait_for_selector('#end [data-rematch="go"]')
        bob.wait_for_selector('#end [data-rematch="go"]')
        alice.screenshot(path=str(ARTIFACTS / "rematch.png"))
        for p, me in ((alice, "Alice"), (bob, "Bob")):
            p.click('#end [data-rematch="go"]')
            p.wait_for_url(f"{base}/g/{new_id}")
            p.wait_for_selector("#conn.live")
            p.wait_for_function(
                "me => document.getElementById('crumb').textContent.includes(`you are ${me}`)",
                arg=me,
            )
            p.wait_for_selector('#rematch-panel [data-rematch="of"]')
        held = bob.evaluate(f"JSON.parse(localStorage.getItem('nightsky.games'))['{new_id}']")
        assert held["seat"] == 1 and held["token"] not in (t0, t1)
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors
