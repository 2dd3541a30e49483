"""Learning in the browser, server side: every rulebook example of every game is a lesson whose
every move can be made from its table (the example's move among the choices, marked), and every
game has a How to play page with its four parts and pictures from its own board renderer."""

from __future__ import annotations

import base64
import re

import pytest
from fastapi.testclient import TestClient

from nightsky.core.registry import load_game, packaged_game_ids


def lessons() -> list[tuple[str, str]]:
    return [(g, t.name) for g in packaged_game_ids() for t in load_game(g).tutorials()]


@pytest.mark.parametrize(("game", "name"), lessons(), ids=[f"{g}/{n}" for g, n in lessons()])
def test_every_example_is_a_lesson_whose_moves_the_learner_can_make(
    client: TestClient, game: str, name: str
) -> None:
    tut = load_game(game).tutorial(name)
    les = client.get(f"/api/learn/{game}/{name}").json()
    assert les["title"] == tut.title and les["text"] == tut.text
    # Every move of the example is walked, each in words (not its notation) with its outcome.
    assert [(s["seat"], s["notation"]) for s in les["steps"]] == list(tut.steps)
    for step in les["steps"]:
        assert step["label"] and step["label"] != step["notation"]
        assert step["told"] or step["seat"] < 0, f"{step['notation']}: nothing told of what it did"
    for k, step in enumerate(les["steps"]):
        table = client.get(f"/api/learn/{game}/{name}/{k}").json()
        assert table["svg"] and table["svg"].startswith("<svg")
        if step["seat"] < 0:
            continue
        assert table["viewer"] == step["seat"]
        expected = [c for c in table["choices"] if c["expected"]]
        assert len(expected) == 1 and expected[0]["notation"] == step["notation"]
        assert expected[0]["label"] == step["label"]
        # The board can point at it: every target it names is drawn (``button:`` targets are
        # the choices a client lists as buttons).
        for target in expected[0]["targets"]:
            if not target.startswith("button:"):
                assert re.search(f"id=[\"']{re.escape(target)}[\"']", table["svg"]), target
    end = client.get(f"/api/learn/{game}/{name}/{len(les['steps'])}").json()
    assert end["choices"] == [] and end["svg"]
    assert client.get(f"/api/learn/{game}/{name}/{len(les['steps']) + 1}").status_code == 404


def test_a_lesson_page_loads_its_script_and_an_unknown_one_is_not_found(
    client: TestClient,
) -> None:
    page = client.get("/games/shooting-star/learn/example-1")
    assert page.status_code == 200
    assert '<script type="module" src="/static/js/learn.js">' in page.text
    assert 'data-game="shooting-star"' in page.text and 'data-name="example-1"' in page.text
    assert client.get("/games/shooting-star/learn/nope").status_code == 404
    assert client.get("/api/learn/shooting-star/nope").status_code == 404
    assert client.get("/static/js/learn.js").status_code == 200
    assert client.get("/static/css/learn.css").status_code == 200


@pytest.mark.parametrize("game", packaged_game_ids())
def test_every_game_has_a_how_to_play_page_with_pictures_from_its_board(
    client: TestClient, game: str
) -> None:
    page = client.get(f"/games/{game}/how-to-play")
    assert page.status_code == 200
    heads = re.findall(r"<h2>(.*?)</h2>", page.text)
    assert heads[:4] == ["Set-up", "A turn", "The end", "Scoring"]
    images = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', page.text)
    assert len(images) >= 3, "set-up, a turn and the end each show the board"
    assert all(base64.b64decode(i).startswith(b"<svg") for i in images)
    assert 'class="doc-table howto-scores"' in page.text  # the score table of a finished game
    for tut in load_game(game).tutorials():
        assert f'href="/games/{game}/learn/{tut.name}"' in page.text
    # Reachable from the game's page and every tutorial page.
    assert f'href="/games/{game}/how-to-play"' in client.get(f"/games/{game}").text


def test_the_tutorial_page_links_to_its_live_lesson(client: TestClient) -> None:
    page = client.get("/games/star-fire/tutorials/split-double").text
    assert 'href="/games/star-fire/learn/split-double"' in page
    assert "no tutorial tables yet" not in page
