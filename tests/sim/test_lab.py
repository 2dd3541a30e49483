"""The design lab: component attribution, compare, sweep, trustworthy numbers, components files.

Game counts are small: Starlight with `random` in both seats plays about 300 games a second,
enough for a component worth 30 night points instead of 4 to stand out by name.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from nightsky import load_game
from nightsky.cli import _load_commands, app
from nightsky.core.errors import ComponentError, OptionError
from nightsky.core.registry import game_ids
from nightsky.sim.attribution import component_rows, fdr_adjust, outliers, welch
from nightsky.sim.balance import skill_trace, summarize_balance, verdict
from nightsky.sim.design import (
    components_hash,
    dumps,
    get_field,
    raw_components,
    set_field,
    shipped_files,
    shipped_text,
    write_variant,
)
from nightsky.sim.runner import GameResult, MatchSpec, play_spec, run_matches
from nightsky.sim.stats import correlation_interval

_load_commands()
runner = CliRunner()

AQUILA_1 = "constellations.aquila.slots.1.np"


def _json(args: list[str]) -> dict:
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


# ---------------------------------------------------------------------------- the check
def test_compare_names_the_strengthened_component_and_not_an_unchanged_copy(
    tmp_path: Path,
) -> None:
    strong = write_variant("starlight", tmp_path / "strong.toml", {AQUILA_1: 30})
    same = write_variant("starlight", tmp_path / "same.toml", {})
    args = ["compare", "starlight", "--players", "2", "--agents", "random", "--games", "300",
            "--seed", "2711", "--json"]
    data = _json([*args, "--design", str(strong)])
    top = data["components"][0]
    assert top["component"] == "Aquila 1" and top["outlier"]
    lo, hi = top["win_diff_ci95"]
    assert 0 < lo <= top["win_diff"] <= hi
    assert data["headlines"][0].startswith("Top outlier: Aquila 1")
    # The JSON says what was played: seed, agents and both components files by their hash.
    prov = data["provenance"]
    assert prov["design"]["seed"] == 2711 and prov["design"]["agents"] == ["random"]
    assert prov["design"]["components"]["sha256"] == components_hash("starlight", strong)
    assert prov["baseline"]["components"] == {"file": "shipped",
                                              "sha256": components_hash("starlight")}
    assert "--seed 2711" in prov["design"]["command"]
    unchanged = _json([*args, "--design", str(same)])
    assert not [c for c in unchanged["components"] if c["outlier"]]
    assert unchanged["headlines"][0].startswith("No component")
    # Same seeds, same design: every paired difference is exactly zero.
    assert all(s["win_share"]["diff"] == 0 for s in unchanged["seats"])
    assert unchanged["measures"]["rounds"]["ci95"] == [0.0, 0.0]


def test_compare_writes_html_json_and_plot(tmp_path: Path) -> None:
    strong = write_variant("starlight", tmp_path / "strong.toml", {AQUILA_1: 30})
    out = tmp_path / "cmp"
    res = runner.invoke(app, ["compare", "starlight", "--design", str(strong), "--players", "2",
                              "--agents", "random", "--games", "20", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Design minus baseline" in res.output
    page = (out / "compare.html").read_text()
    assert "compare.png" in page and "sha256" in page and (out / "compare.png").stat().st_size
    assert json.loads((out / "compare.json").read_text())["seed"] == 0


def test_sweep_writes_a_plot_per_metric(tmp_path: Path) -> None:
    out = tmp_path / "sw"
    data = _json(["sweep", "starlight", "--set", f"{AQUILA_1}=4..12:4", "--players", "2",
                  "--agents", "random", "--games", "12", "--out", str(out), "--json"])
    assert data["values"] == [4, 8, 12] and data["shipped"] == 4
    names = list(data["points"][0]["metrics"])
    assert {"seat 0 win share", "rounds", "winner margin", "lead changes"} <= set(names)
    assert sorted(data["plots"]) == sorted(names)
    for f in data["plots"].values():
        assert (out / f).stat().st_size > 1000
    for p in data["points"]:
        row = p["metrics"]["seat 0 win share"]
        assert row["ci95"][0] <= row["value"] <= row["ci95"][1]
        written = raw_components("starlight", p["components"])
        assert get_field(written, AQUILA_1) == p["value"]
        assert p["provenance"]["components"]["sha256"] == components_hash(
            "starlight", p["components"])
    assert "sweep-rounds.png" in (out / "sweep.html").read_text()


@pytest.mark.parametrize(
    "flag, message",
    [
        ("board.nosuch=1..3", "board has no 'nosuch'"),
        ("constellations.nowhere.slots.1.np=1,2", "no entry 'nowhere'"),
        ("board=1,2", "is a table or a list"),
        ("board.daybreak=9..3", "positive step"),
        ("board.daybreak", "FIELD=VALUES"),
    ],
)
def test_sweep_refuses_bad_fields(flag: str, message: str) -> None:
    res = runner.invoke(app, ["sweep", "starlight", "--set", flag, "--games", "2"])
    assert res.exit_code == 2 and message in res.output, res.output


def test_broken_toml_names_its_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[board]\nsource = "designed"\ndaybreak = = 3\n')
    res = runner.invoke(app, ["components", "starlight", "--check", str(bad)])
    assert res.exit_code == 1
    assert "bad.toml: not valid TOML (line 3, column 12)" in res.output, res.output
    with pytest.raises(ComponentError, match=r"line 3, column 12\): Invalid value"):
        load_game("shooting-star", components=str(bad))


def test_every_error_at_once_each_located(tmp_path: Path) -> None:
    data = raw_components("starlight")
    set_field(data, "board.daybreak", 0)
    set_field(data, "gods.G2.power", "fly")
    bad = tmp_path / "two.toml"
    bad.write_text(dumps(data))
    res = runner.invoke(app, ["components", "starlight", "--check", str(bad)])
    assert res.exit_code == 1
    assert "two.toml: board.daybreak: Input should be greater than or equal to 1" in res.output
    assert "two.toml: gods[1] ('G2').power:" in res.output and "(2 errors)" in res.output


def test_starlight_refuses_a_flare_deck_of_23(tmp_path: Path) -> None:
    """SL-1.5: the counts the set fixes (pools of 3 Cores and 4 Flares, 24 Flares) are checked,
    and a check across tables names its file and that it is one."""
    data = raw_components("starlight")
    data["flares"] = data["flares"][:23]
    bad = tmp_path / "f23.toml"
    bad.write_text(dumps(data))
    with pytest.raises(ComponentError, match=r"f23.toml: \(cross-check of the whole file\): "
                                             r"flares is 23, the set has 24"):
        load_game("starlight", components=str(bad))


# Only a game that ships a components file (``data/*.toml``) has a set to export; a game that
# keeps its components in code, such as a freshly scaffolded one, has nothing to check here.
@pytest.mark.parametrize("game", [g for g in game_ids() if shipped_files(g)])
def test_export_is_the_shipped_set(game: str, tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    res = runner.invoke(app, ["components", game, "--export", str(path)])
    assert res.exit_code == 0, res.output
    assert path.read_text() == shipped_text(game)
    again = runner.invoke(app, ["components", game, "--export", str(path)])
    assert again.exit_code == 2 and "--force" in again.output
    # The exported file plays exactly the shipped game, and so does its rewritten copy.
    copy = tmp_path / "copy.toml"
    copy.write_text(dumps(raw_components(game, path)))
    base = play_spec(MatchSpec(game, {"players": 2}, ("random", "random"), 5), 0)
    for f in (path, copy):
        mine = play_spec(MatchSpec(game, {"players": 2, "components": str(f)},
                                   ("random", "random"), 5), 0)
        assert (mine.scores, mine.actions) == (base.scores, base.actions)


# ---------------------------------------------------------------------------- attribution
@pytest.mark.parametrize(
    "game, example",
    [("starlight", r"^(Aquila|Hydrus|Cygnus|Lyra|Orion|Draco) \d$|^Flare F\d+$|^Core C\d+$"),
     ("star-fire", r"^[A-Z][a-z]+$"),
     ("shooting-star", r"^Mission [123][a-e]$"),
     ("stars-are-right", r"^[a-z-]+-[PSF]"),
     ("mihi-anguli", r"^(POSITIONING|PLOTTING) I+V?$|^RECORDING$")],
)
def test_each_game_names_its_components(game: str, example: str) -> None:
    import re

    spec = MatchSpec(game, {"players": 2}, ("random", "random"), 3, attribute=True)
    results = list(run_matches(spec, 4))
    names = {c[2] for r in results for c in r.components}
    assert names and any(re.search(example, n) for n in names), names
    for r in results:
        assert all(0 <= seat < 2 and 0 <= at <= r.actions for seat, _v, _n, at in r.components)
        assert 0 < r.turns <= r.actions
    plain = play_spec(MatchSpec(game, {"players": 2}, ("random", "random"), 3), 0)
    assert plain.components == [] and plain.scores == results[0].scores


def _game(i: int, winners: list[int], taken: list[tuple[int, str]], end: str = "goal"
          ) -> GameResult:
    return GameResult(index=i, scores=[float(w in winners) for w in range(2)], winners=winners,
                      actions=10, chance_events=0, seconds=0.0, end=end, turns=4,
                      components=[(p, "took", name, 5) for p, name in taken])


def test_component_rows_find_the_deciding_component() -> None:
    rng = random.Random(4)
    results = []
    for i in range(120):
        holder = rng.randrange(2)
        win = holder if rng.random() < 0.9 else 1 - holder
        results.append(_game(i, [win], [(holder, "Polaris"), (rng.randrange(2), "Vega")]))
    rows = component_rows(results, 2)
    assert [r["component"] for r in outliers(rows)] == ["Polaris"]
    polaris = rows[0]
    assert polaris["take_rate"] == 0.5 and polaris["taken_at"] == 0.5
    assert polaris["win_lift_ci95"][0] > 0.6
    assert polaris["win_ci95"][0] <= polaris["win_rate"] <= polaris["win_ci95"][1]


def test_welch_and_fdr_match_the_textbook() -> None:
    from scipy.stats import ttest_ind

    a, b = [1.0, 0.0, 1.0, 1.0, 0.5, 1.0], [0.0, 0.0, 1.0, 0.0, 0.0]
    w = welch(a, b)
    ref = ttest_ind(a, b, equal_var=False)
    assert w is not None and w.p == pytest.approx(ref.pvalue)
    ci = ref.confidence_interval()
    assert w.ci == pytest.approx((ci.low, ci.high))
    # Benjamini-Hochberg by hand: sorted p * m / rank, made monotone from the top.
    assert fdr_adjust([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.16 / 3, 0.16 / 3, 0.2])
    ci = correlation_interval(0.04, 900)  # the r = +0.04 over 900 seat-games
    assert ci is not None
    lo, hi = ci
    assert lo < 0 < hi and hi - lo == pytest.approx(0.13, abs=0.01)
    assert correlation_interval(0.5, 3) is None and not math.isnan(lo)


# ---------------------------------------------------------------------------- numbers to trust
def test_no_verdict_when_most_games_hit_the_cap() -> None:
    results = [_game(i, [0], [], end="rounds" if i < 15 else "goal") for i in range(20)]
    data = summarize_balance("x", "greedy", {2: results}, games=20, seed=3,
                             safeguards=("rounds",))
    assert all(verdict(r) == "no verdict" and not r["flagged"] for r in data["rows"])
    assert data["counts"][0]["capped"] == 15 and data["counts"][0]["rounds"] == 2
    assert any("15 of 20 games ended by a safeguard" in n for n in data["notes"])
    fine = summarize_balance("x", "greedy", {2: results}, games=20, seed=3)
    assert verdict(fine["rows"][0]) == "above fair"  # seat 0 won every game


def test_counts_are_corrected_or_the_family_is_named() -> None:
    rng = random.Random(1)
    runs = {n: [_game(i, [rng.randrange(2)], []) for i in range(40)] for n in (2, 3)}
    for r in runs[3]:
        r.scores = [*r.scores, 0.0]
    warned = summarize_balance("x", "greedy", runs, games=40, seed=1)
    assert any("2 player counts are 2 separate questions (5 seats" in n for n in warned["notes"])
    held = summarize_balance("x", "greedy", runs, games=40, seed=1, correct_counts=True)
    assert any("Bonferroni over the counts" in n for n in held["notes"])
    wide = [r["win_ci95"][1] - r["win_ci95"][0] for r in held["rows"]]
    narrow = [r["win_ci95"][1] - r["win_ci95"][0] for r in warned["rows"]]
    assert all(w > n for w, n in zip(wide, narrow, strict=True))


def test_balance_json_records_provenance_advantage_and_a_skill_trace() -> None:
    data = _json(["balance", "starlight", "--players", "2", "--agents", "random,greedy",
                  "--games", "6", "--seed", "77", "--json"])
    prov = data["provenance"]
    assert prov["seed"] == 77 and prov["agents"] == ["random"] and prov["games"] == 6
    assert prov["components"] == {"file": "shipped", "sha256": components_hash("starlight")}
    assert "--seed 77" in prov["command"]
    for r in data["rows"]:
        lo, hi = r["advantage_ci95"]
        assert lo <= r["advantage"] <= hi and r["advantage_verdict"] in ("ahead", "behind", "even")
    assert data["counts"][0]["rounds"] > 5 and data["counts"][0]["components"]
    assert data["second"]["agents"] == "greedy"
    assert data["skill_trace"] == skill_trace(data, data["second"])


def test_skill_trace_lists_only_disagreements() -> None:
    def one(agent: str, flagged: bool, outlier: list[str]) -> dict:
        row = {"players": 2, "seat": 0, "win_share": 0.7 if flagged else 0.5,
               "flagged": flagged, "advantage_verdict": "even"}
        return {"agents": agent, "rows": [row], "counts": [{"players": 2, "outliers": outlier}]}

    trace = skill_trace(one("greedy", True, ["Aquila 1"]), one("expert", False, ["Aquila 1"]))
    assert trace == [{"players": 2, "seat": 0, "measure": "win share", "greedy": "above fair",
                      "expert": "fair"}]


def test_field_paths() -> None:
    data = raw_components("starlight")
    assert get_field(data, AQUILA_1) == 4  # slot n = 1 of the constellation named aquila
    assert get_field(data, "constellations.0.name") == "aquila"
    assert get_field(data, "gods.G3.name") == get_field(data, "gods.2.name")
    with pytest.raises(OptionError, match="has 10 entries, not 11"):
        get_field(data, "gods.10")
    with pytest.raises(OptionError, match="is a value"):
        get_field(data, "board.daybreak.x")


def test_components_reference_is_current_and_complete() -> None:
    """docs/components-reference.md is generated from the models (fields, types, ranges and
    meanings); regenerate it with ``python -m nightsky.sim.reference``."""
    from nightsky.sim.reference import reference_markdown

    text = reference_markdown()
    doc = Path(__file__).resolve().parents[2] / "docs" / "components-reference.md"
    assert doc.read_text() == text, "regenerate docs/components-reference.md"
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) > 100 and all(not line.endswith("|  |") for line in rows)
    assert "| `np` | int | >= 0 | required | Night points scored by the star" in text
    # The meanings are the models' own field descriptions (attribute docstrings).
    import importlib

    from pydantic import BaseModel

    for pkg in ("mihi_anguli", "shooting_star", "star_fire", "starlight", "stars_are_right"):
        module = importlib.import_module(f"nightsky.games.{pkg}.components")
        for model in vars(module).values():
            if isinstance(model, type) and issubclass(model, BaseModel):
                for name, info in model.model_fields.items():
                    assert info.description, f"{pkg} {model.__name__}.{name} has no meaning"


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_simulate_and_tournament_json_record_provenance(command: str) -> None:
    agents = "random" if command == "simulate" else "random,greedy"
    data = _json([command, "shooting-star", "--players", "2", "--agents", agents, "--games",
                  "4", "--seed", "31", "--json"])
    prov = data["provenance"]
    assert prov["seed"] == 31 and prov["games"] == 4 and "--seed 31" in prov["command"]
    assert prov["components"]["sha256"] == components_hash("shooting-star")


def test_simulate_report_names_components(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "starlight", "--players", "2", "--agents", "random",
                              "--games", "30", "--out", str(tmp_path), "--report"])
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "report.json").read_text())
    assert any(c["component"] == "Aquila 1" for c in data["components"])
    assert data["provenance"]["seed"] == 0 and data["length"]["rounds"] > 5
    assert all(u["correlation_ci95"] is None or u["correlation_ci95"][0] <= u["correlation"]
               <= u["correlation_ci95"][1] for u in data["usage"])
    page = (tmp_path / "report.html").read_text()
    assert "Components: who took what" in page and "sha256" in page


def test_a_toml_error_never_quotes_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "dup.toml"
    bad.write_text("[hunter2]\n[hunter2]\n")
    with pytest.raises(ComponentError) as err:
        load_game("star-fire", components=str(bad))
    assert "line 2, column" in str(err.value) and "Cannot declare" in str(err.value)
    assert "hunter2" not in str(err.value)


def test_report_gives_no_seat_verdict_when_most_games_hit_the_cap() -> None:
    from nightsky.sim.report import analyse, headlines

    results = [_game(i, [0], [(0, "Polaris")], end="rounds" if i < 15 else "goal")
               for i in range(20)]
    data = analyse(results, ["greedy", "greedy"], game="x", safeguards=("rounds",))
    assert data["capped"] == 15 and {s["verdict"] for s in data["seats"]} == {"no verdict"}
    text = " ".join(headlines(data))
    assert "15 of 20 games ended at a safeguard cap" in text and "2 rounds" in text
    assert "rounds 15" in text  # how games ended
    plain = analyse(results, ["greedy", "greedy"], game="x")
    assert plain["seats"][0]["verdict"] == "above fair"


def test_sweep_values() -> None:
    from nightsky.cli.lab import parse_values

    assert parse_values("4..14:2") == [4, 6, 8, 10, 12, 14]
    assert parse_values("4..6") == [4, 5, 6]
    assert parse_values("0.5..1.5:0.5") == [0.5, 1.0, 1.5]
    assert parse_values("plus_ap,buy_np,3,true") == ["plus_ap", "buy_np", 3, True]
