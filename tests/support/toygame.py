"""A tiny game with chance and hidden cards, used to test the shared machinery on its own.

It is the game ``nightsky new-game`` writes as a package (docs/developing-a-game.md), kept here
in one module: the state implements the rule hooks (``_legal_actions``, ``_apply``,
``_log_secret``, ``_view``, ``_copy``, ``resample``), presentation lives in a ``GameUI``, the
tensor in an ``Observer`` and the judging in an ``Evaluator``; actions are frozen dataclasses.

"Secret Sum": a deck of the cards 1..8. Each seat is dealt two hidden cards (one chance draw per
card). Then, for two rounds, each seat in turn either keeps (``keep``) or discards one of its
cards face up (``swap0`` / ``swap1``) and draws the top card (a chance draw). Score: the sum of the
hand. Tie-breaker: the higher single card. Everything a seat has seen stays consistent under
``resample``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
)
from nightsky.core.observer import Observer
from nightsky.core.ui import GameUI

DECK = tuple(range(1, 9))


@dataclass(frozen=True, slots=True)
class Keep(ActionBase):
    """Keep the hand."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Swap(ActionBase):
    """Discard the card in ``slot`` face up and draw the top card."""

    slot: int

    def __str__(self) -> str:
        return f"swap{self.slot}"


@dataclass(frozen=True, slots=True)
class Draw(ActionBase):
    """A chance outcome: the card drawn."""

    card: int

    def __str__(self) -> str:
        return f"draw{self.card}"


ACTIONS: tuple[ActionBase, ...] = (Keep(), Swap(0), Swap(1))


class ToyState(State):
    game: ToyGame

    def __init__(self, game: ToyGame) -> None:
        super().__init__(game)
        n = game.num_players
        self.deck: list[int] = list(DECK)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.discards: list[int] = []
        self.turn = 0  # index into the 2-round turn sequence
        self.pending_draw_for: int | None = None

    def _copy(self) -> ToyState:
        c = ToyState.__new__(ToyState)
        c.deck = list(self.deck)
        c.hands = [list(h) for h in self.hands]
        c.discards = list(self.discards)
        c.turn = self.turn
        c.pending_draw_for = self.pending_draw_for
        return c

    def _dealing(self) -> int | None:
        for p, h in enumerate(self.hands):
            if len(h) < 2:
                return p
        return None

    def current_players(self) -> tuple[int, ...]:
        if self._dealing() is not None or self.pending_draw_for is not None:
            return (CHANCE,)
        if self.turn >= 2 * self.game.num_players:
            return ()
        return (self.turn % self.game.num_players,)

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_players() or seat == CHANCE:
            return []
        return list(ACTIONS) if self.deck else [Keep()]

    def explain_illegal(self, action: Action, player: int) -> tuple[str, str | None]:
        if action in ACTIONS:
            return "a swap needs a card left in the deck", "TOY-2"
        return f"{action!s} is not keep, swap0 or swap1", "TOY-1"

    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        if self.current_players() != (CHANCE,):
            return None
        return [(Draw(c), 1 / len(self.deck)) for c in self.deck]

    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        # A draw is read only by the seat that draws it.
        if player != CHANCE:
            return None
        dealt = self._dealing()
        target = dealt if dealt is not None else self.pending_draw_for
        return LogSecret("a card is drawn", seen_by=(target,) if target is not None else ())

    def _apply(self, action: Action, player: int) -> None:
        if isinstance(action, Draw):
            card = action.card
            self.deck.remove(card)
            dealt = self._dealing()
            target = dealt if dealt is not None else self.pending_draw_for
            assert target is not None
            self.hands[target].append(card)
            self.pending_draw_for = None
            return
        if isinstance(action, Swap):
            self.discards.append(self.hands[player].pop(action.slot))
            self.pending_draw_for = player
        self.turn += 1

    def score_breakdown(self) -> list[dict[str, float]]:
        return [{"cards": float(sum(h)), "total": float(sum(h))} for h in self.hands]

    def tiebreakers(self, seat: int) -> tuple[float, ...]:
        return (float(max(self.hands[seat], default=0)),)

    def _view_scores(self) -> Any:
        return None  # the hands are secret until the end

    def _view(self, player: int | None) -> dict[str, Any]:
        return {
            "hands": [list(h) if p == player else len(h) for p, h in enumerate(self.hands)],
            "discards": list(self.discards),
            "deck": len(self.deck),
            "turn": self.turn,
        }

    def resample(self, player: int, rng: random.Random) -> ToyState:
        c = self.clone()
        unseen = list(c.deck)
        for p, h in enumerate(c.hands):
            if p != player:
                unseen.extend(h)
        rng.shuffle(unseen)
        for p, h in enumerate(c.hands):
            if p != player:
                c.hands[p] = [unseen.pop() for _ in h]
        c.deck = sorted(unseen)
        return c

    def census(self) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {
            "deck": [f"c{c}" for c in self.deck],
            "discards": [f"c{c}" for c in self.discards],
        }
        for p, h in enumerate(self.hands):
            places[f"hand{p}"] = [f"c{c}" for c in h]
        return places


