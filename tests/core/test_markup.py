"""Render text: style tags versus a render's own brackets (web text and the rich console)."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from nightsky.cli import _load_commands, app
from nightsky.core.markup import console_text, plain_text

SAMPLE = "[bold]Seat 1[/bold] [x]S [ ]K2 [red]3[/] list=[] [x y]"


def test_plain_text_drops_style_tags_only() -> None:
    assert plain_text(SAMPLE) == "Seat 1 [x]S [ ]K2 3 list=[] [x y]"


def test_console_text_prints_the_renders_own_brackets() -> None:
    console = Console(record=True, width=200)
    console.print(console_text(SAMPLE))
    assert console.export_text().rstrip("\n") == plain_text(SAMPLE)
    # The style tags still style: the bold run is a bold segment.
    text = console.render_str(console_text(SAMPLE))
    assert any(str(sp.style) == "bold" and text.plain[sp.start:sp.end] == "Seat 1"
               for sp in text.spans)


def test_cli_replay_show_keeps_mihi_anguli_check_boxes(tmp_path: Path) -> None:
    _load_commands()
    runner = CliRunner()
    out = runner.invoke(app, ["simulate", "mihi-anguli", "--players", "1", "--agents", "greedy",
                              "--games", "1", "--out", str(tmp_path / "run")])
    assert out.exit_code == 0, out.output
    rec = next((tmp_path / "run" / "records").glob("*.json"))
    assert json.loads(rec.read_text())["game"] == "mihi-anguli"
    shown = runner.invoke(app, ["replay", str(rec), "--show"])
    assert shown.exit_code == 0, shown.output
    assert "[x]" in shown.output and "[ ]" in shown.output
