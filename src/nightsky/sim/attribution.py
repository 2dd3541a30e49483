"""Component attribution: which named component goes with winning (``balance``, reports,
``compare``).

Every game names the components an action takes, plays, builds or scores
(``Game.component_events``); the runner records them per game (``attribute=True``). Here each
component gets, over the seat-games of a run: its take rate, the win rate and mean score of the
seat-games that took it against those that did not (the *lift*), each with a 95% interval, and
a p-value; the p-values of all components are corrected together for the false-discovery rate
(Benjamini-Hochberg, statsmodels), and the components whose corrected p-value stays below 0.05
are the *outliers*, the strongest first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from nightsky.sim.runner import GameResult
from nightsky.sim.stats import CONFIDENCE, fmean, seat_share, wilson_interval

FDR = 0.05
"""The false-discovery rate of the outlier lists."""

MIN_GROUP = 5
"""Seat-games needed on each side (took / did not) before a component is tested."""

ATTRIBUTION_METHOD = (
    "components: take rate = share of seat-games in which the seat took, played, built or "
    "scored the component; win rate of those seat-games with its 95% Wilson interval; lift = "
    "win rate (and mean score) of the seat-games that took it minus those that did not, with "
    "Welch 95% intervals and p-values, Benjamini-Hochberg corrected over all tested components "
    f"(false-discovery rate {FDR:.0%}, statsmodels); a component is tested when at least "
    f"{MIN_GROUP} seat-games took it and {MIN_GROUP} did not; outliers: corrected p < {FDR}"
)
"""What the component tables measure, in words (reports print it)."""


@dataclass(frozen=True)
class Welch:
    """Difference of two means with its Welch interval and two-sided p-value."""

    diff: float
    ci: tuple[float, float]
    p: float


def welch(a: Sequence[float], b: Sequence[float], confidence: float = CONFIDENCE) -> Welch | None:
    """Mean of ``a`` minus mean of ``b``, Welch's t interval and p-value (None below two values
    on a side). Two constant samples: the interval is the point and p is 0 or 1."""
    if len(a) < 2 or len(b) < 2:
        return None
    from scipy.stats import t

    ma, mb = fmean(a), fmean(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1) / len(a)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1) / len(b)
    diff = ma - mb
    se = math.sqrt(va + vb)
    if se == 0:
        return Welch(diff, (diff, diff), 1.0 if diff == 0 else 0.0)
    df = (va + vb) ** 2 / (
        (va**2 / (len(a) - 1) if va else 0.0) + (vb**2 / (len(b) - 1) if vb else 0.0)
    )
    q = float(t.ppf(0.5 + confidence / 2, df))
    p = float(2 * t.sf(abs(diff) / se, df))
    return Welch(diff, (diff - q * se, diff + q * se), p)


def fdr_adjust(pvalues: Sequence[float], alpha: float = FDR) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (statsmodels' ``multipletests``, ``fdr_bh``)."""
    if not pvalues:
        return []
    from statsmodels.stats.multitest import multipletests

    return [float(x) for x in multipletests(list(pvalues), alpha=alpha, method="fdr_bh")[1]]


def rounded(x: float | None, digits: int = 4) -> float | None:
    """``x`` rounded for JSON (no -0.0), None kept."""
    return None if x is None else round(x, digits) + 0.0


def taken_by_seat(r: GameResult, seats: int) -> list[dict[str, float]]:
    """Per measured seat: component name -> share of the game played when it first took it."""
    out: list[dict[str, float]] = [{} for _ in range(seats)]
    length = max(1, r.actions)
    for p, _verb, name, at in r.components:
        if 0 <= p < seats and name not in out[p]:
            out[p][name] = at / length
    return out


