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

from nightsky.sim.runner import GameResult
from nightsky.sim.stats import SEAT_METHOD, fmean, judge_seats, mean_interval

METHOD = SEAT_METHOD + "; mean scores: Student t 95% intervals, each seat on its own"
"""What ``nightsky balance`` prints as its method."""


def _r(x: float, digits: int) -> float:
    return round(x, digits) + 0.0  # + 0.0: no -0.0 in the output


def seat_rows(results: Sequence[GameResult], players: int) -> tuple[list[dict[str, Any]], str]:
    """The rows of one player count, and a note when some games had no measured winner.

    Only seats ``0 .. players - 1`` are measured; a game whose winners are all other seats
    (Starbots) counts for the scores but not for the win shares."""
    wins = [0.0] * players
    decided = 0
    for r in results:
        measured = [w for w in r.winners if w < players]
        if measured:
            decided += 1
            for w in measured:
                wins[w] += 1.0 / len(measured)
    verdicts = judge_seats(wins, decided)
    scores = [[r.scores[p] for r in results] for p in range(players)]
    means = [fmean(sc) for sc in scores]
    table_mean = fmean(means)
    rows = []
    for v, sc, m in zip(verdicts, scores, means, strict=True):
        ci = mean_interval(sc)
        rows.append(
            {
                "players": players,
                "seat": v.seat,
                "win_share": _r(v.win_share, 4),
                "win_ci95": [_r(v.interval[0], 4), _r(v.interval[1], 4)],
                "mean_score": _r(m, 3),
                "score_ci95": [_r(ci[0], 3), _r(ci[1], 3)] if ci else None,
                "advantage": _r(m - table_mean, 3),
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


def summarize_balance(
    game_id: str,
    agents: str,
    runs: Mapping[int, Sequence[GameResult]],
    *,
    games: int,
    seed: int | str,
    notes: Sequence[str] = (),
) -> dict[str, Any]:
    """The object ``nightsky balance --json`` prints: ``runs`` maps each player count to its
    games."""
    rows: list[dict[str, Any]] = []
    all_notes = list(notes)
    for players in sorted(runs):
        got, note = seat_rows(runs[players], players)
        rows.extend(got)
        if note:
            all_notes.append(note)
    return {
        "game": game_id,
        "agents": agents,
        "method": METHOD,
        "games": games,
        "seed": seed,
        "notes": all_notes,
        "rows": rows,
    }


def verdict(row: dict[str, Any]) -> str:
    """``above fair``, ``below fair`` or ``fair`` for a row of ``summarize_balance``."""
    if not row["flagged"]:
        return "fair"
    return "above fair" if row["win_share"] > 1 / row["players"] else "below fair"


def headlines(data: dict[str, Any]) -> list[str]:
    """One sentence per player count: the flagged seats, and the largest score advantage."""
    out = []
    for n in sorted({r["players"] for r in data["rows"]}):
        rows = [r for r in data["rows"] if r["players"] == n]
        if n == 1:
            out.append("1 player: one seat, nothing to compare.")
            continue
        flagged = [
            f"seat {r['seat']} wins {r['win_share']:.1%} ({r['win_ci95'][0]:.1%}-"
            f"{r['win_ci95'][1]:.1%}), {verdict(r)}"
            for r in rows
            if r["flagged"]
        ]
        top = max(rows, key=lambda r: abs(r["advantage"]))
        out.append(
            f"{n} players: "
            + ("; ".join(flagged) if flagged else f"no seat differs from the fair {1 / n:.1%}")
            + f"; the seat furthest from the table's mean score is seat {top['seat']}, at "
            f"{top['advantage']:+.2f} points."
        )
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
        a2.bar(xs, [r["advantage"] for r in rows], width, label=label)
    seats = range(max(counts) if counts else 1)
    for ax in (a1, a2):
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(list(seats), [f"seat {p}" for p in seats])
        ax.legend(fontsize=8)
    a1.set_ylabel("win share minus fair share 1/N")
    a1.set_title("Win share (bars: intervals holding together at 95%)", fontsize=10)
    a2.set_ylabel("points")
    a2.set_title("Score advantage over the table mean", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def render_balance_html(data: dict[str, Any], image: str, title: str, command: str) -> str:
    """``balance.html``: the table per player count, the plot, the method and the notes."""
    from nightsky.sim.report import CSS, fmt, html_table

    e = html.escape
    counts = sorted({r["players"] for r in data["rows"]})
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(title)} seat balance</title><style>{CSS}</style></head><body>",
        f"<h1>{e(title)}: seat balance</h1>",
        f"<p class='sub'>{e(data['agents'])} in every seat; {data['games']} games per player "
        f"count; seed {e(str(data['seed']))}</p>",
        f"<p class='sub'><code>{e(command)}</code></p>" if command else "",
        "<div class='head'><b>In one minute</b><ul>",
        *[f"<li>{e(h)}</li>" for h in headlines(data)],
        "</ul></div>",
        f"<img src='{image}' alt='seat advantage by player count'>",
    ]
    for n in counts:
        rows = [r for r in data["rows"] if r["players"] == n]
        parts.append(f"<h2>{n} player{'s' if n > 1 else ''} (fair share {1 / n:.1%})</h2>")
        parts.append(
            html_table(
                ["seat", "win share", "interval", "verdict", "mean score", "95% interval",
                 "advantage"],
                [
                    [
                        r["seat"], fmt(r["win_share"], True),
                        f"{r['win_ci95'][0]:.1%} - {r['win_ci95'][1]:.1%}",
                        f"<span class='{verdict(r).split()[0]}'>{verdict(r)}</span>",
                        fmt(r["mean_score"]),
                        "-" if r["score_ci95"] is None
                        else f"{r['score_ci95'][0]:.2f} - {r['score_ci95'][1]:.2f}",
                        f"{r['advantage']:+.2f}",
                    ]
                    for r in rows
                ],
            )
        )
    parts.append(
        "<p class='note'>Method: " + e(data["method"]) + ". The advantage is a seat's mean "
        "score minus the mean of all seats' mean scores. Shared victories are split between "
        "their winners.</p>"
    )
    parts.extend(f"<p class='note'>{e(note)}</p>" for note in data["notes"])
    parts.append("<p class='note'>Figures behind this page: balance.json.</p></body></html>")
    return "\n".join(p for p in parts if p)


def write_balance(out: Path, data: dict[str, Any], *, title: str, command: str = "") -> Path:
    """Write ``balance.json``, ``balance.png`` and ``balance.html`` into ``out``; returns the
    page."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "balance.json").write_text(json.dumps(data, indent=2) + "\n")
    plot_balance(data, out / "balance.png")
    page = out / "balance.html"
    page.write_text(render_balance_html(data, "balance.png", title, command), encoding="utf-8")
    return page
