"""Text rendering, action targets, the observation vector, and the rule catalogue's coverage."""

from __future__ import annotations

import re
from pathlib import Path

from nightsky.games.stars_are_right.observer import observation_size

from .util import game, play, pos, setup


def test_render_shows_sky_and_only_own_hand() -> None:
    g = game()
    s = setup(g, 1)
    text = g.ui.render(s, 0)
    lines = text.splitlines()
    assert any(line.strip().startswith("a") and "e" in line for line in lines)
    assert sum(1 for line in lines if re.match(r"^\s+[1-5]\s", line)) == 5
    for c in s.hands[0]:
        assert g.cards[c].id in text
    other = g.ui.render(s, 1)
    hidden = [g.cards[c].id for c in s.hands[0] if c not in s.hands[1]]
    assert not any(f"hand {h}" in other for h in hidden)
    assert max(len(line) for line in lines) <= 80
    assert text.isascii()  # readable in a plain terminal


def test_action_ui_targets_tiles() -> None:
    g = game()
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P", "miri-nigri-S"], ["gug-F"]])
    play(s, "invoke miri-nigri-S")
    ui = g.ui.action_ui(s, g.parse_action("swap b2 c2"), 0)
    assert ui["targets"] == ["tile-1-1", "tile-1-2"] and "swap" in ui["label"].lower()
    ui = g.ui.action_ui(s, g.parse_action("push col a down"), 0)
    assert ui["targets"] == ["push-col-0-down"] + [f"tile-{r}-0" for r in range(5)]


def test_observation_fixed_size_and_private() -> None:
    g = game(3)
    s = setup(g, 2)
    observer = g.make_observer()
    assert observer.size == observation_size(g) == 25 * 14 + 75 * 7 + 3 + 11 + 8 + 2
    for p in range(3):
        obs = observer.observation(s, p)
        assert len(obs) == observer.size and all(0.0 <= x <= 1.0 for x in obs)
    r = s.resample(0, __import__("random").Random(3))
    assert observer.observation(r, 0) == observer.observation(s, 0)


def test_every_rule_id_is_named_by_a_test() -> None:
    pkg = Path(__file__).resolve().parents[3] / "src/nightsky/games/stars_are_right/rules.md"
    ids = set(re.findall(r"\*\*(TSAR-[0-9.]+)\*\*", pkg.read_text()))
    assert len(ids) > 40
    here = Path(__file__).parent
    text = "\n".join(p.read_text() for p in here.glob("test_*.py"))
    named = {
        m.replace("_", ".").replace("TSAR.", "TSAR-")
        for m in re.findall(r"TSAR[-_][0-9]+(?:[._][0-9]+)*", text)
    }
    assert ids <= named, sorted(ids - named)
