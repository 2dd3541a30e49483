"""Golden fingerprints: what a refactor of the engines must leave byte-identical.

For every registered game and every configuration its conformance suite plays, two seeded
random games are played and fingerprinted step by step: the record, every seat's and the
spectator's view, each viewer's log lines, the legal action ids, the observation tensor, and
(every few steps) the text rendering, the SVG board and the choice labels and targets. A short
``simulate --json`` summary (timing fields left out) is added per game. Each category is one
SHA-256 digest, so a failing comparison says *what* changed.

``python -m tests.support.golden --write`` rewrites ``tests/golden/<game>.json``; do that only
for a change that is meant to alter behaviour, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from nightsky.core import CHANCE, load_game, make_record
from nightsky.core.game import State
from nightsky.core.registry import game_class, game_ids

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "golden"
SEEDS = (11, 12)
UI_EVERY = 9  # presentation is fingerprinted every this many steps (it is the slow part)
MAX_STEPS = 20_000


def _canon(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str).encode()


def _log_lines(state: State, viewer: int | None) -> list[str]:
    return [state.log_text(i, viewer) for i in range(len(state.history))]


def _ui(state: State, viewer: int | None) -> Any:
    ui = state.game.ui
    out: dict[str, Any] = {"render": ui.render(state, viewer), "svg": ui.board_svg(state, viewer)}
    players = state.current_players()
    if players and players[0] != CHANCE:
        seat = players[0]
        out["choices"] = [ui.action_ui(state, a, seat) for a in state.legal_actions(seat)]
    return out


def _observe(state: State, seat: int) -> Any:
    try:
        observer = state.game.make_observer()
    except NotImplementedError:
        return None
    return observer.observation(state, seat)


def fingerprint_game(game_id: str, params: dict[str, Any], seed: int) -> dict[str, str]:
    """Play one seeded random game and digest everything it shows, by category."""
    game = load_game(game_id, **params)
    rng = random.Random(f"golden:{game_id}:{seed}")
    state = game.new_initial_state()
    viewers: list[int | None] = [*range(game.num_seats), None]
    h = {k: hashlib.sha256() for k in ("views", "log", "legal", "observation", "ui")}
    for step in range(MAX_STEPS):
        for v in viewers:
            h["views"].update(_canon(state.view(v)))
        players = state.current_players()
        if not players:
            break
        seat = players[0] if players[0] == CHANCE else rng.choice(players)
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions(seat)
            h["legal"].update(_canon([game.action_id(a) for a in legal]))
            h["observation"].update(_canon(_observe(state, seat)))
            action = rng.choice(legal)
        if step % UI_EVERY == 0:
            for v in viewers:
                h["ui"].update(_canon(_ui(state, v)))
        state.apply(action, seat)
    for v in viewers:
        h["log"].update(_canon(_log_lines(state, v)))
        h["ui"].update(_canon(_ui(state, v)))
    out = {k: d.hexdigest() for k, d in h.items()}
    out["record"] = hashlib.sha256(_canon(make_record(state))).hexdigest()
    out["actions"] = str(len(state.history))
    return out


def simulate_summary(game_id: str) -> dict[str, Any]:
    """``simulate --json`` for a short greedy-vs-random run, timing fields removed."""
    from nightsky.sim import run_matches, summarize
    from nightsky.sim.runner import MatchSpec

    cls = game_class(game_id)
    players = max(2, cls.info.min_players)
    game = load_game(game_id, players=players)
    specs = tuple(["greedy"] + ["random"] * (players - 1))
    spec = MatchSpec(game.info.id, game.params, specs, 3)
    results = run_matches(spec, 4)
    summary = summarize(
        results, game_id=game.info.id, players=players, agents=list(specs), seconds=1.0
    )
    return {k: v for k, v in summary.items() if "second" not in k}


def fingerprints(game_id: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for cfg in game_class(game_id).conformance_configs():
        name = "-".join(f"{k}{v}" for k, v in cfg.items())
        for seed in SEEDS:
            out[f"{name}/seed{seed}"] = fingerprint_game(game_id, cfg, seed)
    out["simulate"] = hashlib.sha256(_canon(simulate_summary(game_id))).hexdigest()
    return out


def golden_path(game_id: str) -> Path:
    return GOLDEN_DIR / f"{game_id}.json"


def main(argv: list[str]) -> int:
    from nightsky.core.registry import register
    from tests.support.toygame import ToyGame

    register(ToyGame)  # the test suite registers it too, so it has a golden file
    write = "--write" in argv
    only = [a for a in argv if not a.startswith("-")]
    bad = 0
    for gid in only or game_ids():
        got = fingerprints(gid)
        path = golden_path(gid)
        if write:
            GOLDEN_DIR.mkdir(exist_ok=True)
            path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
            print(f"wrote {path}")
            continue
        want = json.loads(path.read_text())
        for key in sorted(set(want) | set(got)):
            if want.get(key) != got.get(key):
                bad += 1
                print(f"{gid} {key}: differs")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
