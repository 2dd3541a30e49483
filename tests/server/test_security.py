"""Tokens, secrets and bad input: one seat cannot read or act for another, nothing secret is
sent to a seat (checked by resampling what it cannot see), bad requests change nothing."""

from __future__ import annotations

import json
import random

import pytest

from nightsky.core.game import CHANCE
from nightsky.core.registry import game_class, game_ids, load_game
from nightsky.server.views import redacted_log, seat_payload
from tests.server.conftest import auth, create, seat_tokens, settle


def sent_to(state, seat):
    return json.dumps(
        {**seat_payload(state, seat), "log": redacted_log(state, seat)}, sort_keys=True
    )


def walk(game, seed, stop_every=3, limit=120):
    """Yield states along one random game (every ``stop_every`` actions)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal() and n < limit:
        cp = state.current_players()
        if cp == (CHANCE,):
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        p = rng.choice(cp)
        state.apply(rng.choice(state.legal_actions(p)), p)
        n += 1
        if n % stop_every == 0:
            yield state
    yield state


@pytest.mark.parametrize(
    "game_id", [g for g in game_ids() if game_class(g).info.hidden_information]
)
def test_nothing_sent_to_a_seat_depends_on_what_it_cannot_see(game_id):
    """What a seat is sent (view, text, svg, legal choices, log) is identical on every state
    the seat cannot tell from the true one: so it holds none of the others' secrets."""
    game = load_game(game_id, players=2)
    rng = random.Random(5)
    checked = 0
    for state in walk(game, seed=11):
        if state.is_terminal():
            continue  # the end reveals the scores (and whatever the game shows then)
        for seat in range(game.num_players):
            mine = sent_to(state, seat)
            for _ in range(2):
                other = state.resample(seat, rng)
                assert sent_to(other, seat) == mine, (game_id, seat, len(state.history))
                checked += 1
    assert checked >= 4


