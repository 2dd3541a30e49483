"""Train a game's learned value (``State.value``) from self-play: ridge regression with numpy.

    PYTHONPATH=src python scripts/train_value.py mihi-anguli --games 300 --seed 5150 --write

Plays ``--games`` 2-player games of ``--agent`` (default ``greedy``) against itself. At every
``--every``-th decision of a game (offset by the game's index) it records each seat's
``State.value_features`` and, when the game is over, that seat's final score: the target. The
last ``--holdout`` share of the games is held out; ridge regression (``--ridge``, on standardised
features) is fit on the rest and reported on both: R^2 and RMSE of the final score, and of the
final margin between the two seats (the value of one seat minus the other's), beside the same
for the game's hand heuristic (``State.evaluate``) taken as a prediction in points and
calibrated by a least-squares line. With ``--write`` the weights (in the features' own units, the
standardisation folded in) go to the file ``GameInfo.value_model`` names in the game package's
``data/`` (or ``--out``), with the command, data size, date and fit. ``--save-data`` /
``--load-data`` keep the recorded positions (``.npz``) to refit without playing again.

Game ``g`` draws its chance from ``random.Random(f"{seed}-{g}")`` and each seat's agent from
``random.Random(f"{seed}-{g}-{seat}")``: the data, and so the weights, depend only on the
arguments.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from nightsky.agents import make_agent
from nightsky.core.components import data_path
from nightsky.core.game import CHANCE, Game
from nightsky.core.registry import load_game


def play(game: Game, agent: str, seed: int, index: int, every: int) -> tuple[list, list, list]:
    """One self-play game: the sampled rows (features, heuristic, seat, position number) and the
    final scores."""
    rng = random.Random(f"{seed}-{index}")
    seats = game.new_initial_state()
    n = game.num_seats
    agents = [make_agent(agent) for _ in range(n)]
    rngs = [random.Random(f"{seed}-{index}-{q}") for q in range(n)]
    state = seats
    feats: list[list[float]] = []
    heur: list[float] = []
    where: list[tuple[int, int]] = []  # (position number in the game, seat)
    decision = 0
    position = 0
    while not state.is_terminal():
        players = state.current_players()
        seat = players[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
            continue
        if decision % every == index % every:
            for q in range(n):
                feats.append(state.value_features(q))
                heur.append(state.evaluate(q))
                where.append((position, q))
            position += 1
        state.step(agents[seat].choose(state, seat, rngs[seat]), seat)
        decision += 1
    return feats, heur, [where, list(state.scores())]


def collect(args: argparse.Namespace, game: Game) -> dict[str, np.ndarray]:
    """Play the games; one row per sampled position and seat."""
    rows_x: list[list[float]] = []
    rows: list[tuple[int, int, int, float, float]] = []  # game, position, seat, heuristic, final
    start = time.perf_counter()
    for g in range(args.games):
        feats, heur, (where, scores) = play(game, args.agent, args.seed, g, args.every)
        for f, h, (pos, q) in zip(feats, heur, where, strict=True):
            rows_x.append(f)
            rows.append((g, pos, q, h, float(scores[q])))
        if (g + 1) % 10 == 0:
            took = time.perf_counter() - start
            print(f"  {g + 1} games, {len(rows)} rows, {took:.0f} s", file=sys.stderr, flush=True)
    meta = np.array(rows, dtype=float)
    return {
        "x": np.array(rows_x, dtype=float),
        "game": meta[:, 0].astype(int),
        "position": meta[:, 1].astype(int),
        "seat": meta[:, 2].astype(int),
        "heuristic": meta[:, 3],
        "final": meta[:, 4],
    }


def ridge(x: np.ndarray, y: np.ndarray, alpha: float) -> tuple[np.ndarray, float]:
    """Ridge regression on standardised columns; weights and bias in the columns' own units."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-12] = 1.0
    z = (x - mean) / scale
    ym = y.mean()
    a = z.T @ z + alpha * np.eye(z.shape[1])
    w = np.linalg.solve(a, z.T @ (y - ym))
    weights = w / scale
    return weights, float(ym - weights @ mean)