class ToyEvaluator(Evaluator):
    """The toy's judge: the sum of the seat's hand (``greedy`` keeps high cards)."""

    def evaluate(self, state: State, player: int) -> float:
        assert isinstance(state, ToyState)
        return float(sum(state.hands[player]))


class ToyUI(GameUI):
    """The toy's presentation: a deck, the viewer's two cards and a keep button."""

    def describe_action(
        self, state: State, action: Action, player: int, names: Sequence[str] | None = None
    ) -> str:
        return f"{action} (toy)"

    def action_targets(self, state: State, action: Action, player: int) -> list[str]:
        # Both swaps also name the deck, so a click there must offer a small menu of two.
        targets = {"keep": ["keep"], "swap0": ["card0", "deck"], "swap1": ["card1", "deck"]}
        return targets.get(str(action), [])

    def board_svg(
        self,
        state: State,
        viewer: int | None = None,
        names: Sequence[str] | None = None,
        colors: Sequence[str] | None = None,
    ) -> str | None:
        v = state.view(viewer)
        parts = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 120">']
        parts.append(
            f'<rect id="deck" x="10" y="10" width="60" height="90"/>'
            f'<text x="20" y="60">{v["deck"]}</text>'
        )
        mine = v["hands"][viewer] if viewer is not None else []
        for i, card in enumerate(mine if isinstance(mine, list) else []):
            parts.append(
                f'<g id="card{i}"><rect x="{90 + 70 * i}" y="10" width="60" '
                f'height="90"/><text x="{110 + 70 * i}" y="60">{card}</text></g>'
            )
        parts.append('<circle id="keep" cx="260" cy="55" r="25"/></svg>')
        return "".join(parts)


class ToyObserver(Observer):
    """Own cards, the cards seen discarded (one-hot each) and the progress of the rounds."""

    @property
    def size(self) -> int:
        return 17

    def observation(self, state: State, player: int) -> list[float]:
        assert isinstance(state, ToyState)
        own = [0.0] * 8
        for c in state.hands[player]:
            own[c - 1] = 1.0
        seen = [0.0] * 8
        for c in state.discards:
            seen[c - 1] = 1.0
        return own + seen + [state.turn / (2 * state.game.num_players)]


class ToyGame(Game):
    info = GameInfo(
        id="toy-secret-sum",
        title="Secret Sum (test game)",
        min_players=2,
        max_players=3,
        chance=True,
        hidden_information=True,
        simultaneous=False,
        description="A tiny card game used by the test-suite.",
        options=(Option("label", str, "", "A dummy option for option tests."),),
    )

    ui_class = ToyUI
    observer_class = ToyObserver
    evaluator_class = ToyEvaluator

    def new_initial_state(self) -> ToyState:
        return ToyState(self)

    def all_actions(self) -> Sequence[Action]:
        return ACTIONS

    def parse_chance(self, text: str) -> Action | None:
        if text.startswith("draw") and text[4:].isdigit() and int(text[4:]) in DECK:
            return Draw(int(text[4:]))
        return None
