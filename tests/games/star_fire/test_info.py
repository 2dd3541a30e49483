"""SF-19 and the presentation hooks: views, resampling, observation, render, UI, tutorials."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nightsky.core import CHANCE
from nightsky.games.star_fire.actions import Act
from tests.games.star_fire.helpers import act, deal, game, names, position


def _midgame(players: int, seed: int, steps: int = 120):
    g = game(players)
    rng = random.Random(seed)
    s = g.new_initial_state()
    for _ in range(steps):
        if s.is_terminal():
            break
        p = s.current_players()[0]
        s.apply(s.sample_chance(rng) if p == CHANCE else rng.choice(s.legal_actions(p)), p)
    return s


def test_SF_19_1_view_hides_hands_but_shows_backs() -> None:
    s = position(game(3), hands={0: ["S2", "P3", "M1", "gamma1"], 1: ["P4"]},
                 nursery={0: ["H5"]})
    for viewer in (None, 1, 2):
        v = s.view(viewer)["players"][0]
        assert "hand" not in v and "dealt_star" not in v
        assert v["hand_backs"] == {"stars": 1, "planets": 1, "moons": 1, "star_fire": 1}
        blob = json.dumps(s.view(viewer))
        assert "gamma1" not in blob and "P3" not in blob
    assert s.view(0)["players"][0]["hand"] == ["S2", "P3", "M1", "gamma1"]


def test_SF_19_1_resample_keeps_the_view_and_redraws_hidden_cards() -> None:
    g = game(4)
    differed = 0
    for seed in range(6):
        s = _midgame(4, seed)
        for p in range(4):
            r = s.resample(p, random.Random(seed))
            assert r.view(p) == s.view(p)
            assert sorted(r.census()["hand:" + str(p)]) == sorted(s.census()["hand:" + str(p)])
            for q in range(4):
                backs = [g.cards.cat[c] for c in r.hands[q]]
                assert backs == [g.cards.cat[c] for c in s.hands[q]]
            differed += any(r.hands[q] != s.hands[q] for q in range(4) if q != p)
            flat = [c for place in r.census().values() for c in place]
            assert len(flat) == 79 and len(set(flat)) == 79
    assert differed


def test_SF_19_1_resample_keeps_publicly_known_hand_cards() -> None:
    s = position(game(2), hands={0: ["P1", "P2"], 1: []}, decks={0: ["H1", "H2"], 1: [], 2: []})
    act(s, "discard P1")
    act(s, "draw bodies", 1)  # P1 comes off the public bottom: everyone knows it
    for seed in range(5):
        r = s.resample(0, random.Random(seed))
        assert names(r, r.hands[1]) == ["P1"]


def test_chance_probabilities_follow_the_remaining_cards() -> None:
    s = position(game(2), decks={0: ["H1", "H2", "bloom"], 1: ["P1"], 2: ["gamma1"]})
    act(s, "draw elements")
    outs = s.chance_outcomes()
    assert sorted(str(o) for o, _ in outs) == ["card H1", "card H2", "card bloom"]
    assert abs(sum(p for _, p in outs) - 1) < 1e-12
    assert not s.is_legal_chance(s.game.parse_action("card P1"))


def test_the_log_shows_drawn_elements_and_hides_drawn_hand_cards() -> None:
    s = position(game(2), decks={0: ["H1", "H2", "bloom"], 1: ["P1", "P2"], 2: ["gamma1"]})
    act(s, "draw elements")
    deal(s, "H1")
    act(s, "draw bodies")
    deal(s, "P1")
    # An element drawn is seen by all; a hand card drawn is hidden from every viewer (the
    # drawer, seat 0, included: the log has always read so).
    for viewer in (None, 0, 1):
        assert s.log_text(-3, viewer) == "card H1"
        assert s.log_text(-1, viewer) == "card (hidden)"
        assert s.log_text(-2, viewer) == "draw bodies"
    assert str(s.history[-1][1]) == "card P1"


def test_observation_has_fixed_size_and_only_own_hand() -> None:
    g3, g6 = game(3), game(6)
    obs = g3.make_observer()
    assert obs.size == g6.make_observer().size
    s = position(g3, hands={0: ["P1"], 1: ["P2"]})
    o0, o1 = obs.observation(s, 0), obs.observation(s, 1)
    assert len(o0) == len(o1) == obs.size
    assert all(isinstance(x, float) for x in o0)
    t = position(g3, hands={0: ["P1"], 1: ["P3"]})  # seat 1's hidden card differs
    assert obs.observation(t, 0) == o0 and obs.observation(t, 1) != o1
    for seed in range(3):
        m = _midgame(5, seed)
        obs5 = m.game.make_observer()
        for p in range(5):
            assert len(obs5.observation(m, p)) == obs.size


def test_render_draws_hands_nursery_and_systems() -> None:
    s = position(game(2), hands={0: ["P3"], 1: ["M1", "gamma1"]}, nursery={0: ["H5"]},
                 systems={0: [(["S1", "S2"], [("P6", ["M3"])], ["M6"])]})
    ui = s.game.ui
    text = ui.render(s, 0)
    assert "P3[Terra]" in text and "H5(2H)" in text
    assert "<S1 Sirius>+<S2 Vega>" in text and "(P6 Zephyr 1/3 M3)" in text
    assert "free moons M6" in text
    assert "0 star, 0 planet, 1 moon, 1 star fire" in text
    assert "gamma1" not in ui.render(s, 0) and "gamma1" in ui.render(s, 1)


def test_action_ui_targets_and_labels() -> None:
    s = position(game(3), hands={0: ["P3", "fission1", "M6"]}, nursery={0: ["H1", "C1", "HM1"]},
                 systems={0: [(["S1"], [], [])]})
    g = s.game
    for a in s.legal_actions():
        ui = g.ui.action_ui(s, a, 0)
        assert ui["label"] and isinstance(ui["targets"], list)
        assert ui["label"] == g.ui.describe_action(s, a, 0)
    assert g.ui.action_ui(s, g.parse_action("build P3 at S1"), 0)["targets"] == [
        "card:P3", "system:0:S1"]
    assert g.ui.action_ui(s, g.parse_action("fission 2"), 0)["targets"] == ["seat:2"]
    assert g.ui.action_ui(s, g.parse_action("draw bodies"), 0)["targets"] == ["deck:bodies"]


def test_every_tutorial_plays_its_steps() -> None:
    g = game(2)
    tuts = g.tutorials()
    assert {t.name for t in tuts} == {"split-double", "surplus-lost", "join-systems"}
    for t in tuts:
        s = t.build()
        for seat, note in t.steps:
            act(s, note, seat)
            while s.current_players() == (CHANCE,):
                deal(s, s.C.name[sorted(s.pool[s.queue[0][1]])[0]])
        assert t.text and t.title


def test_action_notation_round_trips_and_is_unique() -> None:
    g = game(6)
    seen = set()
    for a in g.all_actions():
        assert isinstance(a, Act) and g.parse_action(str(a)) == a
        seen.add(str(a))
    assert len(seen) == g.num_distinct_actions


@given(seed=st.integers(0, 10_000), players=st.integers(2, 6))
def test_random_playouts_keep_the_invariants(seed: int, players: int) -> None:
    g = game(players)
    rng = random.Random(seed)
    s = g.new_initial_state()
    C = g.cards
    while not s.is_terminal():
        p = s.current_players()[0]
        if p == CHANCE:
            s.apply(s.sample_chance(rng), CHANCE)
            continue
        acts = s.legal_actions(p)
        assert acts and len(set(acts)) == len(acts)
        flat = [c for place in s.census().values() for c in place]
        assert len(flat) == 79 and len(set(flat)) == 79
        for q in range(players):
            for stars, planets, _loose in s.systems[q]:
                assert 1 <= len(stars) <= 3  # SF-6.2
                for pl in planets:
                    assert len(s.moons_on[pl]) <= C.moon_limit[pl]  # SF-6.4
            for c in s.nursery[q]:
                assert C.cat[c] == 0
        assert all(s.wild >> c & 1 == 0 or any(c in n for n in s.nursery) for c in range(79))
        assert 0 <= s.actions_left <= 3
        if rng.random() < 0.05:
            r = s.resample(p, rng)
            assert r.view(p) == s.view(p)
        s.apply(rng.choice(acts), p)
    assert s.winners()
    b = s.score_breakdown()
    assert all(abs(sum(v for k, v in row.items() if k != "total") - row["total"]) < 1e-9
               for row in b)


@pytest.mark.parametrize("name", ["split-double", "surplus-lost"], ids=["SF-5.3", "SF-5.4"])
def test_tutorials_load_in_the_cli(name: str) -> None:
    """``nightsky play star-fire --tutorial NAME`` starts from the example and shows its text."""
    from typer.testing import CliRunner

    from nightsky.cli import _load_commands, app

    _load_commands()
    t = game(2).tutorial(name)
    out = CliRunner().invoke(app, ["play", "star-fire", "--players", "2", "--seats",
                                   "random,random", "--seed", "1", "--tutorial", name])
    assert out.exit_code == 0, out.output
    assert t.title in out.output and "build M6 at S1" in out.output
    assert "Final score" in out.output
