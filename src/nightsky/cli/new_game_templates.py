"""The files ``nightsky new-game`` writes (``new_game.py``): "Secret Sum", a complete small game
split into the modules docs/developing-a-game.md names. Placeholders: ``{id}``, ``{pkg}``,
``{cls}``, ``{title}``, ``{prefix}``; Python's own braces are doubled."""

from __future__ import annotations

INIT = '''"""{title}: a new nightsky game (started from ``nightsky new-game``)."""

from nightsky.games.{pkg}.game import {cls}Game as GAME

__all__ = ["GAME"]
'''

CONSTANTS = '''"""Numbers shared by the modules of {title} (rule ids refer to ``rules.md``)."""

from __future__ import annotations

DECK: tuple[int, ...] = tuple(range(1, 9))
"""The cards, numbered 1 to 8 ({prefix}-1.1)."""
HAND = 2
"""Cards in each hand ({prefix}-1.2)."""
ROUNDS = 4
"""Turns each seat takes ({prefix}-2.1)."""
'''

ACTIONS = '''"""The actions and the chance outcome of {title}: frozen dataclasses whose
``str`` is the notation (``keep``, ``swap0``, ``swap1``; chance: ``draw5``)."""

from __future__ import annotations

from dataclasses import dataclass

from nightsky.core.state import ActionBase
from nightsky.games.{pkg}.constants import HAND


@dataclass(frozen=True, slots=True)
class Keep(ActionBase):
    """Keep the hand ({prefix}-2.1)."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Swap(ActionBase):
    """Discard the card in ``slot`` face up and draw the top card ({prefix}-2.2)."""

    slot: int

    def __str__(self) -> str:
        return f"swap{{self.slot}}"


@dataclass(frozen=True, slots=True)
class Draw(ActionBase):
    """A chance outcome: ``card`` is drawn."""

    card: int

    def __str__(self) -> str:
        return f"draw{{self.card}}"


ACTIONS: tuple[ActionBase, ...] = (Keep(), *(Swap(i) for i in range(HAND)))
"""Every player action, in id order."""
'''

STATE = '''"""The rules of {title} (rule ids refer to ``rules.md``): the rules and what each
seat may know, nothing else (presentation: ``ui.py``, ``svg.py``; judging: ``evaluator.py``)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from nightsky.core.game import CHANCE, Action, LogSecret, State
from nightsky.games.{pkg}.actions import ACTIONS, Draw, Keep, Swap
from nightsky.games.{pkg}.constants import DECK, HAND, ROUNDS

if TYPE_CHECKING:
    from nightsky.games.{pkg}.game import {cls}Game


class {cls}State(State):
    """The deck, each seat's hand, the discards and whose turn it is."""

    def __init__(self, game: {cls}Game) -> None:
        super().__init__(game)
        self.seats = game.num_players
        self.deck: list[int] = list(DECK)
        self.hands: list[list[int]] = [[] for _ in range(self.seats)]
        self.discards: list[int] = []
        self.turn = 0  # turns taken so far ({prefix}-2.1)
        self.draw_for = -1  # the seat owed a card after a swap, -1 when none

    def _copy(self) -> {cls}State:
        c = {cls}State(self.game)  # type: ignore[arg-type]
        c.deck = self.deck.copy()
        c.hands = [h.copy() for h in self.hands]
        c.discards = self.discards.copy()
        c.turn, c.draw_for = self.turn, self.draw_for
        return c

    # ------------------------------------------------------------------ whose turn
    def _receiver(self) -> int:
        """The seat the next card goes to: dealing first ({prefix}-1.2), then a swap's draw."""
        for p, h in enumerate(self.hands):
            if len(h) < HAND and self.turn == 0 and self.draw_for < 0:
                return p
        return self.draw_for

    def current_players(self) -> tuple[int, ...]:
        if self._receiver() >= 0:
            return (CHANCE,)
        if self.turn >= ROUNDS * self.seats:
            return ()
        return (self.turn % self.seats,)

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat == CHANCE or seat not in self.current_players():
            return []
        return list(ACTIONS) if self.deck else [Keep()]  # {prefix}-2.3

    def explain_illegal(self, action: Action, player: int) -> tuple[str, str | None]:
        if isinstance(action, Swap) and not self.deck:
            return "a swap needs a card left in the deck", "{prefix}-2.3"
        return f"{{action!s}} is not keep, swap0 or swap1 now", "{prefix}-2.1"

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        if self._receiver() < 0:
            return None
        return [(Draw(c), 1 / len(self.deck)) for c in self.deck]

    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        if player != CHANCE:
            return None  # every move is public
        return LogSecret("a card is drawn", seen_by=(self._receiver(),))  # {prefix}-1.3

    # ------------------------------------------------------------------ acting
    def _apply(self, action: Action, player: int) -> None:
        if isinstance(action, Draw):
            target = self._receiver()
            self.deck.remove(action.card)
            self.hands[target].append(action.card)
            self.draw_for = -1
            return
        if isinstance(action, Swap):  # {prefix}-2.2
            self.discards.append(self.hands[player].pop(action.slot))
            self.draw_for = player
        self.turn += 1

    # ------------------------------------------------------------------ results
    def score_breakdown(self) -> list[dict[str, float]]:
        """{prefix}-3.1: the sum of the hand."""
        return [{{"cards": float(sum(h)), "total": float(sum(h))}} for h in self.hands]

    def tiebreakers(self, seat: int) -> tuple[float, ...]:
        """{prefix}-3.2: the higher single card."""
        return (float(max(self.hands[seat], default=0)),)

    # ------------------------------------------------------------------ what a seat knows
    def _view_scores(self) -> Any:
        return None if not self.is_terminal() else self.scores()  # hands are secret until the end

    def _view(self, player: int | None) -> dict[str, Any]:
        over = self.is_terminal()
        return {{
            "hands": [
                list(h) if over or p == player else len(h) for p, h in enumerate(self.hands)
            ],
            "discards": list(self.discards),
            "deck": len(self.deck),
            "turn": self.turn,
        }}

    def resample(self, player: int, rng: random.Random) -> {cls}State:
        """Every card ``player`` has not seen is redrawn: the deck and the other hands."""
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
        places: dict[str, list[str]] = {{
            "deck": [f"c{{c}}" for c in self.deck],
            "discards": [f"c{{c}}" for c in self.discards],
        }}
        for p, h in enumerate(self.hands):
            places[f"hand{{p}}"] = [f"c{{c}}" for c in h]
        return places
'''

