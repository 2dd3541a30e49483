"""One complete game of each title played through the page against a bot, in Chromium.

The human seat clicks the listed legal actions for its first turns, then switches on the page's
"Autoplay for me" (a random legal action each turn, still through the page and the HTTP API)
until the end screen shows; screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re

import pytest

from nightsky.core.registry import packaged_game_ids
from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REAL_GAMES = packaged_game_ids()
GAME_OPTIONS = {"stars-are-right": {"max_rounds": "60"}}
"""Options that keep a random game short: random players never reach The Stars Are Right's
goal, so its games would run to the 1000-round safeguard (TSAR-10.3)."""


def new_game(page, game_id: str, seats: list[str], options: dict[str, str] | None = None):
    page.goto(page.base + "/")
    page.click(f'.game-card[data-id="{game_id}"]')
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "input")
    if any(spec not in ("human", "easy", "medium", "hard", "expert") for spec in seats):
        page.click("#advanced > summary")  # the engine's agents by name
        page.wait_for_selector('select[name="seat0"] optgroup[label="Engine agents (advanced)"]',
                               state="attached")
    for i, spec in enumerate(seats):
        page.select_option(f'select[name="seat{i}"]', spec)
    for key, value in (options or {}).items():
        page.fill(f"#opt-{key}", value)
    page.click("#create")
    page.wait_for_url(re.compile(r"/g/[0-9a-f]+$"))
    page.wait_for_selector(".seat")


def my_legal(page) -> list[dict]:
    """The legal choices of this page's seat, fetched from the API with the page's own token."""
    import httpx

    gid = page.url.rstrip("/").split("/")[-1]
    token = page.evaluate(
        f"() => JSON.parse(localStorage.getItem('nightsky.games'))['{gid}'].token"
    )
    r = httpx.get(f"{page.base}/api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"})
    return r.json()["legal"]


def board_click(page, target_id: str) -> None:
    """A real mouse click on one target of the board's SVG (ids may hold dots, commas, colons)."""
    page.locator("#board svg").locator(f'[id="{target_id}"]').first.click(timeout=5_000)


def act_on_the_board(page, game_id: str) -> bool:
    """Take one action by clicking the SVG board: a target, then (when several choices share
    it) a further glowing target or the menu. Checks the posted action names every clicked
    target. False when no glowing target is offered (the choice has none, e.g. "end")."""
    try:
        page.wait_for_selector("#board svg .ns-target", timeout=10_000)
    except Exception:
        return False
    legal = my_legal(page)
    ids = page.eval_on_selector_all("#board svg .ns-target", "els => els.map(e => e.id)")
    if not legal or not ids:
        return False
    # Prefer a target several choices share: it exercises the narrowing.
    shared = [t for t in ids if sum(t in c["targets"] for c in legal) > 1]
    first = (shared or ids)[0]
    clicked = [first]
    start = len(page.moves)  # every move the page sends (socket or POST): conftest
    try:
        board_click(page, first)
        for _ in range(6):
            page.wait_for_timeout(250)
            if page.moves[start:]:
                break
            if page.is_visible("#menu"):
                page.screenshot(path=str(ARTIFACTS / f"{game_id}-board-menu.png"))
                page.click("#menu button[data-action] >> nth=0")
                continue
            page.screenshot(path=str(ARTIFACTS / f"{game_id}-board-narrowed.png"))
            nxt = page.eval_on_selector_all("#board svg .ns-target", "els => els.map(e => e.id)")
            assert page.locator("#board svg .ns-picked").count() and nxt, (
                "a board click did nothing"
            )
            clicked.append(nxt[0])
            board_click(page, nxt[0])
        page.wait_for_timeout(100)
    finally:
        posts = page.moves[start:]
    assert len(posts) == 1, posts
    posted = posts[0]["action"]
    choice = next(c for c in legal if c["action"] == posted)
    assert set(clicked) <= set(choice["targets"]), (clicked, choice)
    return True


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_play_a_complete_game_in_the_browser(page, game_id):
    new_game(page, game_id, ["human", "random"], GAME_OPTIONS.get(game_id))
    page.wait_for_selector("#conn.live")
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-start.png"))
    # The legal targets glow on the real board; clicks on it take the matching action.
    on_board = 0
    for _ in range(2):
        before = page.inner_text("#log")
        if not act_on_the_board(page, game_id):
            break
        on_board += 1
        page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    assert on_board >= 1, "no action could be taken by clicking the board"
    page.wait_for_selector("#board svg .ns-target, #end:not([hidden])", timeout=15_000)
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-board.png"))
    clicked = 0
    for _ in range(1):  # a real click on a listed choice
        page.wait_for_selector("#actions button.action, #end:not([hidden])", timeout=15_000)
        if page.is_visible("#end"):
            break
        before = page.inner_text("#log")
        page.click("#actions button.action >> nth=0")
        page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
        clicked += 1
    assert clicked >= 1
    page.check("#autoplay")
    page.wait_for_timeout(1500)
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-midgame.png"))
    page.wait_for_selector("#endcard", timeout=90_000)
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-end.png"))
    rows = page.locator(".breakdown tr")
    assert rows.count() == 3  # header + two seats
    assert page.locator(".breakdown tr.win").count() >= 1
    # Step through the replay.
    page.click("#replay-btn")
    page.wait_for_selector("#replaybar")
    page.click("#rp-next")
    page.click("#rp-next")
    page.wait_for_function(
        "() => /Replay · step [1-9]/.test(document.querySelector('#banner').innerText)"
    )
    page.screenshot(path=str(ARTIFACTS / f"{game_id}-replay.png"))


