"""Loading component data files (``games/<id>/data/*.toml``) with clear errors.

A data file is TOML validated by a pydantic model of the game's own. Errors name the file, the
entry and the field. Every entry records its provenance (``source``): ``rulebook``, ``reference``
or ``designed``; designed entries say why in ``why`` (or the file says it once in its header).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from nightsky.core.errors import ComponentError

Source = Literal["rulebook", "reference", "designed"]

M = TypeVar("M", bound=BaseModel)


class Component(BaseModel):
    """Base of component entries: forbids unknown fields and carries provenance."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source: Source
    why: str = ""


def data_path(package: str, filename: str) -> Path:
    """Path of a data file shipped inside a game package (``package.data/filename``)."""
    return Path(str(resources.files(package).joinpath("data", filename)))


def load_toml(path: str | Path) -> dict:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ComponentError(f"{p}: cannot read component file ({exc.strerror})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentError(f"{p}: not valid TOML: {exc}") from None


def load_components(path: str | Path, model: type[M]) -> M:
    """Read and validate a component file; ComponentError names file, entry and field."""
    raw = load_toml(path)
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = list(err["loc"])
        # Point at the entry by its name where the entry has one, not only its index.
        where = ".".join(str(x) for x in loc)
        if len(loc) >= 2 and isinstance(loc[1], int):
            entries = raw.get(str(loc[0]), [])
            if isinstance(entries, list) and loc[1] < len(entries):
                entry = entries[loc[1]]
                label = next(
                    (entry[k] for k in ("name", "id", "key", "code", "title")
                     if isinstance(entry, dict) and k in entry),
                    None,
                )
                if label is not None:
                    where = f"{loc[0]}[{loc[1]}] ({label!r})" + "".join(
                        f".{x}" for x in loc[2:]
                    )
        raise ComponentError(f"{Path(path).name}: {where}: {err['msg']}") from None
