"""Light updates (issue 50 item 8): a socket that asks for them gets the whole view once, then
only what changed; the client's rule (``web/js/patch.js``, the same as ``apply_patch``) builds
the whole view again, byte for byte, in every game."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from nightsky.core.narration import narrate
from nightsky.core.registry import load_game
from nightsky.server.patches import (
    EARLIER,
    apply_edit,
    apply_patch,
    edit,
    str_hunks,
    tokens,
    view_patch,
)
from nightsky.server.views import seat_payload
from tests.server.conftest import auth, create, seat_tokens, ws_connect

GAMES = ["shooting-star", "stars-are-right", "star-fire", "mihi-anguli", "starlight"]
PATCH_JS = Path(__file__).resolve().parents[2] / "src/nightsky/web/js/patch.js"


def views_along_a_game(game: str, moves: int = 30, seed: int = 1) -> list[dict]:
    """Seat 0's views (board, log and all) after each move of a random game."""
    g = load_game(game, players=2)
    state, rng, out = g.new_initial_state(), random.Random(seed), []
    while len(out) < moves and not state.is_terminal():
        now = state.current_players()
        if now == (-1,):
            state.apply(state.sample_chance(rng), -1)
            continue
        body = seat_payload(state, 0)
        body.update(version=len(out), log=narrate(state, 0))
        out.append(body)
        state.apply(rng.choice(state.legal_actions(now[0])), now[0])
    return out


def patches_along(views: list[dict]) -> list[dict]:
    """Each view's patch from the one before, with the earlier views the server keeps."""
    return [view_patch(old, new, views[max(0, n - EARLIER) : n])
            for n, (old, new) in enumerate(zip(views, views[1:], strict=False))]


@pytest.mark.parametrize("game", GAMES)
def test_a_patch_rebuilds_the_next_view_exactly(game: str) -> None:
    views = views_along_a_game(game)
    for n, patch in enumerate(patches_along(views)):
        held = {v["version"]: v for v in views[max(0, n - EARLIER) : n]}
        assert apply_patch(views[n], patch, held) == views[n + 1]
        assert apply_patch(views[n + 1], patch, held) is None  # it names the view it applies to
        if "back" in patch:  # a section edited from an earlier view needs that view
            assert apply_patch(views[n], patch, {}) is None


@pytest.mark.parametrize("game", GAMES)
def test_bytes_per_move_are_at_most_a_tenth_of_the_whole_view(game: str) -> None:
    """Issue 50's target: seat 0 in 2-player random games, bytes of JSON sent per move."""
    for seed in (1, 2, 3):
        views = views_along_a_game(game, moves=40, seed=seed)
        sent = sum(len(orjson.dumps(p)) for p in patches_along(views))
        full = sum(len(orjson.dumps(v)) for v in views[1:])
        assert sent <= full / 10, (game, seed, round(sent / full, 3))


def test_string_hunks_carry_only_the_characters_that_changed() -> None:
    old, new = "<svg><g a='1'>x</g><g>y</g></svg>", "<svg><g a='2'>x</g><g>y</g><p/></svg>"
    assert "".join(tokens(old)) == old
    assert str_hunks(old, new) == [[11, 12, "2"], [27, 27, "<p/>"]]
    patch = view_patch({"version": 1, "svg": old}, {"version": 2, "svg": new})
    assert apply_patch({"version": 1, "svg": old}, patch) == {"version": 2, "svg": new}


