"""``nightsky new-game NAME``: a working game package to start a sixth game from.

It writes, in a source checkout, ``src/nightsky/games/<pkg>/`` with one module per role
(``constants``, ``actions``, ``state``, ``evaluator``, ``observer``, ``ui``, ``svg``,
``tutorials``, ``game``, as docs/developing-a-game.md prescribes), its ``rules.md`` and
``howto.md`` (the "How to play" page: set-up, a turn, the end, scoring), the
symlink ``docs/rules/<id>.md``, and ``tests/games/<pkg>/test_rules.py`` naming every rule id.
The game is "Secret Sum", a small card game with chance, hidden hands, a log secret and
``resample``: it passes every all-games suite as written, so a contributor replaces its rules
step by step with the suites green. No existing file is edited.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path
from typing import Annotated

import typer

from nightsky.cli.app import app, console, fail
from nightsky.cli.new_game_templates import TEMPLATES

NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


def names(game_id: str) -> dict[str, str]:
    """The spellings of a game id the templates use: ``id`` (``moon-race``), ``pkg``
    (``moon_race``), ``cls`` (``MoonRace``), ``title`` (``Moon Race``) and ``prefix``, the rule
    ids' prefix (``MR``)."""
    if not NAME.match(game_id) or len(game_id) > 40:
        raise ValueError(
            f"game name {game_id!r}: use lower-case letters, digits and single dashes, starting "
            "with a letter (at most 40 characters), e.g. moon-race"
        )
    words = game_id.split("-")
    pkg = "_".join(words)
    if keyword.iskeyword(pkg):
        raise ValueError(f"game name {game_id!r} is a Python keyword; choose another")
    prefix = "".join(w[0] for w in words).upper()[:5]
    if len(prefix) < 2:
        prefix = game_id.replace("-", "")[:3].upper()
    return {
        "id": game_id,
        "pkg": pkg,
        "cls": "".join(w.capitalize() for w in words),
        "title": " ".join(w.capitalize() for w in words),
        "prefix": prefix,
    }


def find_root(start: Path) -> Path:
    """The source checkout holding ``start``: the first folder upwards with
    ``src/nightsky/games``."""
    for folder in (start, *start.parents):
        if (folder / "src" / "nightsky" / "games").is_dir():
            return folder
    raise ValueError(
        f"{start} is not inside a nightsky source checkout (no src/nightsky/games above it); "
        "run new-game from the checkout or give --root"
    )


def planned_files(root: Path, spell: dict[str, str]) -> dict[Path, str]:
    """Every file the scaffold writes, with its text."""
    out: dict[Path, str] = {}
    for rel, template in TEMPLATES.items():
        path = root / rel.format(**spell)
        out[path] = template.replace("{{", "\0").replace("}}", "\1").format(**spell).replace(
            "\0", "{"
        ).replace("\1", "}")
    return out


def scaffold(game_id: str, root: Path) -> list[Path]:
    """Write the new game's files under ``root``; refuse (changing nothing) where the game's
    package, rule page or tests exist already. Returns the paths written, the rule-page
    symlink last."""
    spell = names(game_id)
    files = planned_files(root, spell)
    link = root / "docs" / "rules" / f"{spell['id']}.md"
    package = root / "src" / "nightsky" / "games" / spell["pkg"]
    clash = [p for p in (package, link, root / "tests" / "games" / spell["pkg"]) if p.exists()]
    if clash or link.is_symlink():
        raise ValueError(f"{game_id}: already there, nothing written: {clash or [link]}")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(Path("..", "..", "src", "nightsky", "games", spell["pkg"], "rules.md"))
    return [*files, link]


@app.command("new-game")
def new_game(
    name: Annotated[str, typer.Argument(help="The new game's id, e.g. moon-race.")],
    root: Annotated[
        Path | None,
        typer.Option(help="The source checkout to write into (default: the one around here)."),
    ] = None,
) -> None:
    """Write a working game package NAME to start a new game from (docs/developing-a-game.md)."""
    try:
        base = find_root(root or Path.cwd())
        written = scaffold(name, base)
    except ValueError as exc:
        fail(str(exc))
    for path in written:
        console.print(f"wrote {path.relative_to(base)}", highlight=False)
    spell = names(name)
    console.print(
        f"\n{spell['title']} is registered as {spell['id']!r} and passes the shared suites as "
        "it is. Next: replace its rules (state.py, rules.md, the tests), then check it with\n"
        f"  python -m pytest -q tests/games/{spell['pkg']}\n"
        f"  python -m pytest -q -k {spell['id']} tests\n"
        "and write its golden fingerprints once it is right:\n"
        f"  python -m tests.support.golden --write {spell['id']}",
        highlight=False,
    )
