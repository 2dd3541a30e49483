"""Property tests over random playouts: conservation, no leaks, notation, observation, agents."""

from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightsky.agents import make_agent
from nightsky.core import CHANCE, load_game
from nightsky.games.shooting_star.constants import DARK_LEVEL, PH_PLACE

CONFIGS = [{"players": n} for n in range(2, 6)] + [
    {"players": 2, "variant": "personalized"},
    {"players": 5, "variant": "personalized"},
]


def check(s, rng: random.Random) -> None:
    g = s.g
    obs = g.make_observer()
    items = [x for v in s.census().values() for x in v]
    assert len(items) == len(set(items)) == 110  # SS-1.1: every card in exactly one place
    if s.phase == PH_PLACE:
        assert len([c for c in s.cov if c >= 0]) == len(s.placed)
        assert s.free_cells() == [c for c in s.alive if s.cov[c] < 0]
        for c in s.alive:  # SS-9.1: no planet ever stays isolated
            assert any(s.lvl[nb] for nb in g.neigh[c]) or len(s.alive) == 1
            if s.lvl[c] == DARK_LEVEL:  # SS-2.4 / SS-14.5
                assert all(s.lvl[nb] != DARK_LEVEL for nb in g.neigh[c])
    for p in range(g.num_players):
        v = s.view(p)
        json.dumps(v)
        r = s.resample(p, random.Random(rng.random()))
        assert r.view(p) == v
        assert g.ui.render(r, p) == g.ui.render(s, p)  # the drawing leaks nothing either
        assert obs.observation(r, p) == obs.observation(s, p)
        assert len(obs.observation(s, p)) == obs.size
        for cell in v["cells"]:
            cover = cell["cover"]
            if cover and cover["seat"] != p:
                assert cover["card"] == "?"


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
@settings(max_examples=4)
@given(seed=st.integers(0, 2**31 - 1))
def test_SS_3_4_random_playouts_keep_invariants_and_hide_cards(cfg, seed: int) -> None:
    g = load_game("shooting-star", **cfg)
    s = g.new_initial_state()
    rng = random.Random(seed)
    steps = 0
    while not s.is_terminal():
        p = s.current_players()[0]
        if p == CHANCE:
            a = s.sample_chance(rng)
            assert g.parse_action(str(a)) == a and s.is_legal_chance(a)
        else:
            legal = s.legal_actions(p)
            assert legal and len(set(legal)) == len(legal)
            a = rng.choice(legal)
            assert g.parse_action(str(a)) == a
            assert g.action_from_id(g.action_id(a)) == a
            assert g.ui.action_ui(s, a, p)["targets"][0] == f"cell-{a.col}-{a.row}"
        if steps % 3 == 0 or s.phase == PH_PLACE:
            check(s, rng)
        s.apply(a, p)
        steps += 1
    check(s, rng)
    assert s.winners()


def test_SS_2_1_same_seed_same_game() -> None:
    def run(seed):
        g = load_game("shooting-star", players=4)
        s = g.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.current_players()[0]
            s.apply(s.sample_chance(rng) if p == CHANCE else rng.choice(s.legal_actions(p)), p)
        return [str(a) for _, a in s.history], s.scores()

    assert run(7) == run(7)


def test_greedy_beats_random() -> None:
    g = load_game("shooting-star", players=3)
    agents = [make_agent("greedy"), make_agent("random"), make_agent("random")]
    rng = random.Random(3)
    wins = [0.0, 0.0, 0.0]
    for _ in range(40):
        s = g.new_initial_state()
        while not s.is_terminal():
            p = s.current_players()[0]
            s.apply(s.sample_chance(rng) if p == CHANCE else agents[p].choose(s, p, rng), p)
        w = s.winners()
        for x in w:
            wins[x] += 1 / len(w)
    assert wins[0] > 2 * max(wins[1:])


@pytest.mark.bench
def test_bench_greedy_300_games_and_speed() -> None:
    g = load_game("shooting-star", players=3)
    agents = [make_agent("greedy"), make_agent("random"), make_agent("random")]
    rng = random.Random(1)
    wins = [0.0, 0.0, 0.0]
    for _ in range(300):
        s = g.new_initial_state()
        while not s.is_terminal():
            p = s.current_players()[0]
            s.apply(s.sample_chance(rng) if p == CHANCE else agents[p].choose(s, p, rng), p)
        for x in s.winners():
            wins[x] += 1 / len(s.winners())
    assert wins[0] > 2 * max(wins[1:])
    actions = 0
    t0 = time.perf_counter()
    for _ in range(2000):
        s = g.new_initial_state()
        while not s.is_terminal():
            p = s.current_players()[0]
            s.step(s.sample_chance(rng) if p == CHANCE else rng.choice(s.legal_actions(p)), p)
            actions += 1
    print(f"shooting-star random playouts: {actions / (time.perf_counter() - t0):.0f} actions/s")


def _snapshot(s) -> str:
    seen = [s.view(p) for p in range(s.g.num_players)] + [s.view(None), s.census()]
    lists = [s.deck, s.box, s.missions, s.phands, s.events, s.lvl, s.pl, s.cov, s.alive,
             s.free, s.hands, s.placed, s.conq, s.debris]
    return json.dumps([seen, lists, s.phase, s.turn, s.actor, s.invader], default=str)


@pytest.mark.parametrize("cfg", [{"players": 3}, {"players": 2, "variant": "personalized"}])
def test_copies_played_on_leave_the_original_alone(cfg) -> None:
    """Copies share the lists the rules only ever replace: playing a clone or a resampled
    state to the end must change nothing in the original, at any point of a game."""
    g = load_game("shooting-star", **cfg)
    s = g.new_initial_state()
    rng = random.Random(3)
    while not s.is_terminal():
        before = _snapshot(s)
        for copy in (s.clone(), s.resample(0, random.Random(rng.random()))):
            while not copy.is_terminal():
                p = copy.current_players()[0]
                a = copy.sample_chance(rng) if p == CHANCE else rng.choice(copy.legal_actions(p))
                copy.apply(a, p)
        assert _snapshot(s) == before
        p = s.current_players()[0]
        s.apply(s.sample_chance(rng) if p == CHANCE else rng.choice(s.legal_actions(p)), p)
