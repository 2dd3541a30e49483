"""A studio job request read into what the lab plays (``Plan``), refused (422 naming the
field) before it is queued when any of it cannot run: the same checks as the CLI commands.

A job plays exactly what ``nightsky balance|compare|sweep`` plays with the same settings and
seed: the plan builds the same command line (its components files named as the job keeps them,
``design.toml``, ``against.toml``) and ``run`` calls the same ``nightsky.sim.lab`` functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nightsky.agents.base import make_agent
from nightsky.core.errors import GameError
from nightsky.core.game import Game
from nightsky.core.registry import game_class, load_game
from nightsky.server.rooms import ServerError
from nightsky.server.settings import Settings
from nightsky.server.studio.jobs import JobRequest
from nightsky.sim import lab


def refuse(field_name: str, message: str, code: str = "bad_job") -> ServerError:
    """A 422 naming the request's field."""
    return ServerError(422, code, f"{field_name}: {message}", field=field_name)


@dataclass
class Plan:
    """Everything a job plays, read and checked."""

    kind: str
    game_id: str
    title: str
    specs: list[str]
    command: list[str]
    total: int
    loaded: list[Game] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    design: Path | None = None
    against: Path | None = None
    sweep_field: str = ""
    sweep_values: str = ""
    players: int | None = None


def agent_specs(req: JobRequest, game_id: str, most: int, settings: Settings) -> list[str]:
    """The request's agent specs (default: the game's lab agent), each built once to check it
    and held to the server's bounds on a bot spec (length, the thinking cap on ``seconds=``)."""
    from nightsky.server.bounds import plan_bot

    text = req.agents or game_class(game_id).lab_agent
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not 1 <= len(specs) <= most:
        two = " (two for a skill trace)" if most == 2 else ""
        raise refuse("agents", f"give one agent spec{two}; got {len(specs)}")
    for spec in specs:
        try:
            make_agent(spec, game_id)
            plan_bot(spec, settings)
        except GameError as exc:
            raise refuse("agents", str(exc)) from None
    return specs


def load(game_id: str, players: int | None, path: Path | None, field_name: str) -> Game:
    """The game with the components at ``path`` (None: shipped); 422 naming ``field_name``."""
    try:
        return load_game(game_id, players=players,
                         **({"components": str(path)} if path else {}))
    except GameError as exc:
        raise refuse(field_name, str(exc)) from None


def balance_plan(req: JobRequest, design: Path | None, specs: list[str]) -> Plan:
    """``nightsky balance GAME --agents ... [--players N] [--option components=design.toml]``."""
    info = game_class(req.game).info
    counts = [req.players] if req.players else list(range(info.min_players,
                                                          info.max_players + 1))
    loaded, notes = [], []
    for n in counts:
        try:
            loaded.append(load_game(req.game, players=n,
                                    **({"components": str(design)} if design else {})))
        except GameError as exc:
            if req.players:
                raise refuse("players" if "players" in str(exc) else "design", str(exc)) from None
            notes.append(f"{lab.players_label(n)} left out: {exc}")
    if not loaded:
        raise refuse("players", notes[0] if notes else "no player count to measure")
    command = ["nightsky", "balance", req.game, "--agents", ",".join(specs), "--games",
               str(req.games)]
    command += ["--players", str(req.players)] if req.players else []
    command += ["--option", "components=design.toml"] if design else []
    command += ["--seed", str(req.seed)] + (["--correct-counts"] if req.correct_counts else [])
    options = {"components": str(design)} if design else {}
    return Plan("balance", req.game, info.title, specs, command,
                req.games * len(loaded) * len(specs), loaded, options, notes, design)


def compare_plan(req: JobRequest, design: Path, against: Path | None, specs: list[str]
                 ) -> Plan:
    """``nightsky compare GAME --design design.toml [--against against.toml] ...``."""
    g_design = load(req.game, req.players, design, "design")
    g_base = load(req.game, req.players, against, "against")
    command = ["nightsky", "compare", req.game, "--design", "design.toml"]
    command += ["--against", "against.toml"] if against else []
    command += ["--players", str(g_design.num_players), "--agents", ",".join(specs),
                "--games", str(req.games), "--seed", str(req.seed)]
    return Plan("compare", req.game, g_design.info.title, specs, command,
                req.games * 2 * len(specs), [g_design, g_base], design=design, against=against)


def sweep_plan(req: JobRequest, design: Path | None, specs: list[str]) -> Plan:
    """``nightsky sweep GAME --set FIELD=VALUES [--components design.toml] ...``."""
    from nightsky.core.errors import OptionError
    from nightsky.sim.design import get_field, raw_components

    if not req.set:
        raise refuse("set", "a sweep needs FIELD=VALUES, e.g. board.daybreak=50..80:10")
    try:
        name, text = lab.split_set(req.set)
        values = lab.parse_values(text)
        shipped = get_field(raw_components(req.game, design), name)
    except (GameError, OptionError) as exc:
        raise refuse("set", str(exc)) from None
    if isinstance(shipped, dict | list):
        raise refuse("set", f"{name} is a table or a list, not a value")
    g = load(req.game, req.players, design, "design")
    command = ["nightsky", "sweep", req.game, "--set", f"{name}={text}", "--agents", specs[0],
               "--games", str(req.games), "--seed", str(req.seed)]
    command += ["--components", "design.toml"] if design else []
    command += ["--players", str(req.players)] if req.players else []
    return Plan("sweep", req.game, g.info.title, specs, command, req.games * len(values),
                design=design, sweep_field=name, sweep_values=text, players=req.players)


def make_plan(
    req: JobRequest, upload: Callable[[str, str], Path | None], settings: Settings
) -> Plan:
    """Read and check ``req``; ``upload(field, value)`` is the kept file of an upload hash
    (None for ``shipped``). The design of a compare defaults to the shipped set's text."""
    try:
        game_class(req.game)
    except GameError as exc:
        raise refuse("game", str(exc)) from None
    design = upload("design", req.design)
    if req.kind == "balance":
        return balance_plan(req, design, agent_specs(req, req.game, 2, settings))
    if req.kind == "compare":
        if design is None:
            raise refuse("design", "a comparison needs a design: send your components file "
                                   "to POST /api/studio/uploads and give its sha256")
        return compare_plan(req, design, upload("against", req.against),
                            agent_specs(req, req.game, 2, settings))
    return sweep_plan(req, design, agent_specs(req, req.game, 1, settings))
