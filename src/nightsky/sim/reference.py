"""The generated reference of every game's components file (``docs/components-reference.md``).

For each game: the shipped files and, per pydantic model of its ``components`` module (in the
order the module defines them), every field with its type, its allowed range (bounds, lengths,
patterns, choices), its default and its meaning. The meaning is the field's ``description``,
else the docstring written under it, else the comment on its line. Regenerate with
``python -m nightsky.sim.reference > docs/components-reference.md`` (a test checks it is
current).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import typing
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from nightsky.core.registry import game_class, game_ids
from nightsky.sim.design import shipped_files

BASE_FIELDS = {"source", "why"}
"""Provenance fields every entry has (``Component``); described once at the top."""


def _type(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a!r}`" if a != "" else "`''`" for a in args)
    if origin in (list, tuple, dict) or origin is not None:
        name = getattr(origin, "__name__", str(origin))
        if name == "UnionType" or origin is typing.Union:
            return " or ".join(_type(a) for a in args)
        inner = ", ".join("..." if a is Ellipsis else _type(a) for a in args)
        return f"{name}[{inner}]"
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def _range(info: FieldInfo) -> str:
    parts = []
    for m in info.metadata:
        for attr, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            v = getattr(m, attr, None)
            if v is not None:
                parts.append(f"{sign} {v}")
        for attr, what in (("min_length", "at least"), ("max_length", "at most")):
            v = getattr(m, attr, None)
            if v is not None:
                parts.append(f"{what} {v} long")
        pattern = getattr(m, "pattern", None)
        if pattern is not None:
            parts.append(f"pattern `{pattern}`")
    return ", ".join(parts)


def _default(info: FieldInfo) -> str:
    if info.default is not PydanticUndefined:
        return f"`{info.default!r}`"
    if info.default_factory is not None:
        return "empty"
    return "required"


def _meanings(cls: type) -> dict[str, str]:
    """Field name -> the docstring under it or the comment on its line, from the source."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    tree = ast.parse(source)
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    out: dict[str, str] = {}
    for i, node in enumerate(body):
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            continue
        name = node.target.id
        nxt = body[i + 1] if i + 1 < len(body) else None
        if (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)):
            out[name] = " ".join(nxt.value.value.split())
            continue
        comment = re.search(r"#\s*(.+)$", lines[(node.end_lineno or node.lineno) - 1])
        if comment:
            out[name] = comment.group(1).strip()
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def model_markdown(cls: type[BaseModel]) -> list[str]:
    """One model: its docstring and a table of its fields."""
    doc = " ".join((cls.__doc__ or "").split())
    meanings: dict[str, str] = {}
    for klass in reversed(cls.__mro__):  # a subclass's own words win
        if isinstance(klass, type) and issubclass(klass, BaseModel):
            meanings.update(_meanings(klass))
    out = [f"#### `{cls.__name__}`", ""]
    if doc and not doc.startswith(("A base class", "Usage docs")):
        out += [doc, ""]
    out += ["| field | type | allowed | default | meaning |", "|---|---|---|---|---|"]
    for name, info in cls.model_fields.items():
        if name in BASE_FIELDS:
            continue
        meaning = info.description or meanings.get(name, "")
        out.append(f"| `{name}` | {_cell(_type(info.annotation))} | {_cell(_range(info))} | "
                   f"{_cell(_default(info))} | {_cell(meaning)} |")
    return [*out, ""]


def game_markdown(game_id: str) -> list[str]:
    """One game's section: its files and its models."""
    cls = game_class(game_id)
    package = cls.__module__.rsplit(".", 1)[0]
    module = importlib.import_module(f"{package}.components")
    models = [
        obj for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, BaseModel)
        and obj.__module__ == module.__name__
    ]
    models.sort(key=lambda m: inspect.getsourcelines(m)[1])
    files = ", ".join(f"`{p.name}`" for p in shipped_files(game_id))
    out = [f"## {cls.info.title} (`{game_id}`)", "",
           f"Shipped files: {files} (`nightsky components {game_id} --export FILE` writes them "
           f"as one file). Models: `{module.__name__}`.", ""]
    for m in models:
        out += model_markdown(m)
    return out


def reference_markdown() -> str:
    """The whole reference page."""
    out = [
        "# Components files: the reference",
        "",
        "Generated from the pydantic models that validate every components file "
        "(`python -m nightsky.sim.reference > docs/components-reference.md`; "
        "`tests/sim/test_lab.py` checks it is current). How to edit, check, compare and sweep a "
        "file: [simulate.md](simulate.md#designing-with-components-files).",
        "",
        "Every entry (a card, a board table) also has `source`, one of `rulebook`, "
        "`reference` or `designed` (where the fact comes from), and `why` (a designed entry "
        "says why; optional). Tables and lists of entries are written as in the shipped file; "
        "*allowed* gives the bounds the file is checked against, and cross-field rules (counts "
        "the rulebook fixes, names that must exist) are checked after the fields and reported "
        "as a cross-check.",
        "",
    ]
    # Only a game that ships a components file has one to describe (a new game may keep its
    # components in code and has no ``components`` module).
    for g in game_ids():
        if shipped_files(g):
            out += game_markdown(g)
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    print(reference_markdown(), end="")
