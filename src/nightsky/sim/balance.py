"""Seat balance of a game at each player count (``nightsky balance``).

The same agent sits in every seat and the seats never rotate, so what differs between seats is
the seat itself. Per player count and seat: the win share (a shared victory split between its
winners) with its interval from ``judge_seats`` (multiplicity-adjusted, see ``SEAT_METHOD``),
the mean score with its Student t 95% interval, and the advantage (the seat's mean score minus
the mean of all seats' mean scores). Seats the game drives itself (Starlight's Starbots) are not
measured: win shares count only the games a measured seat won, so they add up to one.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from nightsky.sim.attribution import ATTRIBUTION_METHOD, component_rows, outliers
from nightsky.sim.runner import GameResult
from nightsky.sim.stats import (
    CONFIDENCE,
    SEAT_METHOD,
    end_conditions,
    fmean,
    judge_seats,
    mean_interval,
)

METHOD = (
    SEAT_METHOD + "; mean scores: Student t 95% intervals, each seat on its own; score "
    "advantage (the seat's score minus the table's mean, game by game): Student t intervals "
    "adjusted over the seats like the win shares, verdict ahead/behind when it excludes 0"
)
"""What ``nightsky balance`` prints as its method."""


def _r(x: float, digits: int) -> float:
    return round(x, digits) + 0.0  # + 0.0: no -0.0 in the output


def seat_rows(
    results: Sequence[GameResult], players: int, confidence: float = CONFIDENCE
) -> tuple[list[dict[str, Any]], str]:
    """The rows of one player count, and a note when some games had no measured winner.

    Only seats ``0 .. players - 1`` are measured; a game whose winners are all other seats
    (Starbots) counts for the scores but not for the win shares. ``confidence`` holds for all
    seats of the count together (lower it to correct across player counts)."""
    wins = [0.0] * players
    decided = 0
    for r in results:
        measured = [w for w in r.winners if w < players]
        if measured:
            decided += 1
            for w in measured:
                wins[w] += 1.0 / len(measured)
    verdicts = judge_seats(wins, decided, confidence)
    scores = [[r.scores[p] for r in results] for p in range(players)]
    means = [fmean(sc) for sc in scores]
    table_mean = fmean(means)
    # The advantage game by game (the seat's score minus the table's mean score that game),
    # with intervals adjusted like the win shares: two seats' advantages mirror each other.
    advantages = [[r.scores[p] - fmean(r.scores[:players]) for r in results]
                  for p in range(players)]
    tests = 1 if players <= 2 else players
    rows = []
    for v, sc, m, adv in zip(verdicts, scores, means, advantages, strict=True):
        ci = mean_interval(sc)
        aci = mean_interval(adv, 1 - (1 - confidence) / tests) if players > 1 else None
        rows.append(
            {
                "players": players,
                "seat": v.seat,
                "win_share": _r(v.win_share, 4),
                "win_ci95": [_r(v.interval[0], 4), _r(v.interval[1], 4)],
                "mean_score": _r(m, 3),
                "score_ci95": [_r(ci[0], 3), _r(ci[1], 3)] if ci else None,
                "advantage": _r(m - table_mean, 3),
                "advantage_ci95": [_r(aci[0], 3), _r(aci[1], 3)] if aci else None,
                "advantage_verdict": _advantage_verdict(aci),
                "flagged": v.flagged,
            }
        )
    note = ""
    if decided < len(results):
        note = (
            f"{players} player{'s' if players != 1 else ''}: {len(results) - decided} of "
            f"{len(results)} games were won by no measured seat; win shares count the other "
            f"{decided}"
        )
    return rows, note


def _advantage_verdict(ci: tuple[float, float] | None) -> str:
    if ci is None:
        return "-"
    return "ahead" if ci[0] > 0 else "behind" if ci[1] < 0 else "even"


def count_summary(
    results: Sequence[GameResult], players: int, safeguards: Sequence[str] = ()
) -> dict[str, Any]:
    """Length (in turns and rounds), how games ended, and the components of one player
    count. ``withheld`` is set when most games ended by a safeguard (a cap)."""
    rounds = [r.turns / players for r in results]
    ci = mean_interval(rounds)
    ends = end_conditions(results)
    capped = sum(v for k, v in ends.items() if k in safeguards)
    comps = component_rows(results, players) if any(r.components for r in results) else []
    return {
        "players": players,
        "games": len(results),
        "player_actions": _r(fmean([r.actions for r in results]), 2),
        "turns": _r(fmean([r.turns for r in results]), 2),
        "rounds": _r(fmean(rounds), 2),
        "rounds_ci95": [_r(ci[0], 2), _r(ci[1], 2)] if ci else None,
        "end_conditions": ends,
        "capped": capped,
        "withheld": bool(results) and capped * 2 > len(results),
        "components": comps,
        "outliers": [c["component"] for c in outliers(comps)],
    }


def summarize_balance(
    game_id: str,
    agents: str,
    runs: Mapping[int, Sequence[GameResult]],
    *,
    games: int,
    seed: int | str,
    notes: Sequence[str] = (),
    safeguards: Sequence[str] = (),
    correct_counts: bool = False,
    provenance: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The object ``nightsky balance --json`` prints: ``runs`` maps each player count to its
    games. ``correct_counts`` holds the verdicts of all player counts together (Bonferroni over
    the counts); otherwise a note gives the family size. A count whose games mostly ended by a
    ``safeguards`` end condition gets no verdict."""
    rows: list[dict[str, Any]] = []
    counts: list[dict[str, Any]] = []
    all_notes = list(notes)
    k = len(runs)
    confidence = 1 - (1 - CONFIDENCE) / k if correct_counts and k > 1 else CONFIDENCE
    for players in sorted(runs):
        got, note = seat_rows(runs[players], players, confidence)
        summary = count_summary(runs[players], players, safeguards)
        if summary["withheld"]:
            for r in got:
                r["flagged"] = False
                r["withheld"] = True
            all_notes.append(
                f"{players} players: {summary['capped']} of {summary['games']} games ended by "
                f"a safeguard ({', '.join(s for s in safeguards)}), not by the rules' goal: "
                "no verdict; the win shares describe positions at the cap"
            )
        rows.extend(got)
        counts.append(summary)
        if note:
            all_notes.append(note)
    tested = [n for n in runs if n > 1]
    if len(tested) > 1:
        seats = sum(tested)
        if correct_counts:
            all_notes.append(
                f"verdicts hold together over {len(tested)} player counts ({seats} seats): "
                f"each count's intervals at {confidence:.2%} (Bonferroni over the counts)"
            )
        else:
            all_notes.append(
                f"{len(tested)} player counts are {len(tested)} separate questions ({seats} "
                f"seats in all): a fair game flags some seat at some count in up to "
                f"{1 - CONFIDENCE ** len(tested):.0%} of runs; --correct-counts holds them "
                "together"
            )
    data = {
        "game": game_id,
        "agents": agents,
        "method": METHOD + "; " + ATTRIBUTION_METHOD,
        "games": games,
        "seed": seed,
        "notes": all_notes,
        "rows": rows,
        "counts": counts,
    }
    if provenance is not None:
        data["provenance"] = dict(provenance)
    return data


