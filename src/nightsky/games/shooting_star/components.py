"""Shooting Star components: pydantic models of ``data/components.toml`` and the loader.

One file holds every card so that a player who owns the physical game can point
``components=PATH`` at a single file of their own. The models check the rulebook's counts
(SS-1.1) and the facts the rules rely on (one "Zero", Priority 7 hitting its own planet twice).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from nightsky.core.components import Component, data_path, load_components
from nightsky.core.errors import ComponentError

ZERO = "Zero"


class Planet(Component):
    """A Planet card: ``minor`` (1/2), ``major`` (3/4, named) or ``dark``."""

    code: str = Field(pattern=r"^[a-z][a-z0-9]{1,5}$")
    """Card code (p01, n03, d2)."""
    kind: Literal["minor", "major", "dark"]
    """minor (1/2), major (3/4, named) or dark."""
    name: str = ""
    """A major planet's name."""
    moon: bool = False
    """Whether it carries a Moon (one more point)."""

    @model_validator(mode="after")
    def _named(self) -> Planet:
        if self.kind == "major" and not self.name:
            raise ValueError("a 3/4 planet needs a name (SS-1.1)")
        return self


class Colour(Component):
    """One admiral's colour (a set of nine Destruction cards)."""

    name: str = Field(pattern=r"^[a-z]+$")
    """The colour."""
    admiral: str
    """Its admiral's name."""


class Card(Component):
    """One of the nine Destruction cards of every set; ``priority`` 0 is the Space Shield."""

    key: str = Field(pattern=r"^(P[1-8]|S)$")
    """P1-P8 or S (the Space Shield)."""
    priority: int = Field(ge=0, le=8)
    """Resolution priority (0 for the Shield)."""
    title: str
    """The card's name, as reports name it."""
    blast: list[tuple[int, int]]
    """Offsets [dcol, drow] of the planets it hits, [0, 0] the one it lies on."""

    @model_validator(mode="after")
    def _check(self) -> Card:
        want = 0 if self.key == "S" else int(self.key[1:])
        if self.priority != want:
            raise ValueError(f"card {self.key} must have priority {want}")
        for dc, dr in self.blast:
            if abs(dc) > 3 or abs(dr) > 3:
                raise ValueError("blast offsets must stay within 3 spaces of the card")
        if self.key == "S" and self.blast:
            raise ValueError("the Space Shield has no Weapon (SS-7.1)")
        if self.key == "P7" and self.blast.count((0, 0)) < 2:
            raise ValueError("Priority 7 must hit its own planet twice (SS-5.6)")
        if self.key != "S" and not self.blast:
            raise ValueError("a Destruction card needs at least one blasted planet")
        return self


class Mission(Component):
    """A Secret Mission. ``planets``: capture ``count`` planets matching ``filter``;
    ``destroy``: destroy ``count`` opponents' cards; ``named``: ``planet`` plus Zero (SS-13.2)."""

    code: str = Field(pattern=r"^[123][a-z]$")
    """Mission code: its value and a letter (1a ... 3e)."""
    value: int = Field(ge=1, le=3)
    """Points it is worth (1, 2 or 3)."""
    kind: Literal["planets", "destroy", "named"]
    """planets (capture), destroy (opponents' cards) or named (a planet plus Zero)."""
    filter: Literal["any", "minor", "major", "moon"] = "any"
    """Which planets a `planets` mission counts."""
    count: int = Field(ge=0, le=30, default=0)
    """How many it needs."""
    planet: str = ""
    """The planet a `named` mission names."""
    text: str
    """The mission in words."""

    @model_validator(mode="after")
    def _check(self) -> Mission:
        if self.code[0] != str(self.value):
            raise ValueError("a mission code starts with its value")
        if (self.kind == "named") != (self.value == 3):
            raise ValueError("3-point missions, and only they, name a planet plus Zero (SS-13.2)")
        if self.kind == "named" and (not self.planet or self.planet == ZERO):
            raise ValueError("a 3-point mission names a planet other than Zero")
        if self.kind != "named" and self.count < 1:
            raise ValueError("a counting mission needs count >= 1")
        return self


class Components(Component):
    """The whole deck. ``source`` of the file itself is not needed, so it defaults."""

    source: Literal["rulebook", "reference", "designed"] = "designed"
    """Where the file as a whole comes from (each entry says its own)."""
    planet: list[Planet]
    """The 49 planets."""
    colour: list[Colour]
    """The five colours."""
    card: list[Card]
    """The nine Destruction cards of a set."""
    mission: list[Mission]
    """The 15 Secret Missions."""

    @model_validator(mode="after")
    def _counts(self) -> Components:
        kinds = Counter(p.kind for p in self.planet)
        if (kinds["minor"], kinds["major"], kinds["dark"]) != (30, 15, 4):
            raise ValueError(
                "the rulebook's 49 planets are 30 minor (1/2), 15 major (3/4) and 4 dark (SS-1.1); "
                f"got {kinds['minor']}, {kinds['major']}, {kinds['dark']}"
            )
        codes = [p.code for p in self.planet]
        if len(set(codes)) != len(codes):
            raise ValueError("planet codes must be unique")
        names = [p.name for p in self.planet if p.kind == "major"]
        if names.count(ZERO) < 1:
            raise ValueError("one 3/4 planet must be named Zero (SS-13.2)")
        if len(set(names)) < 6:
            raise ValueError("six differently named 3/4 planets are needed for the set-up (SS-2.1)")
        if len(self.colour) != 5 or len({c.name for c in self.colour}) != 5:
            raise ValueError("there are five colours (SS-1.1)")
        if sorted(c.key for c in self.card) != sorted([f"P{i}" for i in range(1, 9)] + ["S"]):
            raise ValueError("each set has Priority 1-8 and a Space Shield (SS-1.1)")
        values = Counter(m.value for m in self.mission)
        if (values[1], values[2], values[3]) != (5, 5, 5):
            raise ValueError("there are 5 Secret Missions of each value 1, 2, 3 (SS-1.1)")
        if len({m.code for m in self.mission}) != 15:
            raise ValueError("mission codes must be unique")
        for m in self.mission:
            if m.kind == "named" and m.planet not in names:
                raise ValueError(f"mission {m.code} names {m.planet!r}, which is no 3/4 planet")
        return self

    def ordered_planets(self) -> list[Planet]:
        """Planets in the engine's index order: minor, then major, then dark."""
        order = {"minor": 0, "major": 1, "dark": 2}
        return sorted(self.planet, key=lambda p: order[p.kind])

    def ordered_cards(self) -> list[Card]:
        """Cards P1..P8 then S (index = priority - 1; the Shield is index 8)."""
        return sorted(self.card, key=lambda c: c.priority if c.priority else 9)

    def ordered_missions(self) -> list[Mission]:
        return sorted(self.mission, key=lambda m: m.code)


@cache
def _load(path: str) -> Components:
    return load_components(path, Components)


def load(path: str | Path | None = None) -> Components:
    """The default components, or a user's file (ComponentError names file, entry and field)."""
    if not path:
        return _load(str(data_path("nightsky.games.shooting_star", "components.toml")))
    p = Path(path)
    try:
        found = p.is_file()
    except (OSError, ValueError):  # a name too long for the file system
        found = False
    if not found:
        raise ComponentError("components: no such component file")
    return _load(str(p.resolve()))
