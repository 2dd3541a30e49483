"""The pages about each game (rules at hand): about, rule catalogue, tutorials, and their JSON."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from nightsky.core.registry import game_class, load_game, packaged_game_ids
from tests.server.conftest import auth, create, settle

GAMES = packaged_game_ids()


def packaged_rule_ids(game: str) -> list[str]:
    """The rule ids of the game's packaged rules.md, read with a plain regex (not the parser)."""
    pkg = game_class(game).__module__.rsplit(".", 1)[0]
    text = resources.files(pkg).joinpath("rules.md").read_text(encoding="utf-8")
    return re.findall(r"^- \*\*([A-Z]+-[0-9.]+[a-z]?)\*\*", text, flags=re.M)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rule_catalogue(game) -> None:
    ids = packaged_rule_ids(game)
    assert ids and len(ids) == len(set(ids)), game  # some rules, each id once


@pytest.mark.parametrize("game", GAMES)
def test_rule_catalogue_json_has_every_rule_id_with_its_text(client, game) -> None:
    r = client.get(f"/api/catalog/{game}/rules")
    assert r.status_code == 200, r.text
    rules = r.json()
    assert list(rules) == packaged_rule_ids(game)  # every id, in the catalogue's order
    assert all(len(text) > 5 and "**" not in text for text in rules.values())


@pytest.mark.parametrize("game", GAMES)
def test_rules_page_has_an_anchor_per_rule_and_links_its_sections(client, game) -> None:
    r = client.get(f"/games/{game}/rules")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    for rid in packaged_rule_ids(game):
        assert f'<li id="{rid}" class="rule"><a href="#{rid}" class="rule-id">' in page, rid
    toc = re.findall(r'<nav class="panel doc-nav".*?</nav>', page, flags=re.S)[0]
    anchors = re.findall(r'href="#([^"]+)"', toc)
    assert anchors and all(f'id="{a}"' in page for a in anchors)
    assert "<script" not in page  # a page of text: the CSP's "no inline script" holds


@pytest.mark.parametrize("game", GAMES)
def test_about_page_links_the_rules_every_tutorial_and_a_new_table(client, game) -> None:
    info = game_class(game).info
    r = client.get(f"/games/{game}")
    assert r.status_code == 200
    page = r.text
    assert info.title in page and f"{info.min_players}–{info.max_players}" in page
    assert f'href="/games/{game}/rules"' in page and f'href="/?game={game}"' in page
    for lvl in info.levels:
        assert lvl.name in page
    tutorials = load_game(game).tutorials()
    assert tutorials, game
    for t in tutorials:
        assert f'href="/games/{game}/tutorials/{t.name}"' in page
    assert f'href="/games/{game}"' in client.get("/games").text


@pytest.mark.parametrize("game", GAMES)
def test_tutorial_pages_show_the_text_the_steps_and_the_board(client, game) -> None:
    listed = client.get(f"/api/catalog/{game}/tutorials").json()
    tutorials = load_game(game).tutorials()
    assert [t["name"] for t in listed] == [t.name for t in tutorials]
    for t, info in zip(tutorials, listed, strict=True):
        assert [(s["seat"], s["notation"]) for s in info["steps"]] == list(t.steps)
        # Every seat's step is told in words (chance outcomes by their notation).
        assert all(s["label"] for s in info["steps"] if s["seat"] >= 0), info
        r = client.get(info["page"])
        assert r.status_code == 200
        assert t.title.replace("'", "&#x27;") in r.text
        assert 'src="data:image/svg+xml;base64,' in r.text  # the position, as an image
        for _, notation in t.steps:
            assert f"<code title=\"notation\">{notation}</code>" in r.text
        assert f"nightsky play {game} --tutorial {t.name}" in r.text


def test_a_bad_game_or_tutorial_is_a_clear_404(client) -> None:
    r = client.get("/api/catalog/no-such-game/rules")
    assert r.status_code == 404
    err = r.json()["error"]
    assert err["code"] == "unknown_game" and "shooting-star" in err["message"]
    assert client.get("/api/catalog/no-such-game/tutorials").json()["error"]["code"] == (
        "unknown_game"
    )
    for path in ("/games/no-such-game", "/games/no-such-game/rules",
                 "/games/no-such-game/tutorials/x"):
        r = client.get(path)
        assert r.status_code == 404 and "unknown game &#x27;no-such-game&#x27;" in r.text, path
    r = client.get("/games/starlight/tutorials/no-such-example")
    assert r.status_code == 404 and "no tutorial &#x27;no-such-example&#x27;" in r.text
    assert 'href="/games"' in r.text


def test_a_game_without_a_catalogue_says_so(client) -> None:
    # The test games (tests/conftest.py registers them) have no rules.md.
    r = client.get("/api/catalog/toy-secret-sum/rules")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_rules"
    assert client.get("/games/toy-secret-sum").status_code == 200
    assert client.get("/games/toy-secret-sum/rules").status_code == 404


def test_a_refused_action_names_a_rule_of_the_catalogue(client) -> None:
    made = create(client, "starlight", ["human", "greedy"], seed=3)
    gid, tok = made["id"], made["tokens"][0]["token"]
    settle(client, gid)
    v = client.get(f"/api/games/{gid}/view", headers=auth(tok)).json()
    r = client.post(f"/api/games/{gid}/actions", headers=auth(tok),
                    json={"action": "step", "version": v["version"]})
    assert r.status_code == 422
    rule = r.json()["error"]["rule"]
    assert rule == "SL-2.1"
    assert "first turn" in client.get("/api/catalog/starlight/rules").json()[rule]


def test_the_catalogue_endpoints_are_documented(client) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/catalog/{game}/rules" in paths and "/api/catalog/{game}/tutorials" in paths
    assert "/games/{game}" not in paths  # pages, not API
