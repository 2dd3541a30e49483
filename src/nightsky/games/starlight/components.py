"""Starlight's components: pydantic models of ``data/*.toml`` and the compiled lookup tables.

The shipped files are ``sky.toml`` (board, rondel, pools, constellations), ``cores.toml`` (the
Core deck and Starter Cores) and ``cards.toml`` (Flares, Laurels, Accolades, Starbot deck, Gods).
A user's ``components=PATH`` file may hold any of those top-level tables; each table it holds
replaces the shipped one, and the whole set is validated together.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from nightsky.core.components import (
    Component,
    cached_per_file,
    data_path,
    describe_errors,
    load_toml,
)
from nightsky.core.errors import ComponentError

COLORS_MAX = 8
CORE_POOL = 3  # face-up Cores (rulebook)
FLARE_POOL = 4  # face-up Flares (rulebook)
FLARES = 24  # cards in the Flare deck (the shipped set)
PRIVILEGES = ("buy_np", "plus_ap", "refill_rays", "laurels3", "core_ray", "alpha")
SIZES = ("small", "medium", "large")
SPACES = ("cores", "long", "short", "flares", "launch1", "launch2", "launch3")
PATTERNS = ("any", "long", "short", "equal")
NP_KINDS = (
    "flat",
    "per_star",
    "per_constellation",
    "per_privilege",
    "per_aspect",
    "per_magnitude",
    "magnitude",
    "per_flare",
)
BOONS = ("ap", "ray", "core")
GOAL_KINDS = (
    "constellations",
    "magnitudes",
    "aspects",
    "privileges",
    "stars_in_one",
    "stars",
    "alpha",
    "flares_used",
)
POWERS = (
    "free_ray",
    "any_constellation",
    "free_step",
    "no_surcharge",
    "save7",
    "five_cores",
    "three_cores",
    "cheap_flares",
    "laurel_bonus",
    "war",
)

Size = Literal["small", "medium", "large"]
Privilege = Literal["", "buy_np", "plus_ap", "refill_rays", "laurels3", "core_ray", "alpha"]


class Board(Component):
    rondel: list[Literal["cores", "long", "short", "flares", "launch1", "launch2", "launch3"]]
    """The seven action spaces in their order around the rondel."""
    launch_spaces: dict[str, list[str]]
    """The two constellations each Launch space shows (launch1, launch2, launch3)."""
    core_pool: int = Field(ge=1, le=6)
    """Cores face up in the pool (rulebook: 3)."""
    long_pool: int = Field(ge=1, le=10)
    """Long rays face up in their pool."""
    short_pool: int = Field(ge=1, le=10)
    """Short rays face up in their pool."""
    flare_pool: int = Field(ge=1, le=6)
    """Flares face up in the pool, priced 1 to 4 action points (rulebook: 4)."""
    daybreak: int = Field(ge=1)
    """Night points at which daybreak comes: the round is finished, then one more (SL-12.1)."""
    save_limit: int = Field(ge=0)
    """Action points a seat may save for later turns (SL-2.7)."""
    base_ap: int = Field(ge=1)
    """Action points of a turn."""
    first_turn_ap: int = Field(ge=1)
    """Action points of a seat's first turn (SL-2.1)."""
    core_limit: int = Field(ge=1)
    """Cores a seat may keep (SL-3.7)."""
    cores_per_action: int = Field(ge=1)
    """Cores one Gain Cores action may take (SL-3.1)."""
    alpha_day_points: int = Field(ge=0)
    """Day points at the end for each alpha (large) slot a seat holds."""
    laurel_privilege_points: int = Field(ge=0)
    """Extra points per fulfilled Laurel with the Laurels + 3 privilege (SL-8.4)."""
    laurels_dealt: int = Field(ge=0, le=3)
    """Laurels dealt to each live player at set-up."""
    gods_dealt: int = Field(ge=1, le=2)
    """God cards dealt to each live player with the Gods variant (keeps one, SL-1.3)."""

    @model_validator(mode="after")
    def _seven_spaces(self) -> Board:
        if sorted(self.rondel) != sorted(SPACES):
            raise ValueError(f"rondel must hold each of the seven spaces once: {', '.join(SPACES)}")
        if sorted(self.launch_spaces) != ["launch1", "launch2", "launch3"]:
            raise ValueError("launch_spaces must name launch1, launch2 and launch3")
        for k, v in self.launch_spaces.items():
            if len(v) != 2:
                raise ValueError(f"launch space {k} must show exactly two constellations")
        return self


