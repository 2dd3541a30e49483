"""The core commands: games, rules, play, replay, simulate, bench."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.markdown import Markdown
from rich.panel import Panel
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from nightsky.agents.base import make_agent
from nightsky.cli.app import GameArg, app, build_game, console, fail, split_agents
from nightsky.core.errors import GameError, OptionError
from nightsky.core.game import CHANCE, Game, State
from nightsky.core.heap import frozen_heap
from nightsky.core.learn import lesson_names, lesson_steps
from nightsky.core.markup import console_text
from nightsky.core.narration import Narrator
from nightsky.core.record import replay as replay_record
from nightsky.core.record import save_record
from nightsky.core.registry import game_class, game_ids, load_object
from nightsky.core.ui import render_text, seat_label
from nightsky.sim.design import provenance
from nightsky.sim.runner import GameResult, MatchSpec
from nightsky.sim.stats import summarize

OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="Game parameter KEY=VALUE (repeatable)."),
]


class Engine(StrEnum):
    """Where a run's games are played (``nightsky.sim.engines``)."""

    local = "local"
    ray = "ray"


EngineFlag = Annotated[
    Engine,
    typer.Option(
        envvar="NIGHTSKY_ENGINE",
        case_sensitive=False,
        help="Where to play: local (processes) or ray (a Ray cluster).",
    ),
]
AddressFlag = Annotated[
    str | None,
    typer.Option(
        envvar="NIGHTSKY_RAY_ADDRESS",
        help="Ray cluster address (ray://host:10001 or auto); default: a local Ray.",
    ),
]
WorkersFlag = Annotated[
    int, typer.Option(envvar="NIGHTSKY_WORKERS", help="Worker processes (or Ray CPUs).")
]


@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """List the registered games with their player counts and options."""
    infos = [game_class(g).info.describe() for g in game_ids()]
    if as_json:
        print(json.dumps(infos, indent=2))
        return
    table = Table(title="nightsky games")
    table.add_column("id", style="bold cyan")
    table.add_column("title")
    table.add_column("players", justify="center")
    table.add_column("options")
    for info in infos:
        opts = ", ".join(f"{o['name']}={o['default']}" for o in info["options"]) or "-"
        table.add_row(
            info["id"], info["title"], f"{info['min_players']}-{info['max_players']}", opts
        )
    console.print(table)


def _rules_text(game_id: str) -> str:
    cls = game_class(game_id)
    pkg = cls.__module__.rsplit(".", 1)[0]
    try:
        return resources.files(pkg).joinpath("rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        fail(f"{game_id} has no rule catalogue yet")


@app.command()
def rules(game: GameArg) -> None:
    """Print the rule catalogue of GAME (every rule id with its paraphrase and rulings)."""
    try:
        text = _rules_text(game)
    except GameError as exc:
        fail(str(exc))
    console.print(Markdown(text))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A nightsky-record/1 JSON file.")],
    show: Annotated[bool, typer.Option(help="Draw the final position.")] = False,
) -> None:
    """Re-apply a saved game through the rules and check its recorded result."""
    try:
        state = replay_record(file)
    except GameError as exc:
        fail(str(exc), code=1)
    if show:
        console.print(console_text(state.game.ui.render(state, None)))
    result = "finished" if state.is_terminal() else "in progress"
    console.print(
        f"[green]ok[/]: {len(state.history)} actions replayed, game {result}"
        + (f"; scores {state.scores()}, winners {state.winners()}" if state.is_terminal() else "")
    )


# ---------------------------------------------------------------------------- play
def _seat_agents(game: Game, seats: str | None) -> list[str]:
    n = game.num_players
    if seats is None:
        return ["human"] + ["greedy"] * (n - 1)
    try:
        return split_agents(seats, n)
    except OptionError as exc:
        fail(str(exc))


