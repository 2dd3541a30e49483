"""The balance report of a simulation: ``report.json``, PNG plots and ``report.html``.

Everything is computed from ``GameResult`` fields that every game fills through the contract
(scores, winners, action counts, the running-score trace, action-kind usage), so the report
works for any game. ``docs/simulate.md`` explains how to read it.
"""

from __future__ import annotations

import html
import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from nightsky.sim.attribution import ATTRIBUTION_METHOD, component_rows, describe_outlier, outliers
from nightsky.sim.runner import GameResult
from nightsky.sim.stats import (
    SEAT_METHOD,
    correlation,
    correlation_interval,
    end_conditions,
    fmean,
    judge_seats,
    percentile,
    seat_share,
)

MIN_USES = 20
"""Seat-games an action kind must appear in before its win correlation is reported."""


# ---------------------------------------------------------------------------- analysis
def _leader(scores: Sequence[float]) -> int | None:
    best = max(scores)
    top = [p for p, v in enumerate(scores) if v == best]
    return top[0] if len(top) == 1 else None


def lead_stats(r: GameResult) -> dict[str, Any] | None:
    """Lead changes and when the game was decided, from the running-score trace (None when the
    game keeps no running score)."""
    if not r.trace or r.actions == 0:
        return None
    changes = 0
    current: int | None = None
    took_lead_at: dict[int, float] = {}
    leaders: list[tuple[float, int | None]] = []
    for point in r.trace:
        at, scores = point[0], point[1:]
        who = _leader(scores)
        leaders.append((at / r.actions, who))
        if who is not None and who != current:
            if current is not None:
                changes += 1
            current = who
            took_lead_at[who] = at / r.actions
    winner = r.winners[0] if len(r.winners) == 1 else None
    # A winner who was not alone in front before the final scoring was decided at the end.
    decided = took_lead_at[winner] if winner is not None and current == winner else 1.0
    return {"changes": changes, "decided_at": decided, "leaders": leaders}


def _leader_at(leaders: list[tuple[float, int | None]], frac: float) -> int | None:
    who = None
    for at, w in leaders:
        if at > frac:
            break
        who = w
    return who


def _q(xs: Sequence[float], q: float) -> float:
    return round(percentile(xs, q), 3)


