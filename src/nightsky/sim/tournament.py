"""Tournaments: every agent in every seat, win rates with confidence intervals, ratings.

A tournament of agents ``A, B, C`` at ``N`` seats plays *lineups* in rotation: game ``i`` seats
lineup ``i % L`` and plays deal ``i // L`` (see ``MatchSpec.lineups``), so every lineup meets the
same shuffles. Lineups are every ordering of ``N`` distinct agents when there are at least ``N``
agents (each pairing in every seat), else the ``K`` cyclic rotations of the agent list repeated
to fill the seats (each agent in every seat). Ratings come from ``openskill`` (Plackett-Luce),
updated game by game in index order so they do not depend on the engine either.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import Any

from openskill.models import PlackettLuce

from nightsky.core.errors import OptionError
from nightsky.sim.runner import GameResult
from nightsky.sim.stats import fmean, wilson_interval

MAX_LINEUPS = 720


def lineups(agents: Sequence[str], seats: int) -> tuple[tuple[str, ...], ...]:
    """The seatings a tournament rotates through (see the module docstring)."""
    if not agents:
        raise OptionError("a tournament needs at least one agent")
    if len(set(agents)) != len(agents):
        raise OptionError(f"each agent may be listed once: {', '.join(agents)}")
    k = len(agents)
    if k >= seats:
        out = tuple(permutations(agents, seats))
        if len(out) > MAX_LINEUPS:
            raise OptionError(
                f"{k} agents at {seats} seats make {len(out)} seatings (at most {MAX_LINEUPS})"
            )
        return out
    return tuple(tuple(agents[(r + s) % k] for s in range(seats)) for r in range(k))


def _ranks(r: GameResult) -> list[float]:
    # Winners first (shared victories share a rank), then by final score.
    keys = [(1 if p in r.winners else 0, r.scores[p]) for p in range(len(r.agents))]
    order = sorted(set(keys), reverse=True)
    return [float(order.index(k) + 1) for k in keys]


def summarize_tournament(
    results: Sequence[GameResult],
    agents: Sequence[str],
    *,
    game_id: str,
    players: int,
    seconds: float,
) -> dict[str, Any]:
    """The tournament summary (``nightsky tournament --json``): per agent its seat-games, win
    rate with a 95% Wilson interval, mean score and rating; per seat, the win share of the seat
    whoever sat there."""
    results = sorted(results, key=lambda r: r.index)
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    seats_played = {a: 0 for a in agents}
    wins = {a: 0.0 for a in agents}
    scores: dict[str, list[float]] = {a: [] for a in agents}
    seat_wins = [0.0] * players
    per_seat: dict[str, list[list[float]]] = {a: [[0, 0.0] for _ in range(players)] for a in agents}
    for r in results:
        names = r.agents[:players]
        for p, a in enumerate(names):
            share = 1.0 / len(r.winners) if p in r.winners else 0.0
            seats_played[a] += 1
            wins[a] += share
            scores[a].append(r.scores[p])
            seat_wins[p] += share
            per_seat[a][p][0] += 1
            per_seat[a][p][1] += share
        if len(set(names)) > 1:
            ranks = _ranks(r)[:players]
            new = model.rate([[ratings[a]] for a in names], ranks=ranks)
            merged: dict[str, list[Any]] = {}
            for a, team in zip(names, new, strict=True):
                merged.setdefault(a, []).append(team[0])
            for a, got in merged.items():  # an agent in several seats: average its updates
                ratings[a] = model.rating(
                    mu=fmean([g.mu for g in got]), sigma=fmean([g.sigma for g in got]), name=a
                )
    n = len(results)
    table: list[dict[str, Any]] = []
    for a in agents:
        k = seats_played[a]
        lo, hi = wilson_interval(wins[a], k)
        table.append(
            {
                "agent": a,
                "seat_games": k,
                "wins": round(wins[a], 6),
                "win_rate": round(wins[a] / k, 6) if k else 0.0,
                "win_ci95": [round(lo, 6), round(hi, 6)],
                "win_rate_by_seat": [
                    round(w / c, 6) if c else None for c, w in per_seat[a]
                ],
                "mean_score": round(fmean(scores[a]), 6),
                "rating": {
                    "mu": round(ratings[a].mu, 4),
                    "sigma": round(ratings[a].sigma, 4),
                    "ordinal": round(ratings[a].ordinal(), 4),
                },
            }
        )
    table.sort(key=lambda row: -row["rating"]["ordinal"])
    return {
        "game": game_id,
        "players": players,
        "games": n,
        "agents": list(agents),
        "lineups": len(lineups(agents, players)),
        "fair_share": round(1 / players, 6),
        "standings": table,
        "seat_win_share": [round(w / n, 6) if n else 0.0 for w in seat_wins],
        "mean_actions": round(fmean([r.actions for r in results]), 3),
        "games_per_second": round(n / seconds, 3) if seconds > 0 else None,
    }
