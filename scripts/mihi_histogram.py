"""Solo Mihi Anguli score distributions of random and greedy play, with the rank bands drawn.

    .venv/bin/python scripts/mihi_histogram.py --games 500 --workers 2

plays the games through the same runner and seeds as
``nightsky simulate mihi-anguli --players 1 --agents AGENT --games N`` (seed 0), writes the
per-game scores to ``docs/games/img/mihi-anguli-scores.json`` and draws
``docs/games/img/mihi-anguli-scores.png``. ``--replot`` redraws from the saved scores.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from nightsky.games.mihi_anguli.state import RANKS, rank_name  # noqa: E402
from nightsky.sim.runner import MatchSpec, run_matches  # noqa: E402

IMG = Path(__file__).resolve().parent.parent / "docs" / "games" / "img"
AGENTS = ("random", "greedy")


def measure(games: int, workers: int) -> dict[str, list[float]]:
    out = {}
    for agent in AGENTS:
        spec = MatchSpec("mihi-anguli", {"players": 1}, (agent,), 0)
        res = sorted(run_matches(spec, games, workers=workers), key=lambda r: r.index)
        out[agent] = [r.scores[0] for r in res]
    return out


def summary(scores: dict[str, list[float]]) -> dict[str, dict]:
    out = {}
    for agent, xs in scores.items():
        ranks = Counter(rank_name(x) for x in xs)
        out[agent] = {
            "games": len(xs), "mean": round(statistics.mean(xs), 2),
            "stdev": round(statistics.pstdev(xs), 2), "min": min(xs), "max": max(xs),
            "ranks": {name: round(ranks[name] / len(xs), 3) for _, name in RANKS},
        }
    return out


def plot(scores: dict[str, list[float]], path: Path) -> None:
    fig, ax = plt.subplots(figsize=(10, 5))
    top = max(60, int(max(max(v) for v in scores.values())) + 2)
    bounds = [low for low, _ in RANKS] + [top]
    for i, (low, name) in enumerate(RANKS):
        ax.axvspan(low - 0.5, bounds[i + 1] - 0.5, color="0.92" if i % 2 else "0.84", zorder=0)
        ax.text((low + bounds[i + 1]) / 2 - 0.5, 1.01 + 0.045 * (i % 2), name,
                transform=ax.get_xaxis_transform(), ha="center", va="bottom", fontsize=8)
    bins = [x - 0.5 for x in range(0, top + 1)]
    for agent, colour in zip(AGENTS, ("tab:orange", "tab:blue"), strict=True):
        xs = scores[agent]
        ax.hist(xs, bins=bins, alpha=0.75, color=colour, zorder=2,
                label=f"{agent} (n={len(xs)}, mean {statistics.mean(xs):.1f})")
    ax.set_xlim(-0.5, top - 0.5)
    ax.set_xlabel("final score (solo)")
    ax.set_ylabel("games")
    ax.set_title("Mihi Anguli solo scores on the designed sheet, with the rulebook's rank bands",
                 pad=30)
    ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--replot", action="store_true")
    a = ap.parse_args()
    IMG.mkdir(parents=True, exist_ok=True)
    data = IMG / "mihi-anguli-scores.json"
    if a.replot:
        scores = json.loads(data.read_text())["scores"]
    else:
        scores = measure(a.games, a.workers)
        data.write_text(json.dumps({"summary": summary(scores), "scores": scores}) + "\n")
    plot(scores, IMG / "mihi-anguli-scores.png")
    print(json.dumps(summary(scores), indent=1))


if __name__ == "__main__":
    main()
