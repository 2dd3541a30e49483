"""No SVG drawer runs longer than about a screen (issue 51, "uniform game rooms"): every
function in a packaged game's ``svg.py`` and in the shared ``games/svgkit.py`` is at most
``MAX_LINES`` lines, so a board is read as named parts (header, panels, cards, legend)."""

from __future__ import annotations

import ast
import importlib
import textwrap
from pathlib import Path

import pytest

import nightsky.games.svgkit as svgkit
from nightsky.core.registry import game_class, packaged_game_ids

MAX_LINES = 60
"""The longest a drawer function may be, from its ``def`` line to its last line."""


def long_functions(source: str) -> list[tuple[str, int, int]]:
    """Each function (nested ones too) longer than ``MAX_LINES``: name, first line, length."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_LINES:
                out.append((node.name, node.lineno, length))
    return out


def _drawer_files() -> list[Path]:
    """The shared kit and the ``svg.py`` of every packaged game, found through the registry."""
    files = [Path(svgkit.__file__)]
    for game_id in packaged_game_ids():
        module = importlib.import_module(game_class(game_id).__module__)
        assert module.__file__ is not None
        files.append(Path(module.__file__).parent / "svg.py")
    return files


def test_every_game_has_a_drawer_module_to_check() -> None:
    files = _drawer_files()
    assert len(files) == len(packaged_game_ids()) + 1
    missing = [str(f) for f in files if not f.is_file()]
    assert not missing, f"no drawer module at {missing}"


@pytest.mark.parametrize("path", _drawer_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_drawer_function_is_longer_than_a_screen(path: Path) -> None:
    long = long_functions(path.read_text())
    assert not long, (
        f"{path}: functions over {MAX_LINES} lines (split them into named helpers, shared "
        f"ones in games/svgkit.py): "
        + ", ".join(f"{name} (line {line}, {n} lines)" for name, line, n in long)
    )


def _function(name: str, body_lines: int, nested: bool = False) -> str:
    body = "\n".join(f"    x{k} = {k}" for k in range(body_lines))
    src = f"def {name}() -> None:\n{body}\n"
    return f"class Holder:\n{textwrap.indent(src, '    ')}" if nested else src


def test_the_check_measures_from_def_to_last_line() -> None:
    assert long_functions(_function("fits", MAX_LINES - 1)) == []
    assert long_functions(_function("too_long", MAX_LINES)) == [("too_long", 1, MAX_LINES + 1)]
    # methods and nested functions count too
    assert [f[0] for f in long_functions(_function("method", MAX_LINES, nested=True))] == [
        "method"]
