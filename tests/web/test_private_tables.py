"""Two friends play Shooting Star on a private table, each in their own browser: the invite
link seats the second; a third browser neither finds the table in the lobby nor takes the
seat. The log tells the first resolution in words (the captured planet by name), numbered
without gaps, and the board calls the players by the names the page uses."""

from __future__ import annotations

import re

import pytest

from nightsky.core.registry import load_game
from tests.web.conftest import ARGS, ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def seat_view(page, gid: str) -> dict:
    """This page's seat view, fetched with the page's own token."""
    return page.evaluate(
        """async (gid) => {
            const mine = JSON.parse(localStorage.getItem('nightsky.games'))[gid];
            const r = await fetch(`/api/games/${gid}/view`,
                                  {headers: {authorization: `Bearer ${mine.token}`}});
            return r.json();
        }""",
        gid,
    )


def take(page, action: str) -> None:
    """Click the choice ``action`` in the list, opening its group first when the list is
    long enough to come in folding groups (web/js/groups.js) and that group is closed."""
    inner = f'button.action[data-action="{action}"]'
    button = page.locator(f"#actions {inner}")
    group = page.locator("#actions details.choice-group", has=page.locator(inner))
    if group.count() and group.get_attribute("open") is None:
        group.locator("summary").click()
    button.click()


def capturing_move(view: dict) -> tuple[str, str, set[str]]:
    """A card and cell of seat 0 whose blast surely captures a planet (a Level 3 or Level 1
    planet in its blast), that planet's name, and the cells of the blast ("col,row"): seat 1
    then plays Priority 1 outside the blast, which fires last, so nothing stops it (a card on
    the planet itself would be destroyed in its place)."""
    game = load_game("shooting-star", players=2)
    g = game.new_initial_state().g
    cells = {g.cell_of(c["col"], c["row"]): c for c in view["view"]["cells"]}
    legal = {c["action"] for c in view["legal"]}
    for card in range(7, 0, -1):  # Priority 8 down to 2
        for cell, info in cells.items():
            action = f"P{card + 1}@{info['col']},{info['row']}"
            if action not in legal:
                continue
            for t in g.blast[card][cell]:
                hit = cells.get(t)
                if hit and hit["level"] in (1, 3) and not hit["dark"]:
                    blast = {
                        f"{cells[b]['col']},{cells[b]['row']}"
                        for b in g.blast[card][cell]
                        if b in cells
                    }
                    return action, hit["name"] or hit["planet"], blast
    raise AssertionError("no capturing move on this sector")


