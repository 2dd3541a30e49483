"""Star Fire's 79 cards: pydantic models of ``data/cards.toml`` and the card-id layout.

Card ids are small ints in one fixed order: 28 Elements, 5 Cosmic Events, 8 Stars, 11 Planets,
7 Moons, 20 Star Fire cards (SF-1.1). The loader checks every count the rulebook states, so a
user's own file (``components=PATH``) must describe the same physical deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from nightsky.core.components import Component, cached_per_file, data_path, load_components
from nightsky.games.star_fire.constants import (
    ELEMENT,
    ELEMENT_SHORT,
    ELEMENTS,
    EVENT,
    EVENT_KINDS,
    MOON,
    MOON_POINTS,
    PLANET,
    PLANET_POINTS,
    SF_COUNTS,
    SF_KINDS,
    STAR,
    STAR_POINTS,
    STARFIRE,
)

__all__ = [  # the card constants stay importable from here (they live in ``constants``)
    "ELEMENT", "ELEMENTS", "ELEMENT_SHORT", "EVENT", "EVENT_KINDS", "MOON", "MOON_POINTS",
    "PLANET", "PLANET_POINTS", "SF_COUNTS", "SF_KINDS", "STAR", "STARFIRE", "STAR_POINTS",
    "CardFile", "Cards", "build_cards", "default_path", "load_cards",
]


class Cost(BaseModel):
    """Units of each element a body costs."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    hydrogen: int = Field(0, ge=0, le=6)
    """Units of hydrogen."""
    helium: int = Field(0, ge=0, le=6)
    """Units of helium."""
    carbon: int = Field(0, ge=0, le=6)
    """Units of carbon."""
    metal: int = Field(0, ge=0, le=6)
    """Units of metal."""

    def vector(self) -> tuple[int, int, int, int]:
        return (self.hydrogen, self.helium, self.carbon, self.metal)


class ElementCard(Component):
    name: str = Field(min_length=1, max_length=8)
    """Notation of the card (H1, He3, C5, HM2)."""
    element: Literal["hydrogen", "helium", "carbon", "metal"]
    """The element it supplies."""
    units: int = Field(ge=1, le=2)  # the rulebook: 1 or 2 units per card
    """Units of the element the card is worth (the rulebook: 1 or 2)."""


class EventCard(Component):
    name: Literal["fusion", "bloom", "crunch", "rip", "freeze"]
    """Notation of the cosmic event."""
    title: str
    """The event's name."""


class StarBonus(BaseModel):
    """A system bonus: the system holds at least ``planets`` Planets and ``moons`` Moons."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    planets: int = Field(ge=0, le=11)
    """Planets the star's system needs for the bonus."""
    moons: int = Field(ge=0, le=7)
    """Moons the system needs for the bonus."""
    points: int = Field(ge=0, le=10)
    """Bonus points when the system meets both."""


class MoonBonus(BaseModel):
    """A planet bonus: the planet hosts at least ``moons`` Moons."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    moons: int = Field(ge=0, le=3)
    """Moons the planet needs for the bonus."""
    points: int = Field(ge=0, le=10)
    """Bonus points when it has them."""


class Body(Component):
    name: str = Field(min_length=1)
    """The body's name, as reports name it (\"Polaris\")."""
    code: str = Field(pattern=r"^[SPM][0-9]{1,2}$")
    """Notation: S (star), P (planet) or M (moon) and a number."""
    cost: Cost
    """The elements that build it."""


class StarCard(Body):
    bonus: StarBonus
    """The system bonus of the star."""

    @model_validator(mode="after")
    def _check(self) -> StarCard:
        if sum(self.cost.vector()) == 0:
            raise ValueError("a Star must cost at least one unit (only the dealt Star is free)")
        return self


class PlanetCard(Body):
    moon_limit: int = Field(ge=0, le=3)
    """Moons the planet can hold."""
    moon_bonus: MoonBonus
    """The planet's moon bonus."""

    @model_validator(mode="after")
    def _check(self) -> PlanetCard:
        if self.moon_bonus.moons > self.moon_limit:
            raise ValueError("moon_bonus.moons exceeds moon_limit: the bonus could never be met")
        if self.moon_bonus.points and not self.moon_bonus.moons:
            raise ValueError("a moon bonus needs at least one moon")
        return self


class MoonCard(Body):
    needs_host: bool
    """Whether it must orbit a planet (otherwise it may orbit a star)."""


class StarFireKind(Component):
    kind: Literal["wormhole", "fission", "gamma", "divine", "transmute"]
    """The Star Fire card's kind."""
    title: str
    """Its name."""
    count: int = Field(ge=1, le=10)
    """Copies in the deck."""


