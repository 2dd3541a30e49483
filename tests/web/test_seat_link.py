"""A seat link changes hands once (issue 52): the first browser to open ``/g/ID#token=...``
gets a fresh token and the link's token is retired; a second browser opening the same link is
told it no longer works, and the table's log says the seat moved, in words."""

from __future__ import annotations

import httpx
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _token(page, gid: str) -> str | None:
    return page.evaluate(
        "(gid) => (JSON.parse(localStorage.getItem('nightsky.games') || '{}')[gid] || {}).token",
        gid,
    )


def test_a_seat_link_opened_in_two_browsers_seats_only_the_first(browser, live_server):
    made = httpx.post(
        f"{live_server}/api/games",
        json={"game": "shooting-star", "players": 2, "seats": ["human", "human"]},
    ).json()
    gid, link_token = made["id"], made["tokens"][0]["token"]
    first, second = (browser.new_context().new_page() for _ in range(2))
    first.goto(f"{live_server}/g/{gid}#token={link_token}")
    first.wait_for_function(
        "(gid) => (JSON.parse(localStorage.getItem('nightsky.games') || '{}')[gid] || {}).token",
        arg=gid,
    )
    fresh = _token(first, gid)
    assert fresh and fresh != link_token
    # The link's token is retired: the API refuses it, the fresh one reads the seat.
    old = httpx.get(f"{live_server}/api/games/{gid}/view",
                    headers={"Authorization": f"Bearer {link_token}"})
    assert old.status_code == 401 and old.json()["error"]["code"] == "bad_token"
    view = httpx.get(f"{live_server}/api/games/{gid}/view",
                     headers={"Authorization": f"Bearer {fresh}"}).json()
    assert view["seat"] == 0
    # The second browser opening the same link gets no seat, and is told why.
    second.goto(f"{live_server}/g/{gid}#token={link_token}")
    second.wait_for_selector("text=no longer works")
    assert not _token(second, gid)
    # Everyone else reads in the table's notices that the seat moved (the first browser,
    # which took it, is not told of itself).
    watcher = browser.new_context().new_page()
    watcher.goto(f"{live_server}/g/{gid}")
    watcher.wait_for_selector("#notices >> text=took seat 1 on a new device")
    assert first.locator("#notices >> text=took seat 1 on a new device").count() == 0
