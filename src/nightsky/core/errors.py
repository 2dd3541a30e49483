"""The error hierarchy every part of nightsky relies on.

Servers map each class to a stable error code (``GameError.code``) and an HTTP status.
"""

from __future__ import annotations


class GameError(Exception):
    """Root of every error raised by a game, a record or a component file."""

    code = "game_error"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        if rule and rule not in message:
            message = f"{message} [{rule}]"
        super().__init__(message)

    @property
    def message(self) -> str:
        return str(self)


class InvalidActionError(GameError):
    """The text or id cannot be parsed into an action of this game at all."""

    code = "invalid_action"


class IllegalActionError(GameError):
    """The action is well formed but the rules forbid it now (the message names the rule)."""

    code = "illegal_action"


class NotYourTurnError(IllegalActionError):
    """The seat that tried to act is not among ``current_players()``."""

    code = "not_your_turn"


class GameOverError(IllegalActionError):
    """An action was tried on a finished game."""

    code = "game_over"


class ComponentError(GameError):
    """A component data file is missing, malformed or breaks a rule (names file, entry, field)."""

    code = "bad_component"


class OptionError(GameError):
    """An unknown game option or a value of the wrong kind."""

    code = "bad_option"


class RecordError(GameError):
    """A game record is malformed, holds an illegal action, or does not reproduce its result."""

    code = "bad_record"
