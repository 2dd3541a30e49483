"""The game contract: ``Game`` (metadata, options, action codec) and ``State`` (one position).

Every game under ``nightsky.games`` subclasses these two classes; nothing outside ``games/``
knows anything game-specific. The contract follows OpenSpiel's shape (explicit chance,
per-player observation through an ``Observer``, integer action ids) and boardgame.io's
redaction (``view``). Presentation (text, SVG, choice labels) is not the state's business: it
lives in the game's ``GameUI`` (``game.ui``).

Conventions a game must keep:

* The rules never call ``random``: every random event is a chance node whose outcome is an
  action applied with ``player=CHANCE``. Same seed and same actions give the same game.
* ``legal_actions(p)`` is never empty for a seat in ``current_players()`` and is stably ordered.
* ``apply`` validates first and mutates after, so an illegal action changes nothing.
* Actions are hashable values whose ``str()`` is their notation; ``Game.parse_action`` inverts it.

A state implements the rules through a few *hooks*; the public methods around them (template
methods) do the envelope work every game would otherwise repeat:

=====================  ===================================================================
public method          game hook
=====================  ===================================================================
``legal_actions(p)``   ``_legal_actions(seat)`` (the seat already resolved)
``apply`` / ``step``   ``_apply(action, seat)``; ``_log_secret(action, seat)`` says who may
                       read the move in the log, decided before the move changes the state
``view(p)``            ``_view(p)``: the game's keys, merged after the common ones
``clone()``            ``_copy()``: a new state with the game's own fields copied
=====================  ===================================================================
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from nightsky.core.errors import InvalidActionError, OptionError
from nightsky.core.evaluator import Evaluator
from nightsky.core.info import GameInfo, Option, Tutorial
from nightsky.core.state import CHANCE, Action, ActionBase, LogSecret, State

if TYPE_CHECKING:
    from nightsky.core.observer import Observer
    from nightsky.core.ui import GameUI

__all__ = [
    "CHANCE",
    "Action",
    "ActionBase",
    "Game",
    "GameInfo",
    "LogSecret",
    "Option",
    "State",
    "Tutorial",
]


class Game(ABC):
    """A game with fixed parameters: a factory of initial states plus the action codec.

    Subclasses set ``info`` and implement ``new_initial_state`` and ``all_actions``; they name
    their presentation in ``ui_class``, their observation tensor in ``observer_class`` and
    their judging of positions (heuristic, cut-off values, learned value) in ``evaluator_class``.
    """

    info: ClassVar[GameInfo]
    ui_class: ClassVar[type[GameUI] | None] = None
    """The game's presentation (``GameUI`` subclass); None: the plain default."""
    observer_class: ClassVar[type[Observer] | None] = None
    """The game's observation tensor (``Observer`` subclass); None: it has none."""
    safeguard_ends: ClassVar[tuple[str, ...]] = ()
    """End conditions (``State.end_condition`` names) that are caps against endless games, not
    the rulebook's goal: a balance measured on games that mostly end by one gives no verdict."""
    lab_agent: ClassVar[str] = "greedy"
    """The agent spec the design lab (``balance``, ``compare``, ``sweep``, ``simulate`` and the
    studio) seats in every seat when none is given: one that finishes the game by its goal
    rather than at a safeguard cap, at a cost a lab run can afford."""
    evaluator_class: ClassVar[type[Evaluator] | None] = None
    """How the game judges positions (``Evaluator`` subclass); None: the score margin."""
    agents: ClassVar[Mapping[str, str]] = {}
    """The game's own bots: agent name -> ``module:attribute`` of its factory, imported when
    the agent is first built or listed (``nightsky.agents``)."""
    bench: ClassVar[str | None] = None
    """``module:attribute`` of a function ``(game, seconds) -> dict`` adding the game's own
    figures to ``nightsky bench`` (None: none)."""
    rebuilt: ClassVar[Mapping[str, Callable[[Any], Any]]] = {}
    """Attributes not pickled but rebuilt from the loaded game, by name -> ``build(game)``:
    a compiled engine's typed tables, which states pickle as "their game's" and so must not be
    asked for while the game's own fields are still loading."""

    def __init__(self, players: int | str | None = None, **params: Any) -> None:
        self.num_players = self._check_players(players)
        self.options: dict[str, Any] = self._resolve_options(params)
        self._ui: GameUI | None = None
        self._evaluator: Evaluator | None = None
        self._action_index: dict[Action, int] | None = None
        self._notation_index: dict[str, Action] | None = None
        self.validate_options()

    def __getstate__(self) -> dict[str, Any]:
        fields = self.__dict__.copy()
        for name in self.rebuilt:
            fields.pop(name, None)
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)
        for name, build in self.rebuilt.items():
            setattr(self, name, build(self))

    def _check_players(self, players: int | str | None) -> int:
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
        return n

    def _resolve_options(self, params: Mapping[str, Any]) -> dict[str, Any]:
        info = self.info
        known = {o.name for o in info.options}
        for key in params:
            if key not in known:
                hint = ", ".join(sorted(known)) or "none"
                raise OptionError(f"{info.id} has no option {key!r} (options: {hint})")
        return {
            opt.name: opt.coerce(params[opt.name]) if opt.name in params else opt.default
            for opt in info.options
        }

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

    def resign_action(self, state: State, seat: int) -> Action | None:
        """Hook: the action by which ``seat`` drops out of the game now, where the rules allow
        it (a server's ``forfeit`` on timeout plays it; it is an ordinary action, so the record
        replays it). Default None: the seat cannot be dropped (a stand-in bot plays it)."""
        return None

    def component_events(
        self, state: State, action: Action, seat: int
    ) -> Sequence[tuple[int, str, str]]:
        """Hook for the design lab (``nightsky balance``, ``compare``): the named components
        that ``action`` (by ``seat``, ``CHANCE`` for a chance outcome) makes a seat take, play,
        build or score, as ``(seat, verb, name)`` with the board's name ("Aquila 1",
        "Polaris"). Read from ``state`` before the action is applied. Default: none."""
        return ()

    # ------------------------------------------------------------------ presentation
    @property
    def ui(self) -> GameUI:
        """The game's presentation: text, SVG board, labels and click targets of choices."""
        if self._ui is None:
            from nightsky.core.ui import GameUI

            self._ui = (self.ui_class or GameUI)(self)
        return self._ui

    def make_observer(self) -> Observer:
        """A new observer of this game's fixed-size observation tensor (one per consumer: it
        may keep buffers). Raises NotImplementedError where the game defines none."""
        if self.observer_class is None:
            raise NotImplementedError(f"{self.info.id} defines no observation tensor")
        return self.observer_class(self)

    @property
    def evaluator(self) -> Evaluator:
        """The game's judge of positions (``greedy``, the search's cut-offs, a learned value,
        how a game ended); one per game, shared by every consumer (it keeps no state)."""
        if self._evaluator is None:
            self._evaluator = (self.evaluator_class or Evaluator)(self)
        return self._evaluator

    # ------------------------------------------------------------------ action codec
    @abstractmethod
    def all_actions(self) -> Sequence[Action]:
        """Every distinct non-chance action of this game, in a fixed order (the id space)."""

    def _index(self) -> dict[Action, int]:
        if self._action_index is None:
            self._action_index = {a: i for i, a in enumerate(self.all_actions())}
        return self._action_index

    @property
    def num_distinct_actions(self) -> int:
        return len(self.all_actions())

    def action_id(self, action: Action) -> int:
        """Stable integer code of a player action, in ``range(num_distinct_actions)``."""
        try:
            return self._index()[action]
        except KeyError:
            raise InvalidActionError(f"{action!s} is not an action of {self.info.id}") from None

    def action_ids(self, actions: Sequence[Action]) -> list[int]:
        """``[self.action_id(a) for a in actions]``, read from the id table without a Python
        call per action where the game keeps the contract's ``action_id``."""
        if type(self).action_id is Game.action_id:
            try:
                return list(map(self._index().__getitem__, actions))
            except (KeyError, TypeError):
                pass  # not an action of this game: the contract's error below
        return [self.action_id(a) for a in actions]

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
        if self._notation_index is None:
            self._notation_index = {str(a): a for a in self.all_actions()}
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
