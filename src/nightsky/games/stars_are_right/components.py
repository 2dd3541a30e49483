"""Component data of The Stars Are Right: the star tiles and the 75 Creature cards.

``data/tiles.toml`` and ``data/creatures.toml`` are validated by the pydantic models below and
compiled into small immutable ``Card`` records the rules use. A user's own file
(``components=PATH``) may hold ``[[tiles]]``, ``[[creatures]]`` or both; a missing section falls
back to the shipped one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import field_validator, model_validator

from nightsky.core.components import Component, cached_per_file, data_path, load_components
from nightsky.core.errors import ComponentError

from .constants import FACE_INDEX, FACES, KINDS, MINION, MINION_POWERS, SYMBOLS

_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*(-[A-Za-z0-9]+)*$")
_POWER_RE = re.compile(r"^[PSF]>[PSF]+$")


def parse_constellation(text: str) -> tuple[int, int, tuple[tuple[int, int, int], ...]]:
    """``"4-L-b-Me/b-b-Su-V"`` -> (height, width, ((row, col, face), ...)) without the wild cells.

    Raises ValueError with a readable message on a malformed code.
    """
    rows = [r.split("-") for r in text.split("/")]
    width = len(rows[0])
    cells = []
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"constellation {text!r}: rows must have the same length")
        for c, code in enumerate(row):
            if code == "b":
                continue
            if code not in FACE_INDEX:
                raise ValueError(f"constellation {text!r}: unknown cell {code!r}")
            cells.append((r, c, FACE_INDEX[code]))
    if not cells:
        raise ValueError(f"constellation {text!r} has no star symbol")
    if len(rows) > 5 or width > 5:
        raise ValueError(f"constellation {text!r} is larger than the 5x5 sky")
    return len(rows), width, tuple(cells)


class TileEntry(Component):
    """One kind of two-sided star tile and how many the sky holds."""

    front: str
    """The face on one side."""
    back: str
    """The face on the other."""
    count: int
    """Tiles of this kind in the sky."""

    @field_validator("front", "back")
    @classmethod
    def _face(cls, v: str) -> str:
        if v not in FACE_INDEX:
            raise ValueError(f"unknown face {v!r} (faces: {', '.join(FACES)})")
        return v

    @field_validator("count")
    @classmethod
    def _count(cls, v: int) -> int:
        if v < 1:
            raise ValueError("count must be at least 1")
        return v


class CreatureEntry(Component):
    """One Creature card."""

    id: str
    """Card id, one per face (\"cthulhu-P\")."""
    name: str
    """The creature's name."""
    kind: Literal["great-old-one", "greater-servitor", "lesser-servitor", "minion"]
    """Its rank."""
    invocation: str
    """The symbols (P, S, F) it costs to invoke."""
    bonus_star: str = ""
    """A servitor's bonus star face."""
    ruler: str = ""
    """The Great Old One a servitor serves."""
    vp: int
    """Victory points it is worth."""
    constellations: list[str]
    """Its constellations, rows joined by '/' and cells by '-'."""
    power: str = ""
    """Its power, e.g. P>PP."""
    minion_power: str = ""
    """A minion's power (our reading of its text)."""
    text: str = ""
    """The card's text."""

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        if not _ID_RE.match(v):
            raise ValueError("id must be lowercase words joined by '-' (e.g. 'deep-ones-S-4')")
        return v

    @field_validator("invocation")
    @classmethod
    def _inv(cls, v: str) -> str:
        if not v or any(ch not in SYMBOLS for ch in v):
            raise ValueError("invocation must be one or more of P, S, F")
        return v

    @field_validator("vp")
    @classmethod
    def _vp(cls, v: int) -> int:
        if v < 0:
            raise ValueError("vp cannot be negative")
        return v

    @field_validator("constellations")
    @classmethod
    def _cons(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("a creature needs at least one constellation")
        for text in v:
            parse_constellation(text)
        return v

    @model_validator(mode="after")
    def _kind_fields(self) -> CreatureEntry:
        servitor = self.kind in ("greater-servitor", "lesser-servitor")
        if servitor and self.bonus_star not in FACE_INDEX:
            raise ValueError("a servitor needs a bonus_star face")
        if not servitor and self.bonus_star:
            raise ValueError("only servitors have a bonus_star")
        if self.kind == "minion":
            if self.minion_power not in MINION_POWERS:
                raise ValueError(f"minion_power must be one of {', '.join(MINION_POWERS)}")
            if self.power:
                raise ValueError("a minion has no symbol power")
        else:
            if not _POWER_RE.match(self.power):
                raise ValueError("power must look like 'P>PP' (one symbol into symbols)")
            if not self.ruler:
                raise ValueError("ruler (the Great Old One) is required")
            if self.kind == "great-old-one" and self.ruler != self.name:
                raise ValueError("a Great Old One rules itself: ruler must equal name")
        return self


class ComponentFile(Component):
    """A whole component file (``source`` is per entry, so the file itself carries none)."""

    source: Literal["rulebook", "reference", "designed"] = "reference"
    """Where the file as a whole comes from (each entry says its own)."""
    tiles: list[TileEntry] | None = None
    """The star tiles."""
    creatures: list[CreatureEntry] | None = None
    """The Creature cards."""

    @model_validator(mode="after")
    def _whole(self) -> ComponentFile:
        if self.tiles is not None and sum(t.count for t in self.tiles) != 25:
            raise ValueError("the sky needs exactly 25 tiles (sum of count)")
        if self.creatures is not None:
            if len(self.creatures) < 12:
                raise ValueError("too few creatures to deal a game (need at least 12)")
            seen: set[str] = set()
            for c in self.creatures:
                if c.id in seen:
                    raise ValueError(f"creature id {c.id!r} is used twice")
                seen.add(c.id)
            goos = {c.name for c in self.creatures if c.kind == "great-old-one"}
            for c in self.creatures:
                if c.kind in ("greater-servitor", "lesser-servitor") and c.ruler not in goos:
                    raise ValueError(f"{c.id}: ruler {c.ruler!r} is no Great Old One of the file")
        return self


@dataclass(frozen=True, slots=True)
class Card:
    """A compiled Creature card (indices into FACES / SYMBOLS)."""

    idx: int
    id: str
    name: str
    kind: int
    invocation: tuple[int, int, int]  # counts of P, S, F
    bonus: int  # face index of the bonus star, -1 if none
    ruler: str
    vp: int
    constellations: tuple[tuple[int, int, tuple[tuple[int, int, int], ...]], ...]
    power_from: int  # symbol index, -1 for minions
    power_to: tuple[int, int, int]
    minion: str
    code_text: str  # the printed constellation codes, for rendering

    @property
    def kind_name(self) -> str:
        return KINDS[self.kind]

    def power_text(self) -> str:
        if self.kind == MINION:
            return self.minion
        to = "".join(SYMBOLS[i] * n for i, n in enumerate(self.power_to))
        return f"{SYMBOLS[self.power_from]}>{to}"

    def invocation_text(self) -> str:
        return "".join(SYMBOLS[i] * n for i, n in enumerate(self.invocation))


@dataclass(frozen=True, slots=True)
class Components:
    """Everything the rules read from data: tile kinds (front, back, count) and cards."""

    tiles: tuple[tuple[int, int, int], ...]
    cards: tuple[Card, ...]

    def card_by_id(self, cid: str) -> Card | None:
        for c in self.cards:
            if c.id == cid:
                return c
        return None


def _counts(s: str) -> tuple[int, int, int]:
    return (s.count("P"), s.count("S"), s.count("F"))


def compile_components(tiles: list[TileEntry], creatures: list[CreatureEntry]) -> Components:
    tile_kinds = tuple((FACE_INDEX[t.front], FACE_INDEX[t.back], t.count) for t in tiles)
    cards = []
    for i, c in enumerate(creatures):
        kind = KINDS.index(c.kind)
        if kind == MINION:
            pf, pt = -1, (0, 0, 0)
        else:
            a, b = c.power.split(">")
            pf, pt = SYMBOLS.index(a), _counts(b)
        cards.append(
            Card(
                idx=i,
                id=c.id,
                name=c.name,
                kind=kind,
                invocation=_counts(c.invocation),
                bonus=FACE_INDEX[c.bonus_star] if c.bonus_star else -1,
                ruler=c.ruler,
                vp=c.vp,
                constellations=tuple(parse_constellation(t) for t in c.constellations),
                power_from=pf,
                power_to=pt,
                minion=c.minion_power,
                code_text=" & ".join(c.constellations),
            )
        )
    return Components(tile_kinds, tuple(cards))


@cache
def _shipped() -> tuple[list[TileEntry], list[CreatureEntry]]:
    pkg = "nightsky.games.stars_are_right"
    t = load_components(data_path(pkg, "tiles.toml"), ComponentFile)
    c = load_components(data_path(pkg, "creatures.toml"), ComponentFile)
    if t.tiles is None or c.creatures is None:  # pragma: no cover - shipped data is complete
        raise ComponentError("shipped component files are incomplete")
    return t.tiles, c.creatures


@cached_per_file
def load(path: str = "") -> Components:
    """The components of a game: the shipped files, or a user's file over them."""
    tiles, creatures = _shipped()
    if path:
        user = load_components(Path(path), ComponentFile)
        if user.tiles is None and user.creatures is None:
            raise ComponentError(f"{Path(path).name}: holds neither [[tiles]] nor [[creatures]]")
        tiles = user.tiles if user.tiles is not None else tiles
        creatures = user.creatures if user.creatures is not None else creatures
    return compile_components(tiles, creatures)
