"""Property tests: random playouts of every seat mix keep the contract's invariants."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightsky import load_game
from nightsky.core.errors import IllegalActionError
from nightsky.core.game import CHANCE
from nightsky.core.record import make_record, replay
from nightsky.games.starlight.game import StarlightGame

CONFIGS = StarlightGame.conformance_configs()


def ids(s):
    return Counter(x for v in s.census().values() for x in v)


def playout(s, rng, check=True, limit=20000):
    g = s.game
    observer = g.make_observer()
    base = ids(s) if check else None
    steps = 0
    last_np = list(s.np)
    while not s.is_terminal():
        steps += 1
        assert steps < limit, "the game did not end"
        cp = s.current_players()
        if cp == (CHANCE,):
            outs = s.chance_outcomes()
            assert outs and abs(sum(p for _, p in outs) - 1) < 1e-9
            d = s.sample_chance(rng)
            assert s.is_legal_chance(d) and g.parse_action(str(d)) == d
            s.apply(d, CHANCE)
            continue
        p = cp[0]
        legal = s.legal_actions(p)
        assert legal, "an acting seat always has a legal action"
        if check:
            for a in legal:
                assert g.parse_action(str(a)) == a
                assert g.action_from_id(g.action_id(a)) == a
            if steps % 11 == 0:
                legal_set = set(legal)
                for a in g.all_actions():  # the fast path of is_legal agrees with the list
                    assert s.is_legal(a, p) == (a in legal_set)
            if steps % 7 == 0:
                bad = [a for a in g.all_actions() if a not in legal]
                a = rng.choice(bad)
                before = json.dumps(s.view(None), sort_keys=True)
                with pytest.raises(IllegalActionError):
                    s.apply(a, p)
                assert json.dumps(s.view(None), sort_keys=True) == before
            if steps % 25 == 0:
                q = rng.randrange(g.num_players)
                v = s.view(q)
                json.dumps(v)
                r = s.resample(q, rng)
                assert r.view(q) == v
                obs = observer.observation(s, q)
                assert len(obs) == observer.size
                assert observer.observation(r, q) == obs, "observations hold no secrets"
                # The resampled history replays to the resampled secrets.
                again = g.new_initial_state()
                for seat, act in r.history:
                    again.step(act, seat)
                assert again.laurels == r.laurels and again.god_hand == r.god_hand
                assert again.god == r.god and again.god_discard == r.god_discard
        s.apply(rng.choice(legal), p)
        assert s.ap >= 0
        assert all(a >= b for a, b in zip(s.np, last_np, strict=True))
        last_np = list(s.np)
        if check:
            assert ids(s) == base, "components are conserved"
    return s


def test_SL_1_1_conformance_configs_cover_every_mix():
    mixes = {(c["players"], c["starbots"]) for c in CONFIGS}
    every = {(live, bots) for live in range(1, 6) for bots in range(5) if live + bots <= 5}
    assert mixes == every and len(every) == 15
    assert any(c.get("gods") for c in CONFIGS)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    cfg=st.sampled_from(CONFIGS),
    gods=st.booleans(),
)
def test_random_playouts_keep_invariants(seed, cfg, gods):
    g = load_game("starlight", **{**cfg, "gods": gods, "max_rounds": 12})
    s = playout(g.new_initial_state(), random.Random(seed))
    rec = make_record(s)
    again = replay(json.loads(json.dumps(rec)))
    assert again.scores() == s.scores() and again.winners() == s.winners()


def test_clone_is_independent():
    g = load_game("starlight", players=2, starbots=1)
    s = g.new_initial_state()
    rng = random.Random(3)
    for _ in range(60):
        cp = s.current_players()
        s.apply(s.sample_chance(rng) if cp == (CHANCE,) else rng.choice(s.legal_actions()), cp[0])
    c = s.clone()
    before = json.dumps(s.view(None), sort_keys=True)
    playout(c, random.Random(4), check=False)
    assert json.dumps(s.view(None), sort_keys=True) == before
    assert c.history[: len(s.history)] == s.history
