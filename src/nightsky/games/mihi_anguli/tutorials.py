"""The rulebook's worked examples as loadable positions, and ``position`` to build others.

The examples name items by what they are ("the 3-item above POSITIONING II"); on our designed
sheet those are the items named in ``steps`` (see ``data/sheet.toml``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from nightsky.core.errors import ComponentError
from nightsky.core.game import CHANCE, Tutorial
from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.components import parse_point
from nightsky.games.mihi_anguli.constants import ABIL, XP

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.game import MihiAnguliGame
    from nightsky.games.mihi_anguli.state import MihiAnguliState

DAYS = {name: i for i, name in enumerate(B.DAY_SHORT)}


def point(text: str) -> int:
    """Point index of ``"x,y"`` in sheet coordinates."""
    p = parse_point(text)
    if p is None:
        raise ComponentError(f"{text!r} is not a point of the star map")
    return B.pidx(*p)


def item(game: MihiAnguliGame, label: str) -> int:
    """Index of the item with notation ``label`` (e.g. ``"W2.1"``)."""
    for it in game.compiled.items:
        if it.label == label:
            return it.index
    raise ComponentError(f"no item {label!r} on this sheet")


def group(game: MihiAnguliGame, name: str) -> int:
    """Group index of an article/day/ability/supporter, by full or short name."""
    c = game.compiled
    for g in range(B.NGROUPS):
        if name in (c.group_names[g], c.group_short[g]):
            return g
    raise ComponentError(f"no ability, supporter, article or day named {name!r}")


def position(
    game: MihiAnguliGame,
    *,
    dice: Iterable[tuple[int, int, int] | None] | None = None,
    week: int = 1,
    day: str = "SUN",
    points: Iterable[str] = (),
    items: Iterable[str] = (),
    acquired: Iterable[str] = (),
    seat: int = 0,
    skip_experience: bool = False,
) -> MihiAnguliState:
    """A state whose seat ``seat`` has the given sheet before the roll; then ``dice`` (one
    triple per seat, None for a finished seat) are rolled through the rules.

    ``acquired`` fills every item of those abilities/supporters; squares follow from
    ``points``. With ``skip_experience`` the experience step is passed with ``done``.
    """
    st = game.new_initial_state()
    s = st.seats[seat]
    s.week = week
    s.day = DAYS[day]
    for p in points:
        s.pts |= 1 << point(p)
    for sq, corners in enumerate(B.SQ_CORNERS):
        if corners & ~s.pts == 0:
            s.sq |= 1 << sq
    for lab in items:
        s.items |= 1 << item(game, lab)
    for name in acquired:
        g = group(game, name)
        s.items |= game.compiled.group_mask[g]
        s.acq |= 1 << g
    if dice is not None:
        st.apply(game.roll(tuple(tuple(sorted(d)) if d else None for d in dice)), CHANCE)
        if skip_experience and s.phase == XP and not (s.sub or s.pstar or s.psq):
            st.apply(game.act[("done", 0, 0)], seat)
            assert s.phase == ABIL
    return st


def emily(game: MihiAnguliGame) -> MihiAnguliState:
    """Friday of week 2 with the week-2 article paid; lowest die 3 ends the week."""
    return position(game, dice=[(3, 4, 6)], week=2, day="FRI",
                    items=("W2.1", "W2.2", "W2.3", "W2.4"))


def maddy(game: MihiAnguliGame) -> MihiAnguliState:
    """Two Monday items filled and RESEARCHER acquired; the 2, 2, 5 roll lands on Monday."""
    return position(game, dice=[(2, 2, 5)], week=1, day="SAT",
                    items=("MON.1", "MON.2"), acquired=("RESEARCHER",))


def dave(game: MihiAnguliGame) -> MihiAnguliState:
    """Major (2,1) and the point below it filled; PLOTTING I with a 6 will fill a star and
    close two squares."""
    return position(game, dice=[(1, 2, 6)], week=4, day="SUN", points=("2,1", "2,1.5"),
                    skip_experience=True)


def katie(game: MihiAnguliGame) -> MihiAnguliState:
    """A fresh sheet, ability dice 2, 3 and 5, experience already spent."""
    return position(game, dice=[(2, 3, 5)], skip_experience=True)


def tutorials(game: MihiAnguliGame) -> list[Tutorial]:
    """Emily's week end, Maddy's experience, Dave's star and squares, Katie's three options."""
    return [
        Tutorial(
            "emily-week-end", "Emily ends week 2",
            "The lowest die (3) moves the schedule from Friday past Sunday to Monday, so week 2 "
            "ends. Its article is fully paid, so a reward is circled: 6 points. The schedule "
            "die then shows week 3.",
            lambda: emily(game), ((0, "claim points"),), ("Emily",)),
        Tutorial(
            "maddy-experience", "Maddy spends 5 experience",
            "Lowest die 2, plus two items already filled on Monday, plus RESEARCHER's triangle: "
            "5 experience. She pays 3 for an item of POSITIONING II, 1 for the week-2 article "
            "and 1 for a Friday item.",
            lambda: maddy(game), ((0, "fill POS2.1"), (0, "fill W2.1"), (0, "fill FRI.1")),
            ("Maddy",)),
        Tutorial(
            "dave-star-squares", "Dave fills a star and two squares",
            "Positioned on major 2,1, PLOTTING I with the 6 (two columns of pips) fills a star "
            "point, which is spent at once on OPTIMIZING's star item; two squares close and are "
            "spent on OPTIMIZING's 1-squares item and the week-4 article's.",
            lambda: dave(game),
            ((0, "POS1 2 1"), (0, "PLOT1 6 r0"), (0, "fill OPT.1"), (0, "fill OPT.2"),
             (0, "fill W4.2")), ("Dave",)),
        Tutorial(
            "katie-option-1", "Katie's PLOTTING I, option 1",
            "Dice 2 and 3 position at major 2,3; the 5 plots its pattern: the major point and "
            "the four corner points around it.",
            lambda: katie(game), ((0, "POS1 2 3"), (0, "PLOT1 5 r0")), ("Katie",)),
        Tutorial(
            "katie-option-2", "Katie's PLOTTING I, option 2",
            "Dice 2 and 5 position at major 2,5; the 3 plots a diagonal of three through it.",
            lambda: katie(game), ((0, "POS1 2 5"), (0, "PLOT1 3 r0")), ("Katie",)),
        Tutorial(
            "katie-option-3", "Katie's PLOTTING I, option 3",
            "Dice 3 and 5 position at major 3,5; the 2 plots two opposite corner points, in "
            "either of its two turns. PLOTTING II would fill both turns: all four corners.",
            lambda: katie(game), ((0, "POS1 3 5"), (0, "PLOT1 2 r2")), ("Katie",)),
    ]
