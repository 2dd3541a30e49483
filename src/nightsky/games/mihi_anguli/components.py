"""The two game pages as data: the star map, the schedule wheel, articles, abilities, supporters.

The rulebook prints neither page, so the shipped ``data/sheet.toml`` is designed (see its
``why`` fields). A user may load their own with the ``components=PATH`` option; every entry is
validated here and a broken file raises ComponentError naming file, entry and field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from nightsky.core.components import Component, data_path, load_components

DAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
BUYABLE_ABILITIES = (
    "POSITIONING II", "POSITIONING III", "POSITIONING IV",
    "PLOTTING II", "PLOTTING III", "PLOTTING IV", "PLOTTING V",
    "RECORDING", "OPTIMIZING", "STUDYING",
)
SUPPORTERS = (
    "PROMOTER", "MENTOR", "RESEARCHER", "MATHEMATICIAN", "COORDINATOR", "PUBLISHER", "HEADHUNTER",
)

_ITEM = re.compile(r"^(?:E[1-9]|S|Q[1-9])$")
_POINT = re.compile(r"^([0-6](?:\.5)?),([0-6](?:\.5)?)$")


def _check_items(items: list[str]) -> list[str]:
    for it in items:
        if not _ITEM.match(it):
            raise ValueError(
                f"item {it!r} must be E<value> (experience), S (star) or Q<value> (squares)"
            )
    return items


def parse_point(text: str) -> tuple[int, int] | None:
    """``"x,y"`` in sheet coordinates (majors 1..6, others on halves 0.5..6.5) to lattice
    indices (column, row) in 0..12, or None."""
    m = _POINT.match(text.replace(" ", ""))
    if not m:
        return None
    x, y = float(m.group(1)), float(m.group(2))
    if not (0.5 <= x <= 6.5 and 0.5 <= y <= 6.5):
        return None
    return int(x * 2 - 1), int(y * 2 - 1)


class StarMap(Component):
    stars: list[str] = Field(min_length=1)
    """Star points of the map as \"x,y\" sheet coordinates."""

    @field_validator("stars")
    @classmethod
    def _stars(cls, v: list[str]) -> list[str]:
        seen = set()
        for s in v:
            p = parse_point(s)
            if p is None:
                raise ValueError(f"star {s!r} is not a point x,y with 0.5 <= x,y <= 6.5 in halves")
            if p[0] % 2 == 1 and p[1] % 2 == 1:
                raise ValueError(f"star {s!r} is a major point; stars are minor-point positions")
            if p in seen:
                raise ValueError(f"star {s!r} listed twice")
            seen.add(p)
        return v


class Day(Component):
    name: str
    """The day."""
    items: list[str] = Field(min_length=4, max_length=4)
    """Its four schedule items."""

    @field_validator("items")
    @classmethod
    def _items(cls, v: list[str]) -> list[str]:
        return _check_items(v)


class Article(Component):
    name: str
    """The week it belongs to."""
    week: int = Field(ge=1, le=5)
    """Week 1-5."""
    cost: list[str] = Field(min_length=1)
    """Items to fill, left to right."""
    points: int = Field(ge=0)
    """Points it is worth."""

    @field_validator("cost")
    @classmethod
    def _cost(cls, v: list[str]) -> list[str]:
        return _check_items(v)


class Purchase(Component):
    name: str
    """The ability or supporter."""
    cost: list[str] = Field(min_length=1)
    """The items that buy it."""

    @field_validator("cost")
    @classmethod
    def _cost(cls, v: list[str]) -> list[str]:
        return _check_items(v)


class Sheet(BaseModel):
    """The whole of one player's two game pages."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    title: str = ""
    """The sheet's title."""
    map: StarMap
    """The star map."""
    days: list[Day]
    """The schedule wheel."""
    articles: list[Article]
    """The Articles table."""
    abilities: list[Purchase]
    """The abilities to buy."""
    supporters: list[Purchase]
    """The supporters to buy."""

    @model_validator(mode="after")
    def _complete(self) -> Sheet:
        if [d.name for d in self.days] != list(DAYS):
            raise ValueError(f"days must be exactly {', '.join(DAYS)} in that order")
        if [a.week for a in self.articles] != [1, 2, 3, 4, 5]:
            raise ValueError("articles must be the weeks 1, 2, 3, 4, 5 in that order")
        if sorted(a.name for a in self.abilities) != sorted(BUYABLE_ABILITIES):
            raise ValueError(f"abilities must be exactly {', '.join(BUYABLE_ABILITIES)}")
        if sorted(s.name for s in self.supporters) != sorted(SUPPORTERS):
            raise ValueError(f"supporters must be exactly {', '.join(SUPPORTERS)}")
        return self


@dataclass(frozen=True)
class Item:
    """One fillable item: its group (article/day/ability/supporter), kind and value."""

    index: int
    group: int
    slot: int
    kind: str  # "E" experience, "S" star, "Q" squares
    value: int
    label: str  # notation, e.g. "W2.1" or "PLOT3.2"


DEFAULT_PATH = data_path("nightsky.games.mihi_anguli", "sheet.toml")


def load_sheet(path: str | Path | None = None) -> Sheet:
    """Load and validate a sheet file (the designed default when ``path`` is empty)."""
    return load_components(path or DEFAULT_PATH, Sheet)
