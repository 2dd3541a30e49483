"""The Stars Are Right: game metadata, options, the action tables and the tutorials.

The game names its rules (``state.StarsAreRightState``), its presentation (``ui_class``) and
its observation tensor (``observer_class``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from nightsky.core.errors import InvalidActionError
from nightsky.core.game import Action, Game, GameInfo, Option, Tutorial
from nightsky.core.info import Level

from . import attribution, matcher
from .actions import (
    COLS,
    END,
    Discard,
    Draw,
    Exchange,
    Flip,
    Invoke,
    PlaceTile,
    Power,
    Push,
    Release,
    Summon,
    Swap,
    Take,
    cell_name,
    cell_pos,
)
from .components import Card, load
from .constants import FACES, GOO, GREATER, LESSER, MAX_BONUS
from .evaluator import StarsAreRightEvaluator
from .observer import StarsAreRightObserver
from .state import StarsAreRightState
from .tables import Tables
from .tutorials import tutorials as rulebook_tutorials
from .ui import StarsAreRightUI


class StarsAreRightGame(Game):
    """2-4 cultists rearrange a 5x5 sky of two-sided star tiles to summon Creatures."""

    info = GameInfo(
        id="stars-are-right",
        title="The Stars Are Right",
        min_players=2,
        max_players=4,
        chance=True,
        hidden_information=True,
        simultaneous=False,
        description=(
            "Push, swap and flip the star tiles of a 5x5 sky until the constellations of a "
            "Creature in your hand appear; summon it for victory points and its power. "
            "First to 10 VP wins."
        ),
        options=(
            Option("mirror", bool, False,
                   "constellations may also match mirrored (TSAR-6.3; the book allows turning "
                   "only)"),
            Option("reshuffles", int, -1,
                   "-1 (the book): the discard pile becomes the deck whenever the deck runs "
                   "out; N >= 0: only N times, and the game ends on points at the next "
                   "exhaustion (the short game, e.g. 2; TSAR-8.4)", minimum=-1, maximum=50),
            Option("max_rounds", int, 1000,
                   "safeguard: rounds after which the game ends on points, far beyond games "
                   "played to the goal (TSAR-10.3)", minimum=1, maximum=10000),
            Option("components", str, "",
                   "path of a TOML file with your own [[tiles]] and/or [[creatures]]"),
        ),
        default_players=3,
        # Difficulty levels, weakest first (docs/agents.md, scripts/ladder.py).
        resign_rule="TSAR-12.1",  # rules.md: our ruling on resigning
        levels=(
            Level(
                "easy",
                "greedy:epsilon=0.5",
                "half its moves random, half greedy: beats random in 99% (ladder, 200 games)",
            ),
            Level(
                "medium",
                "ismcts:iterations=60",
                "a very short search (60 iterations): beats easy in 83% (ladder, 200 games;"
                " greedy here is no stronger than easy)",
            ),
            Level(
                "hard",
                "ismcts:iterations=400,seconds=0.5",
                "a short search (400 iterations, at most 0.5 s): beats medium in 77% (ladder,"
                " 200 games)",
            ),
            Level(
                "expert",
                "ismcts:seconds=0.2",
                "0.2 s of search a move: beats hard in 76% (ladder), greedy and random in 100%"
                " (200 games each)",
            ),
        ),
    )
    ui_class = StarsAreRightUI
    observer_class = StarsAreRightObserver
    component_events = attribution.component_events  # the design lab's hook
    safeguard_ends = ("rounds",)  # the round cap (TSAR-10.3) stops games, it decides nothing
    evaluator_class = StarsAreRightEvaluator
    rebuilt = {"tables": Tables}  # typed tables for the compiled rules: rebuilt on unpickling
    agents = {"tsar-planner": "nightsky.games.stars_are_right.planner:PlannerAgent"}
    # The lab's default: greedy games nearly all reach the round cap (no verdict); the
    # planner's reach the goal (docs/simulate.md, Seat balance).
    lab_agent = "tsar-planner"
    bench = "nightsky.games.stars_are_right.bench:bench_extra"

    def __init__(self, players: int | str | None = None, **params: object) -> None:
        super().__init__(players, **params)
        self.comps = load(self.options["components"])
        self.cards: tuple[Card, ...] = self.comps.cards
        self.tile_faces: list[tuple[int, int]] = []
        self.tile_first: list[int] = []
        for front, back, count in self.comps.tiles:
            self.tile_first.append(len(self.tile_faces))
            self.tile_faces.extend([(front, back)] * count)
        mirror = self.options["mirror"]
        self.reshuffle_cap: int = self.options["reshuffles"]
        """How often the discards may become the deck (-1: whenever it runs out, TSAR-8.4)."""
        self._shape_cache: dict[tuple[int, tuple[int, ...]], tuple[list, list]] = {}
        self._bonus_cache: dict[tuple[int, tuple[int, ...]], list[tuple[int, ...]]] = {}
        self._mirror = mirror
        self._build_actions()
        # ``shapes_for(card)`` of every card, read by index on the legal-actions hot path.
        self.plain_shapes = [self.shapes_for(card) for card in range(len(self.cards))]
        # The same facts as typed lists by card index, for the compiled rules (``tables``).
        self.tables = Tables(self)

    # ------------------------------------------------------------------ constellations
    def shapes_for(
        self, card: int, ignored: tuple[int, ...] = ()
    ) -> tuple[list[list[matcher.Shape]], list[tuple[int, int]]]:
        """The shapes of each constellation of ``card`` with the ``ignored`` faces made wild
        (one cell each, first in reading order: TSAR-7.2), and the face counts it needs."""
        key = (card, tuple(sorted(ignored)))
        got = self._shape_cache.get(key)
        if got is not None:
            return got
        left = list(ignored)
        cons = []
        need: dict[int, int] = {}
        for h, w, cells in self.cards[card].constellations:
            kept = []
            for r, c, f in cells:
                if f in left:
                    left.remove(f)
                    continue
                kept.append((r, c, f))
                need[f] = need.get(f, 0) + 1
            cons.append(matcher.orientations(h, w, tuple(kept), self._mirror) if kept else None)
        # A constellation whose every star is ignored needs nothing.
        shapes = [s for s in cons if s is not None]
        got = (shapes, sorted(need.items()))
        self._shape_cache[key] = got
        return got

    def bonus_sets(self, card: int, mine: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The sets of the Servitors ``mine`` (sorted ids, each of ``card``'s Great Old One)
        whose bonus stars can help summon ``card``: at most three, each blanking a different
        star the card shows (TSAR-7.2); the empty set first. Cached: do not change the list."""
        key = (card, mine)
        got = self._bonus_cache.get(key)
        if got is None:
            got = [()]
            for k in range(1, min(MAX_BONUS, len(mine)) + 1):
                for combo in combinations(mine, k):
                    if self.ignorable(card, tuple(self.cards[s].bonus for s in combo)):
                        got.append(combo)
            self._bonus_cache[key] = got
        return got

    def ignorable(self, card: int, faces: tuple[int, ...]) -> bool:
        """Whether each face of ``faces`` can blank a distinct star of ``card``."""
        stars = [f for _, _, cells in self.cards[card].constellations for _, _, f in cells]
        for f in faces:
            if f not in stars:
                return False
            stars.remove(f)
        return True

    # ------------------------------------------------------------------ actions
    def _build_actions(self) -> None:
        cards = self.cards
        self.invoke_action = {c.idx: Invoke(c.idx, f"invoke {c.id}") for c in cards}
        self.power_action = {c.idx: Power(c.idx, f"power {c.id}") for c in cards
                             if c.power_from >= 0}
        self.discard_action = {c.idx: Discard(c.idx, f"discard {c.id}") for c in cards}
        self.release_action = {c.idx: Release(c.idx, f"release {c.id}") for c in cards}
        pushes = []
        for column in (False, True):
            for i in range(5):
                for d in (-1, 1):
                    if column:
                        text = f"push col {COLS[i]} {'down' if d > 0 else 'up'}"
                    else:
                        text = f"push row {i + 1} {'right' if d > 0 else 'left'}"
                    pushes.append(Push(column, i, d, text))
        self.push_actions = pushes
        self.push_index = {(a.column, a.index, a.delta): a for a in pushes}
        swaps = []
        for pos in range(25):
            if pos % 5 < 4:
                swaps.append(Swap(pos, pos + 1, f"swap {cell_name(pos)} {cell_name(pos + 1)}"))
            if pos < 20:
                swaps.append(Swap(pos, pos + 5, f"swap {cell_name(pos)} {cell_name(pos + 5)}"))
        self.swap_actions = swaps
        self.swap_index = {(a.a, a.b): a for a in swaps}
        self.flip_actions = [Flip(pos, f"flip {cell_name(pos)}") for pos in range(25)]
        self.summon_action: dict[tuple[int, tuple[int, ...]], Summon] = {}
        servitors: dict[str, list[int]] = {}
        for c in cards:
            if c.kind in (GREATER, LESSER):
                servitors.setdefault(c.ruler, []).append(c.idx)
        for c in cards:
            options: list[tuple[int, ...]] = [()]
            if c.kind == GOO:
                mine = servitors.get(c.name, [])
                for k in range(1, 4):
                    options.extend(combinations(mine, k))
            for bonus in options:
                text = f"summon {c.id}" + "".join(f" +{cards[s].id}" for s in bonus)
                self.summon_action[(c.idx, bonus)] = Summon(c.idx, bonus, text)
        self.exchange_action: dict[tuple[int, int, int], Exchange] = {}
        self.take_action: dict[tuple[int, bool], Take] = {}
        for m in cards:
            if m.minion in ("exchange-lesser", "exchange-greater"):
                kind = LESSER if m.minion == "exchange-lesser" else GREATER
                group = [c.idx for c in cards if c.kind == kind]
                for give in group:
                    for take in group:
                        if give != take:
                            self.exchange_action[(m.idx, give, take)] = Exchange(
                                m.idx, give, take,
                                f"exchange {m.id} {cards[give].id} for {cards[take].id}")
            elif m.minion == "take-card":
                for from_deck in (True, False):
                    where = "deck" if from_deck else "discard"
                    self.take_action[(m.idx, from_deck)] = Take(
                        m.idx, from_deck, f"take {where} {m.id}")
        self.place_action = {
            (k, side): PlaceTile(k, side, f"tile {FACES[f]}/{FACES[b]} {('front', 'back')[side]}")
            for k, (f, b, _) in enumerate(self.comps.tiles) for side in (0, 1)
        }
        self.draw_action = {c.idx: Draw(c.idx, f"draw {c.id}") for c in cards}
        self._chance_index = {str(a): a for a in [*self.place_action.values(),
                                                  *self.draw_action.values()]}
        self._all: list[Action] = [
            *self.invoke_action.values(), *self.power_action.values(), *self.push_actions,
            *self.swap_actions, *self.flip_actions, *self.summon_action.values(),
            *self.discard_action.values(), *self.release_action.values(),
            *self.exchange_action.values(), *self.take_action.values(), END,
        ]

    def all_actions(self) -> Sequence[Action]:
        return self._all

    def parse_action(self, text: str) -> Action:
        """Notation -> action; a summoning may name its tiles: ``summon X @ a1,b1; c3``."""
        if isinstance(text, str) and "@" in text and text.strip().startswith("summon"):
            head, _, tail = text.partition("@")
            base = super().parse_action(head)
            assert isinstance(base, Summon)
            try:
                tiles = tuple(
                    tuple(cell_pos(x) for x in part.split(",") if x.strip())
                    for part in tail.split(";")
                )
            except ValueError as exc:
                raise InvalidActionError(f"cannot read the tiles of {text!r}: {exc}") from None
            if not tiles or any(not t for t in tiles):
                raise InvalidActionError(f"cannot read the tiles of {text!r}")
            return Summon(base.card, base.bonus, base.text, tiles)
        return super().parse_action(text)

    def parse_chance(self, text: str) -> Action | None:
        return self._chance_index.get(text)

    def action_id(self, action: Action) -> int:
        if isinstance(action, Summon) and action.tiles:
            action = self.summon_action.get((action.card, action.bonus), action)
        return super().action_id(action)

    def action_ids(self, actions: Sequence[Action]) -> list[int]:
        # A summoning's tiles are not part of its identity (compare=False): the id table finds
        # a tiled one as it is, with no Python call per action.
        try:
            return list(map(self._index().__getitem__, actions))
        except (KeyError, TypeError):
            return [self.action_id(a) for a in actions]

    @classmethod
    def conformance_configs(cls) -> list[dict[str, object]]:
        """Every player count, plus mirrored constellations and a short deck cap.

        Random players rarely reach the goal, so a random game runs to the round safeguard
        (TSAR-10.3): 2 players keep the default (1000 rounds), 3 and 4 players stop after 100
        rounds so that the suites' random playouts stay short."""
        configs: list[dict[str, object]] = [
            {"players": 2}, {"players": 3, "max_rounds": 100}, {"players": 4, "max_rounds": 100},
        ]
        return [*configs, {"players": 2, "mirror": True, "reshuffles": 0}]

    # ------------------------------------------------------------------ states
    def new_initial_state(self) -> StarsAreRightState:
        return StarsAreRightState(self)

    def tutorials(self) -> list[Tutorial]:
        return rulebook_tutorials(self)
