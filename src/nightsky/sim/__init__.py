"""Simulation: match runner, statistics, reports."""

from nightsky.sim.runner import GameResult, MatchSpec, play_game, play_spec, run_matches
from nightsky.sim.stats import summarize, wilson_interval

__all__ = [
    "GameResult", "MatchSpec", "play_game", "play_spec", "run_matches", "summarize",
    "wilson_interval",
]