def verdict(row: dict[str, Any]) -> str:
    """``above fair``, ``below fair``, ``fair`` or ``no verdict`` (most games hit a cap) for a
    row of ``summarize_balance``."""
    if row.get("withheld"):
        return "no verdict"
    if not row["flagged"]:
        return "fair"
    return "above fair" if row["win_share"] > 1 / row["players"] else "below fair"


def skill_trace(first: dict[str, Any], second: dict[str, Any]) -> list[dict[str, Any]]:
    """Where two agents' balance verdicts disagree: seats (win share and score advantage) and
    component outliers, per player count."""
    out: list[dict[str, Any]] = []
    other = {(r["players"], r["seat"]): r for r in second["rows"]}
    for r in first["rows"]:
        s = other.get((r["players"], r["seat"]))
        if s is None:
            continue
        for what, va, vb in (("win share", verdict(r), verdict(s)),
                             ("score advantage", r["advantage_verdict"],
                              s["advantage_verdict"])):
            if va != vb:
                out.append({"players": r["players"], "seat": r["seat"], "measure": what,
                            first["agents"]: va, second["agents"]: vb})
    comps = {c["players"]: set(c["outliers"]) for c in second["counts"]}
    for c in first["counts"]:
        mine, theirs = set(c["outliers"]), comps.get(c["players"], set())
        for name in sorted(mine ^ theirs):
            out.append({"players": c["players"], "seat": None, "measure": f"component {name}",
                        first["agents"]: "outlier" if name in mine else "-",
                        second["agents"]: "outlier" if name in theirs else "-"})
    return out


