"""Parameters shared by the RL adapter tests: every registered game and its configurations."""

from __future__ import annotations

import importlib.util
import json
import random
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from nightsky.core.game import CHANCE
from nightsky.core.registry import game_class, game_ids, load_game


def all_configs() -> list[tuple[str, dict[str, Any]]]:
    """Every (game id, parameters) the conformance suite plays: each supported player count."""
    return [(g, cfg) for g in game_ids() for cfg in game_class(g).conformance_configs()]


def _decisions(game_id: str, params: dict[str, Any], seed: int = 0) -> int:
    """Seat decisions in one seeded random game (how long the game is for search bots)."""
    game = load_game(game_id, **params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        players = state.current_players()
        if players == (CHANCE,):
            state.step(state.sample_chance(rng), CHANCE)
        else:
            seat = min(players)
            state.step(rng.choice(state.legal_actions(seat)), seat)
            n += 1
    return n


@cache
def _smallest() -> tuple[tuple[str, str], ...]:
    out = []
    for g in game_ids():
        cfgs = game_class(g).conformance_configs()
        best = min(cfgs, key=lambda c: (sum(_decisions(g, c, s) for s in range(3)), len(c)))
        out.append((g, json.dumps(best)))
    return tuple(out)


def smallest_configs() -> list[tuple[str, dict[str, Any]]]:
    """One configuration per game: the one with the shortest random games (for slow tools)."""
    return [(g, json.loads(c)) for g, c in _smallest()]


def config_id(value: Any) -> str:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in value.items())
    return str(value)


def final_reward(state: Any, seat: int, solo_or_win: str = "auto") -> float:
    """What ``reward=win`` (or ``score``) pays ``seat`` at the end, written out from the
    rules of the docs: the win share, or the score less the best other seat's (the score
    alone in a game of one seat). ``auto`` is win unless the game has one seat."""
    scores = [float(v) for v in state.scores()]
    kind = solo_or_win
    if kind == "auto":
        kind = "score" if len(scores) == 1 else "win"
    if kind == "win":
        return float(state.returns()[seat])
    others = [v for q, v in enumerate(scores) if q != seat]
    return scores[seat] - (max(others) if others else 0.0)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str) -> ModuleType:
    """``examples/<name>.py`` as a module (the examples are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def assert_terminal_text(text: str, styled: str) -> None:
    """``text`` (an ``ansi`` render) is ``styled`` (the game's render, with rich style tags)
    as terminal text: the same visible characters, no tag left, escape codes where it had
    tags."""
    from nightsky.core.markup import plain_text

    visible = _ESCAPE.sub("", text)
    assert visible.rstrip() == plain_text(styled).rstrip()
    assert plain_text(text) == text  # no style tag left
    if plain_text(styled) != styled:
        assert _ESCAPE.search(text), "style tags but no escape codes"
