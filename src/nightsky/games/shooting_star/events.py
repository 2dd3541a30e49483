"""What a resolution did (``ShootingStarState.events``), one named record per happening.

Every event starts with its ``kind``, so events of different kinds never compare equal (as
named tuples of the same length with equal fields otherwise would). Cells are cell indices,
planets planet indices, cards card indices (``constants.CARD_KEYS``), seats seat numbers.

The resolution, on the hot path of every playout, records plain tuples laid out exactly like
these records (``("flip", cell, 4, 3)``); ``as_event`` gives them their type when read.
"""

from __future__ import annotations

from typing import Literal, NamedTuple


class Resolve(NamedTuple):
    """``seat``'s card ``card`` on ``cell`` resolves (SS-4.2)."""

    kind: Literal["resolve"]
    seat: int
    card: int
    cell: int


class ShieldCapture(NamedTuple):
    """``owner``'s Space Shield on ``cell`` captures ``seat``'s card ``card`` (SS-7)."""

    kind: Literal["shield"]
    owner: int
    seat: int
    card: int
    cell: int


class Destroy(NamedTuple):
    """``seat``'s blast destroys ``victim``'s card ``card`` on ``cell`` (SS-6)."""

    kind: Literal["destroy"]
    seat: int
    victim: int
    card: int
    cell: int


class Flip(NamedTuple):
    """The planet on ``cell`` turns from Level ``before`` to ``after`` (SS-5.2, SS-5.4)."""

    kind: Literal["flip"]
    cell: int
    before: int
    after: int


class Capture(NamedTuple):
    """``seat`` captures ``planet`` (at Level ``level``) from ``cell`` (SS-5.3, SS-5.5)."""

    kind: Literal["capture"]
    seat: int
    planet: int
    cell: int
    level: int


class Replace(NamedTuple):
    """``planet`` from the replacement deck takes the emptied ``cell`` (SS-5.3)."""

    kind: Literal["replace"]
    cell: int
    planet: int


class Isolated(NamedTuple):
    """``seat`` takes the isolated ``planet`` on ``cell`` into its Space Debris (SS-9)."""

    kind: Literal["isolated"]
    seat: int
    planet: int
    cell: int


Event = Resolve | ShieldCapture | Destroy | Flip | Capture | Replace | Isolated

EVENT_TYPES: dict[str, type[Event]] = {
    "resolve": Resolve,
    "shield": ShieldCapture,
    "destroy": Destroy,
    "flip": Flip,
    "capture": Capture,
    "replace": Replace,
    "isolated": Isolated,
}


def as_event(raw: tuple[object, ...]) -> Event:
    """The typed record of a plain event tuple (its first item names the kind)."""
    return EVENT_TYPES[raw[0]]._make(raw)  # type: ignore[index]
