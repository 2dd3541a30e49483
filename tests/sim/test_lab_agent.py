"""The lab's default agent (``Game.lab_agent``): one that finishes the game by its goal.

The Stars Are Right's ``greedy`` games end at the 1,000-round safeguard cap (TSAR-10.3), so a
balance of them gives no verdict; its lab agent, ``tsar-planner``, plays to the goal. The lab
commands seat it when ``--agents`` is left out, through the game's declaration only."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nightsky.agents.base import make_agent
from nightsky.cli import _load_commands, app
from nightsky.core.registry import game_class, game_ids

_load_commands()
runner = CliRunner()


@pytest.mark.parametrize("game", game_ids())
def test_every_game_declares_a_lab_agent_it_can_seat(game: str) -> None:
    spec = game_class(game).lab_agent
    assert make_agent(spec, game) is not None


def test_the_stars_are_right_finishes_its_games_by_default() -> None:
    assert game_class("stars-are-right").lab_agent == "tsar-planner"
    args = ["simulate", "stars-are-right", "--players", "2", "--games", "2", "--seed", "11",
            "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["agents"] == ["tsar-planner", "tsar-planner"]
    assert data["end_conditions"] == {"goal": 2}
    assert "--agents tsar-planner,tsar-planner" in data["provenance"]["command"]
    # What it replaces: greedy in every seat plays the same deals to the round cap.
    res = runner.invoke(app, [*args, "--agents", "greedy"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["end_conditions"] == {"rounds": 2}


def test_balance_defaults_to_the_lab_agent() -> None:
    res = runner.invoke(app, ["balance", "stars-are-right", "--players", "2", "--games", "2",
                              "--seed", "11", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["agents"] == "tsar-planner"
    (count,) = data["counts"]
    assert count["end_conditions"] == {"goal": 2} and not count["withheld"]