def analyse(
    results: Sequence[GameResult],
    agents: Sequence[str],
    *,
    game: str = "",
    players: int | None = None,
    provenance: dict[str, Any] | None = None,
    safeguards: Sequence[str] = (),
) -> dict[str, Any]:
    """Every figure of the report as a JSON-ready dict (``report.json``). ``players``: the
    live seats (default: every seat) whose components are measured."""
    results = sorted(results, key=lambda r: r.index)
    n = len(results)
    seats = len(agents)
    fair = 1.0 / seats if seats else 0.0
    verdicts = judge_seats([sum(seat_share(r, p) for r in results) for p in range(seats)], n)
    seat_rows = []
    for v in verdicts:
        sc = [r.scores[v.seat] for r in results]
        seat_rows.append(
            {
                "seat": v.seat,
                "agent": agents[v.seat],
                "win_share": round(v.win_share, 4),
                "ci95": [round(v.interval[0], 4), round(v.interval[1], 4)],
                "verdict": v.verdict,
                "mean_score": round(fmean(sc), 3),
                "median_score": _q(sc, 0.5),
                "score_p10_p90": [_q(sc, 0.1), _q(sc, 0.9)],
            }
        )
    lengths = [float(r.actions) for r in results]
    margins = []
    ties = 0
    for r in results:
        s = sorted(r.scores, reverse=True)
        if len(r.winners) > 1:
            ties += 1
        if len(s) > 1:
            margins.append(s[0] - s[1])
    per_game = [lead_stats(r) for r in results]
    leads = [x for x in per_game if x is not None]
    lead: dict[str, Any] | None = None
    if leads:
        decisive = {}
        for frac in (0.5, 0.75, 0.9):
            hit = tot = 0
            for r, ls in zip(results, per_game, strict=True):
                if ls is None:
                    continue
                who = _leader_at(ls["leaders"], frac)
                if who is None:
                    continue
                tot += 1
                hit += who in r.winners
            decisive[f"{int(frac * 100)}%"] = {
                "games": tot,
                "leader_wins": round(hit / tot, 4) if tot else None,
            }
        decided = [x["decided_at"] for x in leads]
        lead = {
            "games_with_trace": len(leads),
            "mean_changes": round(fmean([x["changes"] for x in leads]), 3),
            "no_change_share": round(sum(x["changes"] == 0 for x in leads) / len(leads), 4),
            "decided_at_median": round(percentile(decided, 0.5), 4),
            "decided_in_last_10pct": round(sum(d > 0.9 for d in decided) / len(decided), 4),
            "leader_at": decisive,
        }
    usage = _usage(results, seats)
    live = players or seats
    comps = component_rows(results, live) if any(r.components for r in results) else []
    data: dict[str, Any] = {
        "game": game,
        "games": n,
        "agents": list(agents),
        "fair_share": round(fair, 4),
        "method": SEAT_METHOD,
        "same_agent_every_seat": len(set(agents)) == 1,
        "seats": seat_rows,
        "length": {
            "mean": round(fmean(lengths), 2),
            "median": _q(lengths, 0.5),
            "p10": _q(lengths, 0.1),
            "p90": _q(lengths, 0.9),
            "stdev": round(statistics.pstdev(lengths), 2) if lengths else 0.0,
            "turns": round(fmean([float(r.turns) for r in results]), 2),
            "rounds": round(fmean([r.turns / live for r in results]), 2),
        },
        "end_conditions": end_conditions(results),
        "margin": {
            "mean": round(fmean(margins), 3),
            "median": _q(margins, 0.5),
            "shared_victories": round(ties / n, 4) if n else 0.0,
            "within_1_point": round(sum(m <= 1 for m in margins) / len(margins), 4)
            if margins
            else None,
        },
        "lead": lead,
        "usage": usage,
        "components": comps,
        "component_method": ATTRIBUTION_METHOD,
    }
    capped = sum(v for k, v in data["end_conditions"].items() if k in safeguards)
    data["capped"] = capped
    if n and capped * 2 > n:
        # Positions at a cap are not results of the game: no seat verdict.
        for row in data["seats"]:
            row["verdict"] = "no verdict"
    if provenance is not None:
        data["provenance"] = provenance
    return data