def test_board_svg_targets_are_highlighted_and_clicks_take_actions(page):
    """The toy game's SVG: legal targets glow; a target two actions share is picked and a
    second click on a target that tells them apart decides."""
    new_game(page, "toy-secret-sum", ["human", "random"])
    page.wait_for_selector("#board svg .ns-target")
    ids = sorted(page.eval_on_selector_all(".ns-target", "els => els.map(e => e.id)"))
    assert ids == ["card0", "card1", "deck", "keep"]
    page.screenshot(path=str(ARTIFACTS / "toy-board-svg.png"))
    before = page.inner_text("#log")
    page.click("#board svg #keep")  # one action on this target: taken at once
    page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    assert page.locator('#log .line[title="keep"]').count() >= 1  # the notation, on hover
    assert "Player 1 kept" in page.inner_text("#log")
    page.wait_for_selector("#board svg .ns-target")  # our turn again, after the bot
    # Two swaps share the deck: the click picks it, the list narrows to them and only the
    # cards that tell them apart still glow; Escape forgets the pick.
    page.click("#board svg #deck")
    page.wait_for_selector("#board svg #deck.ns-picked")
    assert not page.is_visible("#menu")
    assert page.locator("#actions button.action").count() == 2
    assert page.text_content("#actions-title").endswith("(2 of 3)")  # the count follows the pick
    ids = sorted(page.eval_on_selector_all(".ns-target", "els => els.map(e => e.id)"))
    assert ids == ["card0", "card1"]
    page.screenshot(path=str(ARTIFACTS / "toy-narrowed.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#board svg #keep.ns-target")
    assert page.locator("#board svg .ns-picked").count() == 0
    page.click("#board svg #deck")
    page.click("#board svg #card1")  # the second click decides
    page.wait_for_selector("#endcard", timeout=15_000)
    assert "swap1" in page.inner_text("#log")


def test_lobby_join_takes_the_free_seat_and_spectators_watch(page):
    import httpx

    made = httpx.post(
        page.base + "/api/games",
        json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"], "listed": True},
    ).json()
    page.goto(page.base + "/")
    item = page.locator(f'.lobby-item[data-id="{made["id"]}"]')
    item.locator("button", has_text="Join").click()
    page.fill('input[aria-label="your name"]', "Rigel")
    page.click("text=Take seat")
    page.wait_for_url(f"**/g/{made['id']}")
    page.wait_for_selector(".seat.me")
    assert "Rigel" in page.inner_text(".seat.me")
    page.wait_for_function(
        "() => document.querySelector('#crumb').innerText.includes('you are Rigel')"
    )
    # A bot-only table seen without a token: the spectator view, played to its end.
    bots = httpx.post(
        page.base + "/api/games",
        json={"game": "toy-secret-sum", "players": 2, "seats": ["random", "greedy"]},
    ).json()
    page.goto(f"{page.base}/g/{bots['id']}")
    page.wait_for_selector("#endcard")
    page.wait_for_function("() => document.querySelector('#crumb').innerText.includes('spectator')")
    page.screenshot(path=str(ARTIFACTS / "toy-spectator-end.png"))


def test_a_choice_that_ends_on_a_shared_target_is_offered_in_a_menu(page):
    """The Stars Are Right, first step: "invoke X" and "discard X" both name only the card X
    in hand, so a click on that card cannot decide: a menu offers both."""
    new_game(page, "stars-are-right", ["human", "random"])
    page.wait_for_selector("#board svg .ns-target")
    legal = my_legal(page)
    card, both = next(
        (t, sharing)
        for c in legal
        for t in c["targets"]
        if len(sharing := [d for d in legal if t in d["targets"]]) > 1
        and any(d["targets"] == [t] for d in sharing)
    )
    board_click(page, card)
    page.wait_for_selector("#menu")
    offered = page.eval_on_selector_all(
        "#menu button[data-action]", "els => els.map(e => e.dataset.action)"
    )
    assert sorted(offered) == sorted(d["action"] for d in both)
    page.screenshot(path=str(ARTIFACTS / "stars-are-right-menu.png"))
    before = page.inner_text("#log")
    page.click(f'#menu button[data-action="{offered[-1]}"]')
    page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)


