"""Players' words everywhere: random games of every game, played through the generic contract,
and every choice label, log line, hover text, score label and terminal drawing scanned for engine
identifiers (snake_case words, ``seat N``, bare codes the board does not print).

A game's codes that its components do print (a tile's ``b3`` on The Stars Are Right's sky) are
the only exceptions: ``PRINTED`` lists them per game, each with why. Notation stays available in
records and in the log's ``notation`` (hover titles), which this scan does not read.
"""

from __future__ import annotations

import html
import random
import re

import pytest

from nightsky.core.game import CHANCE, State
from nightsky.core.narration import narrate
from nightsky.core.registry import load_game, packaged_game_ids
from nightsky.core.ui import GameUI, render_text

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]

# What reads as engine notation rather than a player's words.
PATTERNS: dict[str, re.Pattern[str]] = {
    "snake_case": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "seat number": re.compile(r"\bseat \d+\b", re.IGNORECASE),
    # A token mixing letters and digits (p02, n13, launch1, W1.1, HM3, C17), ordinals aside.
    "code": re.compile(r"(?<![\w#.])(?!\d+(?:st|nd|rd|th)\b)(?=[\w.]*\d)(?=[\w.]*[A-Za-z])"
                       r"[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*\b"),
    # A chain of short codes (constellations Me-b-b-Su, Wn-1) or a power written F>PP.
    "code chain": re.compile(r"\b\w{1,2}(?:-\w{1,2}){1,}(?:/\w{1,2}(?:-\w{1,2})+)?\b(?!')"),
    "arrow code": re.compile(r"\b[A-Z]{1,3}>[A-Z]{1,3}\b"),
    "pluralised by (s)": re.compile(r"\w\(s\)"),
}

PRINTED: dict[str, re.Pattern[str]] = {
    # Each Destruction card is drawn with its priority as P1-P8 in its corner.
    "shooting-star": re.compile(r"^P[1-8]$"),
    # The sky's columns a-e and rows 1-5 are printed around the board: a tile is called by them.
    "stars-are-right": re.compile(r"^[a-e][1-5]$"),
    # The board draws each Star, Planet and Moon card with its code (S7, P11, M2) and each
    # element chip with its symbol (H, He, C, HM), costs read ``2H 1He``.
    # Cores, Flares and Laurels are drawn with their card number in the corner (C10, F3, L12,
    # the starter Core S1).
    "starlight": re.compile(r"^[CFLS]\d{1,2}$"),
    "star-fire": re.compile(r"^(?:[SPM]\d{1,2}|\d?(?:H|He|C|HM))$"),
}

# The terminal's compact tables spell cards in the short codes their printed legend explains
# (The Stars Are Right's ``Mo-b-V-L``); there the scan holds seats and snake_case words only.
TERMINAL_KINDS = {"snake_case", "seat number"}
GRID_ROW = re.compile(r"^\s*\d+\s{2,}")

# Words that look like codes but are plain English or printed on the components.
ALLOWED_WORDS = re.compile(r"^(?:1/2|x\d+|\d+x\d+)$")
# A rule id (SF-14.5) is how a line links to the rules: the page shows the rule on it.
RULE_ID = re.compile(r"^[A-Z]{2,5}-\d+$")


def offenders(text: str, game_id: str) -> list[str]:
    """The engine identifiers in ``text`` (the patterns' matches the allow-lists do not cover)."""
    printed = PRINTED.get(game_id)
    found: list[str] = []
    for kind, pattern in PATTERNS.items():
        for m in pattern.finditer(text):
            token = m.group(0)
            if printed is not None and printed.match(token):
                continue
            if ALLOWED_WORDS.match(token) or RULE_ID.match(token):
                continue
            if kind == "code chain" and re.fullmatch(r"[a-zA-Z]+(?:-[a-zA-Z]+)+", token):
                continue  # a hyphenated word (face-down, one-point), not a code chain
            if kind == "code chain" and re.fullmatch(r"\d+(?:-\d+)+", token):
                continue  # a range of numbers (2-3), written as players write it
            found.append(f"{kind}: {token!r}")
    return found


def hover_texts(svg: str) -> list[str]:
    """The board's hover boxes: ``<title>`` and the ``data-label``/``data-detail`` attributes."""
    out = re.findall(r"<title>(.*?)</title>", svg, re.S)
    out += re.findall(r'data-(?:label|detail|section)="([^"]*)"', svg)
    return [html.unescape(t) for t in out]


Params = dict[str, int | str | bool]

