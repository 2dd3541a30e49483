"""PNG plots of a simulation (matplotlib, headless: the extra ``nightsky[report]``).

matplotlib is imported when a plot is drawn (``pyplot()``), so this module, and what imports
it, loads without the extra; drawing without it raises ``MissingExtraError`` naming the extra.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nightsky._extras import require
from nightsky.sim.runner import GameResult

PLOTS = "Plots (simulate --out, simulate --report, balance --out)"


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the headless Agg back end, or ``MissingExtraError`` naming
    the extra ``report``."""
    matplotlib = require("matplotlib", "report", PLOTS)
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def score_distribution(results: Sequence[GameResult], agents: Sequence[str], path: Path) -> Path:
    """One histogram of final scores per seat, overlaid."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    lo = min(min(r.scores) for r in results)
    hi = max(max(r.scores) for r in results)
    bins = min(40, max(5, int(hi - lo) + 1))
    for p, name in enumerate(agents):
        ax.hist(
            [r.scores[p] for r in results],
            bins=bins,
            range=(lo, hi + 1),
            alpha=0.45,
            label=f"seat {p}: {name}",
        )
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("Score distribution per seat")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def game_length(results: Sequence[GameResult], path: Path) -> Path:
    """Histogram of player actions per game."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    lengths = [r.actions for r in results]
    ax.hist(lengths, bins=min(40, max(5, len(set(lengths)))), color="#4a6fa5")
    ax.set_xlabel("player actions per game")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
