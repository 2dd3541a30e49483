"""The rulebook's four worked examples as loadable positions (``Game.tutorials()``)."""

from __future__ import annotations

from nightsky.core.game import Tutorial
from nightsky.games.shooting_star.positions import build_position


def example_1():
    """Red's Priority 2 (Starburst: the four planets around it) on a Level 4 at the bottom."""
    return build_position(["2 2 2 D", "4 1 2 4", "3 4 2 2"], players=2, deck=["p01", "p02", "p04"])


def example_2():
    """Red's Priority 6 (Twin Lance) beside Yellow's Priority 2, a Level 1 on its other side."""
    return build_position(["2 2 2 2", "1 4 3 2", "2 2 2 D"], players=2)


def example_3():
    """Red's Priority 6 blasts a Level 1 and Green's Space Shield (three admirals)."""
    return build_position(["2 2 2 2 2 2", "1 4 2 2 D 2", "2 2 2 2 2 2"], players=3)


def example_4():
    """Blue's Priority 6 captures a Level 3 and a Level 1; a Level 2 is left isolated."""
    return build_position(
        ["2 D 2 . 2 D", "3 4 1 2 . 2", "2 2 . . . 2", "D 2 . 2 2 2"],
        players=4,
        deck=["p01", "p02"],
    )


def tutorials() -> list[Tutorial]:
    return [
        Tutorial(
            "example-1",
            "Example 1: what a Destruction card does",
            "Red lays its Priority 2 on the Level 4 planet at 2,3. It blasts the four planets "
            "next to it: the Level 3 on its left is captured and a Level 2 from the deck takes "
            "its place, the Level 2 on its right turns to its 1 side, the Level 1 above it is "
            "captured and leaves a hole. Below it is the edge of the sector: nothing to hit. "
            "Yellow's Priority 7 on the Dark Planet does nothing: Dark Planets cannot be damaged.",
            example_1,
            ((0, "P2@2,3"), (1, "P7@4,1")),
            ("Red", "Yellow"),
        ),
        Tutorial(
            "example-2",
            "Example 2: a card destroys another card",
            "Red's Priority 6 at 2,2 resolves before Yellow's Priority 2 at 3,2 (6 beats 2). "
            "Its blast on 3,2 destroys Yellow's card, which joins Red's Space Debris; the planet "
            "under it keeps its Level. The Level 1 at 1,2 on the other side is captured as usual.",
            example_2,
            ((0, "P6@2,2"), (1, "P2@3,2")),
            ("Red", "Yellow"),
        ),
        Tutorial(
            "example-3",
            "Example 3: a Space Shield",
            "Red's Priority 6 at 2,2 blasts the Level 1 at 1,2 and Green's Space Shield at 3,2. "
            "The Shield catches the card: Green puts Red's card and the Shield in her Conquest "
            "pile, and the Level 1 planet is not touched at all.",
            example_3,
            ((0, "P6@2,2"), (1, "P7@5,2"), (2, "S@3,2")),
            ("Red", "Yellow", "Green"),
        ),
        Tutorial(
            "example-4",
            "Example 4: an isolated planet",
            "Blue's Priority 6 at 2,2 captures the Level 3 at 1,2 (a Level 2 from the deck "
            "replaces it) and the Level 1 at 3,2. The Level 2 at 4,2 now touches no planet: "
            "Blue captures it too, into his Space Debris pile. The other admirals' Priority 7 "
            "cards sit on Dark Planets and do nothing.",
            example_4,
            ((0, "P7@2,1"), (1, "P7@6,1"), (2, "P7@1,4"), (3, "P6@2,2")),
            ("Red", "Yellow", "Green", "Blue"),
        ),
    ]
