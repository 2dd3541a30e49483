"""``State``, one position of a game, with the types it deals in (``Action``, ``LogSecret``).

This module is the compiled hot path's base (mypyc, see ``setup.py``); ``nightsky.core.game``
explains the contract and re-exports everything here. ``Game`` stays interpreted: it is
metadata and the action codec, read once per game, not per move.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final, Self, cast

from mypy_extensions import mypyc_attr

from nightsky.core.errors import (
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
)
from nightsky.core.rng import choice

if TYPE_CHECKING:
    from nightsky.core.game import Game

CHANCE: Final = -1
"""The pseudo-seat that applies chance outcomes (shuffles, dice, draws)."""

Action = Hashable
"""Any hashable value with a notation (``str``) that ``Game.parse_action`` can read back."""


# Compiled with mypyc (setup.py); games and tests outside the compiled set subclass these.
@mypyc_attr(allow_interpreted_subclasses=True)
class ActionBase:
    """The typed base of a game's actions and chance outcomes.

    Subclasses are frozen dataclasses (``@dataclass(frozen=True, slots=True)``) whose
    ``__str__`` is the notation. Why not ``NamedTuple``: two NamedTuple classes with equal
    fields compare and hash equal (``Place(1, 2) == Build(1, 2)``), so the id codec and any
    dict keyed by actions would mix different moves; dataclass equality also compares the class.
    """

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every subclass defines its notation
        raise NotImplementedError(f"{type(self).__name__} defines no notation")

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild through the constructor: a compiled frozen dataclass cannot be unpickled
        # field by field (its frozen __setattr__ refuses).
        parts = fields(cast(Any, self))  # a subclass is the dataclass
        return (type(self), tuple(getattr(self, f.name) for f in parts if f.init))


@dataclass(frozen=True, slots=True)
class LogSecret:
    """How a move that not everyone may see reads in the log.

    ``public`` is the line for every viewer (spectators included) except the seats of
    ``private``, which read their own line; a seat in ``seen_by`` reads the move's notation.
    The state decides it when the move is applied (``State._log_secret``), because only the
    state knows whose secret a move is.
    """

    public: str
    seen_by: tuple[int, ...] = ()
    private: Mapping[int, str] = field(default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        return (LogSecret, (self.public, self.seen_by, dict(self.private)))

    def text(self, action: Action, viewer: int | None) -> str:
        if viewer is None:
            return self.public
        if viewer in self.seen_by:
            return str(action)
        return self.private.get(viewer, self.public)


_CHANCE_SECRET = LogSecret("chance")


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One position of a game: the rules and what each seat may know. Mutable; ``clone()``
    before exploring. Games implement the hooks named in the module's docstring."""

    game: Game
    history: list[tuple[int, Action]]
    _secrets: dict[int, LogSecret]
    """History index -> how that move reads to those who may not see it (public moves absent)."""
    _own_secrets: bool
    """False while ``_secrets`` is shared with a clone (copied on the next write): a search
    clones far more often than a secret move is played."""
    redrawn_for: int | None = None
    """The seat this state was drawn for by ``resample`` when whoever drew it says so (the
    server marks the one redraw it hands a bot): agents then use it as it is instead of
    drawing again (``nightsky.agents.base.determinize``)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history = []
        self._secrets = {}
        self._own_secrets = True

    # ------------------------------------------------------------------ whose turn
    @abstractmethod
    def current_players(self) -> tuple[int, ...]:
        """Seats that may act now; ``(CHANCE,)`` at a chance node, ``()`` when over."""

    def is_terminal(self) -> bool:
        return not self.current_players()

    def is_chance_node(self) -> bool:
        return self.current_players() == (CHANCE,)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Legal actions of ``player`` (default: the one seat to act), in a stable order."""
        return self._legal_actions(self._seat(player) if player is None else player)

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Hook: the legal actions of ``seat`` (empty when it may not act now)."""

    def legal_action_ids(self, player: int) -> list[int]:
        """The ids (``game.action_id``) of ``player``'s legal actions, in ``legal_actions``
        order; empty when it may not act now. The RL adapters build their masks from it. A
        game may override it for speed: the same ids in the same order."""
        return self.game.action_ids(self.legal_actions(player))

    def random_action(self, player: int, rng: random.Random) -> Action:
        """One of ``player``'s legal actions drawn uniformly with ``rng``: exactly
        ``core.rng.choice(rng, self.legal_actions(player))``, the same draw from ``rng`` and
        the same action (search rollouts play with it). A game may override it to pick the
        action without building the whole list, drawing the same number."""
        return choice(rng, self.legal_actions(player))

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
        seat = self._acting_seat(action, player)
        if seat == CHANCE:
            if not self.is_legal_chance(action):
                raise IllegalActionError(f"{action!s} is not a possible chance outcome now")
        elif not self.is_legal(action, seat):
            reason, rule = self.explain_illegal(action, seat)
            raise IllegalActionError(reason, rule=rule)
        self.step(action, seat)

    def _acting_seat(self, action: Action, player: int | None) -> int:
        players = self.current_players()
        if not players:
            raise GameOverError(f"the game is over; {action!s} cannot be played")
        seat = self._seat(player)
        if seat not in players:
            who = "chance" if seat == CHANCE else f"seat {seat}"
            raise NotYourTurnError(
                f"it is not {who}'s turn (acting: {', '.join(map(str, players))})"
            )
        return seat

    def step(self, action: Action, player: int) -> None:
        """Apply without validation: only for an action taken from ``legal_actions`` or
        ``sample_chance`` of this very state (runners and tree search use it for speed)."""
        secret = self._log_secret(action, player)
        self._apply(action, player)
        if secret is not None:
            if not self._own_secrets:
                self._secrets = self._secrets.copy()
                self._own_secrets = True
            self._secrets[len(self.history)] = secret
        self.history.append(self._history_entry(action, player))

    @abstractmethod
    def _apply(self, action: Action, player: int) -> None:
        """Hook: mutate the state; called only with a validated action."""

    def _history_entry(self, action: Action, player: int) -> Any:
        """Hook: the history's record of a move, ``(player, action)``. A game whose actions
        are shared objects may return one prebuilt, equal tuple per (seat, action) instead:
        a long game's history then adds no new object per move for the cyclic garbage
        collector to track and scan. (Typed ``Any``: compiled code would unpack a
        ``tuple[int, Action]`` into a C struct and box a new tuple from it.)"""
        return (player, action)

    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        """Hook: how this move reads to seats that may not see it, decided before it is
        applied (None: everyone reads its notation). Default: in a game with hidden
        information every chance outcome reads ``chance``."""
        if player == CHANCE and self.game.info.hidden_information:
            return _CHANCE_SECRET
        return None

    # ------------------------------------------------------------------ the log
    def log_text(self, index: int, viewer: int | None) -> str:
        """How ``viewer`` (None: a spectator) reads move ``index`` of the history (negative
        indices count from the end, as for lists)."""
        seat_action = self.history[index]
        secret = self._secrets.get(index % len(self.history))
        return str(seat_action[1]) if secret is None else secret.text(seat_action[1], viewer)

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
        # Read as Any: compiled code would turn a game's int totals into floats (3 -> 3.0).
        parts = cast("list[dict[str, Any]]", self.score_breakdown())
        return [b["total"] for b in parts]

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
        n = self.game.num_seats  # one score per seat: no second scoring of the position
        return [1.0 / len(w) if p in w else 0.0 for p in range(n)] if w else [0.0] * n

    # ------------------------------------------------------------------ copying
    def clone(self, history: bool = True) -> Self:
        """An independent copy (cheap enough for tree search). ``history=False`` leaves out
        the moves behind this position and their log (as ``forget_history``): for a
        look-ahead that reads only the moves it plays itself, such as a search, whose clones
        then cost the same after 10 moves or 10,000. Nothing in the rules reads the history."""
        s = self._copy()
        s.game = self.game
        if history:
            s.history = self.history.copy()
            s._secrets = self._secrets  # shared until either side records a new secret
            s._own_secrets = self._own_secrets = False
        else:
            s.history = []
            s._secrets = {}
            s._own_secrets = True
        return s

    def forget_history(self) -> None:
        """Start the history (and its log) afresh from this position: for a tutorial that
        begins mid-game, or a look-ahead copy that never needs the moves behind it."""
        self.history = []
        self._secrets = {}
        self._own_secrets = True

    @abstractmethod
    def _copy(self) -> Self:
        """Hook: a new state of this game with the game's own fields copied (``clone`` sets
        the shared ones: ``game``, ``history`` and the log's secrets)."""

    # ------------------------------------------------------------------ what a seat knows
    def view(self, player: int | None) -> dict[str, Any]:
        """JSON-ready dict of exactly what ``player`` may know (None: a spectator).

        The common keys (``game``, ``viewer``, ``current_players``, ``terminal``, ``scores``)
        come first; the game's ``_view`` adds the rest."""
        out: dict[str, Any] = {
            "game": self.game.info.id,
            "viewer": player,
            "current_players": list(self.current_players()),
            "terminal": self.is_terminal(),
            "scores": self._view_scores(),
        }
        out.update(self._view(player))
        return out

    @abstractmethod
    def _view(self, player: int | None) -> dict[str, Any]:
        """Hook: the game's own keys of ``view(player)``."""

    def _view_scores(self) -> Any:
        """Hook: the ``scores`` a view shows (default: ``scores()``; a game may show a running
        count where its final score is not yet known)."""
        return self.scores()

    def resample(self, player: int, rng: random.Random) -> Self:
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

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self.game.info.id}, {len(self.history)} actions>"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling (the server's thinking processes): a compiled state cannot be rebuilt by
        # pickle's default, whose constructor call lacks the game; so the game builds a fresh
        # state and every field is set from the copy.
        return (_restore_state, (self.game, _state_fields(self)))


def _state_fields(state: State) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for cls in type(state).__mro__:
        for name in getattr(cls, "__mypyc_attrs__", ()):
            if name != "__dict__" and hasattr(state, name):
                out[name] = getattr(state, name)
    out.update(getattr(state, "__dict__", {}))
    return out


def _restore_state(game: Game, fields: dict[str, Any]) -> State:
    state = game.new_initial_state()
    for name, value in fields.items():
        setattr(state, name, value)
    return state