def _usage(results: Sequence[GameResult], seats: int) -> list[dict[str, Any]]:
    """Per action kind: share of all actions, uses per seat-game, and how using it relates to
    winning (win rate of seat-games that used it at least once vs. those that did not, and
    the correlation of the number of uses with the win share)."""
    total = 0
    kinds: dict[str, int] = {}
    for r in results:
        for counts in r.usage[:seats]:
            for k, v in counts.items():
                kinds[k] = kinds.get(k, 0) + v
                total += v
    rows = []
    for k, count in sorted(kinds.items(), key=lambda kv: -kv[1]):
        uses: list[float] = []
        wins: list[float] = []
        for r in results:
            for p, counts in enumerate(r.usage[:seats]):
                uses.append(float(counts.get(k, 0)))
                wins.append(seat_share(r, p))
        used = [w for u, w in zip(uses, wins, strict=True) if u > 0]
        unused = [w for u, w in zip(uses, wins, strict=True) if u == 0]
        row: dict[str, Any] = {
            "kind": k,
            "count": count,
            "share": round(count / total, 4) if total else 0.0,
            "per_seat_game": round(fmean(uses), 3),
            "used_in": len(used),
            "win_rate_when_used": round(fmean(used), 4) if used else None,
            "win_rate_when_not": round(fmean(unused), 4) if unused else None,
            "correlation": None,
            "correlation_ci95": None,
        }
        if len(used) >= MIN_USES:
            c = correlation(uses, wins)
            row["correlation"] = round(c, 4) if c is not None else None
            ci = correlation_interval(c, len(uses)) if c is not None else None
            row["correlation_ci95"] = [round(ci[0], 4), round(ci[1], 4)] if ci else None
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------- plots
def _plots(out: Path, results: Sequence[GameResult], data: dict[str, Any]) -> dict[str, str]:
    from nightsky.sim.plots import game_length, pyplot, score_distribution

    plt = pyplot()

    files: dict[str, str] = {}
    agents = data["agents"]
    # Seat advantage: win share with its (multiplicity-adjusted) interval against the fair share.
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    xs = list(range(len(agents)))
    ys = [s["win_share"] for s in data["seats"]]
    err = [
        [y - s["ci95"][0] for y, s in zip(ys, data["seats"], strict=True)],
        [s["ci95"][1] - y for y, s in zip(ys, data["seats"], strict=True)],
    ]
    colours = [
        {"above fair": "#2e8b57", "below fair": "#c0392b"}.get(s["verdict"], "#4a6fa5")
        for s in data["seats"]
    ]
    ax.bar(xs, ys, yerr=err, capsize=6, color=colours)
    ax.axhline(data["fair_share"], color="black", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(xs, [f"seat {p}\n{a[:18]}" for p, a in enumerate(agents)], fontsize=8)
    ax.set_ylabel("win share")
    ax.set_title("Seat advantage (bars: intervals holding together at 95%)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "seats.png")
    plt.close(fig)
    files["seats"] = "seats.png"
    score_distribution(results, agents, out / "scores.png")
    files["scores"] = "scores.png"
    game_length(results, out / "length.png")
    files["length"] = "length.png"
    leads = [x for x in (lead_stats(r) for r in results) if x is not None]
    if leads:
        fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.6), dpi=110)
        changes = [x["changes"] for x in leads]
        top = max(changes)
        a1.hist(changes, bins=range(0, top + 2), align="left", color="#4a6fa5", rwidth=0.85)
        from matplotlib.ticker import MaxNLocator

        for axis in (a1.xaxis, a1.yaxis, a2.yaxis):
            axis.set_major_locator(MaxNLocator(integer=True))
        a1.set_xlabel("lead changes in a game")
        a1.set_ylabel("games")
        a1.set_title("How often the lead changes")
        a2.hist([x["decided_at"] for x in leads], bins=20, range=(0, 1), color="#8e44ad")
        a2.set_xlabel("share of the game played when the winner led for good")
        a2.set_ylabel("games")
        a2.set_title("When games are decided")
        fig.tight_layout()
        fig.savefig(out / "lead.png")
        plt.close(fig)
        files["lead"] = "lead.png"
    rows = [u for u in data["usage"] if u["correlation"] is not None][:20]
    if rows:
        fig, ax = plt.subplots(figsize=(7, 0.32 * len(rows) + 1.2), dpi=110)
        labels = [u["kind"][:20] for u in rows][::-1]
        vals = [u["correlation"] for u in rows][::-1]
        ax.barh(labels, vals, color=["#2e8b57" if v > 0 else "#c0392b" for v in vals])
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("correlation of uses per game with winning")
        ax.set_title("Action kinds (most used first)")
        ax.tick_params(axis="y", labelsize=8)
        fig.tight_layout()
        fig.savefig(out / "usage.png")
        plt.close(fig)
        files["usage"] = "usage.png"
    return files


