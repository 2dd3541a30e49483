"""``nightsky balance``: the same agent in every seat at every player count; is a seat favoured?"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from nightsky.agents.base import make_agent
from nightsky.cli.app import GameArg, app, console, fail, parse_options
from nightsky.cli.commands import (
    AddressFlag,
    Engine,
    EngineFlag,
    OptionFlag,
    WorkersFlag,
    check_run_flags,
)
from nightsky.cli.lab import JsonFlag, lab_player
from nightsky.cli.tournament import split_specs
from nightsky.core.errors import GameError
from nightsky.core.game import Game
from nightsky.core.registry import game_class, load_game
from nightsky.sim.attribution import describe_outlier, outliers
from nightsky.sim.balance import verdict, write_balance
from nightsky.sim.lab import players_label as _players
from nightsky.sim.lab import run_balance


def _games_to_measure(
    game_id: str, players: list[int] | None, params: dict[str, Any]
) -> tuple[list[Game], list[str]]:
    """One loaded game per player count to measure, and notes on counts left out."""
    try:
        info = game_class(game_id).info
    except GameError as exc:
        fail(str(exc))
    asked = sorted(set(players)) if players else None
    counts = asked or list(range(info.min_players, info.max_players + 1))
    games: list[Game] = []
    skipped: list[str] = []
    for n in counts:
        try:
            games.append(load_game(game_id, players=n, **params))
        except GameError as exc:
            if asked:
                fail(str(exc))
            skipped.append(f"{_players(n)} left out: {exc}")
    if not games:
        fail(skipped[0] if skipped else f"{game_id}: no player count to measure")
    return games, skipped


@app.command()
def balance(
    game: GameArg,
    agents: Annotated[
        str | None,
        typer.Option(help="One agent spec, seated in every seat; two (comma list) run one after "
                          "the other and show where their verdicts disagree (skill trace). "
                          "Default: the game's lab agent, which finishes its games."),
    ] = None,
    games_: Annotated[int, typer.Option("--games", help="Games per player count.")] = 200,
    players: Annotated[
        list[int] | None,
        typer.Option(help="A player count to measure (repeatable); default: every count."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    correct_counts: Annotated[
        bool,
        typer.Option("--correct-counts",
                     help="Hold the verdicts of all player counts together (Bonferroni)."),
    ] = False,
    workers: WorkersFlag = 1,
    engine: EngineFlag = Engine.local,
    address: AddressFlag = None,
    out: Annotated[
        Path | None, typer.Option(help="Write balance.json, balance.png and balance.html here.")
    ] = None,
    as_json: JsonFlag = False,
    option: OptionFlag = None,
) -> None:
    """Seat balance: AGENTS in every seat at each player count; per seat the win share, mean
    score and advantage, flagging seats favoured with 95% confidence for all seats together;
    per count the length in rounds, how games ended and the components that go with winning."""
    params = parse_options(option)
    if "players" in params:
        fail("give player counts with --players, not --option players=")
    try:
        specs = split_specs(agents or game_class(game).lab_agent)
    except GameError as exc:
        fail(str(exc))
    if len(specs) not in (1, 2):
        fail(f"balance seats one agent in every seat (two for a skill trace); got {len(specs)} "
             f"specs: {', '.join(specs)}")
    for spec_text in specs:
        try:
            make_agent(spec_text, game)
        except GameError as exc:
            fail(str(exc))
    if games_ < 2:
        fail("--games must be at least 2 (an interval needs two games per player count)")
    check_run_flags(games_, workers, engine, address)
    loaded, notes = _games_to_measure(game, players, params)
    # The flags that decide the results (workers and engine do not).
    command = ["nightsky", "balance", game, "--agents", ",".join(specs), "--games", str(games_)]
    for n in sorted(set(players or [])):
        command += ["--players", str(n)]
    for pair in option or []:
        command += ["--option", pair]
    command += ["--seed", str(seed)] + (["--correct-counts"] if correct_counts else [])
    data = run_balance(loaded, specs, games=games_, seed=seed, command=command, options=params,
                       play=lab_player(workers, engine, address, as_json), notes=notes,
                       correct_counts=correct_counts)
    results = [data, data["second"]] if "second" in data else [data]
    if out is not None:
        write_balance(out, data, title=loaded[0].info.title, command=shlex.join(command))
    if as_json:
        print(json.dumps(data))
        return
    title = loaded[0].info.title
    for one in results:
        print_balance(one, title, method=one is results[-1])
    if len(results) == 2:
        print_skill_trace(data)
    if out is not None:
        console.print(f"wrote {out}/balance.html, balance.png and balance.json")


def print_skill_trace(data: dict[str, Any]) -> None:
    """Where the two agents' verdicts disagree, as a rich table."""
    first, second = data["agents"], data["second"]["agents"]
    trace = data["skill_trace"]
    if not trace:
        console.print(f"skill trace: {escape(first)} and {escape(second)} agree everywhere.")
        return
    table = Table(title=f"Skill trace: where {escape(first)} and {escape(second)} disagree")
    for head in ("N", "seat", "measure", first, second):
        table.add_column(escape(head))
    for t in trace:
        table.add_row(str(t["players"]), "-" if t["seat"] is None else str(t["seat"]),
                      escape(t["measure"]), escape(t[first]), escape(t[second]))
    console.print(table)


