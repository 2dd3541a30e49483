"""scripts/starlight_seats.py and scripts/value_duel.py: what they count is what the games did."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightsky.core.registry import load_game
from nightsky.games.starlight.components import StarlightComponents
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


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _data(name: str = "") -> StarlightComponents:
    """The shipped tables, or those of a components file in examples/."""
    params = {"components": str(EXAMPLES / name)} if name else {}
    data: StarlightComponents = load_game("starlight", players=5, **params).tables.data
    return data


def test_the_first_sky_file_is_the_first_design() -> None:
    # The set-up shipped until 2026-11-29 (issue 19): Lyra 4, a target, carried plus_ap, the
    # Accolades were worth 5-6 day points and later seats started with day points only.
    first, shipped = _data("starlight-first-sky.toml"), _data()
    assert [a.dp for a in first.accolades] == [6, 6, 5, 5, 5]
    assert [a.dp for a in shipped.accolades] == [3] * 5
    assert first.turn_order.day_points["5"] == [0, 2, 3, 5, 8]
    assert first.turn_order.saved_ap["5"] == [0] * 5
    for data, held in ((first, [("lyra", 4, "plus_ap")]), (shipped, [])):
        on_targets = [(c.name, s.n, s.privilege) for c in data.constellations for s in c.slots
                      if s.target and s.privilege == "plus_ap"]
        assert on_targets == held
    # The slots themselves did not change, only which privilege each carries.
    for c, d in zip(first.constellations, shipped.constellations, strict=True):
        assert [(s.n, s.size, s.np, s.target, s.links) for s in c.slots] == [
            (s.n, s.size, s.np, s.target, s.links) for s in d.slots
        ]
        assert sorted(s.privilege for s in c.slots) == sorted(s.privilege for s in d.slots)
    assert not any(s.privilege for c in shipped.constellations for s in c.slots if s.target)


def test_the_accolade_variant_changes_only_the_accolades_day_points() -> None:
    first, tried = _data("starlight-first-sky.toml"), _data("starlight-accolades-3dp.toml")
    assert [a.dp for a in tried.accolades] == [3] * 5
    strip = [a.model_copy(update={"dp": 0}) for a in tried.accolades]
    assert strip == [a.model_copy(update={"dp": 0}) for a in first.accolades]
    assert tried.constellations == first.constellations and tried.board == first.board


def test_the_lyra_variant_moves_plus_ap_off_the_only_target_that_had_it() -> None:
    first, tried = _data("starlight-first-sky.toml"), _data("starlight-lyra-swap.toml")

    def targets_with_plus_ap(data: StarlightComponents) -> list[tuple[str, int]]:
        return [
            (c.name, s.n)
            for c in data.constellations
            for s in c.slots
            if s.target and s.privilege == "plus_ap"
        ]

    assert targets_with_plus_ap(first) == [("lyra", 4)]
    assert targets_with_plus_ap(tried) == []
    changed = [
        (c.name, s.n, s.privilege, t.privilege)
        for c, d in zip(first.constellations, tried.constellations, strict=True)
        for s, t in zip(c.slots, d.slots, strict=True)
        if s != t
    ]
    assert changed == [("lyra", 3, "buy_np", "plus_ap"), ("lyra", 4, "plus_ap", "buy_np")]
    assert tried.accolades == first.accolades and tried.board == first.board


def test_the_deep_plus_ap_variant_keeps_every_privilege_once_and_none_early() -> None:
    first, tried = _data("starlight-first-sky.toml"), _data("starlight-plus-ap-deep.toml")
    assert tried.accolades == first.accolades
    for c, d in zip(first.constellations, tried.constellations, strict=True):
        near = {s.n for s in d.slots if s.target}
        near |= {n for s in d.slots if s.target for n in s.links}
        assert all(s.privilege != "plus_ap" for s in d.slots if s.n in near), c.name
        assert sorted(s.privilege for s in c.slots) == sorted(s.privilege for s in d.slots)
        assert [(s.n, s.size, s.np, s.target, s.links) for s in c.slots] == [
            (s.n, s.size, s.np, s.target, s.links) for s in d.slots
        ]
        assert sum(s != t for s, t in zip(c.slots, d.slots, strict=True)) == 2, c.name


def test_the_shipped_sky_keeps_early_slots_free_of_engines() -> None:
    # The sky shipped since 2026-11-29 (issue 19): the first design's slots with privileges
    # moved (none on a target, Extra Action Point on every large slot), 3-day-point Accolades
    # and tempo (saved action points) for later seats at 3-5 players.
    first, shipped = _data("starlight-first-sky.toml"), _data()
    for d in shipped.constellations:
        assert not any(s.privilege for s in d.slots if s.target), d.name
        assert [s.size for s in d.slots if s.privilege == "plus_ap"] == ["large"], d.name
    assert first.turn_order.saved_ap["5"] == [0] * 5
    turn = shipped.turn_order
    assert turn.saved_ap["2"] == [0, 0] and turn.day_points["2"] == [0, 1]
    for n in ("3", "4", "5"):
        assert turn.saved_ap[n][0] == 0 and all(a >= 2 for a in turn.saved_ap[n][1:])