# ---------------------------------------------------------------------------- html
def headlines(data: dict[str, Any]) -> list[str]:
    """The few sentences a designer reads first."""
    out = []
    n = data["games"]
    if data.get("capped", 0) * 2 > n:
        out.append(f"No seat verdict: {data['capped']} of {n} games ended at a safeguard cap, "
                   "not by the rules' goal; the win shares describe positions at the cap.")
    odd = [s for s in data["seats"] if s["verdict"] not in ("fair", "no verdict")]
    same = data["same_agent_every_seat"]
    if data.get("capped", 0) * 2 > n:
        pass  # said above: no seat sentence
    elif odd:
        parts = [
            f"seat {s['seat']} wins {s['win_share']:.0%} "
            f"({s['ci95'][0]:.0%}-{s['ci95'][1]:.0%})"
            for s in odd
        ]
        what = "a seat advantage" if same else "a difference (the seats hold different agents)"
        out.append(
            f"{'; '.join(parts)} against a fair {data['fair_share']:.0%}: {what}, "
            f"at 95% confidence for all seats together over {n} games."
        )
    else:
        out.append(
            f"No seat's win share differs from the fair {data['fair_share']:.0%} at 95% "
            f"confidence for all seats together over {n} games"
            + (" (more games narrow the intervals)." if n < 1000 else ".")
        )
    length = data["length"]
    ends = data.get("end_conditions") or {}
    out.append(
        (f"A game takes {length['rounds']:g} rounds on average ({length['turns']:g} turns); "
         if "rounds" in length else "A game takes ")
        + f"{length['median']:g} player actions (median; 80% between "
        f"{length['p10']:g} and {length['p90']:g})"
        + ("; ended by: " + ", ".join(f"{k} {v}" for k, v in ends.items()) if ends else "")
        + "."
    )
    margin = data["margin"]
    if margin["within_1_point"] is not None:
        out.append(
            f"The winner's margin is {margin['median']:g} points (median); "
            f"{margin['within_1_point']:.0%} of games end within one point and "
            f"{margin['shared_victories']:.0%} in a shared victory."
        )
    lead = data["lead"]
    if lead is None:
        out.append("The game keeps no running score, so lead changes are not measured.")
    else:
        at75 = lead["leader_at"]["75%"]["leader_wins"]
        out.append(
            f"The lead changes {lead['mean_changes']:.1f} times a game "
            f"({lead['no_change_share']:.0%} of games never change leader); "
            + (f"whoever leads at 3/4 of the game wins {at75:.0%} of the time; " if at75 else "")
            + f"{lead['decided_in_last_10pct']:.0%} of games are decided in their last 10%."
        )
    rows = [u for u in data["usage"] if u.get("correlation_ci95")]
    sure = [u for u in rows if u["correlation_ci95"][0] > 0 or u["correlation_ci95"][1] < 0]
    if sure:
        best = max(sure, key=lambda u: u["correlation"])
        worst = min(sure, key=lambda u: u["correlation"])
        out.append(
            f"Using '{best['kind']}' goes with winning most (r={best['correlation']:+.2f}, "
            f"{_ci(best['correlation_ci95'])})"
            + (f"; '{worst['kind']}' least (r={worst['correlation']:+.2f}, "
               f"{_ci(worst['correlation_ci95'])})" if worst is not best else "")
            + ". Correlation, not cause."
        )
    elif rows:
        out.append("No action kind's use correlates with winning at 95% confidence.")
    found = outliers(data.get("components", []))
    if found:
        out.append("Component that goes with winning most: " + describe_outlier(found[0]) + ".")
    return out


def _ci(ci: Sequence[float]) -> str:
    return f"95% interval {ci[0]:+.2f} to {ci[1]:+.2f}"


CSS = """
body{font-family:system-ui,sans-serif;max-width:1000px;margin:2em auto;padding:0 1em;color:#222}
h1{margin-bottom:0}.sub{color:#666;margin-top:.2em}
.head{background:#f4f6fb;border-left:4px solid #4a6fa5;padding:.6em 1.2em}
.head li{margin:.35em 0}
table{border-collapse:collapse;margin:.6em 0;font-size:.92em}
td,th{border-bottom:1px solid #ddd;padding:.25em .7em;text-align:right}
th{background:#f0f0f0}td:first-child,th:first-child{text-align:left}
.above{color:#2e8b57;font-weight:bold}.below{color:#c0392b;font-weight:bold}
img{max-width:100%;border:1px solid #eee;margin:.4em 0}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.note{color:#666;font-size:.88em}
"""


