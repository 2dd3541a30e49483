"""One conformance suite for every registered game and every configuration it declares.

Each new game gets these checks for free (``Game.conformance_configs()``): playouts end, the
same seed gives the same game, records round-trip, notation and ids round-trip, illegal probes
raise and change nothing, ``resample`` keeps the seat's view, components are conserved.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nightsky.core import (
    CHANCE,
    GameError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    load_game,
    make_record,
    replay,
)
from nightsky.core.game import Game, State
from nightsky.core.registry import game_class, game_ids

MAX_STEPS = 20_000

CONFIGS = [
    pytest.param(gid, cfg, id=f"{gid}-" + "-".join(f"{k}{v}" for k, v in cfg.items()))
    for gid in game_ids()
    for cfg in game_class(gid).conformance_configs()
]


def random_playout(game: Game, seed: int, check: Any = None) -> State:
    """Play random actions (chance sampled) to the end; ``check(state, rng)`` at each step."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(MAX_STEPS):
        players = state.current_players()
        if not players:
            return state
        if check is not None:
            check(state, rng)
        seat = players[0] if players[0] == CHANCE else rng.choice(players)
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            actions = state.legal_actions(seat)
            assert actions, f"seat {seat} acts but has no legal action"
            state.apply(rng.choice(actions), seat)
    raise AssertionError(f"game did not end within {MAX_STEPS} steps")


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_info_and_options(game_id: str, cfg: dict[str, Any]) -> None:
    game = load_game(game_id, **cfg)
    info = game.info
    assert info.id == game_id
    assert info.min_players <= game.num_players <= info.max_players
    assert game.num_seats >= game.num_players
    assert load_game(game_id, **game.params).params == game.params
    with pytest.raises(GameError, match="no option"):
        load_game(game_id, **cfg, no_such_option_xyz=1)
    with pytest.raises(GameError):
        load_game(game_id, players=info.max_players + 1)
    json.dumps(info.describe())


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_playouts_end_and_keep_invariants(
    game_id: str, cfg: dict[str, Any], seed: int
) -> None:
    game = load_game(game_id, **cfg)
    census0: list[str] | None = None

    def check(state: State, rng: random.Random) -> None:
        nonlocal census0
        players = state.current_players()
        assert players == tuple(players) and len(set(players)) == len(players)
        assert CHANCE not in players or players == (CHANCE,)
        for p in players:
            if p != CHANCE:
                acts = state.legal_actions(p)
                assert acts, f"seat {p} must have a legal action"
                assert len(set(acts)) == len(acts), "legal actions must be distinct"
        census = state.census()
        if census is not None:
            flat = [c for place in census.values() for c in place]
            assert len(flat) == len(set(flat)), "a component is in two places at once"
            if census0 is None:
                census0 = sorted(flat)
            else:
                assert sorted(flat) == census0, "components appeared or vanished"

    final = random_playout(game, seed, check)
    assert final.is_terminal()
    scores = final.scores()
    assert len(scores) == game.num_seats
    breakdown = final.score_breakdown()
    assert all(b["total"] == s for b, s in zip(breakdown, scores, strict=True))
    winners = final.winners()
    assert winners and all(0 <= w < game.num_seats for w in winners)
    json.dumps(final.view(None))
    with pytest.raises(GameError):
        final.apply(game.all_actions()[0], 0)


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_legal_ids_and_observation_buffers_match_the_lists(
    game_id: str, cfg: dict[str, Any]
) -> None:
    """``legal_action_ids`` are ``action_id`` of ``legal_actions`` in the same order, and
    ``observation_into`` writes exactly ``observation`` into a zeroed list, float32 array and
    memoryview (the RL adapters' fast paths are the contract's values)."""
    game = load_game(game_id, **cfg)
    try:
        observer = game.make_observer()
    except NotImplementedError:
        observer = None
    checked = 0

    def check(state: State, rng: random.Random) -> None:
        nonlocal checked
        for p in range(game.num_players):
            want = [game.action_id(a) for a in state.legal_actions(p)]
            assert state.legal_action_ids(p) == want
            if observer is None or rng.random() > 0.2:
                continue
            obs = observer.observation(state, p)
            into = [0.0] * observer.size
            observer.observation_into(state, p, into)
            assert into == obs
            arr = np.zeros(observer.size, np.float32)
            observer.observation_into(state, p, arr)
            assert np.array_equal(arr, np.array(obs, np.float32))
            arr2 = np.zeros(observer.size, np.float32)
            observer.observation_into(state, p, memoryview(arr2))
            assert np.array_equal(arr2, arr)
            checked += 1

    random_playout(game, 5, check)
    assert observer is None or checked > 0


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_same_seed_same_game_and_record_round_trip(game_id: str, cfg: dict[str, Any]) -> None:
    game = load_game(game_id, **cfg)
    a = random_playout(game, 7)
    b = random_playout(load_game(game_id, **cfg), 7)
    assert [(s, str(x)) for s, x in a.history] == [(s, str(x)) for s, x in b.history]
    assert a.scores() == b.scores()
    rec = json.loads(json.dumps(make_record(a)))
    again = replay(rec)
    assert again.scores() == a.scores() and again.winners() == a.winners()
    assert again.view(None) == a.view(None)
    for p in range(game.num_seats):
        assert again.view(p) == a.view(p)


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_notation_ids_and_illegal_probes(game_id: str, cfg: dict[str, Any]) -> None:
    game = load_game(game_id, **cfg)
    all_actions = list(game.all_actions())
    assert len(all_actions) == game.num_distinct_actions
    assert len({str(a) for a in all_actions}) == len(all_actions), "notations must be unique"
    for i, a in enumerate(all_actions):
        assert game.action_id(a) == i and game.action_from_id(i) == a
        assert game.parse_action(str(a)) == a
    with pytest.raises(InvalidActionError):
        game.parse_action("%% not an action %%")
    with pytest.raises(InvalidActionError):
        game.action_from_id(len(all_actions))
    probe_rng = random.Random(3)

    def check(state: State, rng: random.Random) -> None:
        players = state.current_players()
        if players == (CHANCE,):
            outcome = state.sample_chance(random.Random(rng.random()))
            assert game.parse_action(str(outcome)) == outcome
            return
        seat = players[0]
        for a in state.legal_actions(seat):
            assert game.parse_action(str(a)) == a
            assert game.action_from_id(game.action_id(a)) == a
        if probe_rng.random() > 0.2:
            return
        before = [state.view(p) for p in [None, *range(game.num_seats)]]
        n_hist = len(state.history)
        legal = set(state.legal_actions(seat))
        illegal = [
            a for a in probe_rng.sample(all_actions, min(25, len(all_actions))) if a not in legal
        ]
        for a in illegal[:5]:
            with pytest.raises(IllegalActionError) as err:
                state.apply(a, seat)
            assert str(err.value), "the error must say why"
        outsiders = [p for p in range(game.num_seats) if p not in players]
        if outsiders:
            with pytest.raises(NotYourTurnError):
                state.apply(next(iter(legal)), outsiders[0])
        with pytest.raises(NotYourTurnError):
            state.apply(state.legal_actions(seat)[0], CHANCE)
        after = [state.view(p) for p in [None, *range(game.num_seats)]]
        assert after == before and len(state.history) == n_hist, "an illegal probe changed the game"

    random_playout(game, 11, check)


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_views_and_resample(game_id: str, cfg: dict[str, Any]) -> None:
    game = load_game(game_id, **cfg)
    differed = False
    hidden = game.info.hidden_information

    def check(state: State, rng: random.Random) -> None:
        nonlocal differed
        if rng.random() > 0.15:
            return
        for p in range(game.num_seats):
            v = state.view(p)
            json.dumps(v)
            sample = state.resample(p, random.Random(rng.random()))
            assert sample.view(p) == v, "resample changed what the seat can see"
            assert sample.current_players() == state.current_players()
            if hidden and any(
                sample.view(q) != state.view(q) for q in range(game.num_seats) if q != p
            ):
                differed = True
        json.dumps(state.view(None))

    for seed in (1, 2):
        random_playout(game, seed, check)
    if hidden and game.num_seats > 1:
        # With one seat nobody else's view can differ (a solo game hides only deck orders).
        assert differed, "resample never redrew any hidden part"


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_clone_is_independent(game_id: str, cfg: dict[str, Any]) -> None:
    game = load_game(game_id, **cfg)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(60):
        players = state.current_players()
        if not players:
            break
        seat = players[0]
        action = (
            state.sample_chance(rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        )
        copy = state.clone()
        before = state.view(None)
        copy.apply(action, seat)
        assert state.view(None) == before, "applying to a clone changed the original"
        state.apply(action, seat)
        assert copy.view(None) == state.view(None)


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_a_history_free_clone_plays_the_same(game_id: str, cfg: dict[str, Any]) -> None:
    # Search copies positions without their history (``clone(history=False)``): nothing in
    # the rules may read it, and the log of the moves played on the copy reads as on the state.
    game = load_game(game_id, **cfg)
    rng = random.Random(6)
    state = game.new_initial_state()
    viewers = [*range(game.num_seats), None]
    for step in range(120):
        players = state.current_players()
        if not players:
            break
        if step in (30, 90):
            bare = state.clone(history=False)
            done = len(state.history)
            assert bare.history == [] and len(state.history) == done
            twin, r1, r2 = state.clone(), random.Random(step), random.Random(step)
            for _ in range(25):
                acting = twin.current_players()
                if not acting:
                    break
                for st in (bare, twin):
                    assert st.current_players() == acting
                for v in viewers:
                    assert bare.view(v) == twin.view(v)
                seat = acting[0]
                if seat == CHANCE:
                    moves = (twin.sample_chance(r1), bare.sample_chance(r2))
                else:
                    legal = twin.legal_actions(seat)
                    assert bare.legal_actions(seat) == legal
                    moves = (legal[r1.randrange(len(legal))],) * 2
                    r2.randrange(len(legal))
                twin.apply(moves[0], seat)
                bare.apply(moves[1], seat)
                for v in viewers:
                    assert bare.log_text(-1, v) == twin.log_text(-1, v)
            assert bare.scores() == twin.scores()
            assert len(state.history) == done  # the original is untouched
        seat = players[0]
        state.apply(
            state.sample_chance(rng) if seat == CHANCE else rng.choice(state.legal_actions(seat)),
            seat,
        )


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_states_survive_pickling(game_id: str, cfg: dict[str, Any]) -> None:
    # The server thinks in other processes: a state (compiled or not) must cross over whole.
    import pickle

    game = load_game(game_id, **cfg)
    seen = 0

    def check(state: State, rng: random.Random) -> None:
        nonlocal seen
        if rng.random() < 0.1 and seen < 5:
            seen += 1
            copy = pickle.loads(pickle.dumps(state))
            assert copy.history == state.history
            for viewer in [*range(game.num_seats), None]:
                assert copy.view(viewer) == state.view(viewer)
                assert [copy.log_text(i, viewer) for i in range(len(copy.history))] == [
                    state.log_text(i, viewer) for i in range(len(state.history))
                ]
            players = state.current_players()
            if players and players[0] != CHANCE:
                assert copy.legal_actions(players[0]) == state.legal_actions(players[0])

    random_playout(game, 5, check)


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_evaluate_all_is_evaluate_of_every_seat(game_id: str, cfg: dict[str, Any]) -> None:
    """A game's ``evaluate_all`` (search cut-offs) gives exactly ``evaluate`` of each seat, at
    every step of a random game, so a search plays the same game whichever it calls."""
    game = load_game(game_id, **cfg)
    judge = game.evaluator
    seen = [0]

    def check(state: State, _rng: random.Random) -> None:
        every = judge.evaluate_all(state)
        assert every == [judge.evaluate(state, p) for p in range(game.num_seats)]
        seen[0] += 1

    for seed in (3, 4):
        random_playout(game, seed, check)
    assert seen[0] > 10


@pytest.mark.parametrize(("game_id", "cfg"), CONFIGS)
def test_random_action_is_a_choice_from_the_legal_list(game_id: str, cfg: dict[str, Any]) -> None:
    """``random_action`` (search rollouts) draws what ``core.rng.choice`` draws from
    ``legal_actions``: the same action, the generator left in the same state, whatever the
    game overrides for speed."""
    from nightsky.core.rng import choice

    game = load_game(game_id, **cfg)
    seen = [0]

    def check(state: State, rng: random.Random) -> None:
        for p in state.current_players():
            if p == CHANCE or not state.legal_actions(p):
                continue
            seed = rng.randrange(1 << 30)
            a, b = random.Random(seed), random.Random(seed)
            assert state.random_action(p, a) == choice(b, state.legal_actions(p))
            assert a.getstate() == b.getstate()
            seen[0] += 1

    random_playout(game, 6, check)
    assert seen[0] > 0