def component_rows(results: Sequence[GameResult], seats: int) -> list[dict[str, Any]]:
    """One row per component, outliers first (strongest first), then by take rate."""
    results = sorted(results, key=lambda r: r.index)
    verbs: dict[str, str] = {}
    for r in results:
        for _p, verb, name, _at in r.components:
            verbs.setdefault(name, verb)
    per_game = [taken_by_seat(r, seats) for r in results]
    total = len(results) * seats
    rows: list[dict[str, Any]] = []
    for name, verb in verbs.items():
        took_w: list[float] = []
        took_s: list[float] = []
        rest_w: list[float] = []
        rest_s: list[float] = []
        when: list[float] = []
        for r, taken in zip(results, per_game, strict=True):
            for p in range(seats):
                if name in taken[p]:
                    took_w.append(seat_share(r, p))
                    took_s.append(r.scores[p])
                    when.append(taken[p][name])
                else:
                    rest_w.append(seat_share(r, p))
                    rest_s.append(r.scores[p])
        n = len(took_w)
        lo, hi = wilson_interval(sum(took_w), n)
        row: dict[str, Any] = {
            "component": name,
            "verb": verb,
            "seat_games": n,
            "take_rate": rounded(n / total if total else 0.0),
            "taken_at": rounded(fmean(when), 3) if when else None,
            "win_rate": rounded(fmean(took_w)) if took_w else None,
            "win_ci95": [rounded(lo), rounded(hi)] if took_w else None,
            "win_rate_without": rounded(fmean(rest_w)) if rest_w else None,
            "mean_score": rounded(fmean(took_s), 3) if took_s else None,
            "win_lift": None,
            "win_lift_ci95": None,
            "score_lift": None,
            "score_lift_ci95": None,
            "p": None,
            "p_fdr": None,
            "outlier": False,
        }
        if n >= MIN_GROUP and len(rest_w) >= MIN_GROUP:
            w = welch(took_w, rest_w)
            s = welch(took_s, rest_s)
            if w is not None:
                row.update(win_lift=rounded(w.diff),
                           win_lift_ci95=[rounded(w.ci[0]), rounded(w.ci[1])], p=w.p)
            if s is not None:
                row.update(score_lift=rounded(s.diff, 3),
                           score_lift_ci95=[rounded(s.ci[0], 3), rounded(s.ci[1], 3)])
        rows.append(row)
    mark_outliers(rows, "p", "win_lift")
    return rows


def mark_outliers(rows: list[dict[str, Any]], pkey: str, effect: str) -> None:
    """Correct ``rows[i][pkey]`` together (Benjamini-Hochberg), store ``p_fdr`` and
    ``outlier``, and sort: outliers first (smallest corrected p, then largest effect), then
    the rest by take rate. Rounds the p-values for JSON."""
    tested = [r for r in rows if r[pkey] is not None]
    for r, q in zip(tested, fdr_adjust([r[pkey] for r in tested]), strict=True):
        r["p_fdr"] = q
        r["outlier"] = q < FDR
    rows.sort(key=lambda r: (
        not r["outlier"],
        r["p_fdr"] if r["outlier"] else 0.0,
        -abs(r[effect] or 0.0),
        -_first(r.get("take_rate")),
        r["component"],
    ))
    for r in rows:
        for k in (pkey, "p_fdr"):
            if r[k] is not None:
                r[k] = float(f"{r[k]:.3g}")


def _first(x: Any) -> float:
    # A take rate, or the first of a pair of them (a comparison's design).
    x = x[0] if isinstance(x, list) else x
    return float(x or 0.0)


def outliers(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows flagged as outliers, strongest first."""
    return [r for r in rows if r["outlier"]]


def describe_outlier(row: dict[str, Any]) -> str:
    """One sentence on an outlier component of a run."""
    lo, hi = row["win_lift_ci95"]
    return (
        f"{row['component']}: {row['take_rate']:.0%} of seat-games {row['verb']} it and won "
        f"{row['win_rate']:.0%} of them, {row['win_lift']:+.0%} against the others "
        f"({lo:+.0%} to {hi:+.0%}; corrected p = {row['p_fdr']:.2g})"
    )
