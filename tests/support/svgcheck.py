"""Checks every game's ``board_svg`` must pass: well-formed, unique ids, every click target drawn,
nothing hidden leaked. Used by ``tests/games/<id>/test_svg.py``."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterator

from nightsky.core.game import CHANCE, State

SVG_NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str | None) -> ET.Element:
    """Parse and check the root: an ``<svg>`` with a viewBox, no script, no event handler, no
    external reference, unique ids."""
    assert svg is not None
    assert "<script" not in svg and not re.search(r" on[a-z]+=", svg), "scripts"
    assert all(h.startswith("#") for h in re.findall(r'href="([^"]*)"', svg)), "external refs"
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    assert len(root.get("viewBox", "").split()) == 4
    ids = Counter(e.attrib["id"] for e in root.iter() if "id" in e.attrib)
    dup = sorted(i for i, k in ids.items() if k > 1)
    assert not dup, f"duplicate ids {dup}"
    return root


def hit_ids(svg: str) -> list[str]:
    """The ids of a well-formed, script-free board whose clickable elements each carry a
    tooltip and a shape of class ``hit`` for the client to highlight (the convention of the
    boards that mark their highlight shape)."""
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg" and root.get("viewBox")
    assert not any(el.tag.endswith("script") for el in root.iter())
    for el in root.iter():
        if el.get("data-label") is not None:
            assert el.get("id") and el.get("data-label"), el.get("id")
            assert any(x.get("class") == "hit" for x in el.iter()), el.get("id")
    return [el.get("id") or "" for el in root.iter() if el.get("id")]


def ids_of(root: ET.Element) -> set[str]:
    return {e.attrib["id"] for e in root.iter() if "id" in e.attrib}


def playout(state: State, rng: random.Random, max_steps: int = 400,
            every: int = 1) -> Iterator[State]:
    """Play random legal actions, yielding the state (not at chance nodes) every ``every``
    decisions; stops at the end or after ``max_steps`` decisions."""
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        seats = state.current_players()
        if seats == (CHANCE,):
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        if steps % every == 0:
            yield state
        p = rng.choice(seats)
        state.apply(rng.choice(state.legal_actions(p)), p)
        steps += 1
    yield state


def check_targets(state: State, buttons: Callable[[object], bool],
                  seats: tuple[int, ...] | None = None) -> int:
    """Every acting seat's (or each of ``seats``') SVG holds an element for every target of
    every legal action, and every action that is not a plain button has at least one target.
    Returns the number of actions checked."""
    checked = 0
    for p in state.current_players() if seats is None else seats:
        if p == CHANCE:
            continue
        root = parse(state.game.ui.board_svg(state, p))
        ids = ids_of(root)
        for a in state.legal_actions(p):
            targets = state.game.ui.action_ui(state, a, p)["targets"]
            missing = [t for t in targets if t not in ids]
            assert not missing, f"seat {p}: {a} targets {missing} not drawn"
            if not buttons(a):
                assert targets, f"{a} has no target to click"
            checked += 1
    return checked


def check_setup(state: State, rng: random.Random) -> int:
    """The drawing parses for every viewer (and the spectator) at each set-up chance node,
    before anyone has acted. Returns the number of positions drawn."""
    seats = state.game.num_players
    n = 0
    while state.current_players() == (CHANCE,):
        for viewer in (None, *range(seats)):
            parse(state.game.ui.board_svg(state, viewer))
        state.apply(state.sample_chance(rng), CHANCE)
        n += 1
    return n


def check_resample(state: State, rng: random.Random) -> None:
    """What each acting seat sees is drawn the same after its hidden information is redrawn."""
    for p in state.current_players():
        if p != CHANCE:
            ui = state.game.ui
            seen = ui.board_svg(state, p)
            assert ui.board_svg(state.resample(p, rng), p) == seen, f"seat {p} leaks"
