"""scripts/starlight_seats.py and scripts/value_duel.py: what they count is what the games did."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightsky.core.registry import load_game
from tests.support.scripts import load_script


def test_starlight_seats_counts_each_seat_once_in_the_last_round() -> None:
    mod = load_script("starlight_seats")
    game = load_game("starlight", players=3)
    for i in range(2):
        rec = mod.play(game, "greedy", 5, i)
        for q, parts in enumerate(rec["parts"]):
            assert parts["total"] == sum(v for k, v in parts.items() if k != "total")
            assert rec["final"][q] <= 1  # one last turn, one final launch at most (SL-12.2)
            assert rec["last_round_gain"][q] >= 0
        assert 0 <= rec["trigger"] < 3  # somebody reached 65 night points (SL-12.1)
        assert rec["np_at_daybreak"] is not None and max(rec["np_at_daybreak"]) >= 65
    # A record depends on the seed and index only.
    assert mod.play(game, "greedy", 5, 1) == rec


def test_starlight_seats_options_and_output(capsys: pytest.CaptureFixture[str]) -> None:
    mod = load_script("starlight_seats")
    assert mod._option("turn_order_compensation=false") == ("turn_order_compensation", False)
    assert mod._option("max_rounds=30") == ("max_rounds", 30)
    with pytest.raises(Exception, match="KEY=VALUE"):
        mod._option("starbots")
    mod.main(["--players", "2", "--games", "2", "--seed", "3"])
    out = capsys.readouterr().out
    shares = next(line for line in out.splitlines() if line.startswith("win share"))
    assert abs(sum(float(x) for x in shares.split()[2:]) - 1) < 1e-2


def test_value_duel_candidates_and_the_heuristic_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    load_script("train_value")  # value_duel imports its Duels, as it does run from scripts/
    mod = load_script("value_duel")
    names = ["score", "abilities", "xp"]
    assert mod._candidate([1.0, 0.0, 0.5], names, "abilities=2.4+xp=-0.5") == [1.0, 2.4, 0.0]
    with pytest.raises(SystemExit, match="feature of the model"):
        mod._candidate([1.0, 0.0, 0.5], names, "bogus=1")
    with pytest.raises(SystemExit, match="not a number"):
        mod._candidate([1.0, 0.0, 0.5], names, "xp=much")
    mod.main(["mihi-anguli", "--seed", "11", "--games", "2", "abilities=2.4"])
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert set(rows) == {"abilities=2.4", "shipped", "heuristic"}
    assert rows["heuristic"].endswith("over 'heuristic' +0.00 +- 0.00")


def test_the_accolade_variant_changes_only_the_accolades_day_points() -> None:
    variant = Path(__file__).resolve().parents[2] / "examples" / "starlight-accolades-3dp.toml"
    shipped = load_game("starlight", players=5).tables.data
    tried = load_game("starlight", players=5, components=str(variant)).tables.data
    assert [a.dp for a in tried.accolades] == [3] * 5
    assert [a.dp for a in shipped.accolades] != [3] * 5
    strip = [a.model_copy(update={"dp": 0}) for a in tried.accolades]
    assert strip == [a.model_copy(update={"dp": 0}) for a in shipped.accolades]
    assert tried.laurels == shipped.laurels and tried.board == shipped.board
