"""Checks every game's ``board_svg`` must pass: well-formed, unique ids, every click target drawn,
nothing hidden leaked. Used by ``tests/games/<id>/test_svg.py``."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator

from nightsky.core.game import CHANCE, State

SVG_NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str | None) -> ET.Element:
    """Parse and check the root: an ``<svg>`` with a viewBox, no script, unique ids."""
    assert svg is not None
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    assert len(root.get("viewBox", "").split()) == 4
    ids: list[str] = []
    for e in root.iter():
        assert e.tag != SVG_NS + "script"
        assert not any(k.startswith("on") for k in e.attrib), e.attrib
        for k, val in e.attrib.items():
            if k.endswith("href"):
                assert val.startswith("#"), f"external resource {val}"
        if "id" in e.attrib:
            ids.append(e.attrib["id"])
    dup = {i for i in ids if ids.count(i) > 1}
    assert not dup, f"duplicate ids {sorted(dup)}"
    return root


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


def check_targets(state: State, buttons: Callable[[object], bool]) -> int:
    """Every acting seat's SVG holds an element for every target of every legal action, and
    every action that is not a plain button has at least one target. Returns actions checked."""
    checked = 0
    for p in state.current_players():
        if p == CHANCE:
            continue
        root = parse(state.board_svg(p))
        ids = ids_of(root)
        for a in state.legal_actions(p):
            targets = state.action_ui(a, p)["targets"]
            missing = [t for t in targets if t not in ids]
            assert not missing, f"seat {p}: {a} targets {missing} not drawn"
            if not buttons(a):
                assert targets, f"{a} has no target to click"
            checked += 1
    return checked
