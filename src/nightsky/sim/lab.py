"""The design lab's three runs (balance, compare, sweep) as functions of their settings.

``nightsky balance``, ``compare`` and ``sweep`` (``cli/``) and the browser studio
(``server/studio``) call the same functions, so the same settings and seed give the same
numbers whichever front end asked. How games are played is the caller's: a ``Play`` callback
gets each ``MatchSpec`` with its game count and a label, and returns the results sorted by game
index (the CLI shows a progress bar, the studio counts progress and honours a cancel).
Nothing here knows a game: the loaded ``Game`` objects carry what differs.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from nightsky.core.errors import OptionError
from nightsky.core.game import Game
from nightsky.sim.runner import GameResult, MatchSpec

Play = Callable[[MatchSpec, int, str], list[GameResult]]
"""Play ``games`` games of a match (``label`` names them for a progress display); the results
sorted by index."""

MAX_SWEEP_VALUES = 50


def players_label(n: int) -> str:
    """``1 player``, ``3 players``."""
    return f"{n} player{'s' if n != 1 else ''}"


def automata_note(loaded: Sequence[Game]) -> str:
    """The note on seats the game plays itself (never measured), or ``""``."""
    automata = [
        f"{players_label(g.num_players)}: " + ", ".join(
            g.seat_name(p) for p in range(g.num_players, g.num_seats))
        for g in loaded
        if g.num_seats > g.num_players
    ]
    if not automata:
        return ""
    return ("seats the game plays itself are not measured (" + "; ".join(automata) + "): the "
            "rows cover the live players' seats only")


def run_balance(
    loaded: Sequence[Game],
    specs: Sequence[str],
    *,
    games: int,
    seed: int,
    command: Sequence[str],
    options: dict[str, Any],
    play: Play,
    notes: Sequence[str] = (),
    correct_counts: bool = False,
) -> dict[str, Any]:
    """``nightsky balance``'s object: each spec in every seat of each loaded game (one per
    player count), with a skill trace when there are two specs."""
    from nightsky.sim.balance import skill_trace, summarize_balance
    from nightsky.sim.design import provenance

    all_notes = list(notes)
    if note := automata_note(loaded):
        all_notes.append(note)
    results = []
    first = loaded[0]
    for spec_text in specs:
        runs: dict[int, list[GameResult]] = {}
        for g in loaded:
            n = g.num_players
            match = MatchSpec(g.info.id, g.params, (spec_text,) * n, seed, attribute=True)
            runs[n] = play(match, games, f"{g.info.id}, {players_label(n)}, {spec_text}")
        results.append(summarize_balance(
            first.info.id, spec_text, runs, games=games, seed=seed, notes=all_notes,
            safeguards=type(first).safeguard_ends, correct_counts=correct_counts,
            provenance=provenance(command, game_id=first.info.id, seed=seed,
                                  agents=[spec_text], options=options, games=games),
        ))
    data = results[0]
    if len(results) == 2:
        data["second"] = results[1]
        data["skill_trace"] = skill_trace(results[0], results[1])
    return data


def _lab_match(g: Game, spec_text: str, seed: int) -> MatchSpec:
    return MatchSpec(g.info.id, g.params, (spec_text,) * g.num_players, seed, trace=True,
                     attribute=True)


def run_compare(
    design: Game,
    baseline: Game,
    specs: Sequence[str],
    *,
    games: int,
    seed: int,
    command: Sequence[str],
    play: Play,
) -> dict[str, Any]:
    """``nightsky compare``'s object: both designs on the same seeds, per spec; a skill trace
    when there are two specs."""
    from nightsky.sim.compare import compare_runs, headlines
    from nightsky.sim.design import provenance

    runs = []
    for spec_text in specs:
        a = play(_lab_match(design, spec_text, seed), games, f"design, {spec_text}")
        b = play(_lab_match(baseline, spec_text, seed), games, f"baseline, {spec_text}")
        data = compare_runs(a, b, design.num_players)
        data.update(
            game=design.info.id, players=design.num_players, agents=spec_text, seed=seed,
            provenance={
                "design": provenance(command, game_id=design.info.id, seed=seed,
                                     agents=[spec_text], options=design.params, games=games),
                "baseline": provenance(command, game_id=design.info.id, seed=seed,
                                       agents=[spec_text], options=baseline.params,
                                       games=games),
            },
        )
        data["headlines"] = headlines(data)
        runs.append(data)
    result = runs[0]
    if len(runs) == 2:
        result["second"] = runs[1]
        result["skill_trace"] = compare_trace(runs[0], runs[1])
    return result


def compare_trace(first: dict[str, Any], second: dict[str, Any]) -> list[dict[str, Any]]:
    """Where two agents' comparisons disagree: a difference one finds and the other does not."""
    from nightsky.sim.compare import differs

    out = []
    a, b = first["agents"], second["agents"]
    for sa, sb in zip(first["seats"], second["seats"], strict=True):
        for key in ("win_share", "score_advantage"):
            da, db = differs(sa[key]), differs(sb[key])
            if da != db:
                out.append({"measure": f"seat {sa['seat']} {key.replace('_', ' ')}",
                            a: "differs" if da else "-", b: "differs" if db else "-"})
    for key, row in first["measures"].items():
        other = second["measures"].get(key)
        if other is not None and differs(row) != differs(other):
            out.append({"measure": key.replace("_", " "), a: "differs" if differs(row) else "-",
                        b: "differs" if differs(other) else "-"})
    oa = {c["component"] for c in first["components"] if c["outlier"]}
    ob = {c["component"] for c in second["components"] if c["outlier"]}
    for name in sorted(oa ^ ob):
        out.append({"measure": f"component {name}", a: "outlier" if name in oa else "-",
                    b: "outlier" if name in ob else "-"})
    return out