EVALUATOR = '''"""How {title} judges a position (``game.evaluator``): what ``greedy``
maximises one ply ahead and a search scores its cut-offs by."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from nightsky.core.evaluator import Evaluator

if TYPE_CHECKING:
    from nightsky.core.state import State
    from nightsky.games.{pkg}.state import {cls}State


class {cls}Evaluator(Evaluator):
    """A seat's hand total minus the best rival's (as the seat may know them: a rival's
    unseen cards count as the deck's average)."""

    def evaluate(self, state: State, player: int) -> float:
        st = cast("{cls}State", state)
        return self.evaluate_all(st)[player]

    def evaluate_all(self, state: State) -> list[float]:
        st = cast("{cls}State", state)
        totals = [float(sum(h)) for h in st.hands]
        out: list[float] = []
        for p, mine in enumerate(totals):
            rivals = [t for q, t in enumerate(totals) if q != p]
            out.append(mine - (max(rivals) if rivals else 0.0))
        return out
'''

OBSERVER = '''"""The observation tensor of {title}: what one seat may know, as a fixed
number of floats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from nightsky.core.observer import Observer
from nightsky.games.{pkg}.constants import DECK, ROUNDS

if TYPE_CHECKING:
    from nightsky.core.state import State
    from nightsky.games.{pkg}.state import {cls}State

N = len(DECK)


class {cls}Observer(Observer):
    """Own cards (one-hot), the cards discarded (one-hot) and the share of turns taken."""

    @property
    def size(self) -> int:
        return 2 * N + 1

    def observation(self, state: State, player: int) -> list[float]:
        buf = [0.0] * self.size
        self.observation_into(state, player, buf)
        return buf

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        st = cast("{cls}State", state)
        for c in st.hands[player]:
            buf[c - 1] = 1.0
        for c in st.discards:
            buf[N + c - 1] = 1.0
        if st.turn:
            buf[2 * N] = st.turn / (ROUNDS * st.seats)
'''