def _fit_stats(pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    err = pred - y
    ss = float(((y - y.mean()) ** 2).sum())
    return {
        "r2": round(1.0 - float((err**2).sum()) / ss, 4) if ss > 0 else 0.0,
        "rmse": round(float(np.sqrt((err**2).mean())), 3),
    }


def _margins(data: dict[str, np.ndarray], pred: np.ndarray, mask: np.ndarray) -> tuple:
    """Per sampled 2-seat position: predicted and final margin of seat 0 over seat 1."""
    keys = data["game"][mask] * 100_000 + data["position"][mask]
    seat = data["seat"][mask]
    p0, p1 = pred[mask][seat == 0], pred[mask][seat == 1]
    f = data["final"][mask]
    f0, f1 = f[seat == 0], f[seat == 1]
    assert (keys[seat == 0] == keys[seat == 1]).all()
    return p0 - p1, f0 - f1


def report(data: dict[str, np.ndarray], args: argparse.Namespace) -> tuple[dict, np.ndarray, float]:
    """Fit on the training games, the fit on both parts for the model and the heuristic."""
    cut = int(round(args.games * (1.0 - args.holdout)))
    train = data["game"] < cut
    test = ~train
    x, y, h = data["x"], data["final"], data["heuristic"]
    weights, bias = ridge(x[train], y[train], args.ridge)
    pred = x @ weights + bias
    slope, icept = np.polyfit(h[train], y[train], 1)
    calib = slope * h + icept
    fit: dict[str, Any] = {
        "train_games": int(cut), "holdout_games": int(args.games - cut),
        "train_rows": int(train.sum()), "holdout_rows": int(test.sum()),
    }
    for part, mask in (("train", train), ("holdout", test)):
        if not mask.any():
            continue
        fit[part] = {
            "learned": _fit_stats(pred[mask], y[mask]),
            "heuristic": _fit_stats(h[mask], y[mask]),
            "heuristic_calibrated": _fit_stats(calib[mask], y[mask]),
        }
        if int(data["seat"].max()) == 1:
            pm, fm = _margins(data, pred, mask)
            hm, _ = _margins(data, h, mask)
            cm, _ = _margins(data, calib, mask)
            fit[part]["margin"] = {
                "learned": _fit_stats(pm, fm), "heuristic": _fit_stats(hm, fm),
                "heuristic_calibrated": _fit_stats(cm, fm),
            }
    return fit, weights, bias


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5150)
    parser.add_argument("--every", type=int, default=3, help="sample every N-th decision")
    parser.add_argument("--holdout", type=float, default=0.25, help="share of games held out")
    parser.add_argument("--ridge", type=float, default=1.0, help="ridge penalty (standardised)")
    parser.add_argument("--agent", default="greedy", help="the self-play agent's spec")
    parser.add_argument("--write", action="store_true", help="write the weights file")
    parser.add_argument("--out", type=Path, help="weights file (default: the game's data/)")
    parser.add_argument("--save-data", type=Path)
    parser.add_argument("--load-data", type=Path)
    args = parser.parse_args(argv)
    game = load_game(args.game, players=2)
    state = game.new_initial_state()
    names = list(state.value_feature_names())
    if not names or not game.info.value_model:
        parser.error(f"game {args.game!r} has no learned value (GameInfo.value_model)")
    if args.load_data:
        data = dict(np.load(args.load_data))
    else:
        data = collect(args, game)
        if args.save_data:
            np.savez_compressed(args.save_data, **data)
    fit, weights, bias = report(data, args)
    print(json.dumps(fit, indent=1))
    if not args.write:
        return
    package = type(game).__module__.rsplit(".", 1)[0]
    out = args.out or data_path(package, game.info.value_model)
    # The command that reproduces the file: the arguments, less where files were kept or read.
    given = list(argv if argv is not None else sys.argv[1:])
    kept: list[str] = []
    skip = False
    for a in given:
        if skip:
            skip = False
        elif a in ("--out", "--save-data", "--load-data"):
            skip = True
        elif not a.startswith(("--out=", "--save-data=", "--load-data=")):
            kept.append(a)
    command = "PYTHONPATH=src python scripts/train_value.py " + " ".join(kept)
    doc = {
        "game": game.info.id,
        "model": "ridge regression (linear), target: the seat's final score in points",
        "features": names,
        "weights": [round(float(w), 6) for w in weights],
        "bias": round(bias, 6),
        "trained": {
            "command": command,
            "agent": args.agent, "games": args.games, "seed": args.seed, "every": args.every,
            "ridge": args.ridge, "rows": int(len(data["final"])),
            "date": dt.date.today().isoformat(),
            "fit": fit,
        },
    }
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
