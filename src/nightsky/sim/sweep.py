"""Measuring one design per value of a swept field (``nightsky sweep``), and its plots.

Every value plays the same seeds, so the curves differ by the design, not by the dice. Each
metric is a mean over games with its 95% interval: a seat's win share (Clopper-Pearson), a
seat's score advantage, the length in rounds and player actions, the winner's margin, lead
changes and when the game was decided (Student t).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nightsky.sim.attribution import component_rows, outliers
from nightsky.sim.report import lead_stats
from nightsky.sim.runner import GameResult
from nightsky.sim.stats import exact_interval, fmean, mean_interval, seat_share


def _mean(xs: Sequence[float]) -> dict[str, Any]:
    ci = mean_interval(xs)
    return {"value": round(fmean(xs), 4),
            "ci95": [round(ci[0], 4), round(ci[1], 4)] if ci else None}


def measure(results: Sequence[GameResult], players: int) -> dict[str, Any]:
    """The metrics of one design: ``{"metrics": {name: {"value", "ci95"}}, "outliers"}``."""
    n = len(results)
    metrics: dict[str, dict[str, Any]] = {}
    for p in range(players):
        wins = sum(seat_share(r, p) for r in results)
        lo, hi = exact_interval(wins, n)
        metrics[f"seat {p} win share"] = {"value": round(wins / n, 4) if n else 0.0,
                                          "ci95": [round(lo, 4), round(hi, 4)]}
    for p in range(players):
        metrics[f"seat {p} score advantage"] = _mean(
            [r.scores[p] - fmean(r.scores[:players]) for r in results])
    metrics["rounds"] = _mean([r.turns / players for r in results])
    metrics["player actions"] = _mean([float(r.actions) for r in results])
    margins = [sorted(r.scores, reverse=True) for r in results]
    metrics["winner margin"] = _mean([s[0] - s[1] if len(s) > 1 else 0.0 for s in margins])
    leads = [x for x in (lead_stats(r) for r in results) if x is not None]
    if leads:
        metrics["lead changes"] = _mean([float(x["changes"]) for x in leads])
        metrics["decided at"] = _mean([x["decided_at"] for x in leads])
    comps = component_rows(results, players)
    return {"metrics": metrics, "outliers": [c["component"] for c in outliers(comps)]}


def slug(name: str) -> str:
    """A metric's file name: ``seat 0 win share`` -> ``seat-0-win-share``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def write_sweep(out: Path, data: dict[str, Any], *, title: str) -> dict[str, str]:
    """Write ``sweep.json``, one PNG per metric (value against the field, with its interval)
    and ``sweep.html``; returns metric -> plot file."""
    from nightsky.sim.plots import pyplot

    plt = pyplot()
    out.mkdir(parents=True, exist_ok=True)
    values = data["values"]
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    xs = values if numeric else list(range(len(values)))
    names = list(data["points"][0]["metrics"]) if data["points"] else []
    files: dict[str, str] = {}
    for name in names:
        rows = [p["metrics"].get(name) for p in data["points"]]
        fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
        ys = [r["value"] if r else float("nan") for r in rows]
        lo = [y - r["ci95"][0] if r and r["ci95"] else 0.0 for y, r in zip(ys, rows, strict=True)]
        hi = [r["ci95"][1] - y if r and r["ci95"] else 0.0 for y, r in zip(ys, rows, strict=True)]
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=4, color="#4a6fa5")
        if numeric and isinstance(data["shipped"], int | float):
            ax.axvline(data["shipped"], color="grey", linestyle=":", label="shipped")
            ax.legend(fontsize=8)
        if not numeric:
            ax.set_xticks(xs, [str(v) for v in values])
        ax.set_xlabel(data["field"])
        ax.set_ylabel(name)
        ax.set_title(f"{name} (95% intervals)", fontsize=10)
        fig.tight_layout()
        fname = f"sweep-{slug(name)}.png"
        fig.savefig(out / fname)
        plt.close(fig)
        files[name] = fname
    data = {**data, "plots": files}
    (out / "sweep.json").write_text(json.dumps(data, indent=2) + "\n")
    (out / "sweep.html").write_text(render_sweep_html(data, title), encoding="utf-8")
    return files


def render_sweep_html(data: dict[str, Any], title: str) -> str:
    """The sweep page: the command, a table of outliers per value, then every plot."""
    from nightsky.sim.report import CSS, html_table

    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(title)} sweep</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}: sweep of {e(data['field'])}</h1>",
        f"<p class='sub'>{e(data['agents'])} in every seat; {data['games']} games a value on "
        f"the same seeds (seed {e(str(data['seed']))}); shipped value "
        f"{e(str(data['shipped']))}</p>",
        f"<p class='sub'><code>{e(data['command'])}</code></p>",
        html_table(["value", "components that go with winning (corrected)", "components file"],
                   [[e(str(p["value"])), e(", ".join(p["outliers"][:5]) or "-"),
                     e(Path(p["components"]).name)] for p in data["points"]]),
        "<div class='grid'>",
        *[f"<img src='{f}' alt='{e(name)}'>" for name, f in data["plots"].items()],
        "</div><p class='note'>Bars: 95% intervals (win shares Clopper-Pearson, each seat on "
        "its own; other metrics Student t). Figures behind this page: sweep.json.</p>",
        "</body></html>",
    ]
    return "\n".join(parts)
