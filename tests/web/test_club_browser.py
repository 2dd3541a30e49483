"""The club in the browser (issue 53's check): two players sign up in two browser contexts,
befriend on the friends page, one invites the other by name to a rated Shooting Star table, the
other accepts the invitation from their games page; the moves are driven through the API (fast),
both end cards show both ratings changed, the leaderboard lists both, each profile's ratings
list the game, and the finished game's replay shows each viewer only their own view."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.server.club.helpers import play_seats
from tests.web.conftest import ARTIFACTS, _free_port

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def club_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server whose leaderboard lists a player after one rated game."""
    import uvicorn

    from nightsky.server import create_app
    from nightsky.server.settings import Settings

    db = tmp_path_factory.mktemp("club") / "games.sqlite3"
    port = _free_port()
    app = create_app(f"sqlite:///{db}", settings=Settings(
        leaderboard_min_games=1, rate_requests="100000/minute", bot_processes=0))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", ws="websockets-sansio"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def _signed_up(browser, base: str, name: str):  # type: ignore[no-untyped-def]
    """A browser context signed up as ``name`` from the lobby's account box."""
    ctx = browser.new_context(viewport={"width": 1300, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/")
    page.click("#account-open")
    page.fill("#account-name", name)
    page.fill("#account-password", "stars and more stars")
    page.click("#account-signup")
    page.wait_for_selector("#account-me")
    page.errors = errors  # type: ignore[attr-defined]
    return ctx, page


def _token(page, gid: str) -> str:  # type: ignore[no-untyped-def]
    return page.evaluate("(g) => JSON.parse(localStorage.getItem('nightsky.games'))[g].token", gid)


def test_friends_play_a_rated_game_and_both_ratings_change(browser, club_server):
    base = club_server
    ctx_a, ann = _signed_up(browser, base, "ann")
    ctx_b, bob = _signed_up(browser, base, "bob")
    # befriend by name: ann asks, bob accepts on his friends page
    ann.goto(base + "/friends")
    ann.fill("#add-name", "bob")
    ann.click("#add-form button[type=submit]")
    ann.wait_for_selector("#outgoing:has-text('bob')")
    bob.goto(base + "/friends")
    bob.click("[data-accept='ann']")
    bob.wait_for_selector("#friends .lobby-item:has-text('ann')")
    # ann opens a rated Shooting Star table and invites bob to it by name
    ann.reload()
    ann.wait_for_selector("#play-friend option[value='bob']", state="attached")
    ann.select_option("#play-game", "shooting-star")
    ann.check("#play-rated")
    ann.click("#play-go")
    ann.wait_for_url("**/g/*")
    gid = ann.url.rsplit("/", 1)[1]
    # bob sees the invitation on his games page and takes the seat, no link
    bob.goto(base + "/me")
    bob.click("#club-invitations [data-invite]")
    bob.wait_for_url(f"**/g/{gid}")
    tokens = [_token(ann, gid), _token(bob, gid)]
    with httpx.Client(base_url=base) as c:
        play_seats([(c, t) for t in tokens], gid, seed=53)
    lines = {}
    for who, page in (("ann", ann), ("bob", bob)):
        page.goto(f"{base}/g/{gid}")
        page.wait_for_selector("#rating-changes .rating-line")
        lines[who] = page.locator("#rating-changes .rating-line").all_inner_texts()
        page.screenshot(path=str(ARTIFACTS / f"club-end-{who}.png"))
    assert lines["ann"] == lines["bob"] and len(lines["ann"]) == 2
    for text in lines["ann"]:
        before, after = (int(x) for x in text.split("rating ")[1].split(" (")[0].split(" → "))
        assert before == 1500 and after != before  # both ratings changed
    # the leaderboard lists both, each profile's ratings name the game
    ann.goto(base + "/leaderboard/shooting-star")
    ann.wait_for_selector("#board tr[data-name='bob']")
    assert ann.locator("#board tr[data-name]").count() == 2
    ann.screenshot(path=str(ARTIFACTS / "club-leaderboard.png"))
    # both profiles show the game and its rating; the profile's replay shows each viewer
    # (by the account that plays the seat, no token) its own seat, a stranger the public view
    for page in (ann, bob):
        for name in ("ann", "bob"):
            prof = page.request.get(f"{base}/api/users/{name}").json()
            assert gid in [g["id"] for g in prof["recent"]]
            assert [r["games"] for r in prof["ratings"] if r["game"] == "shooting-star"] == [1]
    replay = f"{base}/api/games/{gid}/replay?step=3"
    assert ann.request.get(replay).json()["seat"] == 0
    assert bob.request.get(replay).json()["seat"] == 1
    assert httpx.get(replay).json()["seat"] is None
    bob.goto(f"{base}/u/ann")
    bob.wait_for_selector(f"a[href='/g/{gid}']", timeout=10000)
    bob.screenshot(path=str(ARTIFACTS / "club-profile.png"))
    assert ann.errors == [] and bob.errors == []  # type: ignore[attr-defined]
    ctx_a.close()
    ctx_b.close()


def test_a_tournament_page_opens_one_and_its_standings_update_live(browser, club_server):
    """The organiser opens a Swiss tournament from the page, three players enter through the
    API, the organiser enters and starts it on the page; as round 1's tables end (played
    through the API), the open page shows their results and the standings without a reload."""
    from tests.server.club.tournament_script import play_table, round_tables, sign_up

    base = club_server
    ctx, vega = _signed_up(browser, base, "vega")
    vega.goto(base + "/tournaments")
    vega.fill("#t-name", "Friday stars")
    vega.select_option("#t-game", "shooting-star")
    vega.click("#new-form button[type=submit]")
    vega.wait_for_url("**/tournaments/*")
    tid = int(vega.url.rsplit("/", 1)[1])
    clients: list[httpx.Client] = []

    def make() -> httpx.Client:
        clients.append(httpx.Client(base_url=base, timeout=30))
        return clients[-1]

    players = sign_up(make, ["lyra", "deneb", "altair"])
    for c in players.values():
        assert c.post(f"/api/tournaments/{tid}/enter").status_code == 200
    vega.reload()
    vega.click("#t-enter")
    vega.wait_for_selector("#standings tr[data-name='vega']")
    vega.click("#t-start")
    vega.wait_for_selector("#rounds [data-play]")  # vega's own table: Play
    # vega's seats are played from her browser's cookie through the API
    me = make()
    me.cookies.update({c["name"]: c["value"] for c in ctx.cookies()})
    me.headers["X-CSRF-Token"] = vega.evaluate("localStorage.getItem('nightsky.csrf')")
    players["vega"] = me
    t = me.get(f"/api/tournaments/{tid}").json()
    for k, table in enumerate(round_tables(t, 1)):
        play_table(players, table["game_id"], table["players"], seed=k)
    vega.wait_for_selector("#rounds h3:has-text('Round 2')", timeout=15000)
    vega.wait_for_selector("#standings tr[data-name] td:has-text('1')")
    points = {row.get_attribute("data-name"): row.locator("td").nth(2).inner_text()
              for row in vega.locator("#standings tr[data-name]").all()}
    assert sorted(points.values()) == ["0", "0", "1", "1"]
    vega.screenshot(path=str(ARTIFACTS / "club-tournament.png"), full_page=True)
    assert vega.errors == []  # type: ignore[attr-defined]
    for c in clients:
        c.close()
    ctx.close()
