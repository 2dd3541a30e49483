"""Build a Shooting Star position directly from a small text picture (tutorials, tests).

A picture is one string per row, one token per column: ``1``-``4`` a planet of that Level,
``D`` a Dark Planet, ``.`` no planet. A ``m`` suffix asks for a planet with a Moon
(``2m``); ``4:Zero`` asks for a named 3/4 planet. The remaining 1/2 planets form the
replacement deck (or ``deck`` gives it, top card first); unused 3/4 and Dark Planets are
boxed. The state starts in the placement phase of turn ``turn + 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from nightsky.core.errors import OptionError
from nightsky.core.registry import load_game
from nightsky.games.shooting_star.constants import DARK, DARK_LEVEL, MAJOR, MINOR, PH_PLACE

if TYPE_CHECKING:
    from nightsky.games.shooting_star.state import ShootingStarState


def build_position(
    rows: Sequence[str],
    *,
    players: int,
    invader: int = 0,
    turn: int = 0,
    deck: Sequence[str] | None = None,
    missions: Sequence[Sequence[str]] | None = None,
    **params: object,
) -> ShootingStarState:
    game = load_game("shooting-star", players=players, **params)
    state: ShootingStarState = game.new_initial_state()  # type: ignore[assignment]
    g = state.g
    grid = [r.split() for r in rows]
    if len(grid) != g.height or any(len(r) != g.width for r in grid):
        raise OptionError(f"the picture must be {g.width} columns x {g.height} rows")
    reserved = [g.code_index[c] for c in deck] if deck is not None else []
    used: set[int] = set(reserved)

    def take(kind: int, moon: bool | None, name: str = "") -> int:
        for p, k in enumerate(g.p_kind):
            if p in used or k != kind:
                continue
            if name and g.p_name[p] != name:
                continue
            if moon is not None and g.p_moon[p] != moon:
                continue
            used.add(p)
            return p
        raise OptionError(f"no planet card left for {kind=} {moon=} {name=}")

    # named planets first, so a plain "4" never takes a planet a later token names
    order = sorted(
        ((y, x, tok) for y, row in enumerate(grid) for x, tok in enumerate(row)),
        key=lambda t: ":" not in t[2],
    )
    for y, x, tok in order:
        c = y * g.width + x
        if tok == ".":
            continue
        base, _, name = tok.partition(":")
        moon = True if base.endswith("m") else (None if name else False)
        base = base.rstrip("m")
        if base == "D":
            p, lv = take(DARK, None), DARK_LEVEL
        else:
            lv = int(base)
            p = take(MINOR if lv <= 2 else MAJOR, moon, name)
        state.pl[c] = p
        state.lvl[c] = lv
    state.alive = [c for c in range(g.ncells) if state.lvl[c]]
    state.free = state.alive.copy()
    top_first = [p for p in g.minors if p not in used] if deck is None else reserved
    used |= set(top_first)
    state.deck = list(reversed(top_first))
    state.box = [p for p in range(len(g.p_kind)) if p not in used]
    if missions is None:
        state.missions = [(s % 5, 5 + (s + 1) % 5, 10 + (s + 2) % 5) for s in range(players)]
    else:
        state.missions = [tuple(g.mission_index[m] for m in trio) for trio in missions]  # type: ignore[misc]
    state.invader = state.actor = invader
    state.turn = turn
    state.phase = PH_PLACE
    return state