def headlines(data: dict[str, Any]) -> list[str]:
    """One sentence per player count: the flagged seats, the score advantage's verdict and the
    component outliers."""
    out = []
    counts = {c["players"]: c for c in data.get("counts", [])}
    for n in sorted({r["players"] for r in data["rows"]}):
        rows = [r for r in data["rows"] if r["players"] == n]
        if n == 1:
            out.append("1 player: one seat, nothing to compare.")
            continue
        c = counts.get(n)
        if rows and rows[0].get("withheld") and c is not None:
            out.append(f"{n} players: no verdict: {c['capped']} of {c['games']} games ended "
                       "at a safeguard cap, not by the rules' goal.")
            continue
        flagged = [
            f"seat {r['seat']} wins {r['win_share']:.1%} ({r['win_ci95'][0]:.1%}-"
            f"{r['win_ci95'][1]:.1%}), {verdict(r)}"
            for r in rows
            if r["flagged"]
        ]
        top = max(rows, key=lambda r: abs(r["advantage"]))
        adv = top.get("advantage_ci95")
        text = (
            f"{n} players: "
            + ("; ".join(flagged) if flagged else f"no seat differs from the fair {1 / n:.1%}")
            + f"; the seat furthest from the table's mean score is seat {top['seat']}, at "
            f"{top['advantage']:+.2f} points"
            + (f" ({adv[0]:+.2f} to {adv[1]:+.2f}, {top['advantage_verdict']})" if adv else "")
        )
        if c is not None and c["outliers"]:
            text += "; components that go with winning: " + ", ".join(c["outliers"][:3])
        out.append(text + ".")
    return out


# ---------------------------------------------------------------------------- files
def plot_balance(data: dict[str, Any], path: Path) -> Path:
    """Two panels, seats along x and one bar colour per player count: the win share's
    distance from the fair share with its interval, and the score advantage."""
    from nightsky.sim.plots import pyplot

    plt = pyplot()

    counts = sorted({r["players"] for r in data["rows"]})
    width = 0.8 / max(1, len(counts))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8), dpi=110)
    for k, n in enumerate(counts):
        rows = [r for r in data["rows"] if r["players"] == n]
        xs = [r["seat"] - 0.4 + width * (k + 0.5) for r in rows]
        fair = 1 / n
        ys = [r["win_share"] - fair for r in rows]
        err = [
            [r["win_share"] - r["win_ci95"][0] for r in rows],
            [r["win_ci95"][1] - r["win_share"] for r in rows],
        ]
        label = f"{n} player{'s' if n > 1 else ''}"
        a1.bar(xs, ys, width, yerr=err, capsize=3, label=label)
        adv_err = [
            [r["advantage"] - r["advantage_ci95"][0] if r.get("advantage_ci95") else 0.0
             for r in rows],
            [r["advantage_ci95"][1] - r["advantage"] if r.get("advantage_ci95") else 0.0
             for r in rows],
        ]
        a2.bar(xs, [r["advantage"] for r in rows], width, yerr=adv_err, capsize=3, label=label)
    seats = range(max(counts) if counts else 1)
    for ax in (a1, a2):
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(list(seats), [f"seat {p}" for p in seats])
        ax.legend(fontsize=8)
    a1.set_ylabel("win share minus fair share 1/N")
    a1.set_title("Win share (bars: intervals holding together at 95%)", fontsize=10)
    a2.set_ylabel("points")
    a2.set_title("Score advantage over the table mean (bars: intervals)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def counts_html(data: dict[str, Any], counts: Sequence[int]) -> list[str]:
    """Per player count: the seat table, the length and ends, the components table."""
    from nightsky.sim.report import fmt, html_table

    e = html.escape
    parts: list[str] = []
    summaries = {c["players"]: c for c in data.get("counts", [])}
    for n in counts:
        rows = [r for r in data["rows"] if r["players"] == n]
        parts.append(f"<h2>{n} player{'s' if n > 1 else ''} (fair share {1 / n:.1%})</h2>")
        parts.append(
            html_table(
                ["seat", "win share", "interval", "verdict", "mean score", "95% interval",
                 "advantage", "interval", "verdict"],
                [
                    [
                        r["seat"], fmt(r["win_share"], True),
                        f"{r['win_ci95'][0]:.1%} - {r['win_ci95'][1]:.1%}",
                        f"<span class='{verdict(r).split()[0]}'>{verdict(r)}</span>",
                        fmt(r["mean_score"]),
                        "-" if r["score_ci95"] is None
                        else f"{r['score_ci95'][0]:.2f} - {r['score_ci95'][1]:.2f}",
                        f"{r['advantage']:+.2f}",
                        "-" if not r.get("advantage_ci95")
                        else f"{r['advantage_ci95'][0]:+.2f} - {r['advantage_ci95'][1]:+.2f}",
                        e(r.get("advantage_verdict", "-")),
                    ]
                    for r in rows
                ],
            )
        )
        c = summaries.get(n)
        if c is not None:
            parts.append(count_html(c))
    return parts


def render_balance_html(data: dict[str, Any], image: str, title: str, command: str) -> str:
    """``balance.html``: the table per player count, the plot, the method and the notes."""
    from nightsky.sim.report import CSS, provenance_html

    e = html.escape
    counts = sorted({r["players"] for r in data["rows"]})
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(title)} seat balance</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}: seat balance</h1>",
        f"<p class='sub'>{e(data['agents'])} in every seat; {data['games']} games per player "
        f"count; seed {e(str(data['seed']))}</p>",
        provenance_html(data.get("provenance"))
        or (f"<p class='sub'><code>{e(command)}</code></p>" if command else ""),
        "<div class='head'><b>In one minute</b><ul>",
        *[f"<li>{e(h)}</li>" for h in headlines(data)],
        "</ul></div>",
        f"<img src='{image}' alt='seat advantage by player count'>",
    ]
    parts.extend(counts_html(data, counts))
    second = data.get("second")
    if second is not None:
        parts.append(f"<h2>The same with {e(second['agents'])} in every seat</h2>")
        parts.append("<div class='head'><ul>" + "".join(
            f"<li>{e(h)}</li>" for h in headlines(second)) + "</ul></div>")
        parts.extend(counts_html(second, counts))
    trace = data.get("skill_trace")
    if trace is not None:
        parts.append(skill_trace_html(data, trace))
    parts.append(
        "<p class='note'>Method: " + e(data["method"]) + ". The advantage is a seat's mean "
        "score minus the mean of all seats' mean scores. Shared victories are split between "
        "their winners.</p>"
    )
    parts.extend(f"<p class='note'>{e(note)}</p>" for note in data["notes"])
    parts.append("<p class='note'>Figures behind this page: balance.json.</p></body></html>")
    return "\n".join(p for p in parts if p)