def test_two_friends_play_on_a_private_table_and_a_stranger_stays_out(browser, live_server):
    contexts = [browser.new_context(viewport={"width": 1400, "height": 950}) for _ in range(3)]
    alice, bob, stranger = (c.new_page() for c in contexts)
    errors: list[str] = []
    for p in (alice, bob, stranger):
        p.on("pageerror", lambda e: errors.append(str(e)))
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        # Alice creates a private table for two humans (the "open table" box stays unticked).
        alice.goto(live_server + "/")
        alice.click('.game-card[data-id="shooting-star"]')
        alice.fill("#players", "2")
        alice.dispatch_event("#players", "input")
        for i in range(2):
            alice.select_option(f'select[name="seat{i}"]', "human")
        alice.fill('input[name="name0"]', "Alice")
        alice.fill('input[name="name1"]', "Bob")
        assert not alice.is_checked("#listed")
        alice.click("#create")
        alice.wait_for_url(re.compile(r"/g/[0-9a-f]+$"))
        gid = alice.url.rstrip("/").split("/")[-1]
        alice.wait_for_selector("#conn.live")
        alice.wait_for_selector("#table-privacy")
        assert "Private table" in alice.inner_text("#invite-panel")
        link = alice.input_value("#invites input >> nth=0")
        assert f"/g/{gid}#invite=" in link
        assert alice.input_value("#own-link").startswith(f"{live_server}/g/{gid}#token=")
        alice.screenshot(path=str(ARTIFACTS / "private-table-creator.png"))

        # A stranger: the table is in no lobby list, and Join is refused for the seat.
        stranger.goto(live_server + "/")
        stranger.wait_for_selector("#lobby .empty, #lobby .lobby-item")
        assert stranger.locator(f'.lobby-item[data-id="{gid}"]').count() == 0
        refused = stranger.evaluate(
            """async (gid) => {
                const r = await fetch(`/api/games/${gid}/join`, {method: 'POST',
                    headers: {'content-type': 'application/json'}, body: '{"name": "Eve"}'});
                return {status: r.status, body: await r.json()};
            }""",
            gid,
        )
        assert refused["status"] == 403 and refused["body"]["error"]["code"] == "seat_reserved"
        stranger.screenshot(path=str(ARTIFACTS / "private-table-stranger-lobby.png"))

        # Bob's link seats him; Alice's page sees him arrive.
        bob.goto(link)
        bob.wait_for_function(
            "() => document.querySelector('#crumb').innerText.includes('you are Bob')"
        )
        alice.wait_for_function(
            "() => document.querySelector('#seats').innerText.includes('Bob')"
            " && !document.querySelector('#seats').innerText.includes('invited')"
        )
        # The stranger opening the game's address only watches.
        stranger.goto(f"{live_server}/g/{gid}")
        stranger.wait_for_function(
            "() => document.querySelector('#crumb').innerText.includes('spectator')"
        )
        assert stranger.locator("#actions button.action").count() == 0

        # Turn 1: Alice places a card that will capture; Bob plays Priority 1 (fires last).
        alice.wait_for_selector("#actions button.action")
        action, planet, blast = capturing_move(seat_view(alice, gid))
        take(alice, action)
        bob.wait_for_function(
            "() => document.querySelector('#log').innerText"
            ".includes('Alice placed a card face down')"
        )
        assert "Priority" not in bob.inner_text("#log")  # face down to Bob: no card named
        bob.wait_for_selector('#actions button.action[data-action^="P1@"]')
        away = next(
            a["action"]
            for a in seat_view(bob, gid)["legal"]
            if a["action"].startswith("P1@") and a["action"][3:] not in blast
        )
        take(bob, away)
        alice.wait_for_function(
            "() => document.querySelector('#log').innerText.includes('Turn 1 resolves')"
        )
        log = alice.inner_text("#log")
        # the planet as the board names it: "the Level 3 planet Halcyon", or "a Level 1 planet"
        said = r"Alice captured (the Level [13] planet \S+|a Level [13] planet) at "
        assert re.search(said, log), (planet, log)
        alice.screenshot(path=str(ARTIFACTS / "private-table-resolution.png"))
        bob.screenshot(path=str(ARTIFACTS / "private-table-resolution-bob.png"))

        for page in (alice, bob, stranger):
            page.wait_for_function(
                "() => document.querySelector('#log').innerText.includes('Turn 1 resolves')"
            )
            nums = page.eval_on_selector_all("#log .line .num", "els => els.map(e => e.innerText)")
            assert nums == [str(i) for i in range(1, len(nums) + 1)], nums
            # Every line keeps its notation as a tooltip.
            assert page.locator("#log .line[title='']").count() == 0
            # The board calls the players what the page calls them.
            board = page.eval_on_selector("#board svg", "e => e.textContent")
            assert "Alice \u00b7 " in board and "Bob \u00b7 " in board
            assert "Seat 0" not in board and "Seat 1" not in board
            panel = page.eval_on_selector_all("#seats .name", "els => els.map(e => e.innerText)")
            assert panel == ["Alice", "Bob"]
        # One colour per seat: the players panel's dot is the colour the board draws with.
        view = seat_view(alice, gid)
        svg = view["svg"]
        for s in view["seats"]:
            assert s["color"] in svg
            style = alice.get_attribute(f'#seats .seat[data-seat="{s["seat"]}"] .dot', "style")
            assert s["color"] in style
    finally:
        for c in contexts:
            c.close()
    assert not errors, errors


def test_args_are_shared_with_the_other_browser_tests() -> None:
    assert "--no-sandbox" in ARGS
