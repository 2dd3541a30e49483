"""Game records (``nightsky-record/1``): save, load and replay through the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from nightsky.core.errors import GameError, RecordError
from nightsky.core.game import CHANCE, State
from nightsky.core.registry import load_game

FORMAT = "nightsky-record/1"


class RecordResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scores: list[float]
    winners: list[int]


class Record(BaseModel):
    """The JSON shape of a saved game."""

    model_config = ConfigDict(extra="forbid")
    format: str = Field(pattern=r"^nightsky-record/1$")
    game: str
    params: dict[str, Any]
    history: list[tuple[int, str]]
    result: RecordResult | None = None


def make_record(state: State) -> dict[str, Any]:
    """The record of ``state`` so far (with its result once the game is over)."""
    rec: dict[str, Any] = {
        "format": FORMAT,
        "game": state.game.info.id,
        "params": state.game.params,
        "history": [[seat, str(action)] for seat, action in state.history],
        "result": None,
    }
    if state.is_terminal():
        rec["result"] = {"scores": state.scores(), "winners": state.winners()}
    return rec


def save_record(state: State, path: str | Path) -> None:
    Path(path).write_text(json.dumps(make_record(state), indent=1) + "\n")


def parse_record(data: Any) -> Record:
    """Validate a record given as a dict, JSON text or path; raise RecordError naming the field."""
    if isinstance(data, Path):
        try:
            data = data.read_text()
        except OSError as exc:
            raise RecordError(f"cannot read record file: {exc}") from None
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
    try:
        return Record.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise RecordError(f"malformed record: field {where}: {first['msg']}") from None


def replay(data: Any, *, check_result: bool = True, upto: int | None = None) -> State:
    """Re-apply every action of a record through the rules and return the final state.

    Raises RecordError naming the move number when an action cannot be read or is illegal,
    and when the recorded result differs from the replayed one.
    """
    rec = parse_record(data)
    try:
        game = load_game(rec.game, **rec.params)
    except GameError as exc:
        raise RecordError(f"record's game cannot be built: {exc}") from None
    state = game.new_initial_state()
    history = rec.history if upto is None else rec.history[:upto]
    for i, (seat, text) in enumerate(history, start=1):
        try:
            action = game.parse_action(text)
            state.apply(action, seat)
        except GameError as exc:
            who = "chance" if seat == CHANCE else f"seat {seat}"
            raise RecordError(f"move {i} ({who}: {text!r}) is refused: {exc}") from None
    if check_result and upto is None and rec.result is not None:
        if not state.is_terminal():
            raise RecordError("record claims a result but its history does not finish the game")
        scores, winners = state.scores(), state.winners()
        if [float(x) for x in scores] != [float(x) for x in rec.result.scores] or sorted(
            winners
        ) != sorted(rec.result.winners):
            raise RecordError(
                f"replayed result (scores {scores}, winners {winners}) differs from the "
                f"recorded {rec.result.model_dump()}"
            )
    return state
