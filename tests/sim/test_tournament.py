"""Tournaments: seatings, deals shared across rotations, win rates with intervals, ratings."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nightsky.cli import _load_commands, app
from nightsky.core import OptionError
from nightsky.sim.runner import MatchSpec, run_matches
from nightsky.sim.tournament import lineups, summarize_tournament

_load_commands()
runner = CliRunner()


def test_lineups_put_every_agent_in_every_seat() -> None:
    two = lineups(["a", "b"], 2)
    assert two == (("a", "b"), ("b", "a"))
    three = lineups(["a", "b", "c"], 3)
    assert len(three) == 6 and len(set(three)) == 6
    few = lineups(["a", "b"], 3)  # fewer agents than seats: cyclic rotations
    for seat in range(3):
        assert {line[seat] for line in few} == {"a", "b"}
    with pytest.raises(OptionError, match="once"):
        lineups(["a", "a"], 2)


def test_rotations_share_their_deals() -> None:
    spec = MatchSpec("toy-secret-sum", {"players": 2}, ("random", "random"), 4,
                     keep_record=True, lineups=(("random", "greedy"), ("greedy", "random")))
    res = sorted(run_matches(spec, 4), key=lambda r: r.index)
    assert [r.agents for r in res] == [["random", "greedy"], ["greedy", "random"]] * 2
    # Games 0 and 1 are deal 0: the first chance outcome (a shuffle draw) is the same.
    first = [r.record["history"][0] for r in res if r.record]
    assert first[0] == first[1]
    assert spec.deal_of(3) == 1 and spec.seats_of(3) == ("greedy", "random")


def test_summary_win_rates_intervals_and_ratings() -> None:
    agents = ["greedy", "random"]
    spec = MatchSpec("toy-secret-sum", {"players": 2}, tuple(agents), 9,
                     lineups=lineups(agents, 2))
    results = list(run_matches(spec, 120))
    s = summarize_tournament(results, agents, game_id="toy-secret-sum", players=2, seconds=1)
    top, bottom = s["standings"]
    assert top["agent"] == "greedy" and bottom["agent"] == "random"
    assert top["seat_games"] == bottom["seat_games"] == 120
    assert abs(top["win_rate"] + bottom["win_rate"] - 1) < 1e-9
    lo, hi = top["win_ci95"]
    assert lo < top["win_rate"] < hi and lo > 0.5
    assert top["rating"]["mu"] > 25 > bottom["rating"]["mu"]
    assert all(v is not None for v in top["win_rate_by_seat"])


def test_tournament_cli_json_and_table() -> None:
    args = ["tournament", "toy-secret-sum", "--players", "3", "--agents",
            "greedy,random,ismcts:iterations=8", "--games", "12", "--seed", "2"]
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["lineups"] == 6 and data["games"] == 12
    assert {row["agent"] for row in data["standings"]} == {
        "greedy", "random", "ismcts:iterations=8"}
    again = json.loads(runner.invoke(app, [*args, "--json", "--workers", "2"]).stdout)
    assert again["standings"] == data["standings"]
    table = runner.invoke(app, args)
    assert table.exit_code == 0 and "win rate" in table.output and "greedy" in table.output


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--agents", "random"], "at least two agents"),
        (["--agents", "random,wizard"], "unknown agent"),
        (["--agents", "random,greedy", "--engine", "spark"], "is not one of"),
        (["--agents", "random,greedy", "--address", "auto"], "--engine ray"),
    ],
)
def test_tournament_bad_input(extra: list[str], message: str) -> None:
    out = runner.invoke(app, ["tournament", "toy-secret-sum", *extra])
    assert out.exit_code == 2 and message in out.output
