"""Game metadata as data: options, ``GameInfo`` (OpenSpiel's GameType) and tutorials."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nightsky.core.errors import OptionError

if TYPE_CHECKING:
    from nightsky.core.game import State


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        low = value.strip().lower()
        if low in {"1", "true", "yes", "on"}:
            return True
        if low in {"0", "false", "no", "off"}:
            return False
    raise ValueError(value)


def _to_int(value: Any) -> int:
    # True is not 1 and 2.5 is not 2: both would hide a mistake in the caller's options.
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(value)
    return int(value)


def _to_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(value)
    return value


_CONVERT: dict[type, Callable[[Any], Any]] = {
    bool: _to_bool,
    int: _to_int,
    float: float,
    str: _to_str,
}


@dataclass(frozen=True)
class Option:
    """One game parameter a user may set (``--option KEY=VALUE``, ``load_game(id, KEY=VALUE)``)."""

    name: str
    kind: type  # int, float, bool or str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None

    def coerce(self, value: Any) -> Any:
        """Turn ``value`` (possibly a CLI string) into this option's kind, or raise OptionError."""
        try:
            v = _CONVERT[self.kind](value)
        except (TypeError, ValueError, KeyError):
            raise OptionError(
                f"option {self.name!r} expects {self.kind.__name__}, got {value!r}"
            ) from None
        if self.choices is not None and v not in self.choices:
            raise OptionError(
                f"option {self.name!r} must be one of "
                f"{', '.join(map(str, self.choices))}; got {v!r}"
            )
        if self.minimum is not None and v < self.minimum:
            raise OptionError(f"option {self.name!r} must be at least {self.minimum}; got {v!r}")
        if self.maximum is not None and v > self.maximum:
            raise OptionError(f"option {self.name!r} must be at most {self.maximum}; got {v!r}")
        return v

    def describe(self) -> dict[str, Any]:
        """JSON-ready description (for ``nightsky games --json`` and the web form)."""
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "help": self.help,
            "choices": list(self.choices) if self.choices is not None else None,
            "minimum": self.minimum,
            "maximum": self.maximum,
        }


LEVEL_NAMES: tuple[str, ...] = ("easy", "medium", "hard", "expert")
"""The difficulty levels every game names, weakest first."""


@dataclass(frozen=True)
class Level:
    """A named difficulty: the agent spec that plays it in one game, and one honest line on how
    strong it is (measured, or said to be untested)."""

    name: str
    spec: str
    strength: str

    def describe(self) -> dict[str, str]:
        return {"name": self.name, "spec": self.spec, "strength": self.strength}


@dataclass(frozen=True)
class GameInfo:
    """Static metadata of a game (OpenSpiel's GameType, as data)."""

    id: str
    title: str
    min_players: int
    max_players: int
    chance: bool
    hidden_information: bool
    simultaneous: bool
    description: str = ""
    options: tuple[Option, ...] = field(default_factory=tuple)
    default_players: int | None = None
    search_defaults: str = ""
    """Settings for the search agents (``mcts``/``ismcts``) in this game, as ``key=value,...``
    (for instance ``rollout=none,c=0.2``); an agent spec's own keys take precedence."""
    value_model: str = ""
    """The file in the game package's ``data/`` holding the weights of a learned value of
    positions (``State.value``, trained by ``scripts/train_value.py``; the search agents use it
    with ``value=learned``); empty: the game has none."""
    levels: tuple[Level, ...] = ()
    """The difficulty levels (``easy``, ``medium``, ``hard``, ``expert``, weakest first): each
    an agent spec tuned for this game, usable as an agent spec by its level name."""
    resign_rule: str = ""
    """The id of the game's ruling on a player who resigns (its ``rules.md``; rulebooks are
    silent on it): the seat loses; with two or more players left the game goes on with a
    stand-in bot in the seat, otherwise it ends at once (the server applies it, generically).
    Empty: the game has no such ruling and its players cannot resign."""

    def level(self, name: str) -> Level | None:
        for lvl in self.levels:
            if lvl.name == name:
                return lvl
        return None

    def option(self, name: str) -> Option | None:
        for opt in self.options:
            if opt.name == name:
                return opt
        return None

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "chance": self.chance,
            "hidden_information": self.hidden_information,
            "simultaneous": self.simultaneous,
            "description": self.description,
            "options": [o.describe() for o in self.options],
            "levels": [lvl.describe() for lvl in self.levels],
        }


@dataclass(frozen=True)
class Tutorial:
    """A rulebook worked example as a loadable position.

    ``build()`` returns the state the example starts from (it may be built by applying actions
    or by setting up the position directly); ``steps`` are the notations the example plays, in
    order, with ``(seat, notation)``; ``text`` explains what to look at, in our own words.
    """

    name: str
    title: str
    text: str
    build: Callable[[], State]
    steps: tuple[tuple[int, str], ...] = ()
    names: tuple[str, ...] = ()
    """How the example calls its seats (``Red``, ``Yellow``; ``Dave``), so a lesson says
    what its text says; empty: the game's ``seat_names``."""
