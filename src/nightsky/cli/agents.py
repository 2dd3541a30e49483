"""``nightsky agents``: the agents that spec strings name, and each game's difficulty levels."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from nightsky.agents.base import agent_catalog
from nightsky.cli.app import app, complete_game, console, game_id
from nightsky.core.info import LEVEL_NAMES
from nightsky.core.registry import game_class, game_ids


def catalog(game: str | None = None) -> dict[str, Any]:
    """The agents (name and one line) and, per game (``game`` alone when given), its search
    defaults and difficulty levels with their specs and strength lines."""
    games = [game] if game else game_ids()
    return {
        "agents": agent_catalog(),
        "level_names": list(LEVEL_NAMES),
        "games": {
            gid: {
                "title": (info := game_class(gid).info).title,
                "search_defaults": info.search_defaults,
                "levels": [lvl.describe() for lvl in info.levels],
            }
            for gid in games
        },
    }


@app.command()
def agents(
    game: Annotated[
        str | None,
        typer.Argument(
            parser=game_id,
            autocompletion=complete_game,
            metavar="[GAME]",
            help="Only this game's levels (default: every game).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """List the agents usable in specs and each game's difficulty levels (easy, medium, hard,
    expert: usable as agent specs, ``--agents hard``) with the spec that plays them."""
    data = catalog(game)
    if as_json:
        print(json.dumps(data, indent=2))
        return
    table = Table(title="agents (spec: name or name:key=value,...)")
    table.add_column("agent", style="bold cyan")
    table.add_column("what it does")
    for row in data["agents"]:
        table.add_row(row["name"], row["about"])
    console.print(table)
    levels = Table(title="difficulty levels, weakest first (spec: the level's name)")
    levels.add_column("game", style="bold cyan")
    levels.add_column("level", style="bold")
    levels.add_column("plays as", overflow="fold")
    levels.add_column("how strong")
    for gid, entry in data["games"].items():
        for i, lvl in enumerate(entry["levels"]):
            levels.add_row(gid if i == 0 else "", lvl["name"], lvl["spec"], lvl["strength"])
        if not entry["levels"]:
            levels.add_row(gid, "-", "no levels", "")
    console.print(levels)
