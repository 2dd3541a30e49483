"""``nightsky new-game NAME`` writes a working game package: it imports, plays by the contract,
and its own rule tests pass (the full-suite run of a scaffold is the lead's merge check)."""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import nightsky.games
from nightsky.cli import _load_commands, app
from nightsky.cli.new_game import names, scaffold
from nightsky.core import CHANCE, Evaluator
from nightsky.core.registry import register, unregister


@pytest.fixture
def checkout(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "src" / "nightsky" / "games").mkdir(parents=True)
    nightsky.games.__path__.append(str(tmp_path / "src" / "nightsky" / "games"))
    yield tmp_path
    nightsky.games.__path__.remove(str(tmp_path / "src" / "nightsky" / "games"))
    unregister("moon-race")


def test_names_are_spelled_for_every_place() -> None:
    assert names("moon-race") == {
        "id": "moon-race", "pkg": "moon_race", "cls": "MoonRace", "title": "Moon Race",
        "prefix": "MR",
    }
    for bad in ("Moon", "moon_race", "1moon", "moon--race", "", "class"):
        with pytest.raises(ValueError, match="game name"):
            names(bad)


def test_the_scaffold_plays_by_the_contract_and_passes_its_rule_tests(checkout: Path) -> None:
    written = scaffold("moon-race", checkout)
    rel = {p.relative_to(checkout).as_posix() for p in written}
    for role in ("constants", "actions", "state", "evaluator", "observer", "ui", "svg",
                 "tutorials", "game"):
        assert f"src/nightsky/games/moon_race/{role}.py" in rel
    howto = (checkout / "src/nightsky/games/moon_race/howto.md").read_text()
    assert [h for h in howto.splitlines() if h.startswith("## ")] == [
        "## Set-up", "## A turn", "## The end", "## Scoring"]
    link = checkout / "docs" / "rules" / "moon-race.md"
    assert link.is_symlink() and link.read_text().startswith("# Moon Race: rule catalogue")
    game_cls = importlib.import_module("nightsky.games.moon_race").GAME
    register(game_cls)
    game = game_cls(players=3)
    assert isinstance(game.evaluator, Evaluator) and type(game.evaluator) is not Evaluator
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_players()[0]
        action = state.sample_chance(rng) if seat == CHANCE else rng.choice(
            state.legal_actions(seat))
        if seat != CHANCE:
            assert game.parse_action(str(action)) == action
            assert state.resample(seat, rng).view(seat) == state.view(seat)
            assert len(game.make_observer().observation(state, seat)) == 17
            assert "<svg" in (game.ui.board_svg(state, seat) or "")
        state.apply(action, seat)
        assert sorted(sum(state.census().values(), [])) == sorted(f"c{c}" for c in range(1, 9))
    assert game.tutorial("swap-a-low-card").build().current_players() == (0,)
    tests = checkout / "tests" / "games" / "moon_race" / "test_rules.py"
    spec = importlib.util.spec_from_file_location("moon_race_rules", tests)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ran = [name for name in dir(module) if name.startswith("test_")]
    for name in ran:
        getattr(module, name)()
    assert len(ran) >= 8


def test_the_command_refuses_a_game_that_exists_and_changes_nothing(checkout: Path) -> None:
    _load_commands()
    runner = CliRunner()
    first = runner.invoke(app, ["new-game", "moon-race", "--root", str(checkout)])
    assert first.exit_code == 0, first.output
    assert "wrote src/nightsky/games/moon_race/state.py" in first.output
    state = checkout / "src" / "nightsky" / "games" / "moon_race" / "state.py"
    state.write_text("# edited by hand\n")
    again = runner.invoke(app, ["new-game", "moon-race", "--root", str(checkout)])
    assert again.exit_code == 2 and "already there, nothing written" in again.output
    assert state.read_text() == "# edited by hand\n"
    bad = runner.invoke(app, ["new-game", "Moon Race", "--root", str(checkout)])
    assert bad.exit_code == 2 and "game name" in bad.output


def test_the_scaffold_speaks_in_words_on_the_terminal_and_in_its_lessons(
    checkout: Path,
) -> None:
    """The terminal drawing and a lesson's steps (a drawn card too) are players' words, not
    the view's JSON keys or the notation: the words scan and the learn pages read them."""
    from nightsky.core.learn import lesson_steps
    from tests.core.test_words_scan import TERMINAL_KINDS, offenders

    scaffold("moon-race", checkout)
    game_cls = importlib.import_module("nightsky.games.moon_race").GAME
    register(game_cls)
    game = game_cls(players=2)
    rng = random.Random(7)
    state = game.new_initial_state()
    drawings = [game.ui.render(state, None, ["Ana", "Bo"])]
    while not state.is_terminal():
        seat = state.current_players()[0]
        state.apply(state.sample_chance(rng) if seat == CHANCE else rng.choice(
            state.legal_actions(seat)), seat)
        drawings += [game.ui.render(state, v, ["Ana", "Bo"]) for v in (None, 0)]
    bad = [o for d in drawings for o in offenders(d, "moon-race")
           if o.split(":")[0] in TERMINAL_KINDS]
    assert not bad and "Ana:" in drawings[-1], bad
    steps = lesson_steps(game.tutorial("swap-a-low-card"), ["Ana", "Bo"])
    assert any(s.seat == CHANCE for s in steps)
    assert all(s.label and s.label != s.notation for s in steps), steps
