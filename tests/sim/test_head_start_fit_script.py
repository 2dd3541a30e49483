"""scripts/head_start_fit.py: games recorded without day points, judged with a row added,
are the games the game plays with that row (what the script's sizing rests on)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from nightsky.core.registry import load_game
from nightsky.sim.attribution import taken_by_seat
from nightsky.sim.runner import MatchSpec, play_spec
from nightsky.sim.stats import judge_seats
from tests.support.scripts import load_script


def _script() -> ModuleType:
    return load_script("head_start_fit")


def test_recorded_games_plus_a_row_are_the_shipped_games() -> None:
    mod = _script()
    recorded = mod._play(3, 41, [0, 1, 2], "greedy")
    spec = MatchSpec("starlight", {"players": 3}, ("greedy",) * 3, 41)
    played = [play_spec(spec, i) for i in range(3)]
    row = load_game("starlight", players=3).head_start
    assert any(row)  # the shipped 3-player game has a head start to add
    for g, r in zip(recorded, played, strict=True):
        assert [s + h for s, h in zip(g["scores"], row, strict=True)] == r.scores
        keys = [(g["scores"][p] + row[p], *g["tb"][p]) for p in range(3)]
        assert [p for p in range(3) if keys[p] == max(keys)] == r.winners
    wins = [0.0] * 3
    for r in played:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    judged = mod.judge(recorded, row)
    assert [x["win_share"] for x in judged] == [v.win_share for v in judge_seats(wins, 3)]
    means = [sum(r.scores[p] for r in played) / 3 for p in range(3)]
    for x, m in zip(judged, means, strict=True):
        assert abs(x["advantage"] - (m - sum(means) / 3)) < 1e-9


def test_rows_start_at_zero_and_never_decrease() -> None:
    rows = list(_script().rows_of(3, 2))
    assert rows == [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 1), (0, 1, 2), (0, 2, 2)]


def test_recording_keeps_the_saved_action_points_and_drops_the_day_points() -> None:
    # At 4 players the shipped set-up gives later seats saved action points (they change the
    # play) and the first seats day points: the recording must play the very games of the
    # shipped set-up, less the day points.
    mod = _script()
    recorded = mod._play(4, 43, [0, 1], "greedy")
    played = [
        play_spec(MatchSpec("starlight", {"players": 4}, ("greedy",) * 4, 43), i) for i in range(2)
    ]
    game = load_game("starlight", players=4)
    row = game.head_start
    assert any(row) and any(game.new_initial_state().saved)
    for g, r in zip(recorded, played, strict=True):
        assert [s + h for s, h in zip(g["scores"], row, strict=True)] == r.scores


def test_a_tried_design_is_recorded_with_its_own_table_less_its_day_points() -> None:
    # A components file with its own turn-order table (examples/starlight-first-sky.toml: the
    # first design's day points for later seats) is played as it is, less the day points.
    mod = _script()
    path = str(Path(__file__).resolve().parents[2] / "examples" / "starlight-first-sky.toml")
    recorded = mod._play(4, 47, [0], "greedy", path)
    game = load_game("starlight", players=4, components=path)
    assert game.head_start != load_game("starlight", players=4).head_start
    assert any(game.head_start)
    played = play_spec(
        MatchSpec("starlight", {"players": 4, "components": path}, ("greedy",) * 4, 47), 0
    )
    assert [s + h for s, h in zip(recorded[0]["scores"], game.head_start, strict=True)] == (
        played.scores
    )
    assert recorded[0]["components"] == path


def test_a_table_with_starbots_is_recorded_and_judged_on_its_live_seats() -> None:
    # 2 live players and 2 Starbots: the recording keeps every seat's score (the Starbots can
    # win), plays the table's own row less its day points, and judging it with the "2+2" row
    # gives the games the game plays, win shares counting the games a live seat won.
    mod = _script()
    recorded = mod._play(2, 53, [0, 1, 2, 3], "greedy", "", 2)
    game = load_game("starlight", players=2, starbots=2)
    row = game.tables.data.turn_order.row("day_points", 2, 2)
    assert any(row) and game.head_start == row + [0, 0]
    spec = MatchSpec("starlight", {"players": 2, "starbots": 2}, ("greedy",) * 2, 53)
    played = [play_spec(spec, i) for i in range(4)]
    wins, won = [0.0, 0.0], 0
    for g, r in zip(recorded, played, strict=True):
        assert g["starbots"] == 2 and len(g["scores"]) == len(g["tb"]) == 4
        assert [s + h for s, h in zip(g["scores"], game.head_start, strict=True)] == r.scores
        live = [w for w in r.winners if w < 2]
        won += bool(live)
        for w in live:
            wins[w] += 1 / len(live)
    judged = mod.judge(recorded, row)
    assert [x["win_share"] for x in judged] == [v.win_share for v in judge_seats(wins, won)]


def test_recorded_games_keep_what_each_seat_took_and_seats_compares_the_first_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 54 item 8: the recording keeps, per seat, the components it took and when (the
    # runner's attribution), and `seats` sets the first seat's take rates against the others'.
    mod = _script()
    recorded = mod._play(2, 59, [0, 1, 2, 3, 4, 5], "greedy")
    spec = MatchSpec("starlight", {"players": 2}, ("greedy",) * 2, 59, attribute=True)
    for g in recorded:
        r = play_spec(spec, g["index"])
        want = taken_by_seat(r, 2)
        assert [set(t) for t in g["took"]] == [set(t) for t in want]
        assert all(0 <= x <= 1 for t in g["took"] for x in t.values())
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in recorded))
    mod.main(["seats", str(path), "--players", "2", "--row", "0", "0", "--show", "200"])
    out = capsys.readouterr().out
    shares = [x["win_share"] for x in mod.judge(recorded, [0, 0])]
    assert out.splitlines()[0].endswith(" ".join(f"{x:.1%}" for x in shares))
    # every line of the table: the first seat's take rate and the other seat's, counted here
    lines = [s for s in out.splitlines()[2:] if s.strip()]
    assert lines
    for line in lines:
        name = line.split(":")[0].strip()
        first = sum(name in g["took"][0] for g in recorded) / len(recorded)
        other = sum(name in g["took"][1] for g in recorded) / len(recorded)
        assert line.split(":")[1].split("(")[0].split() == [f"{first:.1%}", "/", f"{other:.1%}"]


def test_seats_refuses_a_recording_without_components(tmp_path: Path) -> None:
    mod = _script()
    g = mod._play(2, 61, [0], "greedy")[0]
    del g["took"]
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(g) + "\n")
    with pytest.raises(SystemExit, match="record them again"):
        mod.main(["seats", str(path), "--players", "2"])
