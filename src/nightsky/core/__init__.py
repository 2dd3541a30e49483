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
from nightsky.core.evaluator import Evaluator
from nightsky.core.game import (
    CHANCE,
    Action,
    ActionBase,
    Game,
    GameInfo,
    LogSecret,
    Option,
    State,
    Tutorial,
)
from nightsky.core.observer import Observer
from nightsky.core.record import make_record, parse_record, replay, save_record
from nightsky.core.registry import game_class, game_ids, load_game, register
from nightsky.core.ui import GameUI

__all__ = [
    "CHANCE",
    "Action",
    "ActionBase",
    "ComponentError",
    "Evaluator",
    "Game",
    "GameError",
    "GameInfo",
    "GameUI",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "LogSecret",
    "NotYourTurnError",
    "Observer",
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
