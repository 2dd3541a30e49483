"""Components files as a designer edits them: the shipped set, its hash, one field changed.

Nothing here knows a game: the shipped set is every ``data/*.toml`` of the game's package, which
together form the file that ``components=PATH`` accepts (a game reads the tables a user's file
holds in place of its own). A *field path* is dotted: table and key names, list positions
(``constellations.0``) or, in a list of entries, the entry's ``name``, ``id``, ``code``, ``key``
or slot number ``n`` (``constellations.aquila.slots.1.np``: the night points of the slot
numbered 1 of the constellation named aquila; see ``resolve``).
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import tomllib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from nightsky.core.components import load_toml
from nightsky.core.errors import ComponentError, OptionError
from nightsky.core.registry import game_class

LABELS = ("name", "id", "code", "key", "n")
"""Keys that name an entry of a list, in the order a path segment is matched against them."""


def shipped_files(game_id: str) -> list[Path]:
    """The game's shipped component files (``data/*.toml`` of its package), sorted."""
    package = game_class(game_id).__module__.rsplit(".", 1)[0]
    folder = resources.files(package).joinpath("data")
    if not folder.is_dir():  # a game that keeps its components in code
        return []
    return sorted(
        Path(str(folder.joinpath(f.name))) for f in folder.iterdir() if f.name.endswith(".toml")
    )


def shipped_text(game_id: str) -> str:
    """The shipped set as one TOML file (comments kept): what ``components --export`` writes.

    The files are joined in name order, each under a comment naming it; the result is checked
    to read back as the union of their tables."""
    parts = []
    merged: dict[str, Any] = {}
    files = shipped_files(game_id)
    if not files:
        raise ComponentError(f"{game_id} ships no components file")
    for path in files:
        text = path.read_text(encoding="utf-8")
        parts.append(f"# ---- {path.name} (shipped with nightsky) ----\n{text.rstrip()}\n")
        merged.update(tomllib.loads(text))
    out = "\n".join(parts)
    if tomllib.loads(out) != merged:  # a file with top-level keys after another's tables
        raise ComponentError(f"{game_id}: the shipped files do not join into one TOML file")
    return out


def components_hash(game_id: str, path: str | Path | None = None) -> str:
    """SHA-256 of the components a run plays: the user's file, or the shipped set."""
    digest = hashlib.sha256()
    if path:
        digest.update(Path(path).read_bytes())
    else:
        for p in shipped_files(game_id):
            digest.update(p.name.encode() + b"\0" + p.read_bytes())
    return digest.hexdigest()


def raw_components(game_id: str, path: str | Path | None = None) -> dict[str, Any]:
    """The tables of a components file (default: the shipped set) as plain data."""
    if path:
        return load_toml(path)
    return tomllib.loads(shipped_text(game_id))


def resolve(data: Any, field: str) -> tuple[Any, str | int]:
    """The container holding the last segment of dotted ``field`` and that segment's key.

    In a list a segment is a position (``0``) or the label of an entry (its ``name``, ``id``,
    ``code``, ``key`` or slot number ``n``); errors name the segment that does not exist."""
    parts = field.split(".")
    if not field or any(not p for p in parts):
        raise OptionError(f"field path {field!r}: use dotted names, e.g. board.daybreak")
    node = data
    for i, part in enumerate(parts):
        where = ".".join(parts[:i]) or "the file"
        if isinstance(node, dict):
            if part not in node:
                keys = ", ".join(sorted(node)) or "none"
                raise OptionError(f"field path {field!r}: {where} has no {part!r} (keys: {keys})")
            key: str | int = part
        elif isinstance(node, list):
            key = _list_index(node, part, field, where)
        else:
            raise OptionError(f"field path {field!r}: {where} is a value, not a table or list")
        if i == len(parts) - 1:
            return node, key
        node = node[key]  # type: ignore[index]
    raise AssertionError("unreachable")


def _list_index(items: list[Any], part: str, field: str, where: str) -> int:
    if re.fullmatch(r"\d+", part) and not any(
        isinstance(x, dict) and str(x.get("n")) == part for x in items
    ):
        k = int(part)
        if k >= len(items):
            raise OptionError(
                f"field path {field!r}: {where} has {len(items)} entries, not {k + 1}"
            )
        return k
    for label in LABELS:
        for k, x in enumerate(items):
            if isinstance(x, dict) and str(x.get(label, "")).lower() == part.lower():
                return k
    raise OptionError(f"field path {field!r}: no entry {part!r} in {where}")


def get_field(data: dict[str, Any], field: str) -> Any:
    """The value at dotted ``field``."""
    node, key = resolve(data, field)
    return node[key]


def set_field(data: dict[str, Any], field: str, value: Any) -> None:
    """Set dotted ``field`` (which must exist) to ``value``, in place."""
    node, key = resolve(data, field)
    node[key] = value


def dumps(data: dict[str, Any]) -> str:
    """Plain data as TOML: scalars and arrays as ``key = value``, tables as ``[table]``, lists
    of tables as ``[[table]]`` whose nested tables are written inline."""
    head: list[str] = []
    tables: list[str] = []
    for key, value in data.items():
        k = _key(key)
        if isinstance(value, dict):
            tables.append(f"\n[{k}]\n" + "".join(f"{_key(a)} = {_value(b)}\n"
                                                   for a, b in value.items()))
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            for entry in value:
                tables.append(f"\n[[{k}]]\n" + "".join(f"{_key(a)} = {_value(b)}\n"
                                                       for a, b in entry.items()))
        else:
            head.append(f"{k} = {_value(value)}\n")
    return "".join(head) + "".join(tables)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise ComponentError(f"cannot write {type(value).__name__} values as TOML")


def write_variant(
    game_id: str, out: Path, changes: dict[str, Any], base: str | Path | None = None
) -> Path:
    """Write ``base`` (default: the shipped set) with ``changes`` (dotted field -> value) to
    ``out``; returns ``out``."""
    data = raw_components(game_id, base)
    for field, value in changes.items():
        set_field(data, field, value)
    out.write_text(dumps(data), encoding="utf-8")
    return out


def provenance(
    command: Sequence[str],
    *,
    game_id: str,
    seed: int | str,
    agents: Sequence[str],
    options: dict[str, Any],
    games: int,
) -> dict[str, Any]:
    """What a report or JSON records so that it can be reproduced and told apart from a
    variant: the command line, seed, game count, agents, options, and the components file
    with its SHA-256 (``shipped``: the game's own set)."""
    from nightsky._version import __version__

    path = options.get("components") or None
    return {
        "command": shlex.join(command),
        "game": game_id,
        "seed": seed,
        "games": games,
        "agents": list(agents),
        "options": {k: v for k, v in options.items() if k != "players"},
        "components": {"file": str(path) if path else "shipped",
                       "sha256": components_hash(game_id, path)},
        "version": __version__,
    }
