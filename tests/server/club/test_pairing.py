"""Tournament pairing and standings (``server/club/pairing.py``), free of any server."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightsky.server.club.pairing import (
    Result,
    game_points,
    meetings,
    pair_round_robin,
    pair_swiss,
    rounds_needed,
    standings,
)


def test_game_points_are_the_share_of_players_beaten():
    assert game_points([1, 2]) == [1.0, 0.0]
    assert game_points([1, 1]) == [0.5, 0.5]
    assert game_points([2, 1, 3]) == [0.5, 1.0, 0.0]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_meets_everyone_exactly_once(n):
    players = list(range(10, 10 + n))
    seen, byes = [], []
    for r in range(1, rounds_needed("round-robin", n) + 1):
        p = pair_round_robin(players, r)
        seen += [frozenset(t) for t in p.tables]
        byes += p.byes
        in_round = [x for t in p.tables for x in t] + p.byes
        assert sorted(in_round) == players
    everyone = [frozenset(c) for c in combinations(players, 2)]
    assert sorted(map(sorted, seen)) == sorted(map(sorted, everyone))
    assert sorted(byes) == (players if n % 2 else [])


def test_round_robin_refuses_a_round_outside_it():
    with pytest.raises(ValueError, match="rounds 1..3"):
        pair_round_robin([1, 2, 3, 4], 4)


def _play(pairing, round_no, winner_of):
    out = [Result(round_no, (b,), (1,), bye=True) for b in pairing.byes]
    for t in pairing.tables:
        w = winner_of(t)
        out.append(Result(round_no, t, tuple(1 if p == w else 2 for p in t)))
    return out


def test_swiss_pairs_score_groups_and_never_repeats_when_avoidable():
    players = [1, 2, 3, 4]
    results: list[Result] = []
    first = pair_swiss(players, results, 2)
    # round 1 (all on 0): by entry order, the top player against the next one
    assert [frozenset(t) for t in first.tables] == [frozenset({1, 2}), frozenset({3, 4})]
    results += _play(first, 1, min)  # 1 and 3 win
    second = pair_swiss(players, results, 2)
    # winners meet winners, losers meet losers
    assert {frozenset(t) for t in second.tables} == {frozenset({1, 3}), frozenset({2, 4})}
    results += _play(second, 2, min)
    third = pair_swiss(players, results, 2)
    assert {frozenset(t) for t in third.tables} == {frozenset({1, 4}), frozenset({2, 3})}
    results += _play(third, 3, min)
    assert max(meetings(results).values()) == 1
    table = standings(players, results)
    assert [(s.player, s.points) for s in table] == [(1, 3.0), (2, 2.0), (3, 1.0), (4, 0.0)]


def test_swiss_gives_the_bye_to_the_lowest_player_without_one():
    players = [1, 2, 3]
    results: list[Result] = []
    byes = []
    for r in (1, 2, 3):
        p = pair_swiss(players, results, 2)
        assert len(p.byes) == 1 and len(p.tables) == 1
        byes += p.byes
        results += _play(p, r, min)
    assert sorted(byes) == [1, 2, 3]  # each once


def test_buchholz_and_sonneborn_berger_break_ties():
    # 1 beat 2, 3 beat 4, 2 beat 3, 4 beat 1: everyone on 1 point but opponents differ
    res = [
        Result(1, (1, 2), (1, 2)), Result(1, (3, 4), (1, 2)),
        Result(2, (2, 3), (1, 2)), Result(2, (4, 1), (1, 2)),
        Result(3, (1, 3), (1, 1)),  # a draw
    ]
    table = {s.player: s for s in standings([1, 2, 3, 4], res)}
    assert table[1].points == 1.5 and table[3].points == 1.5
    # 1 met 2 (1 pt), 4 (1 pt) and 3 (1.5 pts)
    assert table[1].buchholz == pytest.approx(3.5)
    # SB of 1: beat 2 (1 pt) + half of 3's 1.5
    assert table[1].sonneborn_berger == pytest.approx(1.75)


def test_multi_player_swiss_fills_tables_with_the_fewest_repeat_meetings():
    players = list(range(1, 10))
    results: list[Result] = []
    for r in (1, 2):
        p = pair_swiss(players, results, 3)
        assert sorted(x for t in p.tables for x in t) == players and not p.byes
        results += [Result(r, t, (1, 2, 3)) for t in p.tables]
    # 9 players in 3-tables: two rounds can avoid every repeat meeting
    assert max(meetings(results).values()) == 1


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), rounds=st.integers(1, 5), seed=st.integers(0, 10**6))
def test_every_swiss_round_seats_each_player_once(n, rounds, seed):
    import random

    rng = random.Random(seed)
    players = list(range(100, 100 + n))
    results: list[Result] = []
    for r in range(1, rounds + 1):
        p = pair_swiss(players, results, 2)
        seated = [x for t in p.tables for x in t] + p.byes
        assert sorted(seated) == players
        assert len(p.byes) == n % 2
        results += _play(p, r, lambda t: rng.choice(t))
    if rounds < n and n % 2 == 0:
        # fewer rounds than opponents: no one needs to meet anyone twice... at least early on
        assert max(meetings(results[: n // 2]).values(), default=1) == 1
