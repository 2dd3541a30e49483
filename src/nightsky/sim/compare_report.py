"""``compare.json``, ``compare.png`` and ``compare.html`` of ``nightsky compare``."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from nightsky.sim.compare import differs


def plot_compare(data: dict[str, Any], path: Path) -> Path:
    """Three panels, design and baseline side by side: the seats' win shares, the game
    measures relative to the baseline, and the win rate of whoever took the top components."""
    from nightsky.sim.plots import pyplot

    plt = pyplot()
    fig, (a1, a2, a3) = plt.subplots(1, 3, figsize=(15, 4.2), dpi=100)
    seats = data["seats"]
    xs = list(range(len(seats)))
    for k, (who, colour) in enumerate((("design", "#c0392b"), ("baseline", "#4a6fa5"))):
        a1.bar([x - 0.2 + 0.4 * k for x in xs], [s["win_share"][who] for s in seats], 0.4,
               color=colour, label=who)
    a1.axhline(1 / max(1, len(seats)), color="black", linestyle="--", linewidth=1)
    a1.set_xticks(xs, [f"seat {s['seat']}" for s in seats])
    a1.set_ylabel("win share")
    a1.set_title("Seats (dashed: fair share)", fontsize=10)
    a1.legend(fontsize=8)
    measures = data["measures"]
    names = [k for k, v in measures.items() if v["baseline"]]
    scale = [abs(measures[k]["baseline"]) for k in names]
    rel = [measures[k]["diff"] / sc for k, sc in zip(names, scale, strict=True)]
    err: list[list[float]] = [[], []]
    for k, sc in zip(names, scale, strict=True):
        ci = measures[k]["ci95"] or [measures[k]["diff"]] * 2
        err[0].append((measures[k]["diff"] - ci[0]) / sc)
        err[1].append((ci[1] - measures[k]["diff"]) / sc)
    a2.barh([k.replace("_", " ") for k in names], rel, xerr=err, capsize=3,
            color=["#c0392b" if differs(measures[k]) else "#999999" for k in names])
    a2.axvline(0, color="black", linewidth=0.8)
    a2.set_xlabel("design minus baseline, share of the baseline")
    a2.set_title("Game measures (paired 95% intervals)", fontsize=10)
    comps = [c for c in data["components"] if c["win_diff"] is not None][:10][::-1]
    ys = list(range(len(comps)))
    for k, colour in enumerate(("#c0392b", "#4a6fa5")):
        a3.barh([y - 0.2 + 0.4 * k for y in ys], [c["win_rate"][k] or 0.0 for c in comps],
                0.4, color=colour, label="design" if k == 0 else "baseline")
    a3.set_yticks(ys, [c["component"] + (" *" if c["outlier"] else "") for c in comps],
                  fontsize=8)
    a3.set_xlabel("win rate of whoever took it")
    a3.set_title("Components (* outlier, FDR 5%)", fontsize=10)
    a3.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _component_diff(c: dict[str, Any]) -> str:
    if c["win_diff"] is None:
        return "-"
    lo, hi = c["win_diff_ci95"]
    return f"{c['win_diff']:+.1%} ({lo:+.1%} to {hi:+.1%})"


def render_compare_html(data: dict[str, Any], title: str) -> str:
    """The page: headlines, both provenances, the tables and the plot."""
    from nightsky.sim.report import CSS, html_table, provenance_html

    e = html.escape

    def diff(row: dict[str, Any], pct: bool = False) -> str:
        f = (lambda x: f"{x:+.1%}") if pct else (lambda x: f"{x:+.3g}")
        ci = row["ci95"]
        text = f(row["diff"]) + (f" ({f(ci[0])} to {f(ci[1])})" if ci else "")
        return f"<b>{text}</b>" if differs(row) else text

    seat_rows = []
    for s in data["seats"]:
        w, a = s["win_share"], s["score_advantage"]
        seat_rows.append([s["seat"], f"{w['design']:.1%}", f"{w['baseline']:.1%}",
                          diff(w, True), f"{a['design']:+.2f}", f"{a['baseline']:+.2f}",
                          diff(a)])
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(title)} compare</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}: design against baseline</h1>",
        f"<p class='sub'>{data['players']} players; {e(data['agents'])} in every seat; "
        f"{data['games']} games a design on the same seeds (seed {e(str(data['seed']))})</p>",
        "<p class='sub'><b>design</b></p>" + provenance_html(data["provenance"]["design"]),
        "<p class='sub'><b>baseline</b></p>" + provenance_html(data["provenance"]["baseline"]),
        "<div class='head'><b>In one minute</b><ul>",
        *[f"<li>{e(h)}</li>" for h in data["headlines"]],
        "</ul></div>",
        "<img src='compare.png' alt='design and baseline side by side'>",
        "<h2>Seats</h2>",
        html_table(["seat", "win share (design)", "(baseline)", "difference",
                    "score advantage (design)", "(baseline)", "difference"], seat_rows),
        "<h2>Game</h2>",
        html_table(["measure", "design", "baseline", "difference"],
                   [[e(k.replace("_", " ")), f"{v['design']:g}", f"{v['baseline']:g}", diff(v)]
                    for k, v in data["measures"].items()]),
        "<h2>Components</h2>",
        html_table(
            ["component", "take rate (design / baseline)", "win rate of takers",
             "difference (95%)", "corrected p", ""],
            [[e(c["component"]), f"{c['take_rate'][0]:.1%} / {c['take_rate'][1]:.1%}",
              " / ".join("-" if w is None else f"{w:.1%}" for w in c["win_rate"]),
              _component_diff(c),
              "-" if c["p_fdr"] is None else f"{c['p_fdr']:.2g}",
              "<span class='above'>outlier</span>" if c["outlier"] else ""]
             for c in data["components"][:30]],
        ),
    ]
    trace = data.get("skill_trace")
    if trace is not None:
        a, b = data["agents"], data["second"]["agents"]
        parts.append(f"<h2>Skill trace: {e(a)} against {e(b)}</h2>")
        parts.append(html_table(["measure", a, b], [[e(t["measure"]), e(t[a]), e(t[b])]
                                                    for t in trace])
                     if trace else "<p>The two agents agree everywhere.</p>")
    parts.append(f"<p class='note'>Method: {e(data['method'])}. Figures behind this page: "
                 "compare.json.</p></body></html>")
    return "\n".join(parts)


def write_compare(out: Path, data: dict[str, Any], *, title: str) -> Path:
    """Write ``compare.json``, ``compare.png`` and ``compare.html``; returns the page."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "compare.json").write_text(json.dumps(data, indent=2) + "\n")
    plot_compare(data, out / "compare.png")
    page = out / "compare.html"
    page.write_text(render_compare_html(data, title), encoding="utf-8")
    return page