def test_a_pick_on_the_board_survives_a_redraw(page):
    """A push that redraws the board (here: a friend takes the free seat) keeps a half-made
    board choice: the picked target and the narrowed list stay, and the second click decides."""
    import httpx

    made = httpx.post(
        page.base + "/api/games",
        json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"], "listed": True},
    ).json()
    page.goto(made["tokens"][0]["invite"])
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#board svg #deck.ns-target")
    page.click("#board svg #deck")
    page.wait_for_selector("#board svg #deck.ns-picked")
    r = httpx.post(f"{page.base}/api/games/{made['id']}/join", json={"name": "Vega"})
    assert r.status_code == 200, r.text
    page.wait_for_function("() => document.querySelector('#seats').innerText.includes('Vega')")
    assert page.locator("#board svg #deck.ns-picked").count() == 1
    assert page.locator("#actions button.action").count() == 2
    before = page.inner_text("#log")
    page.click("#board svg #card0")
    page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    assert "swap0" in page.inner_text("#log")


def test_an_invite_link_claims_its_seat_once_and_the_creator_plays_hot_seat(page):
    import httpx

    made = httpx.post(
        page.base + "/api/games",
        json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"]},
    ).json()
    link = made["invites"][0]["invite"]
    page.goto(link)
    page.wait_for_selector("#conn.live")
    # The crumb is filled from the first state message, which may land after "live".
    page.wait_for_function(
        "() => document.querySelector('#crumb').innerText.includes('you are Player 2')"
    )
    assert "#invite" not in page.url  # the code leaves the address bar
    # The same link again (another browser): spent, so it only watches.
    page.evaluate("localStorage.clear()")
    page.goto("about:blank")  # a real load, not a jump within the same page
    page.goto(link)
    page.wait_for_function("() => document.querySelector('#crumb').innerText.includes('spectator')")
    held = page.evaluate("JSON.parse(localStorage.getItem('nightsky.games') || '{}')")
    assert not held.get(made["id"], {}).get("token")
    # The creator's page, from the lobby's form: a second seat claimed here, then played.
    page.evaluate("localStorage.clear()")
    page.goto(page.base + "/")
    page.wait_for_selector(".game-card")
    page.click('.game-card[data-id="toy-secret-sum"]')
    selects = page.locator("#seats select")
    for i in range(selects.count()):
        selects.nth(i).select_option("human")
    page.click("#create")
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("[data-claim]")
    page.click("[data-claim]")
    page.wait_for_selector("#invites [data-seat]")
    page.click("#invites [data-seat]")
    page.wait_for_function("() => document.querySelector('#crumb').innerText.includes('Player 2')")