class TurnOrder(Component):
    """Turn-order compensation (designed, Ruling SL-1.5): what each live seat starts with.

    Keyed by the number of live players ("1"-"5"); each list gives one value per live seat in
    turn order. Starbots receive nothing (they always sit after the live players, so live seat
    k is always k-th in turn order), but they change what the later live seats need: a key
    "L+B" (L live players and B Starbots, e.g. "2+2") gives the row for that table and takes
    precedence over "L" for the field it appears in (``row``).
    """

    saved_ap: dict[str, list[int]]
    """Saved action points each live seat starts with, per table key."""
    night_points: dict[str, list[int]]
    """Night points each live seat starts with, per table key (count toward daybreak)."""
    day_points: dict[str, list[int]] = Field(default_factory=dict)
    """Day points scored at the end (SL-13.1): unlike night points they do not count toward
    daybreak (SL-12.1)."""
    privileges: dict[str, list[list[Privilege]]] = Field(default_factory=dict)
    """Privileges (SL-8) a seat holds from the start, as if recorded on its mat."""

    @staticmethod
    def live_seats(key: str) -> int:
        """The live players a key covers ("3" and "3+2" both 3); ValueError when malformed."""
        live, plus, bots = key.partition("+")
        if not live.isdigit() or not 1 <= int(live) <= 5:
            raise ValueError(f"is keyed by live player count 1-5 or 'L+B' (live + Starbots), "
                             f"not {key!r}")
        if plus and (not bots.isdigit() or int(bots) < 1 or int(live) + int(bots) > 5):
            raise ValueError(f"key {key!r}: 'L+B' needs at least one Starbot and at most five "
                             "seats in all (SL-1.1)")
        return int(live)

    def row(self, field: str, live: int, bots: int = 0) -> list[Any]:
        """The ``field`` row for ``live`` players and ``bots`` Starbots ("L+B", else "L")."""
        table: dict[str, list[Any]] = getattr(self, field)
        if bots:
            mixed = table.get(f"{live}+{bots}")
            if mixed is not None:
                return mixed
        return table.get(str(live), [])

    @model_validator(mode="after")
    def _per_seat(self) -> TurnOrder:
        for field in ("saved_ap", "night_points", "day_points", "privileges"):
            table: dict[str, list[Any]] = getattr(self, field)
            each = "list" if field == "privileges" else "value"
            for k, v in table.items():
                try:
                    live = self.live_seats(k)
                except ValueError as e:
                    raise ValueError(f"{field} {e}") from None
                if len(v) != live:
                    raise ValueError(f"{field}[{k}] must give one {each} per live seat")
                if field == "privileges":
                    if any(x == "" for row in v for x in row):
                        raise ValueError(f"{field}[{k}] must name privileges, not an empty string")
                elif any(x < 0 for x in v):
                    raise ValueError(f"{field}[{k}] values must not be negative")
        return self


class Slotless(Component):
    small: int = Field(ge=0)
    """Points of a small star launched on no slot at the end (SL-12.4)."""
    medium: int = Field(ge=0)
    """Points of a medium star launched on no slot at the end (SL-12.4)."""
    large: int = Field(ge=0)
    """Points of a large star launched on no slot at the end (SL-12.4)."""


class Rays(Component):
    colors: list[str] = Field(min_length=2, max_length=COLORS_MAX)
    """The ray colours (one per player colour)."""
    long_per_color: int = Field(ge=1)
    """Long rays of each colour in the supply."""
    short_per_color: int = Field(ge=1)
    """Short rays of each colour in the supply."""


