"""Loading component data files (``games/<id>/data/*.toml``) with clear errors.

A data file is TOML validated by a pydantic model of the game's own. Errors name the file, the
entry and the field. Every entry records its provenance (``source``): ``rulebook``, ``reference``
or ``designed``; designed entries say why in ``why`` (or the file says it once in its header).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable
from functools import lru_cache, wraps
from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from nightsky.core.errors import ComponentError

Source = Literal["rulebook", "reference", "designed"]

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


class Component(BaseModel):
    """Base of component entries: forbids unknown fields and carries provenance."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)
    source: Source
    """Where the entry comes from: rulebook, reference or designed."""
    why: str = ""
    """Why a designed entry is as it is (or where a fact comes from)."""


def data_path(package: str, filename: str) -> Path:
    """Path of a data file shipped inside a game package (``package.data/filename``)."""
    return Path(str(resources.files(package).joinpath("data", filename)))


MAX_COMPONENT_BYTES = 1024 * 1024
"""A user's component file is read only if it is a regular file of at most this size."""


def load_toml(path: str | Path) -> dict:
    """Read a component TOML file. A user's path is read only if it names a regular file of
    at most 1 MB; errors say what is wrong with the file, never what it holds."""
    text = _read_regular_file(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # Python 3.14 sets lineno/colno; before, the position ends the parser's message.
        line, col = getattr(exc, "lineno", None), getattr(exc, "colno", None)
        reason = str(getattr(exc, "msg", "") or exc)
        found = re.search(r"\s*\(at line (\d+), column (\d+)\)\s*$", reason)
        if found:
            line, col = line or int(found.group(1)), col or int(found.group(2))
            reason = reason[: found.start()]
        elif "end of document" in reason:
            line, col = text.count("\n") + 1, len(text) - text.rfind("\n")
        where = f" (line {line}, column {col})" if line else ""
        # Some reasons quote a key or a character of the file: keep only their fixed words, so
        # that an error never shows what a file holds.
        reason = next((fixed for fixed in _ECHOING if reason.startswith(fixed)), reason)
        raise ComponentError(f"{_name(path)}: not valid TOML{where}: {reason}") from None


_ECHOING = (
    "Found invalid character", "Illegal character", "Cannot declare", "Cannot mutate",
    "Cannot redefine", "Duplicate inline table key",
)
"""Starts of tomllib's reasons that go on to quote the file."""


def _read_regular_file(path: str | Path) -> str:
    name = _name(path)
    try:
        p = Path(path)
        info = p.stat()
        if not stat.S_ISREG(info.st_mode):
            raise ComponentError(f"{name}: components must name a regular file")
        if info.st_size > MAX_COMPONENT_BYTES:
            raise ComponentError(f"{name}: component file larger than 1 MB")
        with p.open("rb") as f:
            data = f.read(MAX_COMPONENT_BYTES + 1)
    except ComponentError:
        raise
    except (OSError, ValueError) as exc:  # missing, unreadable, a NUL byte, too long a name
        reason = getattr(exc, "strerror", None) or "not a usable path"
        raise ComponentError(f"{name}: cannot read component file ({reason})") from None
    if len(data) > MAX_COMPONENT_BYTES:
        raise ComponentError(f"{name}: component file larger than 1 MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ComponentError(f"{name}: component file is not UTF-8 text") from None


def _name(path: str | Path) -> str:
    """How an error names a component file: its path, shortened and printable."""
    text = str(path)
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 200 else text[:100] + "..." + text[-60:]


def load_components(path: str | Path, model: type[M]) -> M:
    """Read and validate a component file; ComponentError names file, entry and field."""
    raw = load_toml(path)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        name = _name(Path(path).name)
        raise ComponentError(describe_errors(exc, raw, lambda _table: name)) from None


ENTRY_LABELS = ("name", "id", "key", "code", "title")
"""Keys that name an entry in an error's location, in order of preference."""


def describe_errors(
    exc: ValidationError,
    raw: dict,
    file_of: Callable[[str], str],
    labels: tuple[str, ...] = ENTRY_LABELS,
) -> str:
    """Every error of a validation, one a line, as ``file: location: message`` (``file_of`` names
    the file a top-level table came from); entries are named by their label where they have
    one, and a check across tables is located as such instead of by an empty path."""
    parts = []
    for err in exc.errors():
        loc = list(err["loc"])
        fname = file_of(str(loc[0])) if loc else file_of("")
        where = ".".join(str(x) for x in loc)
        if not loc:
            where = "(cross-check of the whole file)"
        elif len(loc) >= 2 and isinstance(loc[1], int):
            entries = raw.get(str(loc[0]), [])
            if isinstance(entries, list) and loc[1] < len(entries):
                entry = entries[loc[1]]
                label = next(
                    (entry[k] for k in labels if isinstance(entry, dict) and k in entry),
                    None,
                )
                if label is not None:
                    where = f"{loc[0]}[{loc[1]}] ({label!r})" + "".join(
                        f".{x}" for x in loc[2:]
                    )
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{fname}: {where}: {msg}")
    more = f"\n({len(parts)} errors)" if len(parts) > 1 else ""
    return "\n".join(parts) + more


def cached_per_file(load: Callable[[str], T]) -> Callable[[str], T]:
    """Cache a loader of a components file (``""``: the shipped one) per version of the file.

    The key is the path with the file's modification time and size, so a file edited since
    it was last loaded (a designer trying a change in a running server or notebook) is read
    and validated again instead of served stale.
    """

    @lru_cache(maxsize=32)
    def cached(path: str, version: tuple[int, int] | None) -> T:
        return load(path)

    @wraps(load)
    def loader(path: str = "") -> T:
        try:
            st = os.stat(path) if path else None
        except (OSError, ValueError):  # ValueError: e.g. a NUL byte in the path
            st = None  # reading it fails with the loader's own clear error
        return cached(path, (st.st_mtime_ns, st.st_size) if st else None)

    return loader
