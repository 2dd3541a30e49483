"""The design lab: ``nightsky compare``, ``nightsky sweep`` and ``nightsky components``."""

from __future__ import annotations

import json
import tempfile
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
    run_with_progress,
)
from nightsky.cli.tournament import split_specs
from nightsky.core.errors import GameError, OptionError
from nightsky.core.game import Game
from nightsky.core.registry import game_class, load_game
from nightsky.sim import lab
from nightsky.sim.lab import run_compare
from nightsky.sim.runner import GameResult, MatchSpec

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
PlayersFlag = Annotated[
    int | None, typer.Option(help="Number of players (default: the game's default).")
]
GamesFlag = Annotated[int, typer.Option("--games", help="Games per design (or value).")]
SeedFlag = Annotated[int, typer.Option(help="Seed of the whole run (every design plays it).")]
AgentsFlag = Annotated[
    str | None,
    typer.Option(help="One agent spec in every seat; two (comma list) for a skill trace "
                      "(default: the game's lab agent, which finishes its games)."),
]


def _load(game_id: str, players: int | None, params: dict[str, Any], path: str) -> Game:
    try:
        return load_game(game_id, players=players, **({**params, "components": path}
                                                      if path else params))
    except GameError as exc:
        fail(str(exc))


def lab_agents(text: str | None, game_id: str) -> list[str]:
    """The agent specs of a lab command (``None``: the game's ``lab_agent``), each checked."""
    try:
        default = game_class(game_id).lab_agent
    except GameError as exc:
        fail(str(exc))
    specs = split_specs(text or default)
    if len(specs) not in (1, 2):
        fail(f"give one agent spec (or two for a skill trace); got {len(specs)}")
    for s in specs:
        try:
            make_agent(s, game_id)
        except GameError as exc:
            fail(str(exc))
    return specs


def lab_player(workers: int, engine: Engine, address: str | None, quiet: bool) -> lab.Play:
    """The lab's ``Play``: games on the chosen engine behind a progress bar; a failing game
    ends the command with its error."""

    def play(match: MatchSpec, games: int, label: str) -> list[GameResult]:
        try:
            results, _ = run_with_progress(match, games, workers, quiet=quiet, engine=engine,
                                           address=address, label=label)
        except GameError as exc:
            fail(str(exc), code=1)
        return results

    return play


# ---------------------------------------------------------------------------- compare
@app.command()
def compare(
    game: GameArg,
    design: Annotated[Path, typer.Option(help="The components file to try.")],
    against: Annotated[
        Path | None, typer.Option(help="The baseline components file (default: the shipped set).")
    ] = None,
    players: PlayersFlag = None,
    agents: AgentsFlag = None,
    games_: GamesFlag = 200,
    seed: SeedFlag = 0,
    workers: WorkersFlag = 1,
    engine: EngineFlag = Engine.local,
    address: AddressFlag = None,
    out: Annotated[
        Path | None, typer.Option(help="Write compare.json, compare.png and compare.html here.")
    ] = None,
    as_json: JsonFlag = False,
    option: OptionFlag = None,
) -> None:
    """Two designs on the same seeds: every difference (seats, length, lead, components) with
    its interval, and the components whose winners changed most."""
    params = parse_options(option)
    for key in ("players", "components"):
        if key in params:
            fail(f"give {key} with its own flag, not --option {key}=")
    specs = lab_agents(agents, game)
    if games_ < 2:
        fail("--games must be at least 2 (a paired interval needs two games)")
    check_run_flags(games_, workers, engine, address)
    g_design = _load(game, players, params, str(design))
    g_base = _load(game, players, params, str(against) if against else "")
    command = ["nightsky", "compare", game, "--design", str(design)]
    command += ["--against", str(against)] if against else []
    command += ["--players", str(g_design.num_players), "--agents", ",".join(specs),
                "--games", str(games_), "--seed", str(seed)]
    for pair in option or []:
        command += ["--option", pair]
    result = run_compare(g_design, g_base, specs, games=games_, seed=seed, command=command,
                         play=lab_player(workers, engine, address, as_json))
    runs = [result, result["second"]] if "second" in result else [result]
    if out is not None:
        from nightsky.sim.compare_report import write_compare

        write_compare(out, result, title=g_design.info.title)
    if as_json:
        print(json.dumps(result))
        return
    for data in runs:
        print_compare(data)
    if len(runs) == 2:
        print_trace(result["skill_trace"], runs[0]["agents"], runs[1]["agents"])
    if out is not None:
        console.print(f"wrote {out}/compare.html, compare.png and compare.json")


