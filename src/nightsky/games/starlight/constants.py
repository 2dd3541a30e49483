"""Starlight's plain constants: action and chance kinds, phases, privilege bits.

A leaf module: it imports nothing from the game package, so every other module (rules, views,
presentation) can import it without cycles.
"""

from __future__ import annotations

# Player action kinds (``Act.kind``).
PLACE, STEP, END, CORE, TAKE, FLARE, FLUSH, LAUNCH, FINAL = range(9)
STAR, ATTACH, USE, SLOT, SLOTLESS, BUY, DONE, FREE, SKIP, BOON, KEEP = range(9, 20)

# Chance kinds (``Draw.kind``).
D_CORE, D_LONG, D_SHORT, D_FLARE, D_LAUREL, D_GOD, D_SB = range(7)

SIZE_NAMES = ("long", "short")
"""Ray sizes by index (0 long, 1 short)."""

# Phases.
SETUP, GOD, MAIN, CHOOSE_STAR, BUILD, BUYING, FREE_RAY, BOT, BETWEEN, OVER, FREE_CORE = range(11)
PHASE_NAMES = (
    "setup",
    "choose-god",
    "main",
    "choose-star",
    "build-star",
    "buy-night-points",
    "free-ray",
    "starbot",
    "between-turns",
    "over",
    "free-core",
)

# Privilege bits, in the order of ``components.PRIVILEGES``.
P_BUY, P_AP, P_REFILL, P_LAUREL, P_CORE_RAY, P_ALPHA = (1 << i for i in range(6))
