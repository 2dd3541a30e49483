"""A long list of choices comes in groups (issue 50, the last trips): Shooting Star's first
turn offers 108 choices (nine cards, each face down on one of twelve planets); the list shows
one folding box per card, named as the board names the card, the first one open."""

from __future__ import annotations

import pytest

from tests.web.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_long_list_of_choices_comes_in_groups_named_by_the_board(page):
    made = page.request.post(page.base + "/api/games",
                             data={"game": "shooting-star", "players": 2,
                                   "seats": ["human", "random"]}).json()
    page.goto(made["tokens"][0]["invite"])
    page.wait_for_selector("#actions button.action")
    groups = page.evaluate("""() => [...document.querySelectorAll('#actions details.choice-group')]
      .map((d) => {
        const board = document.querySelector('#board svg');
        const el = board.querySelector(`[id="${d.dataset.target}"]`);
        return { target: d.dataset.target, open: d.open,
          name: d.querySelector('summary').textContent,
          label: el ? el.dataset.label : null,
          actions: [...d.querySelectorAll('button.action')].map((b) => b.dataset.action) };
      })""")
    legal = page.evaluate("document.querySelectorAll('#actions button.action').length")
    assert legal == 108, legal
    assert len(groups) == 9, [g["name"] for g in groups]  # by card (9), not by planet (12)
    actions = [a for g in groups for a in g["actions"]]
    assert len(actions) == len(set(actions)) == legal  # every choice in exactly one group
    for g in groups:
        assert g["label"] and g["name"].startswith(g["label"]), g  # the board's own name
        assert g["name"].endswith(f"· {len(g['actions'])}"), g["name"]
    assert [g["open"] for g in groups] == [True] + [False] * 8
    page.screenshot(path=str(ARTIFACTS / "choices-grouped-shooting-star-1280.png"))
    # The filter shows a flat list of what it finds.
    page.fill("#filter", "Space Shield")
    page.wait_for_function("() => !document.querySelector('#actions details')")
    assert page.locator("#actions button.action").count() == 12
    page.fill("#filter", "")
    page.wait_for_selector("#actions details.choice-group")
    # The first group closed, the last opened, one of its choices taken: the move is made.
    page.locator("#actions details.choice-group summary").first.click()  # (closes it)
    last = page.locator("#actions details.choice-group").last
    last.locator("summary").click()
    button = last.locator("button.action").first
    want = button.get_attribute("data-action")
    before = page.evaluate("document.body.dataset.version")
    button.click()
    page.wait_for_function("b => document.body.dataset.version !== b", arg=before)
    assert page.moves[-1]["action"] == want, page.moves  # type: ignore[attr-defined]
    # The next turn: the group that was open went with its card; the first is open again.
    page.wait_for_function("b => document.querySelectorAll('#actions details.choice-group').length"
                           " && document.querySelector('#actions details.choice-group').open"
                           " && Number(document.body.dataset.version) > b", arg=int(before) + 1)
    assert page.locator("#actions button.action").first.is_visible()