def test_a_seat_token_reads_and_acts_only_for_its_own_seat(client):
    made = create(client, "toy-secret-sum", ["human", "human"])
    gid = made["id"]
    t0, t1 = seat_tokens(client, made).values()
    v0 = client.get(f"/api/games/{gid}/view", headers=auth(t0)).json()
    v1 = client.get(f"/api/games/{gid}/view", headers=auth(t1)).json()
    assert v0["seat"] == 0 and v1["seat"] == 1
    assert isinstance(v0["view"]["hands"][0], list) and isinstance(v0["view"]["hands"][1], int)
    assert isinstance(v1["view"]["hands"][1], list) and isinstance(v1["view"]["hands"][0], int)
    # Seat 1's token cannot move seat 0, whose turn it is.
    r = client.post(
        f"/api/games/{gid}/actions",
        headers=auth(t1),
        json={"action": "keep", "version": v1["version"]},
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_your_turn"
    # The refusal names whose turn it is, as the table does (no seat numbers).
    assert r.json()["error"]["message"] == f"It is {v1['seats'][0]['name']}'s turn."
    for headers in (
        {"Authorization": "Bearer nope"},
        {"X-Seat-Token": t0[:-1] + ("y" if t0.endswith("x") else "x")},
        {"Authorization": t0},
    ):
        r = client.post(
            f"/api/games/{gid}/actions",
            headers=headers,
            json={"action": "keep", "version": v0["version"]},
        )
        assert r.status_code == 401, headers  # a wrong token, or none: no credentials
    # A token of another game is worthless here.
    other = create(client, "toy-secret-sum", ["human", "random"])["tokens"][0]["token"]
    assert client.get(f"/api/games/{gid}/view", headers=auth(other)).status_code == 401
    assert client.get(f"/api/games/{gid}/view", headers=auth(t0)).json()["version"] == v0["version"]


def test_bad_requests_get_4xx_and_change_nothing(client):
    made = create(client, "toy-secret-sum", ["human", "random"])
    gid, tok = made["id"], made["tokens"][0]["token"]
    settle(client, gid)
    before = client.get(f"/api/games/{gid}/view", headers=auth(tok)).json()
    url = f"/api/games/{gid}/actions"
    h = {**auth(tok), "content-type": "application/json"}
    cases = [
        (client.post(url, headers=h, content=b"{not json"), 400, "malformed_json"),
        (client.post(url, headers=h, content=b"[1, 2]"), 422, "validation_error"),
        (client.post(url, headers=h, json={"action": "keep"}), 422, "validation_error"),
        (
            client.post(url, headers=h, json={"action": "fly", "version": before["version"]}),
            422,
            "invalid_action",
        ),
        (
            client.post(url, headers=h, json={"action": 3, "version": before["version"]}),
            422,
            "validation_error",
        ),
        (
            client.post(url, headers=h, json={"action": "keep", "version": "x"}),
            422,
            "validation_error",
        ),
        (
            client.post(
                url,
                headers=h,
                content=b'{"action": "keep", "version": 0, "pad": "' + b"x" * 70_000 + b'"}',
            ),
            413,
            "body_too_large",
        ),
        (
            client.post(url, headers=h, json={"action": "keep" * 100, "version": 1}),
            422,
            "validation_error",
        ),
        (client.post("/api/games", content=b"\xff\xfe", headers=h), 400, "malformed_json"),
    ]
    for r, status, code in cases:
        assert r.status_code == status, (status, r.text)
        assert r.json()["error"]["code"] == code, r.json()
    after = client.get(f"/api/games/{gid}/view", headers=auth(tok)).json()
    assert after == before


def test_oversized_chunked_body_is_refused(client):
    made = create(client, "toy-secret-sum", ["human", "random"])
    gid, tok = made["id"], made["tokens"][0]["token"]

    def chunks():
        yield b'{"action": "keep", "version": 0, "pad": "'
        for _ in range(20):
            yield b"x" * 10_000
        yield b'"}'

    r = client.post(
        f"/api/games/{gid}/actions",
        headers={**auth(tok), "content-type": "application/json"},
        content=chunks(),
    )
    assert r.status_code == 413


def test_bots_choose_from_a_resampled_state_unless_they_cheat(db_url):
    from fastapi.testclient import TestClient

    from nightsky.server import create_app
    from nightsky.server.settings import Settings

    # The spy lives in this process only: it plays in the server's threads.
    settings = Settings(inline_agents=("random", "greedy", "spy"))
    with TestClient(create_app(db_url, settings=settings)) as client:
        _spy_on_bots(client)


def _spy_on_bots(client):
    from nightsky.agents.base import register_agent

    seen: list[tuple[bool, bool]] = []

    @register_agent("spy")
    class Spy:
        name = "spy"

        def __init__(self, cheat: bool = False) -> None:
            self.cheat = cheat

        def choose(self, state, player, rng):
            room = next(iter(client.app.state.manager.rooms.values()))
            true = room.state
            seen.append(
                (
                    self.cheat,
                    state is not true
                    and state.view(player) == true.view(player)
                    and state.hands != true.hands,
                )
            )
            return state.game.parse_action("keep")

    for spec in ("spy", "spy:cheat=true"):
        client.app.state.manager.rooms.clear()
        made = create(client, "toy-secret-sum", ["human", spec], seed=3)
        gid, tok = made["id"], made["tokens"][0]["token"]
        for _ in range(2):
            v = client.get(f"/api/games/{gid}/view", headers=auth(tok)).json()
            client.post(
                f"/api/games/{gid}/actions",
                headers=auth(tok),
                json={"action": "keep", "version": v["version"]},
            )
            settle(client, gid)
    honest = [differs for cheat, differs in seen if not cheat]
    cheats = [differs for cheat, differs in seen if cheat]
    assert honest and any(honest)  # hidden hands redrawn for the honest bot
    assert cheats and not any(cheats)