SVG = '''"""The SVG board of {title}: the deck, the viewer's hand and the keep button;
every element a click can choose carries the id ``ui.action_targets`` names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from nightsky.core.ui import resolve_look
from nightsky.games import svgkit as K

if TYPE_CHECKING:
    from nightsky.games.{pkg}.state import {cls}State

W, H = 420, 210


def _card(x: float, number: object, id_: str | None, label: str) -> str:
    body = K.el("rect", x=x, y=40, width=70, height=100, rx=8, fill="#1d2a66", stroke="#cfd8ff")
    body += K.text(x + 35, 98, number, size=24, anchor="middle")
    return K.group(body, id_, label)


def board_svg(
    st: {cls}State,
    viewer: int | None,
    names: Sequence[str] | None = None,
    colors: Sequence[str] | None = None,
) -> str:
    """The deck (its size), the viewer's own cards, the keep button and each seat's name, in
    its colour, with the number of cards it holds."""
    view = st.view(viewer)
    who, hue = resolve_look(st.game.ui, names, colors)
    parts = [K.text(20, 26, f"Turn {{view['turn'] + 1}}", size=14)]
    parts.append(_card(20, view["deck"], "deck", f"the deck: {{view['deck']}} cards"))
    parts.append(K.text(55, 160, "deck", size=12, anchor="middle"))
    mine = view["hands"][viewer] if viewer is not None else []
    for i, card in enumerate(mine if isinstance(mine, list) else []):
        parts.append(_card(120 + 80 * i, card, f"card{{i}}", f"your card {{card}}"))
    keep = K.el("circle", cx=360, cy=90, r=30, fill="#2b3a80", stroke="#cfd8ff")
    keep += K.text(360, 95, "keep", size=14, anchor="middle")
    parts.append(K.group(keep, "keep", "keep your hand"))
    for p, held in enumerate(view["hands"]):
        count = len(held) if isinstance(held, list) else held
        parts.append(K.text(20 + 130 * p, 180, f"{{who[p]}}: {{count}} cards", fill=hue[p]))
    return K.svg(W, H, "".join(parts), "{title}")
'''

UI = '''"""How {title} is shown (``game.ui``): the SVG board of ``svg.py``, a label and
click targets for every choice (the terminal's text is ``GameUI``'s default, the view as JSON).
Nothing here shows more than ``state.view(viewer)`` holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from nightsky.core.ui import GameUI, ScorePart, UIParts
from nightsky.games.{pkg}.actions import Draw, Keep, Swap
from nightsky.games.{pkg}.svg import board_svg

if TYPE_CHECKING:
    from nightsky.core.game import Action, State


def describe_action(st: Any, action: Any, player: int) -> str:
    """One label per choice, starting with a verb (the log tells it as done)."""
    if isinstance(action, Keep):
        return "keep your hand"
    if isinstance(action, Swap):
        card = st.hands[player][action.slot] if action.slot < len(st.hands[player]) else "?"
        return f"swap your card {{card}} for the top card of the deck"
    return str(action)


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{{n}} cards"


def action_targets(st: Any, action: Any, player: int) -> list[str]:
    """A swap names the card and the deck, so a click on the deck offers a choice of two."""
    if isinstance(action, Keep):
        return ["keep"]
    if isinstance(action, Swap):
        return [f"card{{action.slot}}", "deck"]
    return []


class {cls}UI(GameUI):
    """{title}'s presentation."""

    parts = UIParts(
        board_svg=board_svg, describe_action=describe_action, action_targets=action_targets
    )

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        """The position in words for the terminal, from ``view(viewer)`` only: each hand (or
        how many cards it holds), the deck and the discards."""
        view = state.view(viewer)
        who = list(names) if names else self.seat_names()
        lines = []
        for p, hand in enumerate(view["hands"]):
            held = ", ".join(map(str, hand)) if isinstance(hand, list) else _cards(hand)
            lines.append(f"{{who[p]}}: {{held or 'no card'}}")
        lines.append(f"Deck: {{_cards(view['deck'])}}")
        lines.append(f"Discards: {{', '.join(map(str, view['discards'])) or 'none'}}")
        return "\\n".join(lines)

    def describe_chance(self, state: State, outcome: Action) -> str:
        # Only where a draw may be shown (a lesson's example): the log hides it ({prefix}-1.3).
        if isinstance(outcome, Draw):
            return f"the {{outcome.card}} is drawn"
        return str(outcome)

    def score_parts(self, state: State) -> list[ScorePart]:
        return [ScorePart("cards", "Cards in hand ({prefix}-3.1)")]
'''

