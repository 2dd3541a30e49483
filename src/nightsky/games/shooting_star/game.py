"""The Shooting Star ``Game``: options, static tables, action codec and chance notation."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from nightsky.core.errors import InvalidActionError
from nightsky.core.game import Action, Game, GameInfo, LogSecret, Option, Tutorial
from nightsky.core.info import Level
from nightsky.games.shooting_star.actions import (
    Build,
    DeckOrder,
    Discard,
    GridDeal,
    MissionDeal,
    Place,
    PlanetDeal,
)
from nightsky.games.shooting_star.components import ZERO, load
from nightsky.games.shooting_star.constants import (
    CARD_KEYS,
    DARK,
    DARK_LEVEL,
    GRIDS,
    MAJOR,
    MINOR,
    NCARDS,
    PLANETS_PER_PLAYER,
    TABLE,
)
from nightsky.games.shooting_star.observation import ShootingStarObserver
from nightsky.games.shooting_star.state import ShootingStarState
from nightsky.games.shooting_star.tutorials import tutorials
from nightsky.games.shooting_star.ui import ShootingStarUI


class ShootingStarGame(Game):
    """Shooting Star for 2-5 players (``variant=personalized`` builds the sector by hand)."""

    info = GameInfo(
        id="shooting-star",
        title="Shooting Star",
        min_players=2,
        max_players=5,
        chance=True,
        hidden_information=True,
        simultaneous=False,
        default_players=3,
        description=(
            "Space admirals place Destruction cards face down on a grid of planets, then resolve "
            "them by priority: planets lose levels and are captured, cards destroy cards, shields "
            "capture attackers, isolated planets fall to whoever isolated them."
        ),
        options=(
            Option(
                "variant",
                str,
                "standard",
                "standard: dealt rectangular Star Sector; personalized: players build it (SS-14)",
                choices=("standard", "personalized"),
            ),
            Option("components", str, "", "path of your own components TOML (default: ours)"),
        ),
        # Difficulty levels, weakest first (docs/agents.md, scripts/ladder.py).
        levels=(
            Level(
                "easy",
                "greedy:epsilon=0.5",
                "half its moves random, half greedy (untested by the ladder)",
            ),
            Level(
                "medium",
                "greedy",
                "one move ahead on the game's heuristic: beats random nearly always",
            ),
            Level(
                "hard",
                "ismcts:iterations=250,seconds=0.5",
                "a short search (250 iterations, at most 0.5 s): untested by the ladder",
            ),
            Level(
                "expert",
                "ismcts:seconds=0.2",
                "0.2 s of search a move: 69% vs greedy (100 games, 59-77%), 100% vs random",
            ),
        ),
    )

    ui_class = ShootingStarUI
    observer_class = ShootingStarObserver

    def __init__(self, players: int | str | None = None, **params: Any) -> None:
        super().__init__(players, **params)
        self.comp = load(self.options["components"])
        self.personalized = self.options["variant"] == "personalized"
        n = self.num_players
        self.width, self.height = (TABLE, TABLE) if self.personalized else GRIDS[n]
        self.ncells = self.width * self.height
        self.grid_planets = PLANETS_PER_PLAYER * n

        planets = self.comp.ordered_planets()
        self.p_kind = tuple({"minor": MINOR, "major": MAJOR, "dark": DARK}[p.kind] for p in planets)
        self.p_moon = tuple(p.moon for p in planets)
        self.p_name = tuple(p.name for p in planets)
        self.p_code = tuple(p.code for p in planets)
        self.code_index = {c: i for i, c in enumerate(self.p_code)}
        # the two Levels a planet may show (a Dark Planet has one side: DARK_LEVEL twice)
        self.p_sides = tuple(
            (1, 2) if k == MINOR else (3, 4) if k == MAJOR else (DARK_LEVEL, DARK_LEVEL)
            for k in self.p_kind
        )
        # grid_tokens[planet][level]: the planet's entry in the ``grid`` notation
        self.grid_tokens = tuple(
            tuple(f"{c}:{lv}" for lv in range(DARK_LEVEL)) + (c,) for c in self.p_code
        )
        self.minors = tuple(i for i, k in enumerate(self.p_kind) if k == MINOR)
        self.majors = tuple(i for i, k in enumerate(self.p_kind) if k == MAJOR)
        self.darks = tuple(i for i, k in enumerate(self.p_kind) if k == DARK)
        self.zero = frozenset(i for i in self.majors if self.p_name[i] == ZERO)
        by_name: dict[str, list[int]] = {}
        for i in self.majors:
            by_name.setdefault(self.p_name[i], []).append(i)
        self.major_names = tuple(sorted(by_name))
        self.majors_by_name = {k: tuple(v) for k, v in by_name.items()}

        self.cards = self.comp.ordered_cards()
        self.colours = [c.name for c in self.comp.colour][:n]
        self.missions = self.comp.ordered_missions()
        self.mission_codes = tuple(m.code for m in self.missions)
        self.mission_index = {c: i for i, c in enumerate(self.mission_codes)}
        self.missions_by_value = tuple(
            tuple(i for i, m in enumerate(self.missions) if m.value == v) for v in (1, 2, 3)
        )

        w, h = self.width, self.height
        self.cell_xy = tuple((c % w, c // w) for c in range(self.ncells))
        neigh = []
        for c in range(self.ncells):
            x, y = c % w, c // w
            neigh.append(
                tuple(
                    ny * w + nx
                    for nx, ny in ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))
                    if 0 <= nx < w and 0 <= ny < h
                )
            )
        self.neigh = tuple(neigh)
        # blast[card][cell]: the cells the card blasts from that cell, in pattern order;
        # offsets off the grid are dropped (ruling SS-5.8).
        blast = []
        for card in self.cards:
            row = []
            for c in range(self.ncells):
                x, y = c % w, c // w
                row.append(
                    tuple(
                        (y + dr) * w + (x + dc)
                        for dc, dr in card.blast
                        if 0 <= x + dc < w and 0 <= y + dr < h
                    )
                )
            blast.append(tuple(row))
        self.blast = tuple(blast)
        self.place_rows = tuple(
            tuple(Place(k, c, c % w + 1, c // w + 1) for c in range(self.ncells))
            for k in range(NCARDS)
        )
        # place_secrets[seat][cell]: how a card ``seat`` places there reads to the others
        # (face down); each seat's row is built on first use by ``place_secrets_of``
        self.place_secrets: list[tuple[LogSecret, ...]] = [()] * n

    # ------------------------------------------------------------------ actions
    @cached_property
    def build_table(self) -> dict[tuple[int, int, int], Build]:
        """(planet, level, cell) -> Build action (Personalized variant only)."""
        if not self.personalized:
            return {}
        out = {}
        w = self.width
        for p, kind in enumerate(self.p_kind):
            levels = (1, 2) if kind == MINOR else (3, 4) if kind == MAJOR else (DARK_LEVEL,)
            for lv in levels:
                for c in range(self.ncells):
                    out[(p, lv, c)] = Build(p, lv, c, self.p_code[p], c % w + 1, c // w + 1)
        return out

    @cached_property
    def build_rows(self) -> dict[tuple[int, int], tuple[Build, ...]]:
        """(planet, level) -> the Build actions indexed by cell (Personalized variant)."""
        rows: dict[tuple[int, int], list[Build]] = {}
        for (p, lv, _c), action in self.build_table.items():  # built cell by cell, in order
            rows.setdefault((p, lv), []).append(action)
        return {k: tuple(v) for k, v in rows.items()}

    @cached_property
    def discards(self) -> tuple[Discard, ...]:
        return tuple(Discard(p, code) for p, code in enumerate(self.p_code))

    @cached_property
    def _all_actions(self) -> tuple[Action, ...]:
        acts: list[Action] = [a for row in self.place_rows for a in row]
        if self.personalized:
            acts.extend(self.build_table.values())
            acts.extend(self.discards)
        return tuple(acts)

    def all_actions(self) -> tuple[Action, ...]:
        return self._all_actions

    def place_secrets_of(self, seat: int) -> tuple[LogSecret, ...]:
        """Per cell, the log line of a card ``seat`` places there, as the others read it."""
        row = self.place_secrets[seat]
        if not row:
            row = tuple(LogSecret(f"?@{x + 1},{y + 1}", (seat,)) for x, y in self.cell_xy)
            self.place_secrets[seat] = row
        return row

    def cell_of(self, col: int, row: int) -> int:
        """Cell index of 1-based (col, row); InvalidActionError outside the sector."""
        if not (1 <= col <= self.width and 1 <= row <= self.height):
            raise InvalidActionError(
                f"{col},{row} is outside the {self.width}x{self.height} Star Sector"
            )
        return (row - 1) * self.width + col - 1

    def cell_name(self, cell: int) -> str:
        x, y = self.cell_xy[cell]
        return f"{x + 1},{y + 1}"

    def planet_label(self, p: int) -> str:
        return self.p_name[p] or self.p_code[p]

    # ------------------------------------------------------------------ chance notation
    def grid_token(self, p: int, lv: int) -> str:
        """One cell of the ``grid`` notation: ``.`` (no planet), ``code`` (a Dark Planet) or
        ``code:level``."""
        if p < 0:
            return "."
        if 0 <= lv <= DARK_LEVEL:
            return self.grid_tokens[p][lv]
        return f"{self.p_code[p]}:{lv}"

    def grid_text(self, cells: tuple[tuple[int, int], ...]) -> str:
        toks = self.grid_tokens
        return "grid " + " ".join(
            [
                toks[p][lv] if p >= 0 and 0 <= lv <= DARK_LEVEL else self.grid_token(p, lv)
                for p, lv in cells
            ]
        )

    def deal_text(self, hands: tuple[tuple[int, ...], ...]) -> str:
        code = self.p_code
        return "deal " + "/".join([",".join([code[p] for p in h]) for h in hands])

    def deck_text(self, cards: tuple[int, ...]) -> str:
        code = self.p_code
        return "deck " + " ".join([code[p] for p in cards]) if cards else "deck"

    def trio_text(self, trio: tuple[int, int, int]) -> str:
        """One seat's three Secret Missions: ``1a-2c-3e``."""
        codes = self.mission_codes
        one, two, three = trio
        return f"{codes[one]}-{codes[two]}-{codes[three]}"

    def missions_text(self, seats: tuple[tuple[int, int, int], ...]) -> str:
        return "missions " + "/".join([self.trio_text(trio) for trio in seats])

    def make_grid(self, cells: tuple[tuple[int, int], ...]) -> GridDeal:
        return GridDeal(tuple(cells), self.grid_text(tuple(cells)))

    def make_deal(self, hands: tuple[tuple[int, ...], ...]) -> PlanetDeal:
        return PlanetDeal(tuple(tuple(h) for h in hands), self.deal_text(hands))

    def make_deck(self, cards: tuple[int, ...]) -> DeckOrder:
        return DeckOrder(tuple(cards), self.deck_text(tuple(cards)))

    def make_missions(self, seats: tuple[tuple[int, int, int], ...]) -> MissionDeal:
        seats = tuple(tuple(t) for t in seats)  # type: ignore[misc]
        return MissionDeal(seats, self.missions_text(seats))

    def _planet(self, code: str) -> int:
        try:
            return self.code_index[code]
        except KeyError:
            raise InvalidActionError(f"no planet card {code!r}") from None

    def parse_chance(self, text: str) -> Action | None:
        head, _, rest = text.partition(" ")
        rest = rest.strip()
        if head == "grid":
            cells = []
            for tok in rest.split():
                if tok == ".":
                    cells.append((-1, 0))
                    continue
                code, colon, lv = tok.partition(":")
                p = self._planet(code)
                if not colon:
                    cells.append((p, DARK_LEVEL))
                elif lv in {"1", "2", "3", "4"}:
                    cells.append((p, int(lv)))
                else:
                    raise InvalidActionError(f"bad level in grid entry {tok!r}")
            return self.make_grid(tuple(cells))
        if head == "deal":
            hands = tuple(
                tuple(self._planet(c) for c in part.split(",") if c) for part in rest.split("/")
            )
            return self.make_deal(hands)
        if head == "deck":
            return self.make_deck(tuple(self._planet(c) for c in rest.split()))
        if head == "missions":
            seats = []
            for part in rest.split("/"):
                codes = part.split("-")
                try:
                    trio = tuple(self.mission_index[c] for c in codes)
                except KeyError:
                    raise InvalidActionError(f"unknown Secret Mission in {part!r}") from None
                if len(trio) != 3:
                    raise InvalidActionError(f"each seat gets three Secret Missions: {part!r}")
                seats.append(trio)
            return self.make_missions(tuple(seats))  # type: ignore[arg-type]
        return None

    # ------------------------------------------------------------------ states
    def new_initial_state(self) -> ShootingStarState:
        return ShootingStarState(self)

    def tutorials(self) -> list[Tutorial]:
        return tutorials()

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        return [{"players": n} for n in range(2, 6)] + [
            {"players": 2, "variant": "personalized"},
            {"players": 4, "variant": "personalized"},
        ]

    def card_key(self, card: int) -> str:
        return CARD_KEYS[card]
