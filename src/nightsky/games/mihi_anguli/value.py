"""A learned value of a sheet: its expected final score, from a linear model fit to self-play.

``features(st, p)`` describes seat ``p``'s sheet with the hand heuristic's parts (the score now,
the map's squares on their way, the progress on costs, what a pending choice adds), a few
counts (squares, points, experience, abilities, items) and the share of the game left; each
part appears once as it is and once multiplied by that share, so the model can weigh it
differently early and late. Then one feature per ability and supporter (``worth:NAME``), in
the shape the heuristic gives each its worth: the share of the game left, times the progress
on its cost until it is acquired (``heuristic.LINEAR``'s mix of linear and square), times 1
once it is; a weight there corrects the heuristic's ``WORTH`` of that group, in points.
``value(st, p)`` is the weights' dot product with those features,
in score points. The weights are ``data/value.json``, written by ``scripts/train_value.py``
(tuned by play: coordinate ascent on the margin of ``greedy`` on the weights over ``greedy``,
starting from the heuristic's four parts; the command, games, seeds and date are in the file
and in docs/games/mihi-anguli.md). Plain Python at play time, no numpy: the search calls it at
every cut-off.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from nightsky.core.components import data_path
from nightsky.core.linear_value import LinearValue, load_linear_value, parse_linear_value
from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.components import BUYABLE_ABILITIES, SUPPORTERS
from nightsky.games.mihi_anguli.heuristic import LINEAR, TURNS, _turns_left, evaluate, static_parts

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.state import MihiAnguliState

_PACKAGE = "nightsky.games.mihi_anguli"
WEIGHTS_FILE = "value.json"
"""The weights' file name in the game package's ``data/`` (``GameInfo.value_model``)."""

_BASE = ("score", "map", "costs", "pending", "squares", "points", "xp", "abilities", "items")
_BOUGHT = (*BUYABLE_ABILITIES, *SUPPORTERS)  # groups B.G_AB0 onwards, in order
FEATURES: tuple[str, ...] = (
    *_BASE, *(f"{name}*left" for name in _BASE), "left", "left^2",
    *(f"worth:{name}" for name in _BOUGHT),
)
"""The names of ``features``' values, in order (a weights file must list the same)."""


def features(st: MihiAnguliState, player: int) -> list[float]:
    """Seat ``player``'s sheet as the numbers ``FEATURES`` names (``left``: the turns left as a
    share of a whole game's, about 1 at the start and 0 at the end)."""
    s = st.seats[player]
    total, on_map, on_costs = static_parts(st, player)
    pending = evaluate(st, player) - (total + on_map + on_costs)
    left = _turns_left(s) / TURNS
    base = [
        total, on_map, on_costs, pending,
        float(s.sq.bit_count()), float(s.pts.bit_count()), float(s.xp),
        float(s.acq.bit_count()), float(s.items.bit_count()),
    ]
    t = min(1.0, left)  # the heuristic's share of the game left for an ability's worth
    items, acq = s.items, s.acq
    masks = st.c.group_mask
    worth = []
    for g in range(B.G_AB0, B.NGROUPS):
        if acq >> g & 1:
            worth.append(t)
        else:
            gm = masks[g]
            share = (gm & items).bit_count() / gm.bit_count()
            worth.append(t * (LINEAR * share + (1 - LINEAR) * share * share))
    return [*base, *(x * left for x in base), left, left * left, *worth]


ValueModel = LinearValue
"""Linear weights over ``FEATURES`` plus a bias (``nightsky.core.linear_value``)."""


def parse_model(data: Any, source: str = WEIGHTS_FILE) -> ValueModel:
    """A ``ValueModel`` from a weights file's decoded JSON; ``ValueError`` naming ``source`` and
    the field for anything missing or wrong (a stale file whose features differ from
    ``FEATURES`` included)."""
    return parse_linear_value(data, FEATURES, source)


def load_model(path: str | Path | None = None) -> ValueModel:
    """Read a weights file (default: the shipped ``data/value.json``)."""
    where = Path(path) if path is not None else data_path(_PACKAGE, WEIGHTS_FILE)
    return load_linear_value(where, FEATURES)


_LOADED: list[ValueModel] = []  # the shipped model, read once


def shipped_model() -> ValueModel:
    """The shipped weights, read on first use."""
    if not _LOADED:
        _LOADED.append(load_model())
    return _LOADED[0]


def value(st: MihiAnguliState, player: int) -> float:
    """Seat ``player``'s expected final score by the shipped model."""
    return shipped_model().predict(features(st, player))