def count_html(c: dict[str, Any]) -> str:
    """Length, how games ended and the components table of one player count."""
    from nightsky.sim.report import component_table_html

    e = html.escape
    ends = ", ".join(f"{k} {v}" for k, v in c["end_conditions"].items())
    ci = c["rounds_ci95"]
    parts = [
        f"<p>A game lasts {c['rounds']:g} rounds"
        + (f" (95% interval {ci[0]:g} - {ci[1]:g})" if ci else "")
        + f", {c['turns']:g} turns, {c['player_actions']:g} player actions"
        + (f"; ended by: {e(ends)}" if ends else "") + ".</p>"
    ]
    if c["components"]:
        parts.append(component_table_html(c["components"]))
    return "\n".join(parts)


def skill_trace_html(data: dict[str, Any], trace: list[dict[str, Any]]) -> str:
    """Where the two agents' verdicts disagree."""
    from nightsky.sim.report import html_table

    e = html.escape
    second = data["second"]["agents"]
    head = f"<h2>Skill trace: {e(data['agents'])} against {e(second)}</h2>"
    if not trace:
        return head + "<p>The two agents' verdicts agree everywhere.</p>"
    return head + html_table(
        ["players", "seat", "measure", data["agents"], second],
        [[t["players"], "-" if t["seat"] is None else t["seat"], e(t["measure"]),
          e(t[data["agents"]]), e(t[second])] for t in trace],
    )


def write_balance(out: Path, data: dict[str, Any], *, title: str, command: str = "") -> Path:
    """Write ``balance.json``, ``balance.png`` and ``balance.html`` into ``out``; returns the
    page."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "balance.json").write_text(json.dumps(data, indent=2) + "\n")
    plot_balance(data, out / "balance.png")
    page = out / "balance.html"
    page.write_text(render_balance_html(data, "balance.png", title, command), encoding="utf-8")
    return page