TUTORIALS = '''"""Worked examples of {title} as loadable positions (``Game.tutorials``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.game import CHANCE
from nightsky.core.info import Tutorial

if TYPE_CHECKING:
    from nightsky.core.game import Game, State


def tutorials(game: Game) -> list[Tutorial]:
    """One example: a low card swapped for the top card of the deck."""

    def build() -> State:
        s = game.new_initial_state()
        # Seat 1 gets 1 and 8, seat 2 gets 5 and 6 (and a third seat 2 and 3).
        for card in (1, 8, 5, 6, 2, 3)[: 2 * game.num_players]:
            s.apply(game.parse_action(f"draw{{card}}"), CHANCE)
        return s

    return [
        Tutorial(
            name="swap-a-low-card",
            title="Swap a low card",
            text="Seat 1 holds a 1 and an 8: it swaps the 1 away and draws the top card.",
            build=build,
            steps=((0, "swap0"), (CHANCE, "draw7")),
        )
    ]
'''

GAME = '''"""{title} (``{id}``): the ``Game`` (metadata, the action codec) of the package."""

from __future__ import annotations

from collections.abc import Sequence

from nightsky.core.game import Action, Game, GameInfo, Tutorial
from nightsky.core.info import Level
from nightsky.games.{pkg}.actions import ACTIONS, Draw
from nightsky.games.{pkg}.constants import DECK
from nightsky.games.{pkg}.evaluator import {cls}Evaluator
from nightsky.games.{pkg}.observer import {cls}Observer
from nightsky.games.{pkg}.state import {cls}State
from nightsky.games.{pkg}.tutorials import tutorials
from nightsky.games.{pkg}.ui import {cls}UI

UNTESTED = "not measured yet"


class {cls}Game(Game):
    info = GameInfo(
        id="{id}",
        title="{title}",
        min_players=2,
        max_players=3,
        chance=True,
        hidden_information=True,
        simultaneous=False,
        description="Keep or swap your two secret cards; the highest sum wins.",
        levels=(
            Level("easy", "greedy:epsilon=0.5", UNTESTED),
            Level("medium", "greedy", UNTESTED),
            Level("hard", "ismcts:iterations=200", UNTESTED),
            Level("expert", "ismcts:iterations=800", UNTESTED),
        ),
    )
    ui_class = {cls}UI
    observer_class = {cls}Observer
    evaluator_class = {cls}Evaluator

    def new_initial_state(self) -> {cls}State:
        return {cls}State(self)

    def all_actions(self) -> Sequence[Action]:
        return ACTIONS

    def parse_chance(self, text: str) -> Action | None:
        if text.startswith("draw") and text[4:].isdigit() and int(text[4:]) in DECK:
            return Draw(int(text[4:]))
        return None

    def tutorials(self) -> list[Tutorial]:
        return tutorials(self)
'''

RULES = '''# {title}: rule catalogue

Each rule in our own words, with its id (`{prefix}-x.y`); every id is named by a test.

Notation: `keep`, `swap0`, `swap1`; chance: `draw5` (the card drawn).

## {prefix}-1 Components and set-up

- **{prefix}-1.1** The deck holds eight cards numbered 1 to 8.
- **{prefix}-1.2** Each player is dealt two cards, one at a time, in seat order.
- **{prefix}-1.3** A card in hand is seen only by its owner; a discarded card is face up.

## {prefix}-2 Turns

- **{prefix}-2.1** In seat order, each player takes four turns: keep the hand, or swap.
- **{prefix}-2.2** A swap discards one card of the hand face up and draws the top card.
- **{prefix}-2.3** With the deck empty only keeping is possible.

## {prefix}-3 The end

- **{prefix}-3.1** After the last turn the hands are shown; a hand scores the sum of its cards.
- **{prefix}-3.2** Tie-breaker: the higher single card; still tied, the victory is shared.
'''

GLANCE = '''"""{title} at a glance (``GameUI.glance``, where the web table reads it): one line
per seat, read from the view alone."""

from __future__ import annotations

from typing import Any


def glance(view: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """Each seat's score (once shown) and how many cards it holds; no docked section."""
    scores = view.get("scores")
    seats = []
    for p, held in enumerate(view["hands"]):
        count = len(held) if isinstance(held, list) else int(held)
        seats.append({{
            "score": scores[p] if isinstance(scores, list) else None,
            "counts": [{{"label": "Cards in hand", "value": count}}],
        }})
    return {{"seats": seats, "dock": None}}
'''

HOWTO = '''# How to play {title}

## Set-up

The deck holds eight cards numbered 1 to 8. Each player is dealt two of them, face down: only
you see your own cards.

## A turn

In seat order, each player takes four turns. On your turn, either keep your hand, or swap: put
one of your cards face up on the discards and draw the top card of the deck. With the deck
empty you can only keep.

## The end

The game ends after everyone's last turn; then the hands are shown.

## Scoring

Your hand scores the sum of its two cards. The highest sum wins; a tie goes to the player with
the higher single card, and a tie after that is shared.
'''

