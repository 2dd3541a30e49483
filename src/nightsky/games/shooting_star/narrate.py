"""Shooting Star's log in words (``ShootingStarUI.describe_log_entry``).

A face-down card reads as "placed a card face down" to everyone but its owner until its turn
resolves; the resolution then tells, in order, every card revealed and what it did (SS-4 to
SS-9): cards captured by a Space Shield, cards destroyed, planets flipped, captured, replaced
or isolated, Shields that stayed unused, the Dark Invader moving on, and the end of the game.
Everything a resolution tells is public (every card is face up by then).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from nightsky.core.game import CHANCE
from nightsky.core.ui import seat_label
from nightsky.games.shooting_star.actions import (
    Build,
    DeckOrder,
    Discard,
    GridDeal,
    MissionDeal,
    Place,
    PlanetDeal,
)
from nightsky.games.shooting_star.constants import DARK, DARK_LEVEL, MAX_TURNS, PH_OVER, SHIELD
from nightsky.games.shooting_star.events import (
    Capture,
    Destroy,
    Flip,
    Isolated,
    Replace,
    Resolve,
    ShieldCapture,
)

if TYPE_CHECKING:
    from nightsky.games.shooting_star.state import ShootingStarState


def card_words(state: ShootingStarState, card: int) -> str:
    """``Priority 8 (Nova)`` or ``Space Shield``."""
    if card == SHIELD:
        return "Space Shield"
    return f"Priority {card + 1} ({state.g.cards[card].title})"


def planet_words(state: ShootingStarState, planet: int, level: int) -> str:
    """``the Level 3 planet Boreas``, ``the Level 2 planet`` (no printed name), ``a Dark
    Planet``."""
    g = state.g
    name = g.p_name[planet]
    if level == DARK_LEVEL or g.p_kind[planet] == DARK:
        return f"the Dark Planet {name}" if name else "a Dark Planet"
    return f"the Level {level} planet {name}" if name else f"a Level {level} planet"


def _cap(text: str) -> str:
    """A sentence that starts with a planet's words (``a 1/2 planet ...``) starts upper case."""
    return text[:1].upper() + text[1:]


def describe_entry(
    before: ShootingStarState,
    after: ShootingStarState,
    index: int,
    viewer: int | None,
    names: Sequence[str],
    default: Callable[[], list[str]] | None = None,
) -> list[str]:
    """History entry ``index`` in words for ``viewer`` (see ``GameUI.describe_log_entry``;
    every entry is told here, so ``default`` goes unused)."""
    seat, action = after.history[index]
    g = after.g

    def who(q: int) -> str:
        return seat_label(names, q)

    if seat == CHANCE:
        return _chance(before, after, action, viewer)
    out: list[str] = []
    if type(action) is Place:
        cell = action.cell
        planet = planet_words(before, before.pl[cell], before.lvl[cell])
        where = f"on {planet} at {g.cell_name(cell)}"
        if after.log_text(index, viewer) == str(action):
            out.append(f"{who(seat)} placed {card_words(before, action.card)} face down {where}.")
        else:
            out.append(f"{who(seat)} placed a card face down {where}.")
        if after.turn != before.turn or after.phase == PH_OVER:
            out.extend(_resolution(before, after, action, seat, who))
    elif type(action) is Build:
        side = "its Dark side" if action.level == DARK_LEVEL else f"Level {action.level} up"
        out.append(
            f"{who(seat)} built {g.planet_label(action.planet)} ({side}) at "
            f"{g.cell_name(action.cell)}."
        )
        if after.phase != before.phase:
            out.append("The Star Sector is complete: the first turn begins.")
    elif type(action) is Discard:
        out.append(
            f"{who(seat)} put {g.planet_label(action.planet)} back in the box: it fits nowhere."
        )
    else:
        out.append(f"{who(seat)}: {after.log_text(index, viewer)}")
    return out


