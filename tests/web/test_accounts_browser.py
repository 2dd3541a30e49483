"""Accounts in Chromium (issue 53 item 1 and the browser item): sign up from the lobby's
header in one browser, create a table there; sign in from a second browser (its own storage,
no token) and find the table under "Your games", open it and play the seat; the profile page;
sign out."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAME, PASSWORD = "Vega", "a long enough password"


def open_dialog_and(page, button: str, shot: str | None = None) -> None:
    page.click("#account-open")
    page.fill("#account-name", NAME)
    page.fill("#account-password", PASSWORD)
    if shot:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / shot))
    page.click(button)
    page.wait_for_selector("#account-me")


def test_sign_up_in_one_browser_and_find_your_games_in_another(browser, live_server):
    base = live_server
    errors: list[str] = []
    first = browser.new_context(viewport={"width": 1280, "height": 800})
    second = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = first.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/")
        page.wait_for_selector("#account-open")
        open_dialog_and(page, "#account-signup", shot="accounts-dialog.png")
        assert page.locator("#account-me").inner_text() == NAME
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "accounts-lobby-signed-in.png"))
        # A table made from the lobby is the account's (the CSRF token rides along).
        page.wait_for_selector(".game-card")
        page.click("#create")
        page.wait_for_url(re.compile(r".*/g/[0-9a-f]+"))
        gid = page.url.rstrip("/").split("/")[-1].split("#")[0]

        other = second.new_page()
        other.on("pageerror", lambda e: errors.append(str(e)))
        other.goto(base + "/me")
        other.wait_for_selector("#mine-list .empty")  # nothing here: no token, signed out
        open_dialog_and(other, "#account-signin")
        other.wait_for_selector(f'.mine-item[data-id="{gid}"]')
        other.screenshot(path=str(ARTIFACTS / "accounts-your-games-second-browser.png"))
        other.locator(f'.mine-item[data-id="{gid}"] a.btn').click()
        other.wait_for_url(re.compile(rf".*/g/{gid}"))
        token = other.evaluate(f"JSON.parse(localStorage.getItem('nightsky.games'))['{gid}'].token")
        view = httpx.get(f"{base}/api/games/{gid}/view",
                         headers={"authorization": f"Bearer {token}"}).json()
        assert view["seat"] == 0  # the account's seat, played from the second browser

        # The profile page, seen by a third, anonymous browser.
        stranger = browser.new_context().new_page()
        stranger.goto(f"{base}/u/{NAME.lower()}")
        stranger.wait_for_function("() => document.querySelector('#who').innerText === 'Vega'")
        assert "member since" in stranger.locator("#since").inner_text()
        # the table in play is private (not listed): a stranger does not see it
        assert stranger.locator(f'[data-id="{gid}"]').count() == 0
        other.goto(f"{base}/u/{NAME}")
        other.wait_for_selector(f'#recent [data-id="{gid}"]')  # its member sees it
        other.screenshot(path=str(ARTIFACTS / "accounts-profile.png"))

        # The lobby's "Your games" lists it too.
        other.goto(base + "/")
        other.wait_for_selector(f'#mine [data-id="{gid}"]')
        # Sign out: the header offers to sign in again and the account's tables are gone.
        other.goto(base + "/me")
        other.click("#account-signout")
        other.wait_for_selector("#account-open")
        assert httpx.get(f"{base}/api/account").json()["account"] is None
        assert errors == []
    finally:
        first.close()
        second.close()


def test_add_a_passkey_and_sign_in_with_it(browser, live_server):
    """Chromium's virtual authenticator (DevTools WebAuthn domain) holds the passkey. A
    passkey's relying party must be a host name, so the page is opened at localhost."""
    base = live_server.replace("127.0.0.1", "localhost")
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        cdp = ctx.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
            "hasUserVerification": True, "isUserVerified": True}})
        page.goto(base + "/u/Keyholder")
        r = page.evaluate("""async () => (await import('/static/js/api.js')).api(
            '/api/account/signup', {method: 'POST',
            body: {name: 'Keyholder', password: 'a long enough password'}})""")
        assert r["account"]["name"] == "Keyholder"
        page.reload()
        page.click("#add-passkey")
        page.wait_for_function(
            "() => document.querySelector('#passkey-note').innerText.includes('Passkey added')")
        page.click("#account-signout")
        page.wait_for_selector("#account-open")
        page.click("#account-open")
        page.click("#account-passkey")
        page.wait_for_selector("#account-me")
        assert page.locator("#account-me").inner_text() == "Keyholder"
        # Change the password on the own page; then sign out on every device.
        page.goto(base + "/u/Keyholder")
        page.click("#security summary")
        page.fill("#old-password", "a long enough password")
        page.fill("#new-password", "another long password")
        page.screenshot(path=str(ARTIFACTS / "accounts-own-profile.png"))
        page.click("#change-password")
        page.wait_for_function(
            "() => document.querySelector('#security-note').innerText.includes('changed')")
        page.click("#signout-everywhere")
        page.wait_for_selector("#account-open")
        page.click("#account-open")
        page.fill("#account-name", "Keyholder")
        page.fill("#account-password", "another long password")
        page.click("#account-signin")
        page.wait_for_selector("#account-me")
        assert errors == []
    finally:
        ctx.close()