def parse_values(text: str) -> list[Any]:
    """``4..14:2`` (from 4 to 14 by 2, both ends included), ``4..8`` (by 1) or a comma list
    (numbers, ``true``/``false``, or words); at most 50 values. OptionError otherwise."""
    m = re.fullmatch(r"\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*(?::\s*([\d.]+))?\s*", text)
    if m:
        nums = [m.group(1), m.group(2), m.group(3) or "1"]
        is_float = any("." in x for x in nums)
        conv = float if is_float else int
        try:
            start, stop, step = (conv(x) for x in nums)
        except ValueError:
            raise OptionError(f"--set: cannot read the range {text!r}") from None
        if step <= 0 or stop < start:
            raise OptionError(f"--set: the range {text!r} must go up by a positive step")
        count = int((stop - start) / step + 1e-9) + 1
        if count > MAX_SWEEP_VALUES:
            raise OptionError(f"--set: {count} values; a sweep takes at most {MAX_SWEEP_VALUES}")
        return [round(start + k * step, 9) if is_float else start + k * step
                for k in range(count)]
    values: list[Any] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            raise OptionError(f"--set: empty value in {text!r}")
        if part in ("true", "false"):
            values.append(part == "true")
            continue
        try:
            values.append(int(part))
        except ValueError:
            try:
                values.append(float(part))
            except ValueError:
                values.append(part)
    if len(values) > MAX_SWEEP_VALUES:
        raise OptionError(f"--set: {len(values)} values; a sweep takes at most "
                          f"{MAX_SWEEP_VALUES}")
    return values


def split_set(text: str) -> tuple[str, str]:
    """``FIELD=VALUES`` -> (field, values text); OptionError when either is missing."""
    field, eq, values = text.partition("=")
    if not eq or not field.strip():
        raise OptionError("--set expects FIELD=VALUES, e.g. board.daybreak=50..80:10")
    return field.strip(), values


def variant_name(field: str, value: Any) -> str:
    """The file name of one sweep value's components file."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", f"{field}={value}") + ".toml"


def run_sweep(
    game_id: str,
    field: str,
    values_text: str,
    *,
    spec_text: str,
    games: int,
    seed: int,
    command: Sequence[str],
    folder: Path,
    load: Callable[[str], Game],
    play: Play,
    base: str | Path | None = None,
) -> dict[str, Any]:
    """``nightsky sweep``'s object: one components file per value of ``field`` (written to
    ``folder``, from ``base`` or the shipped set), each loaded with ``load(path)`` and played on
    the same seeds. GameError/OptionError name a bad field or value before any game is played."""
    from nightsky.sim.design import get_field, provenance, raw_components, write_variant
    from nightsky.sim.sweep import measure

    values = parse_values(values_text)
    shipped = get_field(raw_components(game_id, base), field)
    if isinstance(shipped, dict | list):
        raise OptionError(f"--set: {field} is a table or a list, not a value")
    folder.mkdir(parents=True, exist_ok=True)
    loaded = []
    for v in values:  # every value's file is checked before the first game
        path = write_variant(game_id, folder / variant_name(field, v), {field: v}, base)
        loaded.append((v, path, load(str(path))))
    points = []
    for v, path, g in loaded:
        results = play(_lab_match(g, spec_text, seed), games, f"{field}={v}")
        point = measure(results, g.num_players)
        point.update(value=v, components=str(path),
                     provenance=provenance(command, game_id=game_id, seed=seed,
                                           agents=[spec_text], options=g.params, games=games))
        points.append(point)
    return {
        "game": game_id, "field": field, "shipped": shipped, "values": values,
        "agents": spec_text, "games": games, "seed": seed, "command": shlex.join(command),
        "points": points,
    }
