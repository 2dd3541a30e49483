"""Plug-ins: an installed distribution adds games and agents through the entry-point groups
``nightsky.games`` and ``nightsky.agents``, with no change to nightsky."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import nightsky
from nightsky.agents import base as agents_base
from nightsky.agents import make_agent
from nightsky.core import registry
from nightsky.core.game import GameInfo
from nightsky.core.registry import game_class, game_ids, load_game
from tests.support.toygame import ToyGame

PLUGIN = Path(__file__).resolve().parent.parent / "plugin_pkg"


class PluginToy(ToyGame):
    """A game a fake plug-in declares (the toy under another id)."""

    info = GameInfo(**{**ToyGame.info.__dict__, "id": "plugin-toy", "title": "Plug-in toy"})


class ClashingToy(ToyGame):
    """A plug-in game that claims a shipped game's id."""

    info = GameInfo(**{**ToyGame.info.__dict__, "id": "star-fire"})


class FirstAgent:
    """A plug-in agent: the first legal action."""

    name = "first"

    def __init__(self, **kwargs: object) -> None:
        self.kwargs = kwargs

    def choose(self, state, player, rng):  # type: ignore[no-untyped-def]
        return state.legal_actions(player)[0]


@pytest.fixture
def fake_entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[EntryPoint]]]:
    """Replace the installed entry points by the lists the test fills in."""
    eps: dict[str, list[EntryPoint]] = {"nightsky.games": [], "nightsky.agents": []}
    agents_base.agent_names()  # the built-in agents first: they register once, on import
    factories = dict(agents_base._FACTORIES)
    monkeypatch.setattr(registry, "entry_points", lambda group: eps[group])
    monkeypatch.setattr(agents_base, "entry_points", lambda group: eps[group])
    registry._plugins.cache_clear()
    agents_base._load_plugins.cache_clear()
    yield eps
    registry._plugins.cache_clear()
    agents_base._load_plugins.cache_clear()
    agents_base._FACTORIES.clear()
    agents_base._FACTORIES.update(factories)


def _ep(name: str, value: str, group: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=group)


def test_entry_point_games_join_the_registry(
    fake_entry_points: dict[str, list[EntryPoint]],
) -> None:
    fake_entry_points["nightsky.games"] += [
        _ep("plugin-toy", f"{__name__}:PluginToy", "nightsky.games"),
        _ep("toy-module", "tests.support.toygame", "nightsky.games"),  # no GAME: skipped
        _ep("broken", "no_such_module_anywhere:Game", "nightsky.games"),
        _ep("clash", f"{__name__}:ClashingToy", "nightsky.games"),
    ]
    with pytest.warns(RuntimeWarning) as caught:
        ids = game_ids()
    said = " | ".join(str(w.message) for w in caught)
    assert "plugin-toy" in ids
    assert game_class("plugin-toy") is PluginToy
    assert load_game("plugin-toy", players=3).num_players == 3
    assert "skipping the game plug-in 'broken'" in said  # a broken plug-in: the rest still load
    assert "'toy-module'" in said and "not a Game subclass" in said
    assert "reuses the id 'star-fire'" in said
    assert game_class("star-fire") is not ClashingToy  # the shipped game keeps its id
    assert "plugin-toy" not in registry.packaged_game_ids()


def test_entry_point_agents_build_from_specs(
    fake_entry_points: dict[str, list[EntryPoint]],
) -> None:
    fake_entry_points["nightsky.agents"] += [
        _ep("first", f"{__name__}:FirstAgent", "nightsky.agents"),
        _ep("random", f"{__name__}:FirstAgent", "nightsky.agents"),  # a built-in name: ignored
        _ep("broken", "no_such_module_anywhere:Agent", "nightsky.agents"),
    ]
    assert {"first", "broken", "random"} <= set(agents_base.agent_names())
    agent = make_agent("first:depth=2")
    assert isinstance(agent, FirstAgent) and agent.kwargs == {"depth": 2}
    assert agent.name == "first:depth=2"
    assert not isinstance(make_agent("random"), FirstAgent)
    with pytest.raises(nightsky.GameError, match="agent plug-in 'broken'.*failed to load"):
        make_agent("broken")


def _venv_with_nightsky(where: Path) -> Path:
    """A fresh virtual environment that sees the nightsky under test and this environment's
    packages (a .pth file: nightsky's own folder first, then this site-packages, whose own .pth
    files, editable installs included, are processed), but installs into its own."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    py = where / "bin" / "python"
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    here = Path(nightsky.__file__).resolve().parent.parent
    parent = sysconfig.get_path("purelib")
    (Path(purelib) / "_nightsky_under_test.pth").write_text(
        f"{here}\nimport site; site.addsitedir({parent!r})\n"
    )
    return py


@pytest.mark.slow
def test_an_installed_plugin_package_adds_a_game_and_an_agent(tmp_path: Path) -> None:
    """tests/plugin_pkg, a distribution of its own, installed with pip into a fresh virtual
    environment: its game and agent play through the CLI and appear in the RL faces."""
    py = _venv_with_nightsky(tmp_path / "venv")
    src = tmp_path / "plugin_pkg"
    shutil.copytree(PLUGIN, src, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
         "--no-build-isolation", "--no-index", str(src)],
        capture_output=True, text=True, timeout=300,
    )
    assert install.returncode == 0, install.stdout + install.stderr

    def cli(*args: str) -> str:
        run = subprocess.run([str(py), "-m", "nightsky", *args], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, f"nightsky {' '.join(args)}:\n{run.stdout}{run.stderr}"
        return run.stdout

    listed = json.loads(cli("games", "--json"))
    ids = [g["id"] for g in listed]
    assert "take-away" in ids and "star-fire" in ids
    played = cli("play", "take-away", "--seats", "greedy-take,random", "--seed", "3")
    assert "Final score" in played and "take2" in played
    summary = json.loads(cli("simulate", "take-away", "--agents", "greedy-take,greedy-take",
                             "--option", "stones=9", "--games", "6", "--json"))
    assert summary["games"] == 6
    # Both take two while they may: 9 = 2+2+2+2+1, so seat 0 makes the fifth take, the last.
    assert summary["wins"] == [1.0, 0.0]

    code = (
        "import gymnasium, nightsky.rl\n"
        "from nightsky.rl.pettingzoo import take_away_v0\n"
        "env = take_away_v0.env(players=3); env.reset(seed=0)\n"
        "gym = gymnasium.make('nightsky/take-away-v0'); gym.reset(seed=0)\n"
        "print(env.num_agents, gym.action_space)\n"
    )
    rl = subprocess.run([str(py), "-c", code], cwd=tmp_path, capture_output=True, text=True,
                        timeout=300)
    assert rl.returncode == 0, rl.stderr[-3000:]
    assert rl.stdout.split() == ["3", "Discrete(2)"]