class Slot(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    n: int = Field(ge=1)
    """The slot's number within its constellation (1, 2, ...): \"Aquila 1\" is slot 1 of Aquila."""
    size: Size
    """The star size it hosts: small (magnitude 2-3), medium (4-5) or large (6-7)."""
    np: int = Field(ge=0)
    """Night points scored by the star launched on it."""
    privilege: Privilege
    """The privilege its launch earns ('' for none)."""
    target: bool
    """A target slot: a constellation's first launch must go to one."""
    links: list[int]
    """The slots of the same constellation it links to (each link goes both ways)."""


class Constellation(Component):
    name: str = Field(pattern=r"^[a-z]+$")
    """The short lowercase name used in notation (`to aquila 1`)."""
    title: str
    """The name on the board; reports name a slot by its first word (\"Aquila 1\")."""
    slots: list[Slot] = Field(min_length=2)
    """Its slots, numbered 1, 2, 3, ... in order."""

    @model_validator(mode="after")
    def _shape(self) -> Constellation:
        nums = [s.n for s in self.slots]
        if nums != list(range(1, len(nums) + 1)):
            raise ValueError("slots must be numbered 1, 2, 3, ... in order")
        if not any(s.target for s in self.slots):
            raise ValueError("a constellation needs at least one target slot")
        for s in self.slots:
            for t in s.links:
                if not 1 <= t <= len(nums) or t == s.n:
                    raise ValueError(f"slot {s.n} links to a missing slot {t}")
                if s.n not in self.slots[t - 1].links:
                    raise ValueError(f"slot {s.n} links to {t} but {t} does not link back")
        return self


class CoreCard(Component):
    id: str = Field(pattern=r"^C[0-9]+$")
    """Card id (C1, C2, ...)."""
    aspect: str
    """Its Aspect (Laurels and Flares count stars by Aspect)."""
    pattern: Literal["any", "long", "short", "equal"]
    """Which rays it takes: any, long only, short only, or as many long as short."""
    colors: list[str] = Field(min_length=1)
    """The ray colours it accepts."""


class StarterCore(Component):
    id: str = Field(pattern=r"^S[0-9]+$")
    """Card id (S1 ... S5)."""
    colors: list[str] = Field(min_length=1)
    """The ray colours it accepts."""


class FlareCard(Component):
    id: str = Field(pattern=r"^F[0-9]+$")
    """Card id (F1, F2, ...)."""
    np: Literal[
        "flat",
        "per_star",
        "per_constellation",
        "per_privilege",
        "per_aspect",
        "per_magnitude",
        "magnitude",
        "per_flare",
    ]
    """How its night points are counted when attached to a launched star."""
    np_value: int = Field(ge=0)
    """Night points per unit counted by `np`."""
    boon: Literal["ap", "ray", "core"]
    """What it gives when used instead: action points, rays or a Core."""
    boon_value: int = Field(ge=1, le=3)
    """How many of the boon."""


class Goal(Component):
    id: str
    """Card id."""
    kind: Literal[
        "constellations",
        "magnitudes",
        "aspects",
        "privileges",
        "stars_in_one",
        "stars",
        "alpha",
        "flares_used",
    ]
    """What the goal counts."""
    value: int = Field(ge=0)
    """How many of `kind` fulfil it."""
    constellations: list[str] = Field(default_factory=list)
    """The constellations a `constellations` goal names."""
    dp: int = Field(ge=0)
    """Day points it is worth at the end."""


class Laurel(Goal):
    @model_validator(mode="after")
    def _needs_list(self) -> Laurel:
        if self.kind == "constellations" and not self.constellations:
            raise ValueError("a constellations Laurel lists its constellations")
        return self


class Accolade(Goal):
    index: int = Field(ge=1, le=5)
    """Its position 1-5 (Starbot cards name an Accolade by index)."""


class StarbotCard(Component):
    id: str = Field(pattern=r"^SB-[0-9]+$")
    """Card id (SB-1, SB-2, ...)."""
    action: Literal["launch", "cores", "long", "short", "flares", "refresh"]
    """What the Starbot does: launch, take Cores/long/short rays/Flares, or refresh."""
    space: Literal["", "launch1", "launch2", "launch3"] = ""
    """The Launch space of a launch card."""
    size: Literal["", "small", "medium", "large"] = ""
    """The star size a launch card launches."""
    count: int = Field(default=0, ge=0, le=6)
    """How many a take card takes."""
    np: int = Field(ge=0)
    """Night points the card scores."""
    accolade: int = Field(ge=0, le=5)
    """The Accolade (1-5) the card advances; 0 on the Refresh card."""

    @model_validator(mode="after")
    def _fields(self) -> StarbotCard:
        if self.action == "launch" and (not self.space or not self.size):
            raise ValueError("a launch card names its space and size")
        if self.action in ("cores", "long", "short", "flares") and self.count < 1:
            raise ValueError("a take card needs a count of at least 1")
        if self.action == "refresh" and self.accolade != 0:
            raise ValueError("the Refresh card has no Accolade index (use 0)")
        if self.action != "refresh" and self.accolade == 0:
            raise ValueError("every card but Refresh names an Accolade index 1-5")
        return self


class GodCard(Component):
    id: str = Field(pattern=r"^G[0-9]+$")
    """Card id (G1, G2, ...)."""
    name: str
    """The God's name, as reports name it."""
    title: str
    """The card's title."""
    text: str = Field(min_length=1)
    """The power in words."""
    power: Literal[
        "free_ray",
        "any_constellation",
        "free_step",
        "no_surcharge",
        "save7",
        "five_cores",
        "three_cores",
        "cheap_flares",
        "laurel_bonus",
        "war",
    ]
    """The rule the power changes (SL-1.4)."""


class StarlightComponents(BaseModel):
    """Every component table of Starlight, validated together (cross-references checked)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    board: Board
    """The Sky Board's numbers and rondel."""
    slotless: Slotless
    """Points of stars launched on no slot."""
    turn_order: TurnOrder
    """Turn-order compensation (Ruling SL-1.5)."""
    rays: Rays
    """The ray supply."""
    constellations: list[Constellation] = Field(min_length=2)
    """The constellations of the Sky Board and their slots."""
    cores: list[CoreCard] = Field(min_length=4)
    """The Core deck."""
    starters: list[StarterCore] = Field(min_length=5, max_length=5)
    """The five Starter Cores."""
    flares: list[FlareCard] = Field(min_length=1)
    """The Flare deck (24 cards)."""
    laurels: list[Laurel] = Field(min_length=1)
    """The Laurel deck."""
    accolades: list[Accolade] = Field(min_length=5, max_length=5)
    """The five Accolades."""
    starbots: list[StarbotCard] = Field(min_length=1)
    """The Starbot deck (one Refresh card)."""
    gods: list[GodCard] = Field(min_length=2)
    """The God deck (at least ten cards)."""

    @model_validator(mode="after")
    def _cross(self) -> StarlightComponents:
        names = [c.name for c in self.constellations]
        if len(set(names)) != len(names):
            raise ValueError("constellation names must be unique")
        for space, shown in self.board.launch_spaces.items():
            for c in shown:
                if c not in names:
                    raise ValueError(f"launch space {space} shows unknown constellation {c!r}")
        colors = set(self.rays.colors)
        cards: list[CoreCard | StarterCore] = [*self.cores, *self.starters]
        for card in cards:
            bad = set(card.colors) - colors
            if bad:
                raise ValueError(f"{card.id} uses unknown ray colour {sorted(bad)[0]!r}")
        for laurel in [*self.laurels, *self.accolades]:
            for c in laurel.constellations:
                if c not in names:
                    raise ValueError(f"{laurel.id} names unknown constellation {c!r}")
        if sorted(a.index for a in self.accolades) != [1, 2, 3, 4, 5]:
            raise ValueError("the five Accolades must have indices 1-5")
        if not any(c.action == "refresh" for c in self.starbots):
            raise ValueError("the Starbot deck needs its Refresh card")
        for kind in ("cores", "flares", "laurels", "starbots", "gods"):
            ids = [x.id for x in getattr(self, kind)]
            if len(set(ids)) != len(ids):
                raise ValueError(f"{kind} ids must be unique")
        for k, v in self.turn_order.saved_ap.items():
            if any(x > self.board.save_limit for x in v):
                raise ValueError(
                    f"turn_order.saved_ap[{k}]: at most save_limit "
                    f"({self.board.save_limit}) points may be saved (SL-2.7)"
                )
        if len(self.gods) < 10:
            # Two dealt to each of up to five players.
            raise ValueError("the God deck needs ten cards (two for each of five players)")
        # Counts the set fixes: the pools are rulebook facts (SL-1.5), the Flare deck's size is
        # the shipped deck's (24 cards); a file that drops or adds one is refused, not played.
        fixed = (("board.core_pool", self.board.core_pool, CORE_POOL),
                 ("board.flare_pool", self.board.flare_pool, FLARE_POOL),
                 ("flares", len(self.flares), FLARES))
        wrong = [f"{what} is {got}, the set has {want}" for what, got, want in fixed
                 if got != want]
        if wrong:
            raise ValueError("; ".join(wrong) + " (SL-1.5: three Cores and four Flares face up; "
                             f"a deck of {FLARES} Flares)")
        return self


SHIPPED = ("sky.toml", "cores.toml", "cards.toml")


def _raw(path: str) -> tuple[dict, dict[str, str]]:
    raw: dict = {}
    origin: dict[str, str] = {}
    for name in SHIPPED:
        p = data_path("nightsky.games.starlight", name)
        for k, v in load_toml(p).items():
            raw[k] = v
            origin[k] = name
    if path:
        user = load_toml(path)
        for k, v in user.items():
            raw[k] = v
            origin[k] = Path(path).name
    return raw, origin


def validate(raw: dict, origin: dict[str, str]) -> StarlightComponents:
    """Validate the merged tables; errors name the file, the entry and the field."""
    try:
        return StarlightComponents.model_validate(raw)
    except ValidationError as exc:
        # A check across tables is charged to the user's file where there is one.
        user = next((f for f in origin.values() if f not in SHIPPED), "components")
        raise ComponentError(
            describe_errors(exc, raw, lambda table: origin.get(table, user), ("id", "name"))
        ) from None


@dataclass(frozen=True)
class SlotInfo:
    """One slot of the Sky Board, flattened (index into the board-wide slot list)."""

    index: int
    constellation: int
    n: int
    size: int  # 0 small, 1 medium, 2 large
    np: int
    privilege: int  # index in PRIVILEGES, -1 for none
    target: bool
    links: tuple[int, ...]  # board-wide slot indices

    @property
    def name(self) -> str:
        return f"{self.constellation}.{self.n}"


@dataclass(frozen=True)
class Tables:
    """The compiled, integer-indexed form of the components the rules read."""

    data: StarlightComponents
    colors: tuple[str, ...]
    rondel: tuple[str, ...]
    constellations: tuple[str, ...]
    slots: tuple[SlotInfo, ...]
    slots_of: tuple[tuple[int, ...], ...]
    launch_shows: dict[str, tuple[int, ...]]
    core_ids: tuple[str, ...]  # C.. then S.. ; index = core number
    core_colors: tuple[int, ...]  # bit mask of allowed colours per core
    core_pattern: tuple[int, ...]  # index in PATTERNS ; starters: 0 (any)
    core_aspect: tuple[int, ...]  # index into aspects ; starters: -1
    num_deck_cores: int
    aspects: tuple[str, ...]
    flare_ids: tuple[str, ...]
    laurel_ids: tuple[str, ...]
    starbot_ids: tuple[str, ...]
    god_ids: tuple[str, ...]
    # Per-slot columns of ``slots`` and other values the search's hot path reads: one tuple
    # lookup instead of an attribute lookup on an interpreted object per slot.
    slot_size: tuple[int, ...]
    slot_target: tuple[bool, ...]
    slot_links: tuple[tuple[int, ...], ...]
    alpha_slots: tuple[int, ...]  # the size-2 (alpha) slots
    accolade_dp: tuple[int, ...]  # day points of Accolade i + 1


def compile_tables(data: StarlightComponents) -> Tables:
    colors = tuple(data.rays.colors)
    cidx = {c: i for i, c in enumerate(colors)}
    names = tuple(c.name for c in data.constellations)
    slots: list[SlotInfo] = []
    slots_of: list[tuple[int, ...]] = []
    for ci, con in enumerate(data.constellations):
        base = len(slots)
        mine = []
        for s in con.slots:
            slots.append(
                SlotInfo(
                    index=base + s.n - 1,
                    constellation=ci,
                    n=s.n,
                    size=SIZES.index(s.size),
                    np=s.np,
                    privilege=PRIVILEGES.index(s.privilege) if s.privilege else -1,
                    target=s.target,
                    links=tuple(base + t - 1 for t in s.links),
                )
            )
            mine.append(base + s.n - 1)
        slots_of.append(tuple(mine))
    aspects: list[str] = []
    for c in data.cores:
        if c.aspect not in aspects:
            aspects.append(c.aspect)
    cards: list[CoreCard | StarterCore] = [*data.cores, *data.starters]
    return Tables(
        data=data,
        colors=colors,
        rondel=tuple(data.board.rondel),
        constellations=names,
        slots=tuple(slots),
        slots_of=tuple(slots_of),
        launch_shows={
            k: tuple(names.index(c) for c in v) for k, v in data.board.launch_spaces.items()
        },
        core_ids=tuple(c.id for c in cards),
        core_colors=tuple(sum(1 << cidx[x] for x in set(c.colors)) for c in cards),
        core_pattern=tuple(
            PATTERNS.index(c.pattern) if isinstance(c, CoreCard) else 0 for c in cards
        ),
        core_aspect=tuple(
            aspects.index(c.aspect) if isinstance(c, CoreCard) else -1 for c in cards
        ),
        num_deck_cores=len(data.cores),
        aspects=tuple(aspects),
        flare_ids=tuple(f.id for f in data.flares),
        laurel_ids=tuple(x.id for x in data.laurels),
        starbot_ids=tuple(x.id for x in data.starbots),
        god_ids=tuple(x.id for x in data.gods),
        slot_size=tuple(s.size for s in slots),
        slot_target=tuple(s.target for s in slots),
        slot_links=tuple(s.links for s in slots),
        alpha_slots=tuple(s.index for s in slots if s.size == 2),
        accolade_dp=tuple(a.dp for a in sorted(data.accolades, key=lambda a: a.index)),
    )


@cached_per_file
def load_tables(path: str = "") -> Tables:
    """Load, validate and compile the components (the shipped ones, or a user's file over them)."""
    raw, origin = _raw(path)
    return compile_tables(validate(raw, origin))
