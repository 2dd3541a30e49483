"""The typer application object and helpers shared by the command modules."""

from __future__ import annotations

import sys
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from nightsky.core.errors import GameError, OptionError
from nightsky.core.game import Game
from nightsky.core.registry import game_class, load_game

app = typer.Typer(
    name="nightsky",
    help="Five star-themed tabletop games played exactly by their rulebooks.",
    no_args_is_help=True,
    # --install-completion / --show-completion (bash, zsh, fish, PowerShell): TAB completes
    # commands, options, game ids and choices.
    add_completion=True,
    # -h as well as --help, on every command (click hands it down to subcommands).
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)


def _version(value: bool) -> None:
    if value:
        from nightsky._native import engine
        from nightsky._version import __version__

        console.print(f"nightsky {__version__}, engine: {engine()}", highlight=False)
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_version,
        is_eager=True,
        help="Print the version and whether the compiled engine is in use, then exit.",
    ),
) -> None:
    """Five star-themed tabletop games played exactly by their rulebooks."""


def game_id(value: str) -> str:
    """A registered game id. The registry is read when a value is checked or completed, not
    when the CLI loads, so games that plug-ins register count too."""
    from nightsky.core.registry import game_ids

    ids = game_ids()
    if value not in ids:
        raise typer.BadParameter(f"unknown game {value!r}; games: {', '.join(ids)}")
    return value


def complete_game(incomplete: str) -> list[tuple[str, str]]:
    """TAB completion of a game id: the registered ids with their titles."""
    from nightsky.core.registry import game_class, game_ids

    return [(g, game_class(g).info.title) for g in game_ids() if g.startswith(incomplete)]


GameArg = Annotated[
    str,
    typer.Argument(
        parser=game_id,
        autocompletion=complete_game,
        metavar="GAME",
        help="Game id (`nightsky games` lists them).",
        show_default=False,
    ),
]


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a clear error to stderr and exit non-zero."""
    # escape: a message is plain text (`pip install "nightsky[ray]"` is no style tag)
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["k=v", ...]`` to a dict; values stay strings (the game's Option coerces them)."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            fail(f"--option expects KEY=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def build_game(game_id: str, players: int | None, options: list[str] | None) -> Game:
    params = parse_options(options)
    if "players" in params:
        fail("give the player count with --players, not --option players=")
    try:
        game_class(game_id)
        return load_game(game_id, players=players, **params)
    except GameError as exc:
        fail(str(exc))


def split_agents(text: str, seats: int) -> list[str]:
    # Specs may contain commas inside (mcts:iterations=5,c=1.4); a part with no ':' or '=' that
    # follows a part with ':' starts a new agent only when it has no '='.
    parts = [p.strip() for p in text.split(",") if p.strip()]
    specs: list[str] = []
    for part in parts:
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    if len(specs) == 1 and seats > 1:
        specs = specs * seats
    if len(specs) != seats:
        raise OptionError(f"expected {seats} agent specs (one per seat), got {len(specs)}: {specs}")
    return specs


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()