# The setups worth scanning apart (variants, extreme player counts); a game listed nowhere here
# (a new one) is scanned once at its default set-up, so it is checked the moment it exists.
_CHOSEN: list[tuple[str, Params]] = [
    ("shooting-star", {"players": 2}), ("shooting-star", {"players": 3}),
    ("shooting-star", {"players": 2, "variant": "personalized"}),
    ("stars-are-right", {"players": 2}), ("stars-are-right", {"players": 4}),
    ("star-fire", {"players": 3}), ("star-fire", {"players": 5}),
    ("mihi-anguli", {"players": 1}), ("mihi-anguli", {"players": 3}),
    ("starlight", {"players": 2}), ("starlight", {"players": 1, "starbots": 2}),
    ("starlight", {"players": 3, "gods": True}),
]
SETUPS: list[tuple[str, Params]] = _CHOSEN + [
    (g, {}) for g in packaged_game_ids() if g not in {c for c, _ in _CHOSEN}
]


def _play(game_id: str, params: Params, seed: int) -> tuple[State, dict[str, set[str]]]:
    """A random game; every label offered on the way, by where it was seen."""
    game = load_game(game_id, **params)
    names = NAMES[: game.num_seats]
    ui = game.ui
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: dict[str, set[str]] = {"choice": set(), "hover": set(), "terminal": set()}
    decisions = 0
    while not state.is_terminal():
        seats = state.current_players()
        if seats == (CHANCE,):
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        seat = rng.choice(seats)
        legal = state.legal_actions(seat)
        # Every choice early on, then a sample: long games stay quick.
        if decisions < 120 or decisions % 9 == 0:
            seen["choice"].update(ui.describe_action(state, a, seat, names) for a in legal)
        if decisions % 25 == 0:
            svg = ui.board_svg(state, seat, names, None) or ""
            seen["hover"].update(hover_texts(svg))
            seen["terminal"].add(_render(ui, state, seat, names))
        decisions += 1
        state.apply(rng.choice(legal), seat)
    svg = ui.board_svg(state, 0, names, None) or ""
    seen["hover"].update(hover_texts(svg))
    seen["terminal"].add(_render(ui, state, None, names))
    seen["log"] = {x["text"] for v in (None, 0) for x in narrate(state, v, names)}
    seen["score"] = {p.label for p in ui.score_parts(state)}
    return state, seen


def scan(game_id: str, params: Params, seed: int = 11) -> list[str]:
    """Every offending text of one random game, as ``where: kind: token in text``."""
    _, seen = _play(game_id, params, seed)
    bad: list[str] = []
    for where, texts in seen.items():
        for text in sorted(texts):
            if where == "terminal":
                # The terminal's drawing, line by line; the rows of its drawn grid (a row
                # number, then cells in a legend's letters) are a picture, not words.
                for line in text.splitlines():
                    if GRID_ROW.match(_strip_markup(line)):
                        continue
                    bad += [f"{where}: {o} in {line.strip()[:120]!r}"
                            for o in offenders(_strip_markup(line), game_id)
                            if o.split(":")[0] in TERMINAL_KINDS]
                continue
            bad += [f"{where}: {o} in {text[:120]!r}" for o in offenders(text, game_id)]
    return bad


def _strip_markup(line: str) -> str:
    return re.sub(r"\[/?[a-z #0-9]*\]", "", line)


def _id(game_id: str, params: Params) -> str:
    return game_id + "".join(f"-{k}{v}" for k, v in params.items())


@pytest.mark.parametrize(("game_id", "params"), SETUPS, ids=[_id(g, p) for g, p in SETUPS])
def test_every_text_a_player_reads_is_in_players_words(
    game_id: str, params: Params
) -> None:
    bad = scan(game_id, params)
    assert not bad, f"{len(bad)} engine identifiers, e.g.:\n" + "\n".join(bad[:25])


@pytest.mark.parametrize(
    ("text", "hits"),
    [
        ("invoke Cthulhu for 3 flips", 0),
        ("put your marker on launch1", 1),
        ("fill E1 item of Week 1 (W1.1)", 2),
        ("constellations Me-b-b-Su/4-b-V-L", 1),
        ("Log: buy_np", 1),
        ("it is not seat 0's turn", 1),
        ("power F>PP", 1),
        ("1 unit(s)", 1),
        ("the 2nd box, magnitude 2-3, face-down", 0),
    ],
)
def test_the_scan_tells_engine_words_from_players_words(text: str, hits: int) -> None:
    assert len(offenders(text, "shooting-star")) == hits, offenders(text, "shooting-star")


def _render(ui: GameUI, state: State, viewer: int | None, names: list[str]) -> str:
    return render_text(ui, state, viewer, names)


def test_every_shipped_game_is_scanned() -> None:
    assert {g for g, _ in SETUPS} == set(packaged_game_ids())
    assert all(g in packaged_game_ids() for g, _ in _CHOSEN), "a chosen setup names no game"
