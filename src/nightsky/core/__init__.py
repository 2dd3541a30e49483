"""The game contract shared by every game, agent, simulator, server and adapter."""

from nightsky.core.errors import (
    ComponentError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
    RecordError,
)
from nightsky.core.game import CHANCE, Action, Game, GameInfo, Option, State, Tutorial
from nightsky.core.record import make_record, parse_record, replay, save_record
from nightsky.core.registry import game_class, game_ids, load_game, register

__all__ = [
    "CHANCE",
    "Action",
    "ComponentError",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "NotYourTurnError",
    "Option",
    "OptionError",
    "RecordError",
    "State",
    "Tutorial",
    "game_class",
    "game_ids",
    "load_game",
    "make_record",
    "register",
    "parse_record",
    "replay",
    "save_record",
]
