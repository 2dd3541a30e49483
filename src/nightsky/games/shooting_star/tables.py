"""The game's tables as the rules read them on the hot path, typed.

``ShootingStarGame`` (interpreted) holds the sector's geometry, the planets and the missions;
reading them from the compiled rules costs a dictionary lookup per attribute. ``Tables``
(compiled with the rules, ``setup.py``) holds the same objects once more in typed fields, built
once per game from the game's own, so the two never disagree. The state reads them as ``self.t``.
It also makes the set-up's chance outcomes (``make_grid``, ``make_deck``, ``make_missions``)
as the game does, without an interpreted call per draw (their notation is spelled on first read).
"""

from __future__ import annotations

from typing import Any, Final

from nightsky.core.state import LogSecret
from nightsky.games.shooting_star.actions import (
    DeckOrder,
    GridDeal,
    MissionDeal,
    Place,
)

# Mission kinds and ``planets`` filters as ints (``Tables.m_kind``, ``Tables.m_filter``), in
# the order of the components' literals.
_MISSION_KINDS: Final = ("destroy", "named", "planets")
M_DESTROY: Final = 0
M_NAMED: Final = 1
M_PLANETS: Final = 2
_FILTERS: Final = ("any", "minor", "major", "moon")
F_ANY: Final = 0
F_MINOR: Final = 1
F_MAJOR: Final = 2
F_MOON: Final = 3


class Tables:
    """Typed copies of the game's tables (see the module's docstring)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.num_players: int = game.num_players
        self.ncells: int = game.ncells
        self.cells: list[int] = list(range(self.ncells))
        self.personalized: bool = game.personalized
        self.grid_planets: int = game.grid_planets
        self.nplanets: int = len(game.p_kind)
        #: place_rows[card][cell]: the Place action (as ``game.place_rows``)
        self.place_rows: list[list[Place]] = [list(row) for row in game.place_rows]
        #: blast[card][cell]: the cells blasted (as ``game.blast``)
        self.blast: list[list[tuple[int, ...]]] = [list(row) for row in game.blast]
        self.neigh: list[tuple[int, ...]] = list(game.neigh)
        self.p_kind: list[int] = list(game.p_kind)
        self.p_sides: list[tuple[int, int]] = list(game.p_sides)
        self.minors: list[int] = list(game.minors)
        self.darks: list[int] = list(game.darks)
        self.major_names: list[str] = list(game.major_names)
        self.majors_by_name: dict[str, list[int]] = {
            name: list(planets) for name, planets in game.majors_by_name.items()
        }
        #: the Level 4 names by index in ``major_names``, and their planets (set-up draws)
        self.name_ids: list[int] = list(range(len(self.major_names)))
        self.majors_by_id: list[list[int]] = [self.majors_by_name[n] for n in self.major_names]
        self.missions_by_value: list[list[int]] = [list(ms) for ms in game.missions_by_value]
        self.grid_tokens: tuple[tuple[str, ...], ...] = game.grid_tokens
        self.p_code: tuple[str, ...] = game.p_code
        self.mission_codes: tuple[str, ...] = game.mission_codes
        #: what a dealt sector's notation is spelled from (``GridDeal``)
        self.grid_codes: tuple[tuple[tuple[str, ...], ...], tuple[str, ...]] = (
            self.grid_tokens, self.p_code)
        # What scoring reads (every search rollout ends in it): planets' facts and the
        # missions as ints, instead of the interpreted game's tuples and pydantic records.
        self.p_name: list[str] = list(game.p_name)
        self.p_moon: list[bool] = [bool(m) for m in game.p_moon]
        self.p_zero: list[bool] = [p in game.zero for p in range(self.nplanets)]
        missions = game.missions
        #: per mission: M_DESTROY, M_NAMED or M_PLANETS
        self.m_kind: list[int] = [_MISSION_KINDS.index(m.kind) for m in missions]
        #: per mission: which planets a ``planets`` mission counts (F_ANY ... F_MOON)
        self.m_filter: list[int] = [_FILTERS.index(m.filter) for m in missions]
        self.m_value: list[int] = [m.value for m in missions]
        self.m_count: list[int] = [m.count for m in missions]
        self.m_planet: list[str] = [m.planet for m in missions]
        #: secrets[seat][cell]: ``game.place_secrets_of(seat)``, copied on first use
        self.secrets: list[list[LogSecret]] = [[] for _ in range(self.num_players)]

    def __reduce__(self) -> tuple[Any, ...]:
        # States pickle their fields (the server's thinking processes): rebuilt from the game.
        return (_tables_of, (self.game,))

    def place_secret(self, seat: int, cell: int) -> LogSecret:
        """How a card ``seat`` places on ``cell`` reads to the others (face down)."""
        row = self.secrets[seat]
        if not row:
            row = list(self.game.place_secrets_of(seat))
            self.secrets[seat] = row
        return row[cell]

    def make_grid(self, cells: tuple[tuple[int, int], ...]) -> GridDeal:
        """``game.make_grid`` of a tuple of (planet, level) per cell."""
        return GridDeal(cells, self.grid_codes)

    def make_deck(self, cards: tuple[int, ...]) -> DeckOrder:
        """``game.make_deck``: the replacement deck, top card first."""
        return DeckOrder(cards, self.p_code)

    def make_missions(self, seats: tuple[tuple[int, int, int], ...]) -> MissionDeal:
        """``game.make_missions`` of one (1-, 2-, 3-point) trio per seat."""
        return MissionDeal(seats, self.mission_codes)


def _tables_of(game: Any) -> Tables:
    tables: Tables = game.tables
    return tables