def _action_menu(state: State, seat: int, actions: list[Any], names: list[str]) -> Any:
    """Many actions: numbered notations in columns; few: one line each in words, the
    notation (what may be typed) dimmed beside it."""
    if len(actions) <= 20:
        table = Table(show_header=False, box=None, pad_edge=False)
        for i, a in enumerate(actions, start=1):
            text = state.game.ui.describe_action(state, a, seat, names)
            table.add_row(f"[bold]{i:>3}[/]", text, f"[dim]{a}[/]" if text != str(a) else "")
        return table
    return Columns(
        [f"[bold]{i:>3}[/] {a}" for i, a in enumerate(actions, start=1)],
        equal=True, column_first=True, padding=(0, 2),
    )


def _prompt_action(state: State, seat: int, names: list[str]) -> Any:
    actions = state.legal_actions(seat)
    menu = _action_menu(state, seat, actions, names)
    console.print(menu)
    while True:
        text = typer.prompt(
            f"{seat_label(names, seat)}: number or notation (d N describes N, ? redraws, q quits)"
        ).strip()
        if text in {"q", "quit", "exit"}:
            raise typer.Exit(0)
        if text == "?":
            console.print(console_text(render_text(state.game.ui, state, seat, names)))
            console.print(menu)
            continue
        if text.startswith("d ") and text[2:].strip().isdigit():
            k = int(text[2:].strip())
            if 1 <= k <= len(actions):
                console.print(state.game.ui.describe_action(state, actions[k - 1], seat, names))
            continue
        if text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        try:
            action = state.game.parse_action(text)
        except GameError as exc:
            console.print(f"[red]{exc}[/]")
            continue
        if action not in actions:
            reason, rule = state.explain_illegal(action, seat)
            console.print(f"[red]illegal:[/] {reason}" + (f" [{rule}]" if rule else ""))
            continue
        return action