def test_edits_rebuild_objects_lists_and_text() -> None:
    old = {"a": [1, 2, 3] * 20, "b": {"c": "x" * 80, "d": 1}, "e": [{"k": "v" * 60}] * 3}
    new = {"a": [1, 2, 3] * 20 + [4], "b": {"c": "x" * 40 + "y" + "x" * 39}, "e":
           [{"k": "v" * 60}, {"k": "w" * 60}, {"k": "v" * 60}], "f": None}
    op = edit(old, new)
    assert apply_edit(old, op) == new
    assert op["o"]["b"]["x"] == ["d"] and op["o"]["b"]["o"]["c"] == {"s": [[40, 1, "y"]]}
    assert op["o"]["a"] == {"m": [[0, 60], {"a": [4]}]} and op["o"]["f"] == {"v": None}
    assert [n for n, _ in op["o"]["e"]["i"]] == [1]
    # A string with characters JavaScript counts twice is sent whole (offsets would differ).
    assert edit("\U0001f31f" * 30 + "a", "\U0001f31f" * 30 + "b") == {"v": "\U0001f31f" * 30 + "b"}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("game", ["starlight", "stars-are-right", "shooting-star"])
def test_the_web_client_applies_patches_as_the_server_means_them(game: str, tmp_path) -> None:
    views = views_along_a_game(game, moves=24, seed=3)
    patches = patches_along(views)
    assert any("back" in p for p in patches) and any("s" in str(p.get("diff")) for p in patches)
    (tmp_path / "patch.mjs").write_text(PATCH_JS.read_text())
    (tmp_path / "data.json").write_text(json.dumps({"first": views[0], "patches": patches}))
    script = tmp_path / "run.mjs"
    script.write_text(
        "import { pushedView } from './patch.mjs';\n"
        "import { readFileSync } from 'node:fs';\n"
        "const d = JSON.parse(readFileSync(new URL('./data.json', import.meta.url)));\n"
        "const out = [pushedView({ type: 'view', data: d.first })];\n"
        "for (const p of d.patches) out.push(pushedView({ type: 'patch', data: p }));\n"
        "process.stdout.write(JSON.stringify(out));\n"
    )
    got = json.loads(subprocess.run(["node", str(script)], capture_output=True, text=True,
                                     check=True, timeout=60).stdout)
    assert got == json.loads(json.dumps(views))


def test_a_socket_that_asks_gets_the_whole_view_once_then_patches(client) -> None:
    made = create(client, "stars-are-right", ["human", "human"])
    gid = made["id"]
    tokens_ = seat_tokens(client, made)
    with ws_connect(client, gid) as plain, client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"token": tokens_[0], "patches": True})
        first, plain_first = ws.receive_json(), plain.receive_json()
        assert first["type"] == "view" and plain_first["type"] == "view"
        view = first["data"]
        seen = {view["version"]: view}  # a patch may take a section back from any of these
        for _ in range(3):
            seat = view["current_players"][0]
            legal = client.get(f"/api/games/{gid}/view", headers=auth(tokens_[seat])).json()
            r = client.post(f"/api/games/{gid}/actions", headers=auth(tokens_[seat]),
                            json={"action": legal["legal"][0]["action"],
                                  "version": legal["version"]})
            assert r.status_code == 200, r.text
            msg = ws.receive_json()
            assert msg["type"] == "patch" and msg["data"]["base"] == view["version"]
            view = apply_patch(view, msg["data"], seen)
            assert view == client.get(f"/api/games/{gid}/view", headers=auth(tokens_[0])).json()
            seen[view["version"]] = view
            assert plain.receive_json()["type"] == "view"  # a socket that did not ask: as before


def test_a_section_comes_back_from_the_newest_view_of_an_earlier_version_only() -> None:
    choices = [{"action": f"a{n}", "label": f"take card {n} from the long row"} for n in range(9)]
    again = choices[:8] + [{"action": "b", "label": "pass"}]
    mine = {"version": 1, "legal": choices}
    taken = {"version": 1, "legal": []}  # a seat taken: the same version, drawn again
    old, new = {"version": 2, "legal": []}, {"version": 3, "legal": again}
    patch = view_patch(old, new, [mine])
    assert patch["back"]["legal"][0] == 1 and "legal" not in patch["set"]
    assert apply_patch(old, patch, {1: mine}) == new
    # The client holds only the newest view of version 1, which had no choices.
    assert "back" not in view_patch(old, new, [mine, taken])
