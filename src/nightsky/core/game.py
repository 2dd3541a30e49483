"""The game contract: ``Game`` (metadata, options, action codec) and ``State`` (one position).

Every game under ``nightsky.games`` subclasses these two classes; nothing outside ``games/``
knows anything game-specific. The contract follows OpenSpiel's shape (explicit chance,
per-player observation, integer action ids) and boardgame.io's redaction (``view``).

Conventions a game must keep:

* The rules never call ``random``: every random event is a chance node whose outcome is an
  action applied with ``player=CHANCE``. Same seed and same actions give the same game.
* ``legal_actions(p)`` is never empty for a seat in ``current_players()`` and is stably ordered.
* ``apply`` validates first and mutates after, so an illegal action changes nothing.
* Actions are hashable values whose ``str()`` is their notation; ``Game.parse_action`` inverts it.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from nightsky.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
    OptionError,
)

CHANCE = -1
"""The pseudo-seat that applies chance outcomes (shuffles, dice, draws)."""

Action = Hashable
"""Any hashable value with a notation (``str``) that ``Game.parse_action`` can read back."""


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
        v: Any = value
        try:
            if self.kind is bool:
                if isinstance(value, str):
                    low = value.strip().lower()
                    if low in {"1", "true", "yes", "on"}:
                        v = True
                    elif low in {"0", "false", "no", "off"}:
                        v = False
                    else:
                        raise ValueError(value)
                elif isinstance(value, bool):
                    v = value
                else:
                    raise ValueError(value)
            elif self.kind is int:
                if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                    raise ValueError(value)
                v = int(value)
            elif self.kind is float:
                v = float(value)
            elif self.kind is str:
                if not isinstance(value, str):
                    raise ValueError(value)
                v = value
        except (TypeError, ValueError):
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


class Game(ABC):
    """A game with fixed parameters: a factory of initial states plus the action codec.

    Subclasses set ``info`` and implement ``new_initial_state`` and ``all_actions``.
    """

    info: ClassVar[GameInfo]

    def __init__(self, players: int | str | None = None, **params: Any) -> None:
        info = self.info
        if players is None:
            players = info.default_players or info.min_players
        try:
            n = int(players)
        except (TypeError, ValueError):
            raise OptionError(f"players must be a whole number, got {players!r}") from None
        if not info.min_players <= n <= info.max_players:
            raise OptionError(
                f"{info.title} takes {info.min_players}-{info.max_players} players, not {n}"
            )
        self.num_players = n
        resolved: dict[str, Any] = {}
        known = {o.name for o in info.options}
        for key in params:
            if key not in known:
                hint = ", ".join(sorted(known)) or "none"
                raise OptionError(f"{info.id} has no option {key!r} (options: {hint})")
        for opt in info.options:
            resolved[opt.name] = opt.coerce(params[opt.name]) if opt.name in params else opt.default
        self.options: dict[str, Any] = resolved
        self.validate_options()

    def validate_options(self) -> None:  # noqa: B027 - an optional hook
        """Hook: check option combinations (raise OptionError). Called at the end of __init__."""

    @property
    def params(self) -> dict[str, Any]:
        """The JSON-ready parameters that rebuild this game with ``load_game(id, **params)``."""
        out: dict[str, Any] = {"players": self.num_players}
        for opt in self.info.options:
            if self.options[opt.name] != opt.default:
                out[opt.name] = self.options[opt.name]
        return out

    @property
    def num_seats(self) -> int:
        """Seats in play. Equal to ``num_players`` except where the game adds seats of its own
        (Starlight's Starbots)."""
        return self.num_players

    def seat_name(self, seat: int) -> str:
        """How to call a seat the game plays itself (``seat >= num_players``), e.g. a Starbot."""
        return f"automa {seat + 1}"

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before set-up; its set-up shuffles are its first chance events."""

    # ------------------------------------------------------------------ action codec
    @abstractmethod
    def all_actions(self) -> Sequence[Action]:
        """Every distinct non-chance action of this game, in a fixed order (the id space)."""

    @cached_property
    def _action_index(self) -> dict[Action, int]:
        return {a: i for i, a in enumerate(self.all_actions())}

    @cached_property
    def _notation_index(self) -> dict[str, Action]:
        return {str(a): a for a in self.all_actions()}

    @property
    def num_distinct_actions(self) -> int:
        return len(self.all_actions())

    def action_id(self, action: Action) -> int:
        """Stable integer code of a player action, in ``range(num_distinct_actions)``."""
        try:
            return self._action_index[action]
        except KeyError:
            raise InvalidActionError(f"{action!s} is not an action of {self.info.id}") from None

    def action_from_id(self, i: int) -> Action:
        acts = self.all_actions()
        if not isinstance(i, int) or not 0 <= i < len(acts):
            raise InvalidActionError(
                f"action id {i!r} is outside 0..{len(acts) - 1} for {self.info.id}"
            )
        return acts[i]

    def parse_action(self, text: str) -> Action:
        """Read an action (or a chance outcome) back from its notation."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action notation must be text, got {type(text).__name__}")
        key = text.strip()
        found = self._notation_index.get(key)
        if found is not None:
            return found
        extra = self.parse_chance(key)
        if extra is not None:
            return extra
        raise InvalidActionError(f"cannot read {text!r} as a {self.info.title} action")

    def parse_chance(self, text: str) -> Action | None:
        """Hook: read a chance outcome's notation (None when ``text`` is not one)."""
        return None

    def redact_action(self, seat: int, action: Action, viewer: int | None) -> str:
        """How ``viewer`` sees the log line of ``seat`` taking ``action`` (hide secrets here)."""
        if seat == CHANCE and self.info.hidden_information:
            return "chance"
        return str(action)

    # ------------------------------------------------------------------ observation tensors
    @property
    def observation_size(self) -> int:
        """Length of ``State.observation(player)`` (fixed per game and parameters)."""
        raise NotImplementedError(f"{self.info.id} defines no observation tensor yet")

    # ------------------------------------------------------------------ tutorials
    def tutorials(self) -> list[Tutorial]:
        """The rulebook's worked examples as loadable positions (see ``Tutorial``)."""
        return []

    def tutorial(self, name: str) -> Tutorial:
        for t in self.tutorials():
            if t.name == name:
                return t
        known = ", ".join(t.name for t in self.tutorials()) or "none"
        raise OptionError(f"{self.info.id} has no tutorial {name!r} (tutorials: {known})")

    # ------------------------------------------------------------------ metadata
    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        """Parameter sets the conformance suite plays (default: every player count)."""
        return [{"players": n} for n in range(cls.info.min_players, cls.info.max_players + 1)]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.params}>"