@app.command()
def play(
    game: GameArg,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seats: Annotated[
        str | None, typer.Option(help="Comma list, one per seat: human or an agent spec.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed for chance and bots.")] = None,
    record: Annotated[Path | None, typer.Option(help="Save the game record here.")] = None,
    option: OptionFlag = None,
    tutorial: Annotated[str | None, typer.Option(help="Start from a rulebook example.")] = None,
) -> None:
    """Play GAME in the terminal against bots (or hot-seat with several humans)."""
    g = build_game(game, players, option)
    specs = _seat_agents(g, seats)
    seed = seed if seed is not None else random.randrange(1 << 30)
    try:
        agents = [None if s == "human" else make_agent(s, g) for s in specs]
        lesson = g.tutorial(tutorial) if tutorial else None
        state = lesson.build() if lesson else g.new_initial_state()
    except GameError as exc:
        fail(str(exc))
    names = play_names(g, specs)
    if lesson is not None:
        # The example's own words and moves, so the loaded position makes sense on its own.
        told = lesson_names(lesson)  # the seats as the example's text calls them
        steps = "; ".join(
            f"{seat_label(told, x.seat)}: {x.label or x.notation} ({x.notation})"
            if x.seat >= 0 else x.label or x.notation
            for x in lesson_steps(lesson, told)
        ) or "-"
        console.print(Panel(f"{lesson.text}\n\n[bold]The example plays:[/] {steps}",
                            title=lesson.title, style="green"))
        console.print(console_text(render_text(g.ui, state, None, names)))
    chance_rng = random.Random(f"{seed}:chance")
    rngs = [random.Random(f"{seed}:seat{p}") for p in range(g.num_seats)]
    humans = [p for p, s in enumerate(specs) if s == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    seated = ", ".join(f"{seat_label(names, p)} ({s})" for p, s in enumerate(specs))
    console.print(Panel(f"{g.info.title}: {seated} (seed {seed})", style="cyan"))
    shown = -1
    # The log in words, as the seat at the keyboard (or a spectator) may read it.
    narrator = Narrator(g, names, [viewer])
    printed = len(narrator.lines(state, viewer))
    while not state.is_terminal():
        players_now = state.current_players()
        seat = players_now[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(chance_rng), CHANCE)
        else:
            agent = agents[seat] if seat < len(agents) else None
            if agent is None:
                if len(state.history) != shown:
                    console.print(console_text(render_text(g.ui, state, seat, names)))
                    shown = len(state.history)
                state.apply(_prompt_action(state, seat, names), seat)
            else:
                state.apply(agent.choose(state, seat, rngs[seat]), seat)
        for line in narrator.lines(state, viewer)[printed:]:
            console.print(f"[dim]{line['n']:>4}[/] {line['text']}")
            printed += 1
    console.print(console_text(render_text(g.ui, state, None, names)))
    console.print(final_table(state, names))
    if record:
        save_record(state, record)
        console.print(f"record saved to {record}")


def play_names(g: Game, specs: list[str]) -> list[str]:
    """How ``nightsky play`` calls each seat: ``You`` (the one human), ``Player 2`` (one of
    several humans), ``Bot 2`` (an agent); the seats the game plays itself by the game."""
    humans = [p for p, s in enumerate(specs) if s == "human"]
    names = [
        ("You" if len(humans) == 1 else f"Player {p + 1}") if s == "human" else f"Bot {p + 1}"
        for p, s in enumerate(specs)
    ]
    return names + [g.seat_name(p) for p in range(len(specs), g.num_seats)]


def final_table(state: State, names: list[str]) -> Table:
    """The end-of-game table in words: a row per seat by name, a column per score part
    (``GameUI.score_parts``), the winners starred."""
    table = Table(title="Final score")
    table.add_column("Player")
    parts = state.game.ui.score_parts(state)
    for part in parts:
        table.add_column(part.label, justify="right", style=None if part.points else "dim")
    table.add_column("Total", justify="right", style="bold")
    winners = state.winners()
    for p, b in enumerate(state.score_breakdown()):
        label = seat_label(names, p) + (" *" if p in winners else "")
        table.add_row(label, *[f"{b.get(x.key, 0):g}" for x in parts], f"{b['total']:g}")
    return table


# ---------------------------------------------------------------------------- simulate
def seat_names(g: Game, specs: list[str]) -> list[str]:
    """Agent names for every seat, game-driven seats (Starbots) labelled by the game."""
    return specs + [g.seat_name(p) for p in range(len(specs), g.num_seats)]


def run_with_progress(
    spec: MatchSpec,
    n: int,
    workers: int,
    quiet: bool,
    engine: Engine | str = Engine.local,
    address: str | None = None,
    label: str | None = None,
) -> tuple[list[GameResult], float]:
    """Play ``n`` games of ``spec`` on ``engine`` with a progress bar; results sorted by index."""
    from nightsky.sim.engines import run_games

    results: list[GameResult] = []
    start = time.perf_counter()
    iterator = run_games(spec, n, engine=str(engine), workers=workers, address=address)
    with Progress(
        TextColumn("[bold blue]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console if not quiet else None,
        disable=quiet,
        transient=False,
    ) as progress:
        task = progress.add_task(label or spec.game_id, total=n)
        for r in iterator:
            results.append(r)
            progress.advance(task)
    return sorted(results, key=lambda r: r.index), time.perf_counter() - start


def run_provenance(
    name: str, g: Game, specs: list[str], games: int, seed: int, option: list[str] | None
) -> dict[str, Any]:
    """The ``provenance`` of a run of ``nightsky NAME``: the command line that replays it
    (workers and engine leave results alone, so they are not in it), seed, agents, options
    and the components' hash."""
    command = ["nightsky", name, g.info.id, "--agents", ",".join(specs), "--players",
               str(g.num_players), "--games", str(games), "--seed", str(seed)]
    for pair in option or []:
        command += ["--option", pair]
    return provenance(command, game_id=g.info.id, seed=seed, agents=specs, options=g.params,
                      games=games)


def check_run_flags(games: int, workers: int, engine: Engine, address: str | None) -> None:
    """Refuse run flags that cannot work (shared by simulate and tournament)."""
    if games < 1:
        fail("--games must be at least 1")
    if workers < 1:
        fail("--workers must be at least 1")
    if address and engine is not Engine.ray:
        fail("--address is for --engine ray")


@app.command()
def simulate(
    game: GameArg,
    agents: Annotated[
        str | None,
        typer.Option(help="Comma list of agent specs, one per seat (one fills every seat; "
                          "default: the game's lab agent, which finishes its games)."),
    ] = None,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    games_: Annotated[int, typer.Option("--games", help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    workers: WorkersFlag = 1,
    engine: EngineFlag = Engine.local,
    address: AddressFlag = None,
    out: Annotated[Path | None, typer.Option(help="Write summary, records and plots here.")] = None,
    report: Annotated[
        bool, typer.Option(help="With --out: write report.html, its plots and report.json.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    option: OptionFlag = None,
) -> None:
    """Play many games between agents and summarise who wins, scores and game length."""
    g = build_game(game, players, option)
    try:
        specs = split_agents(agents or type(g).lab_agent, g.num_players)
        for s in specs:
            make_agent(s, g)
    except GameError as exc:
        fail(str(exc))
    check_run_flags(games_, workers, engine, address)
    if report and out is None:
        fail("--report needs --out DIR (the report is written there)")
    spec = MatchSpec(
        g.info.id, g.params, tuple(specs), seed, keep_record=out is not None, trace=report,
        attribute=report,
    )
    try:
        results, seconds = run_with_progress(
            spec, games_, workers, quiet=as_json, engine=engine, address=address
        )
    except GameError as exc:
        fail(str(exc), code=1)
    names = seat_names(g, specs)
    summary = summarize(
        results, game_id=g.info.id, players=g.num_players, agents=names, seconds=seconds
    )
    summary["provenance"] = run_provenance("simulate", g, specs, games_, seed, option)
    if out is not None:
        write_outputs(out, summary, results, names)
        if report:
            from nightsky.sim.report import write_report

            write_report(out, results, summary=summary, title=g.info.title)
    if as_json:
        print(json.dumps(summary))
        return
    print_summary(summary)
    if out is not None:
        what = "report.html, " if report else ""
        console.print(f"wrote {out}/{what}summary.json, records/ and plots")


def write_outputs(
    out: Path, summary: dict[str, Any], results: list[GameResult], names: list[str]
) -> None:
    from nightsky.sim.plots import game_length, score_distribution

    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    rec_dir = out / "records"
    rec_dir.mkdir(exist_ok=True)
    for r in results:
        if r.record is not None:
            (rec_dir / f"game-{r.index:05d}.json").write_text(json.dumps(r.record) + "\n")
    score_distribution(results, names, out / "scores.png")
    game_length(results, out / "length.png")


def print_summary(summary: dict[str, Any]) -> None:
    table = Table(title=f"{summary['game']}: {summary['games']} games")
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("win share", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("mean score", justify="right")
    for p, name in enumerate(summary["agents"]):
        lo, hi = summary["win_ci95"][p]
        table.add_row(
            str(p), name, f"{summary['wins'][p]:.3f}", f"{lo:.3f}-{hi:.3f}",
            f"{summary['mean_scores'][p]:.2f}",
        )
    console.print(table)
    console.print(
        f"mean actions per game {summary['mean_actions']:.1f}; "
        f"{summary['games_per_second']} games/s"
    )
    ends = summary.get("end_conditions")
    if ends:
        console.print("ended by: " + ", ".join(f"{k} {v}" for k, v in ends.items()))


# ---------------------------------------------------------------------------- bench
def bench_random_playouts(g: Game, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Random-playout throughput: every chance outcome and player action counts as an action
    (run under ``frozen_heap``, as the references of ``scripts/perf_table.py`` are)."""
    with frozen_heap():
        return _bench_random_playouts(g, seconds, seed)


def _bench_random_playouts(g: Game, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    games_done = actions = 0
    samples: list[State] = []
    start = time.perf_counter()
    cpu_start = time.thread_time()
    deadline = start + seconds
    while True:
        state = g.new_initial_state()
        while True:
            players = state.current_players()
            if not players:
                break
            seat = players[0]
            if seat == CHANCE:
                state.step(state.sample_chance(rng), CHANCE)
            else:
                if len(samples) < 200 and rng.random() < 0.05:
                    samples.append(state.clone())
                state.step(rng.choice(state.legal_actions(seat)), seat)
            actions += 1
        games_done += 1
        if time.perf_counter() >= deadline:
            break
    # CPU time of this thread, read inside the wall-clock interval: the one-core speed even
    # when other work shares the machine (or other threads of this process keep busy).
    cpu = max(time.thread_time() - cpu_start, 1e-9)
    elapsed = time.perf_counter() - start
    samples = samples or [g.new_initial_state()]

    def per_call(fn: Any) -> float:
        reps = max(1, 2000 // len(samples))
        t0 = time.perf_counter()
        for _ in range(reps):
            for s in samples:
                fn(s)
        return (time.perf_counter() - t0) / (reps * len(samples)) * 1e6

    def legal(s: State) -> Any:
        p = s.current_players()
        return s.legal_actions(p[0]) if p and p[0] != CHANCE else None

    from nightsky._native import compiled

    return {
        "game": g.info.id,
        "players": g.num_players,
        "params": g.params,
        "compiled": compiled(),
        "seconds": round(elapsed, 3),
        "games": games_done,
        "games_per_second": round(games_done / elapsed, 2),
        "actions_per_second": round(actions / elapsed, 1),
        "cpu_seconds": round(cpu, 3),
        "actions_per_cpu_second": round(actions / cpu, 1),
        "clone_us": round(per_call(lambda s: s.clone()), 2),
        "legal_actions_us": round(per_call(legal), 2),
    }


def bench_pettingzoo(g: Game, seconds: float) -> dict[str, Any]:
    """``pettingzoo_steps_per_second``: masked-random seat steps through
    ``nightsky.rl.pettingzoo_env`` (observation and mask built at every step), for about
    ``min(seconds, 2)`` seconds; None when pettingzoo is not installed. The RL adapter is
    imported here, at call time, so the CLI does not need pettingzoo to load."""
    try:
        from nightsky.rl.bench import pettingzoo_rate
    except ImportError:
        return {"pettingzoo_steps_per_second": None}
    rate = pettingzoo_rate(g, min(seconds, 2.0))
    return {"pettingzoo_steps_per_second": rate["pz_steps_per_second"]}


def bench_search(game: Game, seconds: float) -> dict[str, float]:
    """``nightsky bench`` figures for the search agent: ISMCTS iterations per second."""
    from nightsky.agents.search import measure_speed

    return measure_speed(game, max(0.5, seconds / 2), spec="ismcts")


BENCH_EXTRAS: tuple[Callable[[Game, float], dict[str, Any]], ...] = (bench_pettingzoo, bench_search)
"""Callables ``(game, seconds) -> dict`` adding figures to every game's ``nightsky bench``; a
game adds its own by declaring ``Game.bench``."""


def bench_figures(g: Game, seconds: float) -> dict[str, Any]:
    """Every extra figure of ``nightsky bench`` for ``g``: the shared ones, then the game's."""
    out: dict[str, Any] = {}
    for extra in BENCH_EXTRAS:
        out.update(extra(g, seconds))
    if g.bench is not None:
        out.update(load_object(g.bench)(g, seconds))
    return out


@app.command()
def bench(
    game: GameArg,
    players: Annotated[int | None, typer.Option(help="Number of players.")] = None,
    seconds: Annotated[float, typer.Option(help="How long to run the playouts.")] = 3.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    option: OptionFlag = None,
) -> None:
    """Measure random-playout speed of GAME and ISMCTS iterations per second (one core)."""
    g = build_game(game, players, option)
    result = bench_random_playouts(g, seconds)
    result.update(bench_figures(g, seconds))
    if as_json:
        print(json.dumps(result))
        return
    table = Table(title=f"bench {g.info.id} ({g.num_players} players)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for k, v in result.items():
        if k not in {"game", "players", "params"}:
            table.add_row(k, f"{v}")
    console.print(table)
