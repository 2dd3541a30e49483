"""A components file sent to the studio: size-checked, validated by the same checker as
``nightsky components --check`` (every error at once, TOML syntax errors with their line and
column), and kept by its SHA-256 so that a job names it by hash, never by a server path."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import shutil
from pathlib import Path
from typing import Any

from nightsky.core.errors import GameError
from nightsky.core.registry import load_game
from nightsky.server.rooms import ServerError

NAME = "components.toml"
"""How error messages name an uploaded file."""

_AT = re.compile(r"\(line (\d+), column (\d+)\)")
_HASH = re.compile(r"[0-9a-f]{64}")


def check_size(text: str, field: str, limit: int) -> bytes:
    """The text as UTF-8, or 413 naming ``field`` when it is over ``limit`` bytes."""
    data = text.encode("utf-8")
    if len(data) > limit:
        raise ServerError(
            413, "components_too_large",
            f"{field}: {len(data):,} bytes; the studio takes components files of at most "
            f"{limit:,} bytes", field=field, limit=limit,
        )
    return data


def parse_errors(message: str, folder: str) -> list[dict[str, Any]]:
    """A ``ComponentError`` message as rows ``{line, column, location, message}``: one per
    error, the file's folder removed (a server path is never shown)."""
    rows = []
    for raw in message.replace(folder.rstrip("/") + "/", "").splitlines():
        if re.fullmatch(r"\(\d+ errors\)", raw.strip()):
            continue
        text = raw.removeprefix(NAME + ": ")
        at = _AT.search(text)
        location, sep, rest = text.partition(": ")
        if at or not sep:
            location, rest = "", text
        rows.append({
            "line": int(at.group(1)) if at else None,
            "column": int(at.group(2)) if at else None,
            "location": location,
            "message": rest,
        })
    return rows


def validate(game_id: str, data: bytes, scratch: Path) -> list[dict[str, Any]]:
    """Every error of ``data`` as a components file of ``game_id`` (empty: valid). Checked as
    ``nightsky components --check`` does: the game loads it at its default player count."""
    folder = scratch / f"check-{secrets.token_hex(8)}"
    folder.mkdir(parents=True)
    try:
        path = folder / NAME
        path.write_bytes(data)
        try:
            load_game(game_id, components=str(path))
        except GameError as exc:  # ComponentError, or an option the file breaks
            rows = parse_errors(str(exc), str(folder))
        else:
            return []
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    text = data.decode("utf-8", errors="replace")
    for row in rows:
        if row["line"] is None and row["location"] and not row["location"].startswith("("):
            found = locate(text, row["location"])
            if found is not None:
                row["line"], row["column"] = found
    return rows


_ENTRY = re.compile(r"([\w-]+)\[(\d+)\] \('.*'\)((?:\.[\w-]+)*)")


def locate(text: str, location: str) -> tuple[int, int] | None:
    """The line and column of a field error's ``location`` (``gods[1] ('G2').power``,
    ``board.daybreak``, ``constellations[0] ('aquila').slots.0.np``) in ``text``: the entry's
    ``[[table]]`` header, then each key (``key =``) or list position (the n-th inline table)
    after it. None where the text does not show it plainly (the error keeps its location)."""
    m = _ENTRY.fullmatch(location)
    parts = [m.group(1), m.group(2), *m.group(3).split(".")[1:]] if m else location.split(".")
    table = re.escape(parts[0])
    if len(parts) > 1 and parts[1].isdigit():
        heads = [h.end() for h in re.finditer(rf"(?m)^\s*\[\[\s*{table}\s*\]\]", text)]
        if int(parts[1]) >= len(heads):
            return None
        cursor, rest = heads[int(parts[1])], parts[2:]
    else:
        head = re.search(rf"(?m)^\s*\[\s*{table}\s*\]", text)
        cursor, rest = (head.end(), parts[1:]) if head else (0, parts)
    nxt = re.compile(r"(?m)^\s*\[").search(text, cursor)
    end = nxt.start() if nxt else len(text)
    for seg in rest:
        if seg.isdigit():
            for _ in range(int(seg) + 1):
                cursor = text.find("{", cursor, end) + 1
                if cursor == 0:
                    return None
            continue
        key = re.compile(rf"(?m)(?:^|[{{,\s])({re.escape(seg)})\s*=").search(text, cursor, end)
        if key is None:
            return None
        cursor = key.start(1)
    return text.count("\n", 0, cursor) + 1, cursor - text.rfind("\n", 0, cursor)


class Uploads:
    """Valid components files by game and SHA-256 (``<dir>/<game>/<sha256>.toml``)."""

    def __init__(self, root: Path, keep: int = 500) -> None:
        self.root = root
        self.keep = keep
        root.mkdir(parents=True, exist_ok=True)

    def add(self, game_id: str, data: bytes) -> dict[str, Any]:
        """Validate ``data`` and keep it; 422 with every error (``errors``) otherwise."""
        errors = validate(game_id, data, self.root)
        if errors:
            first = errors[0]
            where = (f" (line {first['line']}, column {first['column']})"
                     if first["line"] else f" ({first['location']})" if first["location"] else "")
            raise ServerError(
                422, "bad_component",
                f"text: {len(errors)} error{'s' if len(errors) > 1 else ''} in the components "
                f"file; first{where}: {first['message']}", field="text", errors=errors,
            )
        sha = hashlib.sha256(data).hexdigest()
        folder = self.root / game_id
        folder.mkdir(exist_ok=True)
        path = folder / f"{sha}.toml"
        if not path.exists():
            tmp = folder / f".{sha}.{secrets.token_hex(4)}"
            tmp.write_bytes(data)
            os.replace(tmp, path)
            self._prune(folder)
        return {"game": game_id, "sha256": sha, "bytes": len(data)}

    def path(self, game_id: str, sha: str, field: str) -> Path:
        """The kept file of ``sha``; 422 naming ``field`` when there is none."""
        path = self.root / game_id / f"{sha}.toml"
        if not _HASH.fullmatch(sha) or not path.is_file():
            raise ServerError(
                422, "unknown_upload",
                f"{field}: no checked {game_id} components file with hash {sha[:16]!r}; send "
                "it to POST /api/studio/uploads first (or give 'shipped')", field=field,
            )
        return path

    def _prune(self, folder: Path) -> None:
        # The oldest uploads go first: a job copies its files, so pruning never breaks one.
        files = sorted(folder.glob("*.toml"), key=lambda p: p.stat().st_mtime)
        for old in files[: max(0, len(files) - self.keep)]:
            old.unlink(missing_ok=True)
