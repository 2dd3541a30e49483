"""Whole games: every game ends (SF-17), greedy beats random, game length.

The fast versions run with the normal tests; the 500-games-per-count versions are ``bench``.
"""

from __future__ import annotations

import statistics

import pytest

from nightsky.agents import make_agent
from tests.games.star_fire.helpers import game, play_random


def _greedy_vs_random(players: int, games: int) -> float:
    """Win share of greedy seats when half the table (alternating) is greedy."""
    g = game(players)
    share = 0.0
    for seed in range(games):
        agents = [make_agent("greedy" if (q + seed) % 2 == 0 else "random") for q in range(players)]
        s = play_random(g, seed, agents)
        greedy = [q for q in range(players) if (q + seed) % 2 == 0]
        share += sum(s.returns()[q] for q in greedy)
    return share / games


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SF_17_1_random_games_end(players: int) -> None:
    for seed in range(6):
        s = play_random(game(players), seed)
        assert s.is_terminal() and s.round <= s.game.options["max_rounds"]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_SF_17_1_greedy_games_end_naturally(players: int) -> None:
    agents = [make_agent("greedy") for _ in range(players)]
    for seed in range(3):
        s = play_random(game(players), seed, agents)
        assert s.is_terminal() and all(s.eliminated)  # by SF-16, not by the round cap


def test_greedy_clearly_beats_random() -> None:
    assert _greedy_vs_random(2, 12) >= 0.8


@pytest.mark.bench
@pytest.mark.timeout(3600)  # 1,000 whole games; the suite's default limit is for unit tests
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_SF_17_1_bench_500_games_end_with_plausible_length(players: int) -> None:
    g = game(players)
    for seed in range(500):
        assert play_random(g, seed).is_terminal()
    agents = [make_agent("greedy") for _ in range(players)]
    turns = []
    natural = 0
    wins = [0.0] * players
    for seed in range(500):
        s = play_random(g, seed, agents)
        assert s.is_terminal()
        turns.append(s.turns)
        natural += all(s.eliminated)
        wins = [w + r for w, r in zip(wins, s.returns(), strict=True)]
    mean = statistics.mean(turns)
    # 40-60 minutes at 35-50 s per two-action turn: about 50-100 turns (docs/games/star-fire.md).
    assert 50 <= mean <= 100, mean
    assert natural >= 0.95 * 500
    # Seat balance among equal bots: no seat wins more than 10 points above its fair share (the
    # first seat's edge at two players, about 7 points, is explained in the docs).
    assert max(wins) / 500 < 1 / players + 0.1, [w / 500 for w in wins]


@pytest.mark.bench
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_bench_greedy_beats_random_at_every_count(players: int) -> None:
    assert _greedy_vs_random(players, 100) >= 0.75