def _diff(row: dict[str, Any], pct: bool = False) -> str:
    f = (lambda x: f"{x:+.1%}") if pct else (lambda x: f"{x:+.2f}")
    ci = row["ci95"]
    return f(row["diff"]) + (escape(f" [{f(ci[0])} {f(ci[1])}]") if ci else "")


def print_compare(data: dict[str, Any]) -> None:
    """The comparison as rich tables: headlines, seats, game measures, top components."""
    from nightsky.sim.compare import differs

    console.print(f"[bold]{escape(data['game'])}, {data['players']} players, "
                  f"{escape(data['agents'])} in every seat, {data['games']} games a design "
                  f"(seed {data['seed']})[/]", highlight=False)
    for h in data["headlines"]:
        console.print(f"- {escape(h)}", highlight=False)
    table = Table(title="Design minus baseline, paired by seed [95% interval]")
    for head in ("measure", "design", "baseline", "difference"):
        table.add_column(head, justify="right")
    for s in data["seats"]:
        for key, pct in (("win_share", True), ("score_advantage", False)):
            row = s[key]
            colour = "yellow" if differs(row) else "white"
            fmt = (lambda x: f"{x:.1%}") if pct else (lambda x: f"{x:+.2f}")
            table.add_row(f"seat {s['seat']} {key.replace('_', ' ')}", fmt(row["design"]),
                          fmt(row["baseline"]), f"[{colour}]{_diff(row, pct)}[/]")
    for key, row in data["measures"].items():
        colour = "yellow" if differs(row) else "white"
        table.add_row(key.replace("_", " "), f"{row['design']:g}", f"{row['baseline']:g}",
                      f"[{colour}]{_diff(row)}[/]")
    console.print(table)
    comps = Table(title="Components: win rate of whoever took it (design vs baseline)")
    for head in ("component", "take rate", "win rate", "difference [95%]", "corrected p", ""):
        comps.add_column(head, justify="right")
    for c in data["components"][:10]:
        ci = c["win_diff_ci95"]
        comps.add_row(
            escape(c["component"]),
            f"{c['take_rate'][0]:.0%} / {c['take_rate'][1]:.0%}",
            " / ".join("-" if w is None else f"{w:.0%}" for w in c["win_rate"]),
            "-" if c["win_diff"] is None else f"{c['win_diff']:+.1%}"
            + (escape(f" [{ci[0]:+.1%} {ci[1]:+.1%}]") if ci else ""),
            "-" if c["p_fdr"] is None else f"{c['p_fdr']:.2g}",
            "[bold yellow]outlier[/]" if c["outlier"] else "",
        )
    console.print(comps)
    ends = data["end_conditions"]
    if ends["design"] or ends["baseline"]:
        console.print("ended by: design " + ", ".join(f"{k} {v}" for k, v in
                                                       ends["design"].items())
                      + "; baseline " + ", ".join(f"{k} {v}" for k, v in
                                                  ends["baseline"].items()), highlight=False)
    console.print(f"[dim]method: {escape(data['method'])}[/]", highlight=False)


def print_trace(trace: list[dict[str, Any]], a: str, b: str) -> None:
    """The skill trace of a comparison or a sweep."""
    if not trace:
        console.print(f"skill trace: {escape(a)} and {escape(b)} agree everywhere.")
        return
    table = Table(title=f"Skill trace: where {escape(a)} and {escape(b)} disagree")
    for head in ("measure", a, b):
        table.add_column(escape(head))
    for t in trace:
        table.add_row(escape(t["measure"]), escape(t[a]), escape(t[b]))
    console.print(table)


# ---------------------------------------------------------------------------- sweep
def parse_values(text: str) -> list[Any]:
    """``4..14:2``, ``4..8`` or a comma list (``nightsky.sim.lab.parse_values``); a bad one
    ends the command with its reason."""
    try:
        return lab.parse_values(text)
    except OptionError as exc:
        fail(str(exc))


