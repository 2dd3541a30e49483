"""Clocks (realtime, turnbased, untimed), stand-in bots on timeout or away, forfeit, restarts.

Time comes from a fake clock put on the manager (``Manager.clock``) and deadlines fire on
``Manager.tick()``: no test here sleeps for a deadline, except the issue's own check at the end
(a 2-second turn on the real clock)."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from nightsky.server import create_app
from nightsky.server.clocks import REALTIME_GRACE, TableClock
from tests.server.conftest import auth, create, seat_tokens, settle

T0 = 1_900_000_000.0


class FakeClock:
    """The server's time, moved by hand."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def timed_app(db_url: str, fake: FakeClock, **kwargs: Any) -> Any:
    app = create_app(db_url, **kwargs)
    mgr = app.state.manager
    mgr.clock = fake
    mgr.driver.interval = 0  # no driver thread: the test fires deadlines with tick()
    return app


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock()


@pytest.fixture
def tc(db_url: str, fake: FakeClock) -> Iterator[TestClient]:
    with TestClient(timed_app(db_url, fake)) as c:
        yield c


def mgr(c: TestClient) -> Any:
    return c.app.state.manager  # type: ignore[attr-defined]


def view(c: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/games/{gid}/view", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def act(c: TestClient, gid: str, token: str, action: str | None = None) -> Any:
    v = view(c, gid, token)
    return c.post(
        f"/api/games/{gid}/actions",
        headers=auth(token),
        json={"action": action or v["legal"][0]["action"], "version": v["version"]},
    )


def clock_of(v: dict[str, Any], seat: int) -> dict[str, Any]:
    return v["clocks"]["seats"][seat]


def same_time(iso: str | None, t: float) -> bool:
    assert iso is not None
    return abs(datetime.fromisoformat(iso).timestamp() - t) < 1e-3


def test_a_table_without_a_clock_is_untimed_as_before(tc):
    made = create(tc, "toy-secret-sum", ["human", "greedy"], seed=1)
    v = view(tc, made["id"], made["tokens"][0]["token"])
    assert v["clocks"]["mode"] == "untimed"
    assert all(not s["running"] and s["deadline"] is None for s in v["clocks"]["seats"])
    assert [s["timed"] for s in v["clocks"]["seats"]] == [False, False]


def test_realtime_bank_runs_while_to_act_and_gains_the_increment(tc, fake):
    clock = {"mode": "realtime", "bank_seconds": 60, "increment_seconds": 5}
    made = create(tc, "toy-secret-sum", ["human", "human"], clock=clock)
    gid = made["id"]
    t0, t1 = seat_tokens(tc, made).values()
    v = view(tc, gid, t0)
    c0, c1 = clock_of(v, 0), clock_of(v, 1)
    assert c0["running"] and c0["seconds_left"] == 60 and same_time(c0["deadline"], T0 + 60)
    assert not c1["running"] and c1["seconds_left"] == 60 and c1["deadline"] is None
    fake.advance(10)
    assert act(tc, gid, t0).status_code == 200
    v = view(tc, gid, t1)
    c0, c1 = clock_of(v, 0), clock_of(v, 1)
    assert not c0["running"] and c0["seconds_left"] == pytest.approx(55)  # 60 - 10 + 5
    assert c1["running"] and same_time(c1["since"], T0 + 10)
    assert same_time(c1["deadline"], T0 + 70)
    fake.advance(59)
    assert mgr(tc).tick() == 0  # one second left: nothing fires
    assert view(tc, gid)["clocks"]["seats"][1]["standin"] is None


def test_turnbased_deadline_then_a_bot_stands_in_and_a_legal_move_takes_the_seat_back(
    tc, fake, monkeypatch
):
    made = create(
        tc,
        "toy-secret-sum",
        ["human", "human"],
        clock={"mode": "turnbased", "move_seconds": 3600, "on_timeout": "bot:greedy"},
    )
    gid = made["id"]
    t0, t1 = seat_tokens(tc, made).values()
    assert same_time(clock_of(view(tc, gid), 0)["deadline"], T0 + 3600)
    fake.advance(3599)
    assert mgr(tc).tick() == 0
    fake.advance(2)
    assert mgr(tc).tick() == 1
    settle(tc, gid)
    v = view(tc, gid, t1)
    assert clock_of(v, 0)["standin"] == "timeout" and clock_of(v, 0)["seconds_left"] == 0
    assert v["current_players"] == [1] and clock_of(v, 1)["running"]
    assert same_time(clock_of(v, 1)["deadline"], T0 + 3601 + 3600)
    mine = [x for x in v["log"] if x["seat"] == 0]
    assert mine and mine[-1]["by"] == "bot"
    assert any("time ran out" in n["text"] for n in v["notices"])
    # Seat 1's turn fresh: its clock started when seat 0's bot moved.
    # Hold the stand-in back (as if it were still thinking) while seat 0 returns.
    monkeypatch.setattr(mgr(tc).bots, "kick", lambda room: None)
    assert act(tc, gid, t1).status_code == 200
    v = view(tc, gid, t0)
    assert v["current_players"] == [0] and clock_of(v, 0)["standin"] == "timeout"
    # An illegal move does not take the seat back; a legal one does.
    r = tc.post(
        f"/api/games/{gid}/actions", headers=auth(t0), json={"action": "fly", "version": 99}
    )
    assert r.status_code in (409, 422)
    assert clock_of(view(tc, gid), 0)["standin"] == "timeout"
    assert act(tc, gid, t0).status_code == 200
    v = view(tc, gid, t0)
    assert clock_of(v, 0)["standin"] is None
    assert "by" not in [x for x in v["log"] if x["seat"] == 0][-1]


def test_away_hands_the_seat_to_the_bot_and_back_returns_it(tc, fake):
    made = create(tc, "toy-secret-sum", ["human", "human"], clock={"mode": "untimed"})
    gid = made["id"]
    t0, t1 = seat_tokens(tc, made).values()
    r = tc.post(f"/api/games/{gid}/away", headers=auth(t0), json={"away": True})
    assert r.status_code == 200, r.text
    settle(tc, gid)
    v = view(tc, gid, t0)
    assert clock_of(v, 0)["standin"] == "away" and v["current_players"] == [1]
    assert [x for x in v["log"] if x["seat"] == 0][-1]["by"] == "bot"
    r = tc.post(f"/api/games/{gid}/away", headers=auth(t0), json={"away": False})
    assert r.status_code == 200 and clock_of(r.json(), 0)["standin"] is None
    assert act(tc, gid, t1).status_code == 200
    settle(tc, gid)
    assert view(tc, gid)["current_players"] == [0]  # seat 0 plays itself again
    # The endpoint wants the seat's own token and a well-formed body.
    assert tc.post(f"/api/games/{gid}/away", json={"away": True}).status_code == 401
    bad = tc.post(f"/api/games/{gid}/away", headers=auth(t0), json={"away": "maybe"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "away"


def test_forfeit_falls_back_to_a_bot_where_the_game_cannot_drop_a_seat(tc, fake):
    made = create(
        tc,
        "toy-secret-sum",
        ["human", "human"],
        clock={"mode": "turnbased", "move_seconds": 60, "on_timeout": "forfeit"},
    )
    gid = made["id"]
    fake.advance(61)
    assert mgr(tc).tick() == 1
    settle(tc, gid)
    v = view(tc, gid)
    assert clock_of(v, 0)["standin"] == "timeout" and not clock_of(v, 0)["forfeited"]
    assert [x for x in v["log"] if x["seat"] == 0][-1]["by"] == "bot"
    assert "greedy bot plays the seat" in v["notices"][-1]["text"]


def test_forfeit_plays_the_games_resign_action_where_it_has_one(tc, fake, monkeypatch):
    from tests.support.toygame import ToyGame

    # A game that can drop a seat names the action (here the toy's "keep" stands for it).
    monkeypatch.setattr(ToyGame, "resign_action", lambda self, st, seat: self.parse_action("keep"))
    made = create(
        tc,
        "toy-secret-sum",
        ["human", "human"],
        clock={"mode": "turnbased", "move_seconds": 60, "on_timeout": "forfeit"},
    )
    gid = made["id"]
    fake.advance(61)
    assert mgr(tc).tick() == 1
    v = view(tc, gid)
    assert clock_of(v, 0)["forfeited"] and v["current_players"] == [1]
    last = [x for x in v["log"] if x["seat"] == 0][-1]
    assert last["by"] == "forfeit" and last["notation"] == "keep"


def test_simultaneous_turns_run_every_clock_still_to_act(tc, fake):
    clock = {"mode": "realtime", "bank_seconds": 300, "increment_seconds": 0}
    made = create(tc, "mihi-anguli", ["human", "human"], clock=clock)
    gid = made["id"]
    tokens = seat_tokens(tc, made)
    v = view(tc, gid)
    assert v["current_players"] == [0, 1]
    assert all(clock_of(v, s)["running"] for s in (0, 1))
    rng = random.Random(3)
    spent = {0: 0.0, 1: 0.0}
    for _ in range(12):
        v = view(tc, gid)
        if v["terminal"]:
            break
        fake.advance(7)
        for s in v["current_players"]:
            spent[s] += 7
        seat = rng.choice(v["current_players"])
        mine = view(tc, gid, tokens[seat])
        choice = rng.choice(mine["legal"])["action"]
        assert act(tc, gid, tokens[seat], choice).status_code == 200
        v = view(tc, gid)
        for s in (0, 1):
            c = clock_of(v, s)
            assert c["running"] == (s in v["current_players"])
            left = c["seconds_left"]
            if c["running"]:  # the time it had when it started this turn
                left -= fake.t - datetime.fromisoformat(c["since"]).timestamp()
            assert left == pytest.approx(300 - spent[s])


@pytest.mark.parametrize(
    ("clock", "field"),
    [
        ({"mode": "blitz"}, "clock.mode"),
        ({"mode": "realtime", "bank_seconds": -1}, "clock.bank_seconds"),
        ({"mode": "realtime", "bank_seconds": 0}, "clock.bank_seconds"),
        ({"mode": "realtime", "bank_seconds": "lots"}, "clock.bank_seconds"),
        ({"mode": "realtime", "increment_seconds": -5}, "clock.increment_seconds"),
        ({"mode": "realtime", "move_seconds": 60}, "clock.move_seconds"),
        ({"mode": "turnbased", "bank_seconds": 60}, "clock.bank_seconds"),
        ({"mode": "turnbased", "move_seconds": 1e12}, "clock.move_seconds"),
        ({"mode": "untimed", "move_seconds": 60}, "clock.move_seconds"),
        ({"mode": "turnbased", "on_timeout": "resign"}, "clock.on_timeout"),
        ({"mode": "turnbased", "on_timeout": "bot:nosuchagent"}, "clock.on_timeout"),
        ({"mode": "turnbased", "on_timeout": "bot:greedy:cheat=true"}, "clock.on_timeout"),
        ({"mode": "turnbased", "tick": 1}, "clock.tick"),
    ],
)
def test_bad_clocks_are_refused_naming_the_field_and_change_nothing(tc, clock, field):
    before = mgr(tc).store.count_playing()
    r = tc.post(
        "/api/games",
        json={"game": "toy-secret-sum", "players": 2, "seats": ["human", "human"],
              "clock": clock},
    )
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == field, r.json()
    assert field in r.json()["error"]["message"]
    assert mgr(tc).store.count_playing() == before


def test_clocks_survive_a_restart_and_the_time_down_is_not_charged(db_url, fake):
    clock = {"mode": "realtime", "bank_seconds": 100, "increment_seconds": 2}
    with TestClient(timed_app(db_url, fake)) as c:
        made = create(c, "toy-secret-sum", ["human", "human"], clock=clock)
        gid = made["id"]
        t0, t1 = seat_tokens(c, made).values()
        fake.advance(30)
        assert act(c, gid, t0).status_code == 200  # seat 0: 100 - 30 + 2
        before = view(c, gid)["clocks"]
    fake.advance(5000)  # the server is down for well over any bank
    with TestClient(timed_app(db_url, fake)) as c:
        mgr(c).tick()  # the stored deadline passed while the server was down: loaded...
        after = view(c, gid)["clocks"]  # ... and no timeout
        assert clock_of({"clocks": after}, 0) == clock_of({"clocks": before}, 0)
        c1 = clock_of({"clocks": after}, 1)
        assert c1["running"] and c1["seconds_left"] == 100 and c1["standin"] is None
        assert same_time(c1["since"], fake.t)  # runs again from the restart
        fake.advance(20)
        assert act(c, gid, t1).status_code == 200
        assert clock_of(view(c, gid), 1)["seconds_left"] == pytest.approx(82)  # 100 - 20 + 2
        fake.advance(73)
        assert mgr(c).tick() == 1  # seat 0's bank (72) ran out after the restart
        settle(c, gid)
        assert clock_of(view(c, gid), 0)["standin"] == "timeout"


def test_a_deadline_fires_for_a_table_no_longer_in_memory(db_url, fake):
    with TestClient(timed_app(db_url, fake)) as c:
        made = create(
            c, "toy-secret-sum", ["human", "greedy"], clock={"mode": "turnbased",
                                                            "move_seconds": 600}
        )
        gid = made["id"]
        m = mgr(c)
        with m._rooms_lock:
            assert m._evict(m.rooms[gid])
        assert gid not in m.rooms
        fake.advance(601)
        assert m.tick() == 1 and gid in m.rooms
        settle(c, gid)
        v = view(c, gid)
        assert [x for x in v["log"] if x["seat"] == 0][0]["by"] == "bot"


def test_clocks_show_nothing_hidden(tc, fake):
    """Every viewer gets the same clocks, and they are a function of public facts: the
    times and who is to act, which a seat's resample keeps."""
    clock = {"mode": "realtime", "bank_seconds": 500, "increment_seconds": 3}
    made = create(tc, "toy-secret-sum", ["human", "human", "human"], clock=clock)
    gid = made["id"]
    tokens = seat_tokens(tc, made)
    rng = random.Random(5)
    room = mgr(tc).get(gid)
    while not room.state.is_terminal():
        fake.advance(rng.randint(1, 50))
        seat = room.state.current_players()[0]
        assert act(tc, gid, tokens[seat]).status_code == 200
        views = [view(tc, gid, tokens[s])["clocks"] for s in tokens] + [view(tc, gid)["clocks"]]
        assert all(v == views[0] for v in views)
        for s in tokens:
            other = room.state.resample(s, rng)
            assert other.current_players() == room.state.current_players()
        copy = TableClock.from_row(room.clock.row(), [0, 1, 2])
        copy.sync(fake.t, set(room.state.resample(0, rng).current_players()), False)
        assert copy.public(3) == views[0]


def test_realtime_seat_back_from_a_timeout_gets_a_grace(tc, fake, monkeypatch):
    clock = {"mode": "realtime", "bank_seconds": 30}
    made = create(tc, "toy-secret-sum", ["human", "human"], clock=clock)
    gid = made["id"]
    t0, _ = seat_tokens(tc, made).values()
    monkeypatch.setattr(mgr(tc).bots, "kick", lambda room: None)
    fake.advance(31)
    assert mgr(tc).tick() == 1
    r = tc.post(f"/api/games/{gid}/away", headers=auth(t0), json={"away": False})
    c0 = clock_of(r.json(), 0)
    assert c0["standin"] is None and c0["running"]
    assert c0["seconds_left"] == min(REALTIME_GRACE, 30)


@pytest.mark.slow
def test_issue_20_check_a_timed_out_seat_is_played_by_the_bot_then_taken_back(db_url):
    """The issue's check, on the real clock: a 2-seat Shooting Star table, seat 0 human on a
    2-second turn-based clock with a greedy stand-in, seat 1 greedy. Without a request from
    seat 0 the game moves on within 10 s and the log marks seat 0's moves as the bot's; then
    seat 0 posts a legal move with its token and plays its seat again."""
    # The bots move every 0.3 s (`nightsky serve --bot-delay`), so people can follow.
    with TestClient(create_app(db_url, bot_delay=0.3)) as c:
        made = create(
            c,
            "shooting-star",
            ["human", "greedy"],
            clock={"mode": "turnbased", "move_seconds": 2, "on_timeout": "bot:greedy"},
        )
        gid, token = made["id"], made["tokens"][0]["token"]
        start = view(c, gid)
        end = time.monotonic() + 10
        by_bot: list[dict[str, Any]] = []
        while time.monotonic() < end and not by_bot:
            time.sleep(0.2)
            v = view(c, gid)  # a spectator looks: no request from seat 0
            by_bot = [x for x in v["log"] if x["seat"] == 0 and x.get("by") == "bot"]
        assert by_bot, "seat 0's turn did not time out into a bot move"
        assert v["version"] > start["version"] and not v["terminal"]
        # Seat 0 comes back: a legal move with its token (the bots may move meanwhile: look
        # again on a stale version).
        end = time.monotonic() + 20
        done = None
        while time.monotonic() < end and done is None:
            mine = view(c, gid, token)
            if mine["terminal"]:
                break
            if 0 in mine["current_players"] and mine["legal"]:
                r = c.post(
                    f"/api/games/{gid}/actions",
                    headers=auth(token),
                    json={"action": mine["legal"][0]["action"], "version": mine["version"]},
                )
                if r.status_code == 200:
                    done = r.json()
                    break
            time.sleep(0.05)
        assert done is not None, "seat 0 could not make its move"
        assert clock_of(done, 0)["standin"] is None
        ours = [x for x in done["log"] if x["seat"] == 0]
        assert "by" not in ours[-1]
        # In control again: its next turn waits for it (the clock runs, no bot plays it).
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            v = view(c, gid, token)
            if 0 in v["current_players"]:
                break
            time.sleep(0.05)
        assert clock_of(v, 0)["standin"] is None
        if 0 in v["current_players"] and not v["terminal"]:
            assert clock_of(v, 0)["running"]


@pytest.mark.parametrize(
    "clock",
    [
        {"mode": "realtime", "bank_seconds": 100, "increment_seconds": 30},
        {"mode": "turnbased", "move_seconds": 100},
    ],
)
def test_undo_gives_no_time_back(tc, fake, clock):
    """Act and undo to earn increments or a fresh turn: the undone turn goes on as it was."""
    made = create(tc, "toy-secret-sum", ["human", "human"], clock=clock)
    gid = made["id"]
    t0, _ = seat_tokens(tc, made).values()
    fake.advance(40)
    for _ in range(3):
        r = act(tc, gid, t0, "keep")
        assert r.status_code == 200
        if not r.json()["can_undo"]:
            pytest.skip("the deal made this move unsafe to undo")
        version = r.json()["version"]
        r = tc.post(f"/api/games/{gid}/undo", headers=auth(t0), json={"version": version})
        assert r.status_code == 200, r.text
    c0 = clock_of(view(tc, gid), 0)
    assert c0["running"] and c0["seconds_left"] == pytest.approx(60)  # 100 - 40, no more
