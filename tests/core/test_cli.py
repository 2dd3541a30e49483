"""The CLI's stable flags and error handling, run in-process on the toy game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from nightsky.cli import _load_commands, app

_load_commands()
runner = CliRunner()


def test_games_json_lists_registered_games() -> None:
    out = runner.invoke(app, ["games", "--json"])
    assert out.exit_code == 0
    ids = [g["id"] for g in json.loads(out.stdout)]
    assert "toy-secret-sum" in ids


def test_simulate_json_has_the_stable_keys(tmp_path: Path) -> None:
    out = runner.invoke(
        app,
        [
            "simulate",
            "toy-secret-sum",
            "--players",
            "2",
            "--agents",
            "greedy,random",
            "--games",
            "40",
            "--seed",
            "1",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert set(summary) >= {
        "game",
        "players",
        "games",
        "agents",
        "wins",
        "mean_scores",
        "mean_actions",
        "games_per_second",
    }
    assert summary["games"] == 40 and abs(sum(summary["wins"]) - 1) < 1e-9
    # The toy game does not name its end conditions (State.end_condition): no count of them.
    assert "end_conditions" not in summary


def test_simulate_same_seed_same_summary_across_workers(tmp_path: Path) -> None:
    args = [
        "simulate",
        "toy-secret-sum",
        "--players",
        "3",
        "--agents",
        "random",
        "--games",
        "30",
        "--seed",
        "5",
        "--json",
    ]
    one = json.loads(runner.invoke(app, args).stdout)
    two = json.loads(runner.invoke(app, [*args, "--workers", "2"]).stdout)
    for key in ("wins", "mean_scores", "mean_actions"):
        assert one[key] == two[key]


def test_simulate_out_writes_summary_records_and_plots(tmp_path: Path) -> None:
    out = runner.invoke(
        app,
        [
            "simulate",
            "toy-secret-sum",
            "--agents",
            "random,random",
            "--games",
            "5",
            "--out",
            str(tmp_path / "run"),
        ],
    )
    assert out.exit_code == 0, out.output
    run = tmp_path / "run"
    assert (run / "summary.json").exists()
    assert len(list((run / "records").glob("*.json"))) == 5
    assert (run / "scores.png").stat().st_size > 1000
    assert (run / "length.png").stat().st_size > 1000
    rec = next((run / "records").glob("*.json"))
    ok = runner.invoke(app, ["replay", str(rec)])
    assert ok.exit_code == 0 and "ok" in ok.output


def test_bad_option_and_bad_agent_get_clear_errors() -> None:
    out = runner.invoke(
        app, ["simulate", "toy-secret-sum", "--agents", "random", "--option", "colour=red"]
    )
    assert out.exit_code == 2 and "no option 'colour'" in out.output
    out = runner.invoke(app, ["simulate", "toy-secret-sum", "--agents", "wizard"])
    assert out.exit_code == 2 and "unknown agent" in out.output
    out = runner.invoke(app, ["simulate", "no-such-game", "--agents", "random"])
    assert out.exit_code == 2 and "unknown game" in out.output
    out = runner.invoke(app, ["simulate", "toy-secret-sum", "--agents", "random", "-o", "oops"])
    assert out.exit_code == 2 and "KEY=VALUE" in out.output


def test_replay_refuses_a_broken_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nightsky-record/1"}')
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 1 and "malformed record" in out.output


def test_bench_json_reports_throughput() -> None:
    out = runner.invoke(app, ["bench", "toy-secret-sum", "--seconds", "0.2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["actions_per_second"] > 0 and data["clone_us"] > 0


def _commands() -> list[str]:
    from typer.main import get_command

    return sorted(get_command(app).commands)  # type: ignore[attr-defined]


def test_h_and_help_print_the_same_help_on_every_command() -> None:
    names = _commands()
    assert {"games", "play", "simulate", "tournament", "balance", "serve"} <= set(names)
    for cmd in [[], *([n] for n in names)]:
        short = runner.invoke(app, [*cmd, "-h"], env={"COLUMNS": "100"})
        long = runner.invoke(app, [*cmd, "--help"], env={"COLUMNS": "100"})
        assert short.exit_code == long.exit_code == 0, (cmd, short.output)
        assert short.output == long.output and "Usage:" in short.output, cmd


def test_version_prints_the_package_version() -> None:
    from nightsky import __version__

    out = runner.invoke(app, ["--version"])
    assert out.exit_code == 0 and f"nightsky {__version__}" in out.output


def test_shell_completion_is_on_and_completes_game_ids_and_choices() -> None:
    # The installed command in a process of its own (as a user's shell runs it): in-process,
    # typer's completion flags depend on state other CLI tests leave behind.
    script = Path(sys.executable).with_name("nightsky")
    # typer's own switch: take the shell from the argument instead of detecting the parent's.
    env = {**os.environ, "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    shown = subprocess.run([str(script), "--show-completion", "bash"], capture_output=True,
                           text=True, timeout=120, env=env)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "_NIGHTSKY_COMPLETE=complete_bash" in shown.stdout
    # Game ids come from the registry when completing: the test suite's toy game too.
    env = {"_NIGHTSKY_COMPLETE": "complete_bash", "COMP_WORDS": "nightsky play to",
           "COMP_CWORD": "2"}
    out = runner.invoke(app, [], prog_name="nightsky", env=env)
    assert out.output.split() == ["toy-secret-sum"]
    env = {"_NIGHTSKY_COMPLETE": "complete_zsh",
           "_TYPER_COMPLETE_ARGS": "nightsky simulate toy-secret-sum --engine "}
    out = runner.invoke(app, [], prog_name="nightsky", env=env)
    assert '"local"' in out.output and '"ray"' in out.output


def test_engine_is_a_choice_and_games_are_checked_against_the_registry() -> None:
    from nightsky.cli.commands import Engine
    from nightsky.sim.engines import ENGINES

    assert {e.value for e in Engine} == set(ENGINES)
    args = ["simulate", "toy-secret-sum", "--agents", "random", "--games", "2"]
    out = runner.invoke(app, [*args, "--engine", "cloud"])
    assert out.exit_code == 2 and "local" in out.output and "ray" in out.output
    out = runner.invoke(app, ["play", "no-such-game"])
    assert out.exit_code == 2 and "unknown game 'no-such-game'" in out.output
    assert "toy-secret-sum" in out.output  # the registered games, plug-ins included


def test_run_options_come_from_the_environment() -> None:
    args = ["simulate", "toy-secret-sum", "--agents", "random", "--games", "2", "--json"]
    out = runner.invoke(app, args, env={"NIGHTSKY_WORKERS": "0"})
    assert out.exit_code == 2 and "--workers must be at least 1" in out.output
    out = runner.invoke(app, args, env={"NIGHTSKY_RAY_ADDRESS": "auto"})
    assert out.exit_code == 2 and "--address is for --engine ray" in out.output
    out = runner.invoke(app, args, env={"NIGHTSKY_ENGINE": "LOCAL", "NIGHTSKY_WORKERS": "2"})
    assert out.exit_code == 0 and json.loads(out.stdout)["games"] == 2
    # The command line wins over the variable.
    out = runner.invoke(app, [*args, "--workers", "1"], env={"NIGHTSKY_WORKERS": "0"})
    assert out.exit_code == 0, out.output


def test_agents_json_lists_the_agents_and_four_levels_for_every_game() -> None:
    from nightsky.core.registry import packaged_game_ids

    out = runner.invoke(app, ["agents", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert {"random", "greedy", "mcts", "ismcts"} <= {a["name"] for a in data["agents"]}
    assert all(a["about"] for a in data["agents"] if a["name"] in {"random", "greedy", "ismcts"})
    for gid in packaged_game_ids():
        levels = data["games"][gid]["levels"]
        assert [lvl["name"] for lvl in levels] == ["easy", "medium", "hard", "expert"]
        assert all(lvl["spec"] and lvl["strength"] for lvl in levels)


def test_agents_of_one_game_as_a_table_and_an_unknown_game_refused() -> None:
    out = runner.invoke(app, ["agents", "starlight"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    from nightsky.core.registry import game_class

    expert = next(lvl for lvl in game_class("starlight").info.levels if lvl.name == "expert")
    # (the table may wrap a long spec at any width: its agent part starts the cell)
    assert "expert" in out.stdout and expert.spec.split(",")[0] in out.stdout
    assert "shooting-star" not in out.stdout
    bad = runner.invoke(app, ["agents", "nope"])
    assert bad.exit_code == 2 and "unknown game 'nope'" in bad.output


def test_simulate_takes_levels_as_agents_and_names_the_game_when_one_is_missing() -> None:
    out = runner.invoke(
        app,
        ["simulate", "shooting-star", "--players", "2", "--agents", "easy,medium",
         "--games", "2", "--seed", "4", "--json"],
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["games"] == 2
    bad = runner.invoke(
        app, ["simulate", "toy-secret-sum", "--players", "2", "--agents", "hard,random"]
    )
    assert bad.exit_code == 2
    assert "game 'toy-secret-sum' has no difficulty level 'hard'" in bad.output


_BLOCK_SERVER = """
import sys

