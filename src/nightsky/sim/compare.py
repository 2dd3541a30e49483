"""Two designs of one game played on the same seeds (``nightsky compare``).

Game ``i`` of both designs draws its chance from the same stream and seats the same agents,
so the designs are compared pair by pair: every game-level figure (a seat's win share and score
advantage, the length, lead changes, when the game was decided, the winner's margin) becomes
one difference per seed, and its 95% interval is the paired Student t interval of those
differences. Components are compared between the designs' seat-games that took them (Welch),
and the component p-values are corrected together for the false-discovery rate
(Benjamini-Hochberg), so that an unchanged copy reports no outlier and a strengthened component
shows as the top one.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from nightsky.sim.attribution import FDR, MIN_GROUP, mark_outliers, rounded, taken_by_seat, welch
from nightsky.sim.report import lead_stats
from nightsky.sim.runner import GameResult
from nightsky.sim.stats import CONFIDENCE, end_conditions, fmean, seat_share

COMPARE_METHOD = (
    "paired by seed: each game-level figure is a difference per seed (design minus baseline) "
    "with its 95% paired Student t interval; components: win rate of the seat-games that took "
    "the component in each design, difference with a Welch 95% interval, p-values "
    f"Benjamini-Hochberg corrected over all components (false-discovery rate {FDR:.0%}, "
    f"statsmodels); tested when each design has {MIN_GROUP}+ seat-games that took it; an "
    "outlier is a component whose corrected p < 0.05"
)


def paired(a: Sequence[float], b: Sequence[float], digits: int = 4) -> dict[str, Any]:
    """Means of ``a`` and ``b`` (same seeds, same order), their mean difference, its paired
    95% t interval and p-value; a difference of zero in every pair gives ``[0, 0]`` and p 1."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    out: dict[str, Any] = {
        "design": rounded(fmean(a), digits), "baseline": rounded(fmean(b), digits),
        "diff": rounded(fmean(d), digits), "ci95": None, "p": None, "pairs": len(d),
    }
    if len(d) < 2:
        return out
    from scipy.stats import t

    m = fmean(d)
    sd = statistics.stdev(d)
    if sd == 0:
        out.update(ci95=[rounded(m, digits), rounded(m, digits)], p=1.0 if m == 0 else 0.0)
        return out
    se = sd / math.sqrt(len(d))
    q = float(t.ppf(0.5 + CONFIDENCE / 2, len(d) - 1))
    out.update(ci95=[rounded(m - q * se, digits), rounded(m + q * se, digits)],
               p=float(f"{2 * t.sf(abs(m) / se, len(d) - 1):.3g}"))
    return out


def differs(row: dict[str, Any]) -> bool:
    """Whether a paired row's interval excludes zero."""
    ci = row.get("ci95")
    return ci is not None and (ci[0] > 0 or ci[1] < 0)


def _advantages(r: GameResult, seats: int) -> list[float]:
    scores = r.scores[:seats]
    mean = fmean(scores)
    return [s - mean for s in scores]


def _margin(r: GameResult) -> float:
    s = sorted(r.scores, reverse=True)
    return s[0] - s[1] if len(s) > 1 else 0.0


def compare_runs(
    design: Sequence[GameResult], baseline: Sequence[GameResult], seats: int
) -> dict[str, Any]:
    """Every difference of ``design`` against ``baseline`` (the same game indices)."""
    a = sorted(design, key=lambda r: r.index)
    b = sorted(baseline, key=lambda r: r.index)
    if [r.index for r in a] != [r.index for r in b]:
        raise ValueError("compare needs both designs played on the same game indices")
    seat_rows = []
    for p in range(seats):
        seat_rows.append({
            "seat": p,
            "win_share": paired([seat_share(r, p) for r in a], [seat_share(r, p) for r in b]),
            "score_advantage": paired([_advantages(r, seats)[p] for r in a],
                                      [_advantages(r, seats)[p] for r in b], 3),
        })
    game_rows: dict[str, Any] = {
        "player_actions": paired([r.actions for r in a], [r.actions for r in b], 2),
        "turns": paired([r.turns for r in a], [r.turns for r in b], 2),
        "rounds": paired([r.turns / seats for r in a], [r.turns / seats for r in b], 2),
        "winner_margin": paired([_margin(r) for r in a], [_margin(r) for r in b], 3),
    }
    la = [lead_stats(r) for r in a]
    lb = [lead_stats(r) for r in b]
    both = [(x, y) for x, y in zip(la, lb, strict=True) if x is not None and y is not None]
    if both:
        game_rows["lead_changes"] = paired([x["changes"] for x, _ in both],
                                           [y["changes"] for _, y in both], 3)
        game_rows["decided_at"] = paired([x["decided_at"] for x, _ in both],
                                         [y["decided_at"] for _, y in both], 4)
    return {
        "games": len(a),
        "method": COMPARE_METHOD,
        "seats": seat_rows,
        "measures": game_rows,
        "end_conditions": {"design": end_conditions(a), "baseline": end_conditions(b)},
        "components": component_differences(a, b, seats),
    }