def html_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def fmt(x: Any, pct: bool = False) -> str:
    if x is None:
        return "-"
    return f"{x:.1%}" if pct else f"{x:g}"


def component_table_html(rows: Sequence[dict[str, Any]], limit: int = 25) -> str:
    """Outliers and the most taken components: take rate, win rate of whoever took it with
    its interval, the lift over those who did not, score lift, corrected p."""
    e = html.escape
    shown = [r for r in rows if r["outlier"]] or []
    shown += [r for r in rows if not r["outlier"]][: max(0, limit - len(shown))]

    def ci(x: Any, pct: bool) -> str:
        if not x:
            return "-"
        return f"{x[0]:+.1%} - {x[1]:+.1%}" if pct else f"{x[0]:+.2f} - {x[1]:+.2f}"

    return html_table(
        ["component", "verb", "take rate", "win rate", "interval", "win lift", "interval",
         "score lift", "interval", "corrected p", "outlier"],
        [
            [
                e(r["component"]), e(r["verb"]), fmt(r["take_rate"], True),
                fmt(r["win_rate"], True),
                "-" if not r["win_ci95"] else f"{r['win_ci95'][0]:.1%} - {r['win_ci95'][1]:.1%}",
                "-" if r["win_lift"] is None else f"{r['win_lift']:+.1%}",
                ci(r["win_lift_ci95"], True),
                "-" if r["score_lift"] is None else f"{r['score_lift']:+.2f}",
                ci(r["score_lift_ci95"], False),
                fmt(r["p_fdr"]),
                "<span class='above'>outlier</span>" if r["outlier"] else "",
            ]
            for r in shown
        ],
    ) + (f"<p class='note'>{len(rows) - len(shown)} more components in the JSON.</p>"
         if len(rows) > len(shown) else "")


def provenance_html(prov: dict[str, Any] | None) -> str:
    """The line that says exactly what was run: command, seed, agents, options, components."""
    if not prov:
        return ""
    e = html.escape
    comp = prov.get("components", {})
    return (
        f"<p class='sub'><code>{e(str(prov.get('command', '')))}</code><br>seed "
        f"{e(str(prov.get('seed')))}; agents {e(', '.join(prov.get('agents', [])))}; options "
        f"{e(json.dumps(prov.get('options', {})))}; components "
        f"{e(str(comp.get('file') or 'shipped'))} (sha256 "
        f"<code>{e(str(comp.get('sha256', ''))[:16])}</code>&hellip;); nightsky "
        f"{e(str(prov.get('version', '')))}</p>"
    )


