"""The ``star-fire`` game: metadata, options, action codec, tutorials; it names the state, the
presentation (``StarFireUI``) and the observation tensor (``StarFireObserver``)."""

from __future__ import annotations

from typing import Any

from nightsky.core.game import Action, Game, GameInfo, Option, Tutorial
from nightsky.core.info import Level
from nightsky.games.star_fire import attribution
from nightsky.games.star_fire.actions import Act, Card, build_actions
from nightsky.games.star_fire.components import Cards, load_cards
from nightsky.games.star_fire.constants import (
    BUILD,
    DISCARD,
    DISCARD_SF,
    DIVINE,
    DRAW,
    END,
    FISSION,
    GAMMA,
    JOIN,
    SETUP,
    STEAL,
    STOP,
    TRANSMUTE,
    WILD,
    WORMHOLE,
)
from nightsky.games.star_fire.evaluator import StarFireEvaluator
from nightsky.games.star_fire.observer import StarFireObserver
from nightsky.games.star_fire.state import StarFireState
from nightsky.games.star_fire.tutorials import tutorials
from nightsky.games.star_fire.ui import StarFireUI


class StarFireGame(Game):
    """Star Fire: Galactic Architects, 2-6 players (rules in ``rules.md``)."""

    info = GameInfo(
        id="star-fire",
        title="Star Fire: Galactic Architects",
        min_players=2,
        max_players=6,
        chance=True,
        hidden_information=True,
        simultaneous=False,
        default_players=4,
        description=(
            "Draw elements, stars, planets and moons; build linked solar systems; "
            "disrupt rivals with Star Fire cards and survive the cosmic events."
        ),
        options=(
            Option("components", str, "", "path to your own cards.toml (default: designed set)"),
            Option("event_redraw", bool, False,
                   "a drawn Cosmic Event is replaced by another Element draw (SF-14.2)"),
            Option("bonus_ties", str, "full", "tied end bonuses: each gets +3, or split 3",
                   choices=("full", "split")),
            Option("discard_keeps_alive", bool, False,
                   "holding any card counts as able to take 2 actions (SF-16.1)"),
            Option("join_any_time", bool, True,
                   "join two of your systems for free during your turn (SF-6.2); false: a Star"
                   " links only as it is built"),
            Option("max_rounds", int, 60, "round cap that ends a stalled game (SF-17.3)",
                   minimum=1, maximum=1000),
        ),
        # Difficulty levels, weakest first (docs/agents.md, scripts/ladder.py).
        resign_rule="SF-20.1",  # rules.md: our ruling on resigning
        levels=(
            Level(
                "easy",
                "greedy:epsilon=0.5",
                "half its moves random, half greedy: beats random in 96% (ladder, 200 games)",
            ),
            Level(
                "medium",
                "greedy",
                "one move ahead on the game's heuristic: beats easy in 100% (ladder, 200 games)",
            ),
            Level(
                "hard",
                "ismcts:iterations=700,seconds=0.5",
                "a short search (700 iterations, at most 0.5 s): beats medium in 68% (ladder,"
                " 200 games, 61-74%)",
            ),
            Level(
                "expert",
                "ismcts:seconds=0.2,rollout=none,c=0.3",
                "0.2 s of search a move, leaves scored by the heuristic: beats hard in 71%"
                " (ladder, 200 games, 64-77%), greedy in 78% (200 games, 72-83%)",
            ),
        ),
    )

    ui_class = StarFireUI
    observer_class = StarFireObserver
    component_events = attribution.component_events  # the design lab's hook
    evaluator_class = StarFireEvaluator

    def __init__(self, players: int | str | None = None, **params: Any) -> None:
        super().__init__(players, **params)
        self.cards: Cards = load_cards(self.options["components"])
        self.join_any_time = bool(self.options["join_any_time"])  # SF-6.2, read on a hot path
        acts = build_actions(self.cards, self.num_players)
        self._actions = acts
        self.setup_actions = [a for a in acts if a.kind == SETUP]
        self.act_draw = [a for a in acts if a.kind == DRAW]
        self.act_build = {(a.a, a.b): a for a in acts if a.kind == BUILD}
        self.act_divine = {(a.a, a.b): a for a in acts if a.kind == DIVINE}
        self.act_wormhole = next(a for a in acts if a.kind == WORMHOLE)
        self.act_transmute = next(a for a in acts if a.kind == TRANSMUTE)
        self.act_stop = next(a for a in acts if a.kind == STOP)
        self.act_end = next(a for a in acts if a.kind == END)
        self.act_steal = {a.a: a for a in acts if a.kind == STEAL}
        self.act_wild = {a.a: a for a in acts if a.kind == WILD}
        self.act_fission = {a.a: a for a in acts if a.kind == FISSION}
        self.act_gamma = {a.a: a for a in acts if a.kind == GAMMA}
        self.act_discard = {a.a: a for a in acts if a.kind == DISCARD}
        self.act_discard_sf = {a.a: a for a in acts if a.kind == DISCARD_SF}
        self.act_join = {(a.a, a.b): a for a in acts if a.kind == JOIN}
        self.chance_actions = [Card(c, f"card {nm}") for c, nm in enumerate(self.cards.name)]
        self._chance_by_text = {str(c): c for c in self.chance_actions}
        self.body_set = frozenset(self.cards.bodies)

    def new_initial_state(self) -> StarFireState:
        return StarFireState(self)

    def all_actions(self) -> list[Act]:
        return self._actions

    def parse_action(self, text: str) -> Action:
        """The notation of ``all_actions``; a ``join`` may name its two Stars in either order
        (the action itself lists the lower card first, SF-6.2)."""
        if isinstance(text, str):
            words = text.split()
            if len(words) == 3 and words[0] == "join":
                by = self.cards.by_name
                if by.get(words[1], -1) > by.get(words[2], -1) >= 0:
                    text = f"join {words[2]} {words[1]}"
        return super().parse_action(text)

    def parse_chance(self, text: str) -> Card | None:
        return self._chance_by_text.get(" ".join(text.split()))

    def tutorials(self) -> list[Tutorial]:
        return tutorials(self)