@app.command()
def sweep(
    game: GameArg,
    set_: Annotated[
        str,
        typer.Option("--set", help="FIELD=VALUES: a dotted field of the components file and its "
                                   "values, e.g. constellations.aquila.slots.1.np=4..14:2"),
    ],
    components: Annotated[
        Path | None, typer.Option(help="The components file to vary (default: the shipped set).")
    ] = None,
    players: PlayersFlag = None,
    agents: Annotated[
        str | None,
        typer.Option(help="One agent spec, seated in every seat (default: the game's lab "
                          "agent)."),
    ] = None,
    games_: GamesFlag = 100,
    seed: SeedFlag = 0,
    workers: WorkersFlag = 1,
    engine: EngineFlag = Engine.local,
    address: AddressFlag = None,
    out: Annotated[
        Path | None, typer.Option(help="Write sweep.json, a plot per metric and sweep.html here.")
    ] = None,
    as_json: JsonFlag = False,
    option: OptionFlag = None,
) -> None:
    """Vary one field of a components file and measure every metric at each value, on the same
    seeds, with its 95% interval; a plot per metric."""
    from nightsky.sim.sweep import write_sweep

    try:
        field, text = lab.split_set(set_)
    except OptionError as exc:
        fail(str(exc))
    params = parse_options(option)
    for key in ("players", "components"):
        if key in params:
            fail(f"give {key} with its own flag, not --option {key}=")
    specs = lab_agents(agents, game)
    if len(specs) != 1:
        fail("sweep seats one agent in every seat")
    check_run_flags(games_, workers, engine, address)
    if games_ < 2:
        fail("--games must be at least 2 (an interval needs two games)")
    folder = out / "variants" if out is not None else Path(tempfile.mkdtemp(prefix="sweep-"))
    command = ["nightsky", "sweep", game, "--set", f"{field}={text}", "--agents", specs[0],
               "--games", str(games_), "--seed", str(seed)]
    command += ["--components", str(components)] if components else []
    command += ["--players", str(players)] if players else []
    for pair in option or []:
        command += ["--option", pair]
    try:
        data = lab.run_sweep(
            game, field, text, spec_text=specs[0], games=games_, seed=seed, command=command,
            folder=folder, load=lambda path: _load(game, players, params, path),
            play=lab_player(workers, engine, address, as_json), base=components,
        )
    except (GameError, OptionError) as exc:
        fail(str(exc))
    title = game_class(game).info.title
    if out is not None:
        data["plots"] = write_sweep(out, data, title=title)
    if as_json:
        print(json.dumps(data))
        return
    print_sweep(data)
    if out is not None:
        console.print(f"wrote {out}/sweep.html, sweep.json and {len(data['plots'])} plots")


def print_sweep(data: dict[str, Any]) -> None:
    """One row per value: the headline metrics with their intervals."""
    table = Table(title=f"{escape(data['game'])}: {escape(data['field'])} (shipped "
                        f"{escape(str(data['shipped']))}), {escape(data['agents'])}, "
                        f"{data['games']} games a value, seed {data['seed']}")
    for head in ("value", "seat 0 win share", "rounds", "winner margin", "lead changes",
                 "top component"):
        table.add_column(head, justify="right")
    for p in data["points"]:
        m = p["metrics"]
        table.add_row(escape(str(p["value"])), _cell(m, "seat 0 win share", True),
                      _cell(m, "rounds"), _cell(m, "winner margin"), _cell(m, "lead changes"),
                      escape(p["outliers"][0]) if p["outliers"] else "-")
    console.print(table)


def _cell(metrics: dict[str, Any], key: str, pct: bool = False) -> str:
    row = metrics.get(key)
    if row is None:
        return "-"
    f = (lambda x: f"{x:.1%}") if pct else (lambda x: f"{x:.2f}")
    ci = row["ci95"]
    return f(row["value"]) + (escape(f" [{f(ci[0])}-{f(ci[1])}]") if ci else "")


# ---------------------------------------------------------------------------- components
@app.command("components")
def components_command(
    game: GameArg,
    export: Annotated[
        Path | None, typer.Option(help="Write the shipped set (with its comments) to this file.")
    ] = None,
    check: Annotated[
        Path | None, typer.Option(help="Validate this components file; print every error.")
    ] = None,
    force: Annotated[bool, typer.Option(help="Let --export replace an existing file.")] = False,
) -> None:
    """The components a game plays with: export the shipped set to edit it, or check a file
    (every error with its file, entry and field; TOML syntax errors with line and column)."""
    from nightsky.core.errors import ComponentError
    from nightsky.sim.design import components_hash, shipped_text

    if export is None and check is None:
        fail("give --export FILE (write the shipped set) or --check FILE (validate a file)")
    if export is not None:
        if export.exists() and not force:
            fail(f"{export} exists; --force replaces it")
        try:
            export.write_text(shipped_text(game), encoding="utf-8")
        except (ComponentError, OSError) as exc:
            fail(str(exc))
        console.print(f"wrote {export}: the shipped {game} components (sha256 "
                      f"{components_hash(game)[:16]}...); play it with --option "
                      f"components={export}", highlight=False)
    if check is not None:
        try:
            g = load_game(game, components=str(check))
        except ComponentError as exc:
            for line in str(exc).splitlines():
                console.print(f"[bold red]error:[/] {escape(line)}", highlight=False,
                              soft_wrap=True)
            raise typer.Exit(1) from None
        except GameError as exc:
            fail(str(exc), code=1)
        console.print(f"{check}: valid {g.info.title} components (sha256 "
                      f"{components_hash(game, check)[:16]}...)", highlight=False)
