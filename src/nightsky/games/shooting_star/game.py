"""The Shooting Star ``Game``: options, static tables, action codec and chance notation."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property, lru_cache
from typing import Any, NamedTuple, overload

from nightsky.core.errors import InvalidActionError
from nightsky.core.game import Action, Game, GameInfo, LogSecret, Option, Tutorial
from nightsky.core.info import Level
from nightsky.games.shooting_star import actions, attribution
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
    FIRST_COL,
    FIRST_ROW,
    GRIDS,
    MAJOR,
    MINOR,
    NCARDS,
    PLANETS_PER_PLAYER,
)
from nightsky.games.shooting_star.evaluator import ShootingStarEvaluator
from nightsky.games.shooting_star.observer import ShootingStarObserver
from nightsky.games.shooting_star.state import ShootingStarState
from nightsky.games.shooting_star.tables import Tables
from nightsky.games.shooting_star.tutorials import tutorials
from nightsky.games.shooting_star.ui import ShootingStarUI


class _Table(NamedTuple):
    cell_xy: tuple[tuple[int, int], ...]
    cell_cr: tuple[tuple[int, int], ...]
    cell_names: tuple[str, ...]
    neigh: tuple[tuple[int, ...], ...]
    blast: tuple[tuple[tuple[int, ...], ...], ...]
    place_rows: tuple[tuple[Place, ...], ...]


@lru_cache(maxsize=32)
def _table(
    w: int, h: int, col0: int, row0: int, patterns: tuple[tuple[tuple[int, int], ...], ...]
) -> _Table:
    """The static tables of a ``w`` x ``h`` table whose first column and row are numbered
    ``col0``, ``row0``, for the blast ``patterns`` (shared by the games that use them; the
    Personalized table of five players has 3,481 cells)."""
    cells = range(w * h)
    cell_xy = tuple([(c % w, c // w) for c in cells])
    cell_cr = tuple([(x + col0, y + row0) for x, y in cell_xy])
    cell_names = tuple([f"{col},{row}" for col, row in cell_cr])
    neigh = tuple(
        [
            tuple([c - w] if y else []) + tuple([c - 1] if x else [])
            + tuple([c + 1] if x < w - 1 else []) + tuple([c + w] if y < h - 1 else [])
            for c, (x, y) in enumerate(cell_xy)
        ]
    )
    blast = []
    for pattern in patterns:
        row: list[tuple[int, ...]] = []
        for y in range(h):
            # the offsets that stay on the table vertically: (dcol, cell delta)
            offs = [(dc, dr * w + dc) for dc, dr in pattern if 0 <= y + dr < h]
            base = y * w
            for x in range(w):
                row.append(tuple([base + x + d for dc, d in offs if 0 <= x + dc < w]))
        blast.append(tuple(row))
    place_rows = tuple(
        tuple([Place(k, c, col, r) for c, (col, r) in enumerate(cell_cr)]) for k in range(NCARDS)
    )
    return _Table(cell_xy, cell_cr, cell_names, neigh, tuple(blast), place_rows)


class _ActionIds(dict[Action, int]):
    """Action -> id, each entry computed (``ShootingStarGame._id_of``) and kept the first time
    it is asked for: a table of every action would hold up to 358,592 of them."""

    def __init__(self, game: ShootingStarGame) -> None:
        super().__init__()
        self.game = game

    def __missing__(self, action: Action) -> int:
        i = self.game._id_of(action)
        self[action] = i
        return i

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ActionIds, (self.game,))


def _small(i: object, n: int) -> bool:
    """Whether ``i`` is an int in ``range(n)`` (a field of an action built by hand may be
    anything)."""
    return type(i) is int and 0 <= i < n


class ActionSpace(Sequence[Action]):
    """Every player action of a game in id order (``game.all_actions()``), each made when it is
    asked for: the Personalized table has up to 358,592 of them."""

    def __init__(self, game: ShootingStarGame) -> None:
        self.game = game

    def __len__(self) -> int:
        return self.game.num_distinct_actions

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if not isinstance(i, int):
            raise TypeError(f"action ids are ints, not {type(i).__name__}")
        if not -n <= i < n:
            raise IndexError(f"action id {i} is outside 0..{n - 1}")
        return self.game.action_from_id(i % n)

    def __iter__(self) -> Iterator[Action]:
        return map(self.game.action_from_id, range(len(self)))

    def __contains__(self, action: object) -> bool:
        try:
            self.game.action_id(action)  # type: ignore[arg-type]
        except InvalidActionError:
            return False
        return True

    def index(self, action: Any, start: int = 0, stop: int | None = None) -> int:
        i = self.game.action_id(action)
        if i < start or (stop is not None and i >= stop):
            raise ValueError(f"{action!s} is not in that range of ids")
        return i


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
        resign_rule="SS-15.1",  # rules.md: our ruling on resigning
        levels=(
            Level(
                "easy",
                "greedy:epsilon=0.5",
                "half its moves random, half greedy: beats random in 92% (ladder, 200 games)",
            ),
            Level(
                "medium",
                "greedy",
                "one move ahead on the game's heuristic: beats easy in 86% (ladder, 200 games)",
            ),
            Level(
                "hard",
                "ismcts:iterations=250,seconds=0.5",
                "a short search (250 iterations, at most 0.5 s): beats greedy in 70% (ladder)",
            ),
            Level(
                "expert",
                "ismcts:seconds=0.2",
                "0.2 s of search a move: beats hard in 68%, greedy in 82% (ladder, 200 games)",
            ),
        ),
    )

    ui_class = ShootingStarUI
    observer_class = ShootingStarObserver
    component_events = attribution.component_events  # the design lab's hook
    evaluator_class = ShootingStarEvaluator
    # typed tables for the compiled rules, and the blank state new ones are copied from:
    # rebuilt on unpickling, in this order
    rebuilt = {"tables": Tables, "_initial": ShootingStarState}

    def __init__(self, players: int | str | None = None, **params: Any) -> None:
        super().__init__(players, **params)
        self.comp = load(self.options["components"])
        self.personalized = self.options["variant"] == "personalized"
        n = self.num_players
        self.grid_planets = PLANETS_PER_PLAYER * n
        if self.personalized:
            # Ruling SS-14.6: the table has no edge a sector can reach. The K planets of the
            # build are laid one beside another, starting from the first, so none can lie more
            # than K - 1 steps from it: a square of side 2K - 1 centred on the first planet
            # (column 8, row 8, SS-14.3) holds every shape the players can build.
            reach = self.grid_planets - 1
            self.width = self.height = 2 * reach + 1
            self.col0 = FIRST_COL - reach  # the column number of x = 0 (may be negative)
            self.row0 = FIRST_ROW - reach
            self.centre = reach * self.width + reach  # the first planet's cell
        else:
            self.width, self.height = GRIDS[n]
            self.col0 = self.row0 = 1
            self.centre = -1  # a dealt sector has no first planet
        self.ncells = self.width * self.height

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

        patterns = tuple(tuple((int(dc), int(dr)) for dc, dr in card.blast) for card in self.cards)
        table = _table(self.width, self.height, self.col0, self.row0, patterns)
        #: per cell, its 0-based (x, y) on the table and its (column, row) as the notation
        #: writes it (from 1 on a dealt sector; around 8,8 = the first planet when built)
        self.cell_xy = table.cell_xy
        self.cell_cr = table.cell_cr
        self.cell_names = table.cell_names
        self.neigh = table.neigh
        # blast[card][cell]: the cells the card blasts from that cell, in pattern order;
        # offsets off the grid are dropped (ruling SS-5.8).
        self.blast = table.blast
        self.place_rows = table.place_rows
        # The action ids (``action_id``): Place = card x ncells + cell; in the Personalized
        # variant then Build = build_id0 + pair x ncells + cell, a pair being one side of one
        # planet (planets in index order, lower side first), and Discard = discard_id0 + planet.
        # Build actions are made on first use (``build_by_id``): the table has up to 3,481 cells.
        self.p_levels = tuple(
            (1, 2) if k == MINOR else (3, 4) if k == MAJOR else (DARK_LEVEL,) for k in self.p_kind
        )
        self.pair_planet = tuple(p for p, lvs in enumerate(self.p_levels) for _ in lvs)
        self.pair_level = tuple(lv for lvs in self.p_levels for lv in lvs)
        self.pair_base = tuple(self.pair_planet.index(p) for p in range(len(self.p_kind)))
        self.build_id0 = NCARDS * self.ncells
        self.discard_id0 = self.build_id0 + len(self.pair_planet) * self.ncells
        #: build_rows[pair][cell]: the Build actions made so far (None: not yet; [] : row unused)
        self.build_rows: list[list[Build | None]] = [[] for _ in self.pair_planet]
        self._space = ActionSpace(self)
        # the contract's id table (``Game.action_id``, read directly by the RL adapters), here
        # filled with each action the first time its id is asked for
        self._action_index = _ActionIds(self)
        # place_secrets[seat][cell]: how a card ``seat`` places there reads to the others
        # (face down); each seat's row is built on first use by ``place_secrets_of``
        self.place_secrets: list[tuple[LogSecret, ...]] = [()] * n
        # The tables again, typed, for the compiled rules (``tables``).
        self.tables = Tables(self)
        # A random game is ~17 actions: copying one blank state is cheaper than building it.
        self._initial = ShootingStarState(self)

    # ------------------------------------------------------------------ actions
    @property
    def num_distinct_actions(self) -> int:
        """9 x ncells Place actions; in the Personalized variant also one Build per planet side
        and cell and one Discard per planet (see ``action_id``)."""
        if self.personalized:
            return self.discard_id0 + len(self.p_kind)
        return self.build_id0

    def all_actions(self) -> ActionSpace:
        """Every player action in id order, made on demand (a lazy sequence)."""
        return self._space

    def _id_of(self, action: Action) -> int:
        """The id of ``action``, computed from its fields (``action_id``); KeyError when it is
        not an action of this game."""
        t = type(action)
        if t is Place:
            k, c = action.card, action.cell  # type: ignore[attr-defined]
            if _small(k, NCARDS) and _small(c, self.ncells) and self.place_rows[k][c] == action:
                return k * self.ncells + c
        elif t is Build and self.personalized:
            p, lv, c = action.planet, action.level, action.cell  # type: ignore[attr-defined]
            if (
                _small(p, len(self.p_kind))
                and lv in self.p_levels[p]
                and _small(c, self.ncells)
            ):
                i = self.build_id0 + (self.pair_base[p] + lv - self.p_levels[p][0]) * self.ncells
                if self.build_by_id(i + c) == action:
                    return i + c
        elif t is Discard and self.personalized:
            p = action.planet  # type: ignore[attr-defined]
            if _small(p, len(self.p_kind)) and self.discards[p] == action:
                return self.discard_id0 + p
        raise KeyError(action)

    def action_from_id(self, i: int) -> Action:
        if not isinstance(i, int) or not 0 <= i < self.num_distinct_actions:
            raise InvalidActionError(
                f"action id {i!r} is outside 0..{self.num_distinct_actions - 1} for {self.info.id}"
            )
        if i < self.build_id0:
            k, c = divmod(i, self.ncells)
            return self.place_rows[k][c]
        if i < self.discard_id0:
            return self.build_by_id(i)
        return self.discards[i - self.discard_id0]

    def build_row(self, pair: int) -> list[Build | None]:
        """The row of ``build_rows`` of one planet side, made on first use."""
        row = self.build_rows[pair]
        if not row:
            row = [None] * self.ncells
            self.build_rows[pair] = row
        return row

    def build_by_id(self, i: int) -> Build:
        """The Build action with id ``i`` (``build_id0 <= i < discard_id0``, unchecked): one
        object per game, made on first use."""
        pair, c = divmod(i - self.build_id0, self.ncells)
        row = self.build_row(pair)
        a = row[c]
        if a is None:
            p = self.pair_planet[pair]
            col, r = self.cell_cr[c]
            a = Build(p, self.pair_level[pair], c, self.p_code[p], col, r)
            row[c] = a
        return a

    def build_action(self, planet: int, level: int, cell: int) -> Build:
        """Personalized variant: the action putting ``planet`` with ``level`` up on ``cell``."""
        if not self.personalized:
            raise InvalidActionError("planets are only built in the Personalized variant (SS-14)")
        if not _small(planet, len(self.p_kind)) or level not in self.p_levels[planet]:
            raise InvalidActionError(f"planet {planet!r} has no side with Level {level!r}")
        if not _small(cell, self.ncells):
            raise InvalidActionError(f"cell {cell!r} is not on the table (SS-14.6)")
        base = self.pair_base[planet] + level - self.p_levels[planet][0]
        return self.build_by_id(self.build_id0 + base * self.ncells + cell)

    @cached_property
    def discards(self) -> tuple[Discard, ...]:
        return tuple(Discard(p, code) for p, code in enumerate(self.p_code))

    def parse_action(self, text: str) -> Action:
        """Read a player action (``P3@2,1``, ``n03:4@8,8``, ``d2:out``) or a chance outcome
        back from its notation; only the exact notation ``str(action)`` is accepted."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action notation must be text, got {type(text).__name__}")
        key = text.strip()
        found = self._parse_move(key)
        if found is not None and str(found) == key:
            return found
        extra = self.parse_chance(key)
        if extra is not None:
            return extra
        raise InvalidActionError(f"cannot read {text!r} as a {self.info.title} action")

    def _parse_move(self, key: str) -> Action | None:
        what, at, where = key.partition("@")
        if not at:
            code, colon, side = key.partition(":")
            p = self.code_index.get(code)
            if self.personalized and p is not None and colon and side == "out":
                return self.discards[p]
            return None
        col_text, comma, row_text = where.partition(",")
        try:
            col, row = int(col_text), int(row_text)
        except ValueError:
            return None
        if not comma:
            return None
        k = CARD_KEYS.index(what) if what in CARD_KEYS else -1
        code, colon, side = what.partition(":")
        p = self.code_index.get(code, -1) if self.personalized else -1
        if k < 0 and p < 0:
            return None
        c = self.cell_of(col, row)  # raises off the table, naming the rule
        if k >= 0:
            return self.place_rows[k][c]
        level = (int(side) if side in ("1", "2", "3", "4") else -1) if colon else DARK_LEVEL
        if level not in self.p_levels[p]:
            return None
        return self.build_action(p, level, c)

    def place_secrets_of(self, seat: int) -> tuple[LogSecret, ...]:
        """Per cell, the log line of a card ``seat`` places there, as the others read it."""
        row = self.place_secrets[seat]
        if not row:
            row = tuple(LogSecret(f"?@{name}", (seat,)) for name in self.cell_names)
            self.place_secrets[seat] = row
        return row

    def cell_of(self, col: int, row: int) -> int:
        """Cell index of (col, row) as the notation writes them; InvalidActionError off the
        sector (SS-2.3) or, in the Personalized variant, beyond any sector's reach (SS-14.6)."""
        x, y = col - self.col0, row - self.row0
        if not (0 <= x < self.width and 0 <= y < self.height):
            if self.personalized:
                last = self.col0 + self.width - 1
                raise InvalidActionError(
                    f"{col},{row} is out of reach: a sector of {self.grid_planets} planets "
                    f"built from {FIRST_COL},{FIRST_ROW} spans columns and rows "
                    f"{self.col0}..{last} (SS-14.6)"
                )
            raise InvalidActionError(
                f"{col},{row} is outside the {self.width}x{self.height} Star Sector (SS-2.3)"
            )
        return y * self.width + x

    def cell_name(self, cell: int) -> str:
        """``col,row`` of a cell, as the notation writes it."""
        return self.cell_names[cell]

    def planet_label(self, p: int) -> str:
        """A planet as players call it: its printed name, else its kind (the 1/2 planets and
        the Dark Planets print no name; where it lies tells them apart)."""
        if self.p_name[p]:
            return self.p_name[p]
        return "a Dark Planet" if self.p_kind[p] == DARK else "a 1/2 planet"

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
        return actions.grid_text(self.grid_tokens, self.p_code, tuple(cells))

    def deal_text(self, hands: tuple[tuple[int, ...], ...]) -> str:
        return actions.deal_text(self.p_code, hands)

    def deck_text(self, cards: tuple[int, ...]) -> str:
        return actions.deck_text(self.p_code, tuple(cards))

    def trio_text(self, trio: tuple[int, int, int]) -> str:
        """One seat's three Secret Missions: ``1a-2c-3e``."""
        return actions.trio_text(self.mission_codes, trio)

    def missions_text(self, seats: tuple[tuple[int, int, int], ...]) -> str:
        return actions.missions_text(self.mission_codes, seats)

    def make_grid(self, cells: tuple[tuple[int, int], ...]) -> GridDeal:
        return GridDeal(tuple(cells), self.tables.grid_codes)

    def make_deal(self, hands: tuple[tuple[int, ...], ...]) -> PlanetDeal:
        return PlanetDeal(tuple(tuple(h) for h in hands), self.p_code)

    def make_deck(self, cards: tuple[int, ...]) -> DeckOrder:
        return DeckOrder(tuple(cards), self.p_code)

    def make_missions(self, seats: tuple[tuple[int, int, int], ...]) -> MissionDeal:
        seats = tuple(tuple(t) for t in seats)  # type: ignore[misc]
        return MissionDeal(seats, self.mission_codes)

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
        return self._initial.clone()

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
