"""``nightsky tournament``: every agent in every seat, win rates with 95% intervals, ratings."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from nightsky.agents.base import make_agent
from nightsky.cli.app import GameArg, app, build_game, console, fail
from nightsky.cli.commands import (
    AddressFlag,
    Engine,
    EngineFlag,
    OptionFlag,
    WorkersFlag,
    check_run_flags,
    run_provenance,
    run_with_progress,
)
from nightsky.core.errors import GameError
from nightsky.sim.runner import MatchSpec
from nightsky.sim.tournament import lineups, summarize_tournament


def split_specs(text: str) -> list[str]:
    """Agent specs separated by commas; a part with ``=`` but no ``:`` continues the previous
    spec (``ismcts:iterations=50,depth=9,random`` is two agents)."""
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


@app.command()
def tournament(
    game: GameArg,
    agents: Annotated[str, typer.Option(help="Comma list of agent specs (two or more).")],
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    games_: Annotated[
        int, typer.Option("--games", help="Games in all (a multiple of the seatings is fairest).")
    ] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    workers: WorkersFlag = 1,
    engine: EngineFlag = Engine.local,
    address: AddressFlag = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    option: OptionFlag = None,
) -> None:
    """Play AGENTS against each other in every seat; win rates, 95% intervals and ratings."""
    g = build_game(game, players, option)
    specs = split_specs(agents)
    try:
        if len(specs) < 2:
            fail(f"a tournament needs at least two agents, got {specs}")
        for s in specs:
            make_agent(s, g)
        seatings = lineups(specs, g.num_players)
    except GameError as exc:
        fail(str(exc))
    check_run_flags(games_, workers, engine, address)
    if games_ % len(seatings) and not as_json:
        console.print(
            f"[yellow]note:[/] {games_} games do not divide evenly over {len(seatings)} "
            "seatings; some seatings play one game more"
        )
    spec = MatchSpec(g.info.id, g.params, seatings[0], seed, lineups=seatings)
    try:
        results, seconds = run_with_progress(
            spec, games_, workers, quiet=as_json, engine=engine, address=address,
            label=f"{g.info.id} tournament",
        )
    except GameError as exc:
        fail(str(exc), code=1)
    summary = summarize_tournament(
        results, specs, game_id=g.info.id, players=g.num_players, seconds=seconds
    )
    summary["provenance"] = run_provenance("tournament", g, specs, games_, seed, option)
    if as_json:
        print(json.dumps(summary))
        return
    print_tournament(summary)


def print_tournament(summary: dict[str, Any]) -> None:
    """The standings as a rich table, best rating first."""
    n = summary["players"]
    table = Table(
        title=f"{summary['game']} tournament: {summary['games']} games, {n} seats, "
        f"{summary['lineups']} seatings",
        caption=f"fair share {summary['fair_share']:.3f} (green: above it with 95% confidence, "
        "red: below); rating = openskill Plackett-Luce ordinal, mu - 3 sigma",
    )
    table.add_column("#", justify="right", no_wrap=True)
    width = min(28, max(len(a) for a in summary["agents"]))
    table.add_column("agent", style="bold", overflow="fold", min_width=width)
    for head in ("games", "win rate [95% CI]", "mean score", "rating (mu±sigma)"):
        table.add_column(head, justify="right")
    fair = summary["fair_share"]
    for i, row in enumerate(summary["standings"], start=1):
        lo, hi = row["win_ci95"]
        colour = "green" if lo > fair else ("red" if hi < fair else "white")
        rating = row["rating"]
        table.add_row(
            str(i),
            row["agent"],
            str(row["seat_games"]),
            f"[{colour}]{row['win_rate']:.3f}[/] [{lo:.2f}-{hi:.2f}]",
            f"{row['mean_score']:.1f}",
            f"{rating['ordinal']:.1f} ({rating['mu']:.1f}±{rating['sigma']:.1f})",
        )
    console.print(table)
    seats = " ".join(f"{v:.3f}" for v in summary["seat_win_share"])
    console.print(
        f"seat win shares (any agent): {seats}; mean actions per game "
        f"{summary['mean_actions']:.1f}; {summary['games_per_second']} games/s"
    )