TEST = '''"""{title}'s rules, one test (or more) per rule id of ``rules.md``."""

from __future__ import annotations

import random

import pytest

from nightsky.core import CHANCE, IllegalActionError, load_game


def dealt(players: int = 2, cards: tuple[int, ...] = (1, 8, 5, 6)):
    game = load_game("{id}", players=players)
    s = game.new_initial_state()
    for card in cards:
        s.apply(game.parse_action(f"draw{{card}}"), CHANCE)
    return game, s


def test_{prefix}_1_1_the_deck_holds_eight_numbered_cards() -> None:
    game = load_game("{id}", players=2)
    s = game.new_initial_state()
    assert sorted(str(o) for o, _ in s.chance_outcomes()) == sorted(
        f"draw{{c}}" for c in range(1, 9)
    )


def test_{prefix}_1_2_two_cards_each_dealt_in_seat_order() -> None:
    _, s = dealt()
    assert s.hands == [[1, 8], [5, 6]] and s.current_players() == (0,)


def test_{prefix}_1_3_a_hand_is_seen_by_its_owner_only() -> None:
    _, s = dealt()
    assert s.view(0)["hands"] == [[1, 8], 2] and s.view(1)["hands"] == [2, [5, 6]]
    assert s.log_text(0, 1) == "a card is drawn" and s.log_text(0, 0) == "draw1"


def test_{prefix}_2_1_four_turns_each_keep_or_swap() -> None:
    _, s = dealt()
    assert [str(a) for a in s.legal_actions(0)] == ["keep", "swap0", "swap1"]
    for _ in range(8):
        s.apply(s.legal_actions()[0])
    assert s.is_terminal()


def test_{prefix}_2_2_a_swap_discards_face_up_and_draws() -> None:
    game, s = dealt()
    s.apply(game.parse_action("swap0"), 0)
    s.apply(game.parse_action("draw7"), CHANCE)
    assert s.hands[0] == [8, 7] and s.view(1)["discards"] == [1]


def test_{prefix}_2_3_with_the_deck_empty_only_keep() -> None:
    game, s = dealt()
    s.deck = []
    assert [str(a) for a in s.legal_actions(0)] == ["keep"]
    with pytest.raises(IllegalActionError) as err:
        s.apply(game.parse_action("swap0"), 0)
    assert err.value.rule == "{prefix}-2.3"


def test_{prefix}_3_1_the_hand_total_scores() -> None:
    _, s = dealt()
    for _ in range(8):
        s.apply(s.legal_actions()[0])
    assert s.scores() == [9.0, 11.0] and s.winners() == [1]


def test_{prefix}_3_2_the_higher_card_breaks_a_tie() -> None:
    _, s = dealt(cards=(1, 8, 4, 5))
    for _ in range(8):
        s.apply(s.legal_actions()[0])
    assert s.scores() == [9.0, 9.0] and s.winners() == [0]


def test_random_games_end() -> None:
    game = load_game("{id}", players=3)
    rng = random.Random(1)
    s = game.new_initial_state()
    while not s.is_terminal():
        seat = s.current_players()[0]
        s.step(s.sample_chance(rng) if seat == CHANCE else rng.choice(s.legal_actions(seat)), seat)
    assert len(s.winners()) >= 1
'''

TEMPLATES: dict[str, str] = {
    "src/nightsky/games/{pkg}/__init__.py": INIT,
    "src/nightsky/games/{pkg}/constants.py": CONSTANTS,
    "src/nightsky/games/{pkg}/actions.py": ACTIONS,
    "src/nightsky/games/{pkg}/state.py": STATE,
    "src/nightsky/games/{pkg}/evaluator.py": EVALUATOR,
    "src/nightsky/games/{pkg}/observer.py": OBSERVER,
    "src/nightsky/games/{pkg}/svg.py": SVG,
    "src/nightsky/games/{pkg}/ui.py": UI,
    "src/nightsky/games/{pkg}/tutorials.py": TUTORIALS,
    "src/nightsky/games/{pkg}/game.py": GAME,
    "src/nightsky/games/{pkg}/rules.md": RULES,
    "src/nightsky/games/{pkg}/howto.md": HOWTO,
    "src/nightsky/games/{pkg}/glance.py": GLANCE,
    "tests/games/{pkg}/__init__.py": "",
    "tests/games/{pkg}/test_rules.py": TEST,
}
"""Each file's path (relative to the checkout) and text."""
