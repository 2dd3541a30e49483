"""The rulebook's worked examples as loadable positions, and ``position()`` to set one up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from nightsky.core.game import Tutorial
from nightsky.games.star_fire.constants import (
    DECK_B,
    DECK_E,
    DECK_S,
    ELEMENT,
    EVENT,
    PH_PLAY,
    STARFIRE,
)

if TYPE_CHECKING:
    from nightsky.games.star_fire.state import StarFireState


SystemSpec = tuple[list[str], list[tuple[str, list[str]]], list[str]]
"""(stars, [(planet, moons)], loose moons), by card notation."""


def position(
    game: Any,
    *,
    hands: dict[int, list[str]] | None = None,
    nursery: dict[int, list[str]] | None = None,
    systems: dict[int, list[SystemSpec]] | None = None,
    piles: dict[int, list[str]] | None = None,
    seat: int = 0,
    decks: dict[int, list[str]] | None = None,
    bottoms: dict[int, list[str]] | None = None,
    reshuffled: bool = False,
) -> StarFireState:
    """A play-phase position with the named cards placed; every other card stays in its deck
    (unseen) unless ``decks`` lists a deck's whole content. ``bottoms`` lists cards returned
    to the (public) bottom of a deck (SF-4.3); ``reshuffled`` says the element deck was
    already reshuffled once, so spent elements are out of play (SF-15.2). ``seat`` starts its
    turn."""
    s = game.new_initial_state()
    C = s.C
    by = C.by_name
    used: set[int] = set()

    def ids(names: list[str]) -> list[int]:
        out = [by[x] for x in names]
        used.update(out)
        return out

    s.queue = []
    s.phase = PH_PLAY
    s.reshuffled = reshuffled
    for d, names in (bottoms or {}).items():
        s.bottom[d] = ids(names)
    for q, names in (hands or {}).items():
        s.hands[q] = ids(names)
    for q, names in (nursery or {}).items():
        s.nursery[q] = ids(names)
    for q, names in (piles or {}).items():
        s.pile[q] = ids(names)
    for q, syss in (systems or {}).items():
        for stars, planets, loose in syss:
            pl_ids = []
            for p, moons in planets:
                (pid,) = ids([p])
                s.moons_on[pid] = ids(moons)
                pl_ids.append(pid)
            s.systems[q].append([ids(stars), pl_ids, ids(loose)])
    if decks is not None:
        s.pool = [[], [], [], []]
        for d, names in decks.items():
            s.pool[d] = ids(names)
    else:
        rest = [c for c in range(C.n) if c not in used]
        s.pool = [
            [c for c in rest if C.cat[c] in (ELEMENT, EVENT)],
            [c for c in rest if c in game.body_set],
            [c for c in rest if C.cat[c] == STARFIRE],
            [],
        ]
    s.free_star = [-1] * s.n
    s._start_turn(seat)
    s._settle()
    return s


def _split(game: Any) -> StarFireState:
    return position(
        game,
        hands={0: ["M6", "M3"]},
        nursery={0: ["H5", "HM1", "C1"], 1: ["He1"]},
        systems={0: [(["S1"], [("P6", [])], [])], 1: [(["S2"], [], [])]},
    )


def _join(game: Any) -> StarFireState:
    return position(
        game,
        nursery={0: ["H1", "C1"], 1: ["He1"]},
        systems={0: [(["S1"], [("P1", []), ("P2", [])], []), (["S4"], [("P3", [])], [])],
                 1: [(["S2"], [], [])]},
    )


def tutorials(game: Any) -> list[Tutorial]:
    return [
        Tutorial(
            name="split-double",
            title="One double card pays for two builds",
            text=(
                "Hydrogen card 5 holds 2 Hydrogen. Building the rogue moon Wanderer (1 "
                "Hydrogen, 1 Heavy Metal) spends it and leaves 1 Hydrogen of credit for this "
                "turn; the second build, Europa on Zephyr (1 Hydrogen, 1 Carbon), uses that "
                "credit and Carbon card 1. See SF-5.3."
            ),
            build=lambda: _split(game),
            steps=((0, "build M6 at S1"), (0, "build M3 on P6")),
        ),
        Tutorial(
            name="surplus-lost",
            title="Unused surplus is discarded",
            text=(
                "The same Hydrogen card 5 pays 1 Hydrogen for Wanderer; if the second action "
                "is a draw, the spare Hydrogen is lost when the turn ends (SF-5.4): the card "
                "is already spent."
            ),
            build=lambda: _split(game),
            steps=((0, "build M6 at S1"), (0, "draw bodies")),
        ),
        Tutorial(
            name="join-systems",
            title="Two standing systems joined, for free",
            text=(
                "Sirius (S1) has two planets, Rigel (S4) one, and Rigel's bonus (+4) needs three "
                "in its system. Joining the two systems (join S1 S4) costs no action (SF-6.2): "
                "Rigel then counts all three planets of the binary system (SF-6.3), and the "
                "turn's two actions are still to take. A join is for good, and leaves one "
                "system fewer for Most Solar Systems (SF-18.7)."
            ),
            build=lambda: _join(game),
            steps=((0, "join S1 S4"), (0, "draw elements")),
        ),
    ]


__all__ = ["DECK_B", "DECK_E", "DECK_S", "position", "tutorials"]