def _groups(results: Sequence[GameResult], seats: int) -> tuple[dict[str, list[float]], int]:
    took: dict[str, list[float]] = {}
    for r in results:
        for p, taken in enumerate(taken_by_seat(r, seats)):
            for name in taken:
                took.setdefault(name, []).append(seat_share(r, p))
    return took, len(results) * seats


def component_differences(
    design: Sequence[GameResult], baseline: Sequence[GameResult], seats: int
) -> list[dict[str, Any]]:
    """Per component: take rate and takers' win rate in each design, the win-rate difference
    with its Welch interval and FDR-corrected p; outliers first, strongest first."""
    ga, na = _groups(design, seats)
    gb, nb = _groups(baseline, seats)
    rows = []
    for name in sorted(set(ga) | set(gb)):
        wa, wb = ga.get(name, []), gb.get(name, [])
        row: dict[str, Any] = {
            "component": name,
            "take_rate": [rounded(len(wa) / na if na else 0.0),
                          rounded(len(wb) / nb if nb else 0.0)],
            "win_rate": [rounded(fmean(wa)) if wa else None, rounded(fmean(wb)) if wb else None],
            "win_diff": None, "win_diff_ci95": None, "p": None, "p_fdr": None,
            "outlier": False,
        }
        if len(wa) >= MIN_GROUP and len(wb) >= MIN_GROUP:
            w = welch(wa, wb)
            if w is not None:
                row.update(win_diff=rounded(w.diff),
                           win_diff_ci95=[rounded(w.ci[0]), rounded(w.ci[1])], p=w.p)
        rows.append(row)
    mark_outliers(rows, "p", "win_diff")
    return rows


def headlines(data: dict[str, Any]) -> list[str]:
    """The sentences a designer reads first: outliers, seats and length that moved."""
    out = []
    comps = [c for c in data["components"] if c["outlier"]]
    if comps:
        top = comps[0]
        lo, hi = top["win_diff_ci95"]
        out.append(
            f"Top outlier: {top['component']}: whoever took it won {top['win_rate'][0]:.0%} "
            f"of those seat-games against {top['win_rate'][1]:.0%} in the baseline "
            f"({top['win_diff']:+.0%}, {lo:+.0%} to {hi:+.0%}; corrected p = {top['p_fdr']:.2g})"
            + (f"; {len(comps) - 1} more outlier(s)." if len(comps) > 1 else ".")
        )
    else:
        out.append(f"No component's win rate differs between the designs (false-discovery "
                   f"rate {FDR:.0%} over {len(data['components'])} components).")
    moved = [s for s in data["seats"] if differs(s["win_share"])]
    if moved:
        out.append("; ".join(
            f"seat {s['seat']} wins {s['win_share']['design']:.0%} against "
            f"{s['win_share']['baseline']:.0%} ({s['win_share']['ci95'][0]:+.1%} to "
            f"{s['win_share']['ci95'][1]:+.1%})" for s in moved) + ".")
    else:
        out.append("No seat's win share differs between the designs (paired 95% intervals, "
                   "each seat on its own).")
    length = data["measures"]["rounds"]
    out.append(
        f"A game takes {length['design']:g} rounds against {length['baseline']:g} "
        + (f"({length['ci95'][0]:+g} to {length['ci95'][1]:+g})." if length["ci95"] else ".")
    )
    return out