class _NoServerDeps:
    # Makes the web server's dependencies unimportable, as on a machine without them.
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"fastapi", "starlette", "uvicorn", "sqlalchemy", "psycopg"}:
            raise ImportError(f"{name} is blocked by the test")
        return None

sys.meta_path.insert(0, _NoServerDeps())
"""


def test_simulate_and_balance_run_without_the_server_dependencies(tmp_path: Path) -> None:
    # `nightsky simulate`/`balance` must work on a research or cluster machine that has the
    # engine's dependencies but not the web server's (the server package is imported lazily).
    (tmp_path / "sitecustomize.py").write_text(_BLOCK_SERVER)
    src = Path(__file__).resolve().parents[2] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(src)])}
    probe = subprocess.run(
        [sys.executable, "-c", "import fastapi"], env=env, capture_output=True, text=True
    )
    assert probe.returncode != 0 and "blocked by the test" in probe.stderr
    for argv in (
        ["simulate", "shooting-star", "--players", "2", "--agents", "random,random"]
        + ["--games", "2", "--json"],
        ["balance", "shooting-star", "--players", "2", "--games", "2", "--json"],
    ):
        out = subprocess.run(
            [sys.executable, "-m", "nightsky", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr[-2000:]
        assert json.loads(out.stdout)["game"] == "shooting-star"


def test_random_playout_bench_freezes_the_heap_only_while_it_runs() -> None:
    # The bench's loop leaves the objects made before it out of the collector's scans and
    # hands them back after; inside a frozen loop it leaves the outer freeze alone.
    import gc

    from nightsky.core.heap import frozen_heap

    assert gc.get_freeze_count() == 0
    with frozen_heap():
        held = gc.get_freeze_count()
        assert held > 0
        with frozen_heap():
            assert gc.get_freeze_count() == held
        assert gc.get_freeze_count() == held
    assert gc.get_freeze_count() == 0