def print_balance(data: dict[str, Any], title: str, *, method: bool = True) -> None:
    """The rows as a rich table, one block per player count."""
    table = Table(
        title=f"{title} seat balance: {escape(data['agents'])} in every seat, {data['games']} "
        f"games per player count N (seed {data['seed']})",
        caption=escape(
            "win share [interval adjusted so that all seats of a player count hold together at "
            "95%], green/red: above/below the fair share 1/N; mean score [95% CI]; advantage: "
            "mean score minus the mean of the seats' mean scores [interval adjusted like the "
            "win shares] and its verdict"
        ),
    )
    for head in ("N", "seat", "win share [interval]", "mean score [95% CI]",
                 "advantage [interval]"):
        table.add_column(escape(head), justify="right", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    last = None
    for r in data["rows"]:
        if last is not None and r["players"] != last:
            table.add_section()
        last = r["players"]
        v = verdict(r)
        colour = {"above fair": "green", "below fair": "red"}.get(v, "white")
        lo, hi = r["win_ci95"]
        ci = r["score_ci95"]
        table.add_row(
            str(r["players"]),
            str(r["seat"]),
            f"[{colour}]{r['win_share']:.3f}[/] " + escape(f"[{lo:.2f}-{hi:.2f}]"),
            f"{r['mean_score']:.2f}" + (escape(f" [{ci[0]:.1f}-{ci[1]:.1f}]") if ci else ""),
            f"{r['advantage']:+.2f}" + (
                escape(f" [{r['advantage_ci95'][0]:+.1f}-{r['advantage_ci95'][1]:+.1f}] ")
                + r["advantage_verdict"] if r.get("advantage_ci95") else ""),
            f"[{colour}]{v}[/]",
        )
    console.print(table)
    for c in data.get("counts", []):
        ends = ", ".join(f"{k} {v}" for k, v in c["end_conditions"].items())
        console.print(
            f"{_players(c['players'])}: {c['rounds']:g} rounds a game ({c['turns']:g} turns, "
            f"{c['player_actions']:g} player actions)" + (f"; ended by: {ends}" if ends else ""),
            highlight=False,
        )
        for row in outliers(c["components"])[:3]:
            console.print(f"  [bold]component:[/] {escape(describe_outlier(row))}",
                          highlight=False)
    if method:  # once, after the last agent's tables
        console.print(f"[dim]method: {escape(data['method'])}[/]", highlight=False)
    for note in data["notes"]:
        console.print(f"[yellow]note:[/] {escape(note)}", highlight=False)