class CardFile(BaseModel):
    """The whole deck; counts are the rulebook's (SF-1.1, SF-1.2)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    elements: list[ElementCard]
    """The element cards."""
    events: list[EventCard]
    """The cosmic events."""
    stars: list[StarCard]
    """The Star cards."""
    planets: list[PlanetCard]
    """The Planet cards."""
    moons: list[MoonCard]
    """The Moon cards."""
    starfire: list[StarFireKind]
    """The Star Fire cards, by kind."""

    @model_validator(mode="after")
    def _counts(self) -> CardFile:
        for el in ELEMENTS:
            n = sum(1 for c in self.elements if c.element == el)
            if n != 7:
                raise ValueError(f"elements: the rulebook has 7 {el} cards, this file has {n}")
        if sorted(e.name for e in self.events) != sorted(EVENT_KINDS):
            raise ValueError("events: need exactly fusion, bloom, crunch, rip and freeze")
        for section, want in (("stars", 8), ("planets", 11), ("moons", 7)):
            got = len(getattr(self, section))
            if got != want:
                raise ValueError(f"{section}: the rulebook has {want}, this file has {got}")
        counts = {k.kind: k.count for k in self.starfire}
        if counts != SF_COUNTS or len(self.starfire) != 5:
            raise ValueError(f"starfire: the rulebook's kinds and counts are {SF_COUNTS}")
        names = [c.name for c in self.elements]
        codes = [b.code for b in (*self.stars, *self.planets, *self.moons)]
        for label, seq in (("element names", names), ("body codes", codes)):
            if len(set(seq)) != len(seq):
                raise ValueError(f"{label} must be unique")
        return self


@dataclass(frozen=True)
class Cards:
    """The deck as flat tuples indexed by card id (fast lookups for the rules)."""

    file: CardFile
    n: int
    cat: tuple[int, ...]  # category per id
    name: tuple[str, ...]  # notation per id (H3, S2, P11, M4, fusion, wormhole1)
    title: tuple[str, ...]  # long name
    element: tuple[int, ...]  # element index per element card, -1 otherwise
    units: tuple[int, ...]  # units per element card
    cost: tuple[tuple[int, int, int, int], ...]  # cost per body, zeros otherwise
    sf_kind: tuple[int, ...]  # Star Fire kind index per Star Fire card, -1 otherwise
    event_kind: tuple[int, ...]
    moon_limit: tuple[int, ...]
    moon_bonus: tuple[tuple[int, int], ...]  # (moons, points) per planet
    star_bonus: tuple[tuple[int, int, int], ...]  # (planets, moons, points) per star
    needs_host: tuple[bool, ...]
    elements: tuple[int, ...]
    events: tuple[int, ...]
    stars: tuple[int, ...]
    planets: tuple[int, ...]
    moons: tuple[int, ...]
    bodies: tuple[int, ...]
    starfire: tuple[int, ...]
    by_name: dict[str, int]

    def points(self, c: int) -> int:
        k = self.cat[c]
        return STAR_POINTS if k == STAR else PLANET_POINTS if k == PLANET else MOON_POINTS


def build_cards(f: CardFile) -> Cards:
    cat: list[int] = []
    name: list[str] = []
    title: list[str] = []
    element: list[int] = []
    units: list[int] = []
    cost: list[tuple[int, int, int, int]] = []
    sf_kind: list[int] = []
    event_kind: list[int] = []
    moon_limit: list[int] = []
    moon_bonus: list[tuple[int, int]] = []
    star_bonus: list[tuple[int, int, int]] = []
    needs_host: list[bool] = []

    def add(c: int, nm: str, tt: str, *, el: int = -1, u: int = 0,
            co: tuple[int, int, int, int] = (0, 0, 0, 0), sk: int = -1, ek: int = -1,
            ml: int = 0, mb: tuple[int, int] = (0, 0), sb: tuple[int, int, int] = (0, 0, 0),
            nh: bool = False) -> None:
        cat.append(c)
        name.append(nm)
        title.append(tt)
        element.append(el)
        units.append(u)
        cost.append(co)
        sf_kind.append(sk)
        event_kind.append(ek)
        moon_limit.append(ml)
        moon_bonus.append(mb)
        star_bonus.append(sb)
        needs_host.append(nh)

    for e in sorted(f.elements, key=lambda e: ELEMENTS.index(e.element)):
        i = ELEMENTS.index(e.element)
        add(ELEMENT, e.name, f"{e.element} x{e.units}", el=i, u=e.units)
    for ev in sorted(f.events, key=lambda e: EVENT_KINDS.index(e.name)):
        add(EVENT, ev.name, ev.title, ek=EVENT_KINDS.index(ev.name))
    for s in f.stars:
        b = s.bonus
        add(STAR, s.code, s.name, co=s.cost.vector(), sb=(b.planets, b.moons, b.points))
    for p in f.planets:
        add(PLANET, p.code, p.name, co=p.cost.vector(), ml=p.moon_limit,
            mb=(p.moon_bonus.moons, p.moon_bonus.points))
    for m in f.moons:
        add(MOON, m.code, m.name, co=m.cost.vector(), nh=m.needs_host)
    for k in sorted(f.starfire, key=lambda k: SF_KINDS.index(k.kind)):
        for j in range(1, k.count + 1):
            add(STARFIRE, f"{k.kind}{j}", k.title, sk=SF_KINDS.index(k.kind))

    def ids(k: int) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(cat) if c == k)

    by_name = {nm: i for i, nm in enumerate(name)}
    if len(by_name) != len(name):
        from nightsky.core.errors import ComponentError

        raise ComponentError("card names and codes must be unique across the whole deck")
    return Cards(
        file=f, n=len(cat), cat=tuple(cat), name=tuple(name), title=tuple(title),
        element=tuple(element), units=tuple(units), cost=tuple(cost), sf_kind=tuple(sf_kind),
        event_kind=tuple(event_kind), moon_limit=tuple(moon_limit), moon_bonus=tuple(moon_bonus),
        star_bonus=tuple(star_bonus), needs_host=tuple(needs_host), elements=ids(ELEMENT),
        events=ids(EVENT), stars=ids(STAR), planets=ids(PLANET), moons=ids(MOON),
        bodies=ids(STAR) + ids(PLANET) + ids(MOON), starfire=ids(STARFIRE), by_name=by_name,
    )


def default_path() -> Path:
    return data_path("nightsky.games.star_fire", "cards.toml")


@cached_per_file
def load_cards(path: str = "") -> Cards:
    """Load and validate the deck (the shipped one when ``path`` is empty)."""
    f = load_components(path or default_path(), CardFile)
    return build_cards(f)