def test_the_seat_picker_offers_bots_by_level_and_agents_under_advanced(page):
    from nightsky.core.registry import game_class

    page.goto(page.base + "/")
    page.click('.game-card[data-id="star-fire"]')
    levels = game_class("star-fire").info.levels
    options = page.eval_on_selector_all(
        'select[name="seat1"] option', "els => els.map(e => [e.value, e.textContent])")
    assert options == [["human", "Human player"]] + [
        [lvl.name, f"{lvl.name.capitalize()} bot"] for lvl in levels]
    assert page.input_value('select[name="seat1"]') == "medium"
    # The chosen level's line: what to expect, and the game's measured strength.
    note = page.inner_text("#seat-note1")
    medium = next(lvl for lvl in levels if lvl.name == "medium")
    assert note.startswith("Medium: ") and medium.strength in note
    page.select_option('select[name="seat1"]', "expert")
    assert page.inner_text("#seat-note1").startswith("Expert: ")
    assert page.is_hidden("#seat-note0")  # a human seat has no line
    # The engine's agents only under "Advanced"; the levels chosen stay chosen.
    assert page.locator('select[name="seat1"] option[value="greedy"]').count() == 0
    page.click("#advanced > summary")
    page.wait_for_selector('select[name="seat1"] option[value="greedy"]', state="attached")
    assert page.input_value('select[name="seat1"]') == "expert"
    page.screenshot(path=str(ARTIFACTS / "lobby-levels.png"))


def test_a_move_goes_over_the_live_socket_and_over_http_without_one(page):
    """With its socket live the page sends a move as an `act` message on it (no request); with
    the socket down it posts the move instead."""
    down = {"now": False}
    routes = []

    def socket_route(ws):  # type: ignore[no-untyped-def]
        if down["now"]:
            ws.close()
            return
        routes.append(ws)
        ws.connect_to_server()  # both ways forwarded as they are

    page.route_web_socket(re.compile(r".*/api/games/[0-9a-f]+/ws$"), socket_route)
    new_game(page, "toy-secret-sum", ["human", "random"])
    page.wait_for_selector("#conn.live")
    page.wait_for_selector("#board svg #keep.ns-target")
    start = len(page.moves)
    before = page.inner_text("#log")
    page.click("#board svg #keep")
    page.wait_for_function("b => document.querySelector('#log').innerText !== b", arg=before)
    assert [(m["action"], m["via"]) for m in page.moves[start:]] == [("keep", "socket")]
    assert page.evaluate("document.body.dataset.lastMove") == "socket"
    page.wait_for_selector("#board svg #deck.ns-target")  # the bot answered: our turn again
    down["now"] = True
    routes[-1].close()
    page.wait_for_selector("#conn:not(.live)")
    start = len(page.moves)
    page.click("#board svg #deck")
    page.click("#board svg #card1")
    page.wait_for_selector("#endcard", timeout=15_000)
    assert [m["via"] for m in page.moves[start:]] == ["http"]
    assert page.evaluate("document.body.dataset.lastMove") == "http"