def render_html(data: dict[str, Any], files: dict[str, str], title: str) -> str:
    """The report page: headlines first, then one section per question, each with its plot."""
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(title)} balance report</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}: balance report</h1>",
        f"<p class='sub'>{data['games']} games; seats: "
        + ", ".join(e(a) for a in data["agents"])
        + "</p>",
        provenance_html(data.get("provenance")),
        "<div class='head'><b>In one minute</b><ul>",
        *[f"<li>{e(h)}</li>" for h in headlines(data)],
        "</ul></div>",
        "<h2>Seat advantage</h2>",
        html_table(
            ["seat", "agent", "win share", "interval", "verdict", "mean score", "median",
             "10%-90%"],
            [
                [
                    s["seat"], e(s["agent"]), fmt(s["win_share"], True),
                    f"{s['ci95'][0]:.1%} - {s['ci95'][1]:.1%}",
                    f"<span class='{s['verdict'].split()[0]}'>{s['verdict']}</span>",
                    fmt(s["mean_score"]), fmt(s["median_score"]),
                    f"{s['score_p10_p90'][0]:g} - {s['score_p10_p90'][1]:g}",
                ]
                for s in data["seats"]
            ],
        ),
        f"<img src='{files['seats']}' alt='seat advantage'>",
        "<p class='note'>A seat is flagged when its whole interval lies above or below the fair "
        "share. The intervals hold together: fair play flags some seat in at most 5% of runs, "
        "however many seats. Method: " + e(data["method"]) + ". Ties are split between the "
        "tied winners.</p>",
        "<h2>Scores and game length</h2><div class='grid'>",
        f"<img src='{files['scores']}' alt='scores'><img src='{files['length']}' alt='length'>",
        "</div>",
        html_table(
            ["measure", "value"],
            [
                ["mean length (rounds)", fmt(data["length"].get("rounds"))],
                ["mean length (turns)", fmt(data["length"].get("turns"))],
                ["mean length (player actions)", fmt(data["length"]["mean"])],
                ["ended by", e(", ".join(f"{k} {v}" for k, v in
                                         data.get("end_conditions", {}).items()) or "-")],
                ["length spread (stdev)", fmt(data["length"]["stdev"])],
                ["winner's margin, median", fmt(data["margin"]["median"])],
                ["games within 1 point", fmt(data["margin"]["within_1_point"], True)],
                ["shared victories", fmt(data["margin"]["shared_victories"], True)],
            ],
        ),
        "<h2>Lead changes and decisive moments</h2>",
    ]
    lead = data["lead"]
    if lead is None:
        parts.append("<p>This game keeps no running score: nothing to trace.</p>")
    else:
        parts.append(f"<img src='{files['lead']}' alt='lead changes'>")
        parts.append(
            html_table(
                ["when", "games with a sole leader then", "that leader wins"],
                [
                    [f"after {k} of the game", v["games"], fmt(v["leader_wins"], True)]
                    for k, v in lead["leader_at"].items()
                ],
            )
        )
        parts.append(
            "<p class='note'>The leader is the seat alone at the top of the running score. "
            "&ldquo;Decided&rdquo; is the point from which the eventual winner stayed alone in "
            "front; a winner who was never alone in front before the final scoring counts as "
            "decided at the very end.</p>"
        )
    parts.append("<h2>Actions: usage and winning</h2>")
    if "usage" in files:
        parts.append(f"<img src='{files['usage']}' alt='usage'>")
    parts.append(
        html_table(
            ["kind", "share of actions", "per seat-game", "win rate if used", "if not used",
             "correlation (95% interval)"],
            [
                [
                    e(u["kind"]), fmt(u["share"], True), fmt(u["per_seat_game"]),
                    fmt(u["win_rate_when_used"], True), fmt(u["win_rate_when_not"], True),
                    "-" if u["correlation"] is None else f"{u['correlation']:+.2f}"
                    + (f" ({u['correlation_ci95'][0]:+.2f} to {u['correlation_ci95'][1]:+.2f})"
                       if u.get("correlation_ci95") else ""),
                ]
                for u in data["usage"][:30]
            ],
        )
    )
    parts.append(
        "<p class='note'>A kind is the first word of an action's notation (a card where the "
        f"notation starts with one). Correlations need {MIN_USES}+ seat-games that used the "
        "kind; they show association with winning, not that the action causes it.</p>"
    )
    parts.append("<h2>Components: who took what, and who won</h2>")
    if data.get("components"):
        parts.append(component_table_html(data["components"]))
        parts.append(f"<p class='note'>{e(data['component_method'])}.</p>")
    else:
        parts.append("<p>The game names no components.</p>")
    parts.append("<p class='note'>Figures behind this page: report.json, summary.json.</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write_report(
    out: Path,
    results: Sequence[GameResult],
    *,
    summary: dict[str, Any],
    title: str = "",
) -> Path:
    """Write ``report.json``, the plots and ``report.html`` into ``out``; returns the page."""
    out.mkdir(parents=True, exist_ok=True)
    from nightsky.core.registry import game_class

    game = summary.get("game", "")
    data = analyse(results, summary["agents"], game=game, players=summary.get("players"),
                   provenance=summary.get("provenance"),
                   safeguards=game_class(game).safeguard_ends if game else ())
    files = _plots(out, results, data)
    (out / "report.json").write_text(json.dumps(data, indent=2) + "\n")
    page = out / "report.html"
    page.write_text(render_html(data, files, title or data["game"]), encoding="utf-8")
    return page