class State(ABC):
    """One position of a game. Mutable; ``clone()`` before exploring."""

    game: Game
    history: list[tuple[int, Action]]

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history = []

    # ------------------------------------------------------------------ whose turn
    @abstractmethod
    def current_players(self) -> tuple[int, ...]:
        """Seats that may act now; ``(CHANCE,)`` at a chance node, ``()`` when over."""

    def is_terminal(self) -> bool:
        return not self.current_players()

    def is_chance_node(self) -> bool:
        return self.current_players() == (CHANCE,)

    @abstractmethod
    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Legal actions of ``player`` (default: the one seat to act), in a stable order."""

    def _seat(self, player: int | None) -> int:
        players = self.current_players()
        if player is None:
            if not players:
                raise GameOverError("the game is over")
            if len(players) > 1:
                raise NotYourTurnError(
                    f"seats {', '.join(map(str, players))} act at once: name the seat"
                )
            return players[0]
        return player

    # ------------------------------------------------------------------ acting
    def is_legal(self, action: Action, player: int) -> bool:
        """Whether ``player`` may take ``action`` now (override for speed)."""
        return action in self.legal_actions(player)

    def is_legal_chance(self, outcome: Action) -> bool:
        """Whether ``outcome`` is a possible outcome of the pending chance event."""
        outs = self.chance_outcomes()
        if outs is None:
            raise NotImplementedError("a game with sampled chance must override is_legal_chance")
        return any(o == outcome for o, _ in outs)

    def explain_illegal(self, action: Action, player: int) -> tuple[str, str | None]:
        """Why ``action`` is illegal for ``player``: (sentence, rule id). Override for detail."""
        return f"{action!s} is not a legal action now", None

    def apply(self, action: Action, player: int | None = None) -> None:
        """Validate then apply; raise without changing anything when illegal."""
        players = self.current_players()
        if not players:
            raise GameOverError(f"the game is over; {action!s} cannot be played")
        seat = self._seat(player)
        if seat not in players:
            who = "chance" if seat == CHANCE else f"seat {seat}"
            raise NotYourTurnError(
                f"it is not {who}'s turn (acting: {', '.join(map(str, players))})"
            )
        if seat == CHANCE:
            if not self.is_legal_chance(action):
                raise IllegalActionError(f"{action!s} is not a possible chance outcome now")
        elif not self.is_legal(action, seat):
            reason, rule = self.explain_illegal(action, seat)
            raise IllegalActionError(reason, rule=rule)
        self._apply(action, seat)
        self.history.append((seat, action))

    def step(self, action: Action, player: int) -> None:
        """Apply without validation: only for an action taken from ``legal_actions`` or
        ``sample_chance`` of this very state (runners and tree search use it for speed)."""
        self._apply(action, player)
        self.history.append((player, action))

    @abstractmethod
    def _apply(self, action: Action, player: int) -> None:
        """Mutate the state; called only with a validated action."""

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        """``[(outcome, probability)]`` at a chance node when the list is small, else None."""
        return None

    def sample_chance(self, rng: random.Random) -> Action:
        """Draw one outcome of the pending chance event."""
        outs = self.chance_outcomes()
        if outs is None:
            raise NotImplementedError("a game with sampled chance must override sample_chance")
        r = rng.random()
        acc = 0.0
        for outcome, p in outs:
            acc += p
            if r < acc:
                return outcome
        return outs[-1][0]

    # ------------------------------------------------------------------ results
    @abstractmethod
    def score_breakdown(self) -> list[dict[str, float]]:
        """Per seat, the parts of the rulebook's score; each dict has a ``total`` key."""

    def scores(self) -> list[float]:
        return [b["total"] for b in self.score_breakdown()]

    def tiebreakers(self, seat: int) -> tuple[float, ...]:
        """The rulebook's tie-breakers for ``seat``, most important first (higher is better)."""
        return ()

    def winners(self) -> list[int]:
        """Seats that won (several when the victory is shared). Empty before the end."""
        if not self.is_terminal():
            return []
        s = self.scores()
        keys = [(s[p], *self.tiebreakers(p)) for p in range(len(s))]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    def returns(self) -> list[float]:
        """Win share per seat at the end (ties split), for search agents and RL."""
        w = self.winners()
        n = len(self.scores())
        return [1.0 / len(w) if p in w else 0.0 for p in range(n)] if w else [0.0] * n

    def evaluate(self, player: int) -> float:
        """Heuristic value for ``player`` (greedy agents, search cut-offs). Override per game."""
        s = self.scores()
        others = [v for p, v in enumerate(s) if p != player]
        return s[player] - (max(others) if others else 0.0)

    # ------------------------------------------------------------------ copying and views
    @abstractmethod
    def clone(self) -> State:
        """An independent copy (cheap enough for tree search)."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """JSON-ready dict of exactly what ``player`` may know (None: a spectator)."""

    def resample(self, player: int, rng: random.Random) -> State:
        """A state ``player`` cannot tell apart from this one; hidden parts redrawn.

        Games without hidden information return a clone.
        """
        if self.game.info.hidden_information:
            raise NotImplementedError("a game with hidden information must override resample")
        return self.clone()

    def census(self) -> Mapping[str, Iterable[str]] | None:
        """Where every component is: ``{place: [component ids]}``, for conservation checks.

        Each component id must appear exactly once over all places, at every point of a game.
        """
        return None

    def render(self, viewer: int | None = None) -> str:
        """A plain-text drawing of what ``viewer`` sees (games override)."""
        return json.dumps(self.view(viewer), indent=2, sort_keys=True)

    def describe_action(self, action: Action, player: int) -> str:
        """A longer human sentence for an action (menus, logs). Default: its notation."""
        return str(action)

    def action_ui(self, action: Action, player: int) -> dict[str, Any]:
        """How a client offers ``action``: ``{"label": str, "targets": [element ids]}``.

        ``targets`` name the board elements (as the game's web renderer ids them) a click on
        which chooses this action, so any client can highlight legal choices generically.
        """
        return {"label": self.describe_action(action, player), "targets": []}

    def board_svg(self, viewer: int | None = None) -> str | None:
        """An SVG drawing (one ``<svg>`` element) of what ``viewer`` sees, for the web client.

        Every element a click can choose carries an ``id`` equal to a target named by
        ``action_ui(...)["targets"]`` (and ``data-label`` where a tooltip helps), so the client
        highlights legal choices and maps clicks to actions without knowing the game. It must
        show nothing ``view(viewer)`` does not hold. None: the client shows ``render(viewer)``.
        """
        return None

    def observation(self, player: int) -> list[float]:
        """Fixed-size numeric observation of what ``player`` may know.

        Its length is ``game.observation_size``."""
        raise NotImplementedError(f"{self.game.info.id} defines no observation tensor yet")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game.info.id}, {len(self.history)} actions>"
