"""The CLI with Starbots (SL-1.1, SL-14.8): ``--players`` counts live seats, ``--agents`` names
one agent per live seat, Starbots come from ``--option starbots=N`` and their difficulty from
``--option starbot_level=NAME``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from nightsky.cli import _load_commands, app

_load_commands()
runner = CliRunner()


def simulate(args: str):
    return runner.invoke(app, ["simulate", "starlight", "--games", "2", "--json", *args.split()])


def test_SL_1_1_simulate_live_seats_and_starbots():
    out = simulate("--players 1 --option starbots=2 --option starbot_level=easy --agents greedy")
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["players"] == 1 and summary["games"] == 2
    assert len(summary["agents"]) == 3 and summary["agents"][0] == "greedy"
    assert len(summary["mean_scores"]) == 3 and abs(sum(summary["wins"]) - 1) < 1e-9


def test_SL_1_1_agents_name_live_seats_only():
    out = simulate("--players 1 --option starbots=2 --agents greedy,greedy")
    assert out.exit_code != 0 and "one per seat" in out.output
    out = simulate("--players 2 --option starbots=1 --agents random,greedy")
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["agents"][:2] == ["random", "greedy"]


def test_SL_1_1_at_most_five_seats_and_SL_14_8_known_levels():
    out = simulate("--players 3 --option starbots=3 --agents random")
    assert out.exit_code != 0 and "SL-1.1" in out.output
    out = simulate("--players 1 -o starbots=1 -o starbot_level=godlike --agents random")
    assert out.exit_code != 0 and "easy, medium, hard, expert" in out.output


def test_play_renders_board_and_mats_to_the_end():
    args = "play starlight --players 1 --seats greedy --seed 3 -o starbots=1 -o max_rounds=3"
    out = runner.invoke(app, args.split())
    assert out.exit_code == 0, out.output
    text = out.output
    assert "Sky Board" in text and "Rondel" in text and "(Starbot)" in text
    assert "Final score" in text


def test_SL_1_1_starbot_seats_are_named_by_the_game() -> None:
    """Seats the rules play (Starbots) are labelled as Starbots with their level, not as agents."""
    from nightsky import load_game
    from nightsky.cli.commands import seat_names

    g = load_game("starlight", players=1, starbots=2, starbot_level="hard")
    assert seat_names(g, ["greedy"]) == ["greedy", "Starbot 1 (hard)", "Starbot 2 (hard)"]