def _chance(
    before: ShootingStarState, after: ShootingStarState, action: object, viewer: int | None
) -> list[str]:
    g = after.g
    if type(action) is GridDeal:
        planets = [p for p, _ in action.cells if p >= 0]
        darks = sum(1 for p in planets if g.p_kind[p] == DARK)
        return [
            f"The Star Sector is dealt: {len(planets)} planets on a {g.width} x {g.height} grid, "
            + ("none of them a Dark Planet." if darks == 0 else
               "one of them a Dark Planet." if darks == 1 else f"{darks} of them Dark Planets.")
        ]
    if type(action) is PlanetDeal:
        each = len(action.hands[0]) if action.hands else 0
        return [f"Each admiral is dealt {each} planets to build the Star Sector with."]
    if type(action) is DeckOrder:
        return [f"The replacement deck is shuffled ({len(action.cards)} planets)."]
    if type(action) is MissionDeal:
        line = "Three Secret Missions are dealt to each admiral."
        if viewer is not None and 0 <= viewer < len(action.seats):
            mine = "; ".join(
                f"{g.missions[m].value} pt: {g.missions[m].text.rstrip('.')}"
                for m in action.seats[viewer]
            )
            line += f" Yours: {mine}."
        return [line]
    return []


def _resolution(
    before: ShootingStarState,
    after: ShootingStarState,
    last: Place,
    last_seat: int,
    who: Callable[[int], str],
) -> list[str]:
    """The turn's resolution, event by event (all public: every card is revealed)."""
    g = after.g
    pl = list(before.pl)
    lvl = list(before.lvl)
    turn = before.turn + 1
    out = [f"Turn {turn} resolves: every card is turned face up."]
    firing: tuple[int, int] | None = None  # (seat, card) whose blast is being told
    used_shields: set[tuple[int, int]] = set()  # (owner, cell)
    for e in after.events:
        if type(e) is Resolve:
            firing = (e.seat, e.card)
            out.append(
                f"{who(e.seat)}'s {card_words(after, e.card)} fires from "
                f"{g.planet_label(pl[e.cell]) if pl[e.cell] >= 0 else 'its space'} at "
                f"{g.cell_name(e.cell)}."
            )
        elif type(e) is ShieldCapture:
            used_shields.add((e.owner, e.cell))
            out.append(
                f"{who(e.owner)}'s Space Shield at {g.cell_name(e.cell)} captured "
                f"{who(e.seat)}'s {card_words(after, e.card)}: its blast is void."
            )
        elif type(e) is Destroy:
            by = f" by {who(firing[0])}'s {card_words(after, firing[1])}" if firing else ""
            out.append(
                f"{who(e.victim)}'s {card_words(after, e.card)} at {g.cell_name(e.cell)} was "
                f"destroyed{by}."
            )
        elif type(e) is Flip:
            out.append(
                f"{_cap(g.planet_label(pl[e.cell]))} at {g.cell_name(e.cell)} is hit: it turns "
                f"from "
                f"Level {e.before} to Level {e.after}."
            )
            lvl[e.cell] = e.after
        elif type(e) is Capture:
            with_card = f" with {card_words(after, firing[1])}" if firing else ""
            moon = " (a Moon: 1 more point)" if g.p_moon[e.planet] else ""
            out.append(
                f"{who(e.seat)} captured {planet_words(after, e.planet, e.level)} at "
                f"{g.cell_name(e.cell)}{with_card}{moon}."
            )
            pl[e.cell], lvl[e.cell] = -1, 0
        elif type(e) is Replace:
            out.append(
                f"{_cap(g.planet_label(e.planet))} from the replacement deck takes its place at "
                f"{g.cell_name(e.cell)}, Level 2 up."
            )
            pl[e.cell], lvl[e.cell] = e.planet, 2
        elif type(e) is Isolated:
            out.append(
                f"{_cap(g.planet_label(e.planet))} at {g.cell_name(e.cell)} is left isolated: "
                "it goes "
                f"to {who(e.seat)}'s Space Debris."
            )
            pl[e.cell], lvl[e.cell] = -1, 0
    placed = [*before.placed, (last_seat, last.card, last.cell)]
    for seat, card, cell in placed:
        if card == SHIELD and (seat, cell) not in used_shields:
            out.append(
                f"{who(seat)}'s Space Shield at {g.cell_name(cell)} caught nothing: it goes to "
                f"{who(seat)}'s Space Debris."
            )
    if after.phase == PH_OVER:
        if after.turn >= MAX_TURNS:
            why = f"{MAX_TURNS} turns are played"
        else:
            why = f"only {len(after.alive)} planets are left"
        out.append(
            f"The game is over: {why}. The cards still in hand go to their owners' Space Debris."
        )
    else:
        out.append(f"The Dark Invader passes to {who(after.invader)}: turn {turn + 1} begins.")
    return out
