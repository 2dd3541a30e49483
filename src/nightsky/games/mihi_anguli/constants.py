"""Mihi Anguli's small constants: the phases of a seat's turn, its pending sub-choices, the
once-a-turn supporter flags and the solo ranks (MA-9.2).

A leaf module: it imports nothing from the game package, so the rules (``state``), the
presentation (``render``, ``svg``, ``ui``), the observation (``observer``), the heuristic and
the tutorials all read these names without importing each other.
"""

from __future__ import annotations

# Phases of a seat's turn.
WAIT, START, REWARD, XP, ABIL, FINISHED = range(6)
PHASE_NAMES = ("waiting", "roll-effects", "week-reward", "experience", "abilities", "finished")
# Sub-choices that interrupt a phase until resolved.
S_NONE, S_POS3, S_POS4, S_POINT, S_PLOT3, S_OPT, S_STUDY = range(7)
SUB_NAMES = ("", "POSITIONING III target", "POSITIONING IV target", "point to fill",
             "PLOTTING III points", "OPTIMIZING item", "STUDYING experience")
# ``Seat.used`` bits beside the twelve ability codes of ``board``.
MENTOR_USED = 1 << 12
PROMOTER_USED = 1 << 13

RANKS = (
    (0, "Messier"), (10, "Ptolomy"), (20, "Brahe"), (25, "Copernicus"), (30, "Herschel"),
    (35, "Kepler"), (40, "Hubble"), (45, "Hipparchus"), (50, "Galileo"),
)


def rank_name(score: float) -> str:
    """The solo rank of a score (MA-9.2)."""
    name = RANKS[0][1]
    for low, n in RANKS:
        if score >= low:
            name = n
    return name
