"""Learning a game from its rulebook examples: a tutorial walked step by step.

A ``Tutorial`` (``Game.tutorials()``) is a position and the moves the rulebook plays from it.
``lesson_steps`` tells those moves in words; ``walk`` replays them and gives, before each move,
what a learner needs to make it themselves: who moves, the move in words and its board targets,
and every other choice open at that moment, so a client can point at the example's move and
answer any other one with a hint. Nothing here knows a game: it goes through the contract
(``parse_action``, ``legal_actions``, ``GameUI``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nightsky.core.errors import GameError
from nightsky.core.state import CHANCE
from nightsky.core.ui import seat_label

if TYPE_CHECKING:
    from nightsky.core.game import State
    from nightsky.core.info import Tutorial


@dataclass(frozen=True)
class LessonStep:
    """One move of a tutorial: its ``seat`` (-1: chance), ``notation``, the move in words
    (``label``; None where the position alone cannot play it) and the log's sentences about
    it (``told``: what the move did on the table)."""

    seat: int
    notation: str
    label: str | None
    told: tuple[str, ...] = ()


@dataclass
class Stop:
    """The table just before step ``index`` (or after the last one: ``step`` is None)."""

    index: int
    state: State
    step: LessonStep | None
    choices: list[dict[str, Any]] = field(default_factory=list)
    """Every legal choice of the acting seat: ``{"notation", "label", "targets",
    "expected"}`` (``expected``: the example's move)."""


def walk(tutorial: Tutorial, names: Sequence[str]) -> list[Stop]:
    """The tutorial's positions, one before each step and one at the end; the walk stops
    early at a step the position cannot play (the rest is told in ``lesson_steps``)."""
    state = tutorial.build()
    game = state.game
    ui = game.ui
    stops: list[Stop] = []
    for i, (seat, notation) in enumerate(tutorial.steps):
        try:
            action = game.parse_action(notation)
        except GameError:
            break
        if seat == CHANCE:
            if not state.is_legal_chance(action):
                break
            label = ui.describe_chance(state, action)
            stops.append(Stop(i, state.clone(), LessonStep(seat, notation, label)))
        else:
            if seat not in state.current_players():
                break
            legal = state.legal_actions(seat)
            if action not in legal:
                break
            choices = [
                {
                    "notation": str(a),
                    "expected": a == action,
                    **ui.action_ui(state, a, seat, names),
                }
                for a in legal
            ]
            label = ui.describe_action(state, action, seat, names)
            stops.append(Stop(i, state.clone(), LessonStep(seat, notation, label), choices))
        before = state.clone()
        state.apply(action, seat)
        told = ui.describe_log_entry(before, state, len(state.history) - 1, None, names)
        last = stops[-1]
        assert last.step is not None
        last.step = LessonStep(last.step.seat, notation, last.step.label, tuple(told))
    stops.append(Stop(len(stops), state, None))
    return stops


def lesson_names(tutorial: Tutorial) -> list[str]:
    """The seats as the example calls them (its ``names``), the game's ``seat_names`` for the
    rest."""
    own = tutorial.build().game.ui.seat_names()
    return [tutorial.names[i] if i < len(tutorial.names) else n for i, n in enumerate(own)]


def lesson_steps(tutorial: Tutorial, names: Sequence[str]) -> list[LessonStep]:
    """Every step of the tutorial in words where the position can play it (the rest by its
    notation: ``label`` None)."""
    played = [s.step for s in walk(tutorial, names) if s.step is not None]
    rest = [LessonStep(seat, n, None) for seat, n in tutorial.steps[len(played):]]
    return played + rest


def step_sentence(step: LessonStep, names: Sequence[str]) -> str:
    """``Seat 1: placed ...`` style line for a list of the example's moves."""
    what = step.label or step.notation
    return what if step.seat < 0 else f"{seat_label(names, step.seat)}: {what}"
