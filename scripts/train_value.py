"""Train a game's learned value (``State.value``) from self-play: ridge regression with numpy.

    PYTHONPATH=src python scripts/train_value.py mihi-anguli --games 300 --seed 5150 --write

Plays ``--games`` 2-player games of ``--agent`` (default ``greedy``) against itself. At every
``--every``-th decision of a game (offset by the game's index) it records each seat's
``Evaluator.value_features`` and, when the game is over, that seat's final score: the target. The
last ``--holdout`` share of the games is held out; ridge regression (``--ridge``, on standardised
features) is fit on the rest and reported on both: R^2 and RMSE of the final score, and of the
final margin between the two seats (the value of one seat minus the other's), beside the same
for the game's hand heuristic (``Evaluator.evaluate``) taken as a prediction in points and
calibrated by a least-squares line. With ``--write`` the weights (in the features' own units, the
standardisation folded in) go to the file ``GameInfo.value_model`` names in the game package's
``data/`` (or ``--out``), with the command, data size, date and fit. ``--save-data`` /
``--load-data`` keep the recorded positions (``.npz``) to refit without playing again.

Other tables: ``--players N`` live players, ``--option KEY=VALUE`` (repeatable) game options,
``--vary KEY=V1,V2,...`` game ``g`` with option KEY at the ``g % count``-th value; only the live
seats' positions are recorded (a seat the game plays itself, such as a Starbot, is not the
model's), and ``--file NAME`` names the weights file in the game's ``data/``. Starlight's
weights for one player against Starbots (``data/value_starbots.json``):

    PYTHONPATH=src python scripts/train_value.py starlight --players 1 --option starbots=2 \
        --vary starbot_level=easy,medium,hard,expert --games 800 --seed 5830 \
        --file value_starbots.json --write

Variants (docs/agents.md, "A learned value for Mihi Anguli", measures them): ``--around A,B``
makes the model the plain sum of those features plus a fitted correction (ridge shrinks it
towards the sum, e.g. towards the hand heuristic's parts), ``--only`` limits the features fitted
to the final score, ``--no-level`` skips that fit. ``--pairs N`` first fits a correction on
sibling pairs from N more games (seed ``--seed`` + 1): at every ``--pair-every``-th decision
the agent's move and one of the heuristic's other best four are each finished by greedy on the
same random draws, and the ``--pair-only`` features' differences are fitted to the difference
of the mover's final scores (a causal target: the same history, only the move differs).

``--method play`` tunes the weights for choosing instead (docs/agents.md, "Weights tuned by
play"): a candidate is scored by the margin of ``greedy`` on it over ``greedy`` in 2-player
games, every candidate on the same games; ``--search es`` (evolution strategies) or
``--search coord`` (coordinate ascent), from ``--start FILE`` or the sum of the ``--around``
features, the ``--fix`` features kept as they start:

    PYTHONPATH=src python scripts/train_value.py mihi-anguli --method play --search coord \
        --around score,map,costs,pending --fix score --sweeps 1 --gen-games 40 --seed 2026 --write

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
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from nightsky.agents import make_agent
from nightsky.agents.simple import GreedyAgent
from nightsky.core.components import data_path
from nightsky.core.game import CHANCE, Game
from nightsky.core.registry import load_game
from nightsky.sim.runner import play_out


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
            # The live seats only: a seat the game plays itself (a Starbot) is not the model's.
            for q in range(game.num_players):
                feats.append(state.game.evaluator.value_features(state, q))
                heur.append(state.game.evaluator.evaluate(state, q))
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
    tables = variants(args)
    for g in range(args.games):
        # ``--vary``: game ``g`` is played on the ``g % len``-th table.
        table = tables[g % len(tables)] if tables else game
        feats, heur, (where, scores) = play(table, args.agent, args.seed, g, args.every)
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


def parse_options(items: list[str], flag: str) -> dict[str, Any]:
    """``KEY=VALUE`` strings as a dict of game options; the values are parsed by the game's
    option types when the game is built (a bad one fails there, naming the option)."""
    out: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key:
            raise SystemExit(f"{flag} must be KEY=VALUE, got {item!r}")
        out[key] = text
    return out


def variants(args: argparse.Namespace) -> list[Game]:
    """The tables of ``--vary KEY=V1,V2,...`` (each with ``--players`` and ``--option``), in
    order; empty without ``--vary``."""
    if not args.vary:
        return []
    key, eq, values = args.vary.partition("=")
    if not eq or not key or not values:
        raise SystemExit(f"--vary must be KEY=V1,V2,..., got {args.vary!r}")
    return [
        load_game(args.game, players=args.players, **{**args.options, key: v})
        for v in values.split(",")
    ]


def _finish(state: Any, seed: str) -> list[float]:
    """Play ``state`` to the end with ``greedy:cheat=true`` in every seat; the final scores.
    Chance and the agents draw from generators seeded by ``seed``, so two continuations of
    sibling positions see the same dice as far as they draw alike (common random numbers)."""
    return play_out(state, make_agent("greedy:cheat=true"), random.Random(seed))


def collect_pairs(args: argparse.Namespace, game: Game) -> dict[str, np.ndarray]:
    """Sibling pairs: at every ``--pair-every``-th decision of ``--pairs`` games of ``--agent``
    self-play (seed ``--seed`` + 1), the agent's move and another of the heuristic's best four
    are each played and the game finished by greedy on the same random draws; one row per pair:
    the mover's features after each move, their difference, the heuristic's difference and the
    difference of the mover's final scores (what choosing one move over the other gained)."""
    seed = args.seed + 1
    dx: list[list[float]] = []
    rows: list[tuple[int, float, float]] = []  # game, heuristic difference, final difference
    start = time.perf_counter()
    for g in range(args.pairs):
        rng = random.Random(f"{seed}-{g}")
        pick = random.Random(f"{seed}-{g}-pick")
        agents = [make_agent(args.agent) for _ in range(game.num_seats)]
        state = game.new_initial_state()
        decision = 0
        while not state.is_terminal():
            seat = state.current_players()[0]
            if seat == CHANCE:
                state.step(state.sample_chance(rng), CHANCE)
                continue
            move = agents[seat].choose(state, seat, rng)
            legal = state.legal_actions(seat)
            if decision % args.pair_every == g % args.pair_every and len(legal) > 1:
                kids = []
                for a in legal:
                    child = state.clone(history=False)
                    child.step(a, seat)
                    kids.append((child.game.evaluator.evaluate(child, seat), a, child))
                kids.sort(key=lambda k: -k[0])
                others = [k for k in kids[:5] if k[1] != move][:4]
                mine = next(k for k in kids if k[1] == move)
                other = others[pick.randrange(len(others))]
                crn = f"{seed}-{g}-{decision}-playout"
                fa = mine[2].game.evaluator.value_features(mine[2], seat)
                fb = other[2].game.evaluator.value_features(other[2], seat)
                ya = _finish(mine[2].clone(), crn)[seat]
                yb = _finish(other[2].clone(), crn)[seat]
                dx.append([a - b for a, b in zip(fa, fb, strict=True)])
                rows.append((g, mine[0] - other[0], ya - yb))
            state.step(move, seat)
            decision += 1
        took = time.perf_counter() - start
        print(f"  pairs: {g + 1} games, {len(rows)} pairs, {took:.0f} s", file=sys.stderr,
              flush=True)
    meta = np.array(rows, dtype=float)
    return {"dx": np.array(dx, dtype=float), "game": meta[:, 0].astype(int),
            "dh": meta[:, 1], "dfinal": meta[:, 2]}


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


def _ridge_through_zero(x: np.ndarray, y: np.ndarray, alpha: float) -> np.ndarray:
    """Ridge regression without an intercept (differences of sibling positions), on columns
    scaled to unit root mean square; weights in the columns' own units."""
    scale = np.sqrt((x**2).mean(axis=0))
    scale[scale < 1e-12] = 1.0
    z = x / scale
    w = np.linalg.solve(z.T @ z + alpha * np.eye(z.shape[1]), z.T @ y)
    return w / scale


def _pair_stats(pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    out = _fit_stats(pred, y)
    decided = np.abs(y) > 1e-9
    out["same_sign"] = round(float((np.sign(pred[decided]) == np.sign(y[decided])).mean()), 4)
    return out


def report(
    data: dict[str, np.ndarray], args: argparse.Namespace, pairs: dict[str, np.ndarray] | None
) -> tuple[dict, np.ndarray, float]:
    """Fit on the training games, the fit on both parts for the model and the heuristic."""
    cut = int(round(args.games * (1.0 - args.holdout)))
    train = data["game"] < cut
    test = ~train
    x, y, h = data["x"], data["final"], data["heuristic"]
    # ``--around``: the model is the sum of those features plus a fitted correction (ridge
    # shrinks the correction, not the weights, towards zero); ``--only``: the features fitted
    # to the final score. With sibling pairs the ``--pair-only`` features are first fitted to
    # the pairs' differences of final score (no intercept), then the ``--only`` ones to what
    # is left of the final score.
    names = list(args.names)
    weights = np.array([n in args.around for n in names], dtype=float)
    pair_fit: dict[str, Any] = {}
    if pairs is not None:
        pcut = int(round(args.pairs * (1.0 - args.holdout)))
        ptrain = pairs["game"] < pcut
        pused = [i for i, n in enumerate(names) if not args.pair_only or n in args.pair_only]
        dx, dy = pairs["dx"], pairs["dfinal"]
        wc = _ridge_through_zero(
            dx[ptrain][:, pused], (dy - dx @ weights)[ptrain], args.pair_ridge
        )
        weights[pused] += wc
        pair_fit = {"train_games": pcut, "holdout_games": args.pairs - pcut,
                    "pairs": int(len(dy)), "holdout_pairs": int((~ptrain).sum()),
                    "mean_gain_of_agents_move": round(float(dy.mean()), 3)}
        for part, mask in (("train", ptrain), ("holdout", ~ptrain)):
            if mask.any():
                pair_fit[part] = {
                    "learned": _pair_stats(dx[mask] @ weights, dy[mask]),
                    "heuristic": _pair_stats(pairs["dh"][mask], dy[mask]),
                }
    used = [i for i, n in enumerate(names) if not args.only or n in args.only]
    target = y - x @ weights
    bias = 0.0
    if args.level:
        w_used, bias = ridge(x[train][:, used], target[train], args.ridge)
        weights[used] += w_used
    pred = x @ weights + bias
    slope, icept = np.polyfit(h[train], y[train], 1)
    calib = slope * h + icept
    fit: dict[str, Any] = {
        "train_games": int(cut), "holdout_games": int(args.games - cut),
        "train_rows": int(train.sum()), "holdout_rows": int(test.sum()),
    }
    if pair_fit:
        fit["sibling_pairs"] = pair_fit
    for part, mask in (("train", train), ("holdout", test)):
        if not mask.any():
            continue
        fit[part] = {
            "learned": _fit_stats(pred[mask], y[mask]),
            "heuristic": _fit_stats(h[mask], y[mask]),
            "heuristic_calibrated": _fit_stats(calib[mask], y[mask]),
        }
        if int(data["seat"].max()) == 1 and int(data["seat"].min()) == 0:
            pm, fm = _margins(data, pred, mask)
            hm, _ = _margins(data, h, mask)
            cm, _ = _margins(data, calib, mask)
            fit[part]["margin"] = {
                "learned": _fit_stats(pm, fm), "heuristic": _fit_stats(hm, fm),
                "heuristic_calibrated": _fit_stats(cm, fm),
            }
    return fit, weights, bias


# ------------------------------------------------------------------ --method play


class CandidateGreedy(GreedyAgent):
    """``greedy:value=learned`` with a candidate linear model in place of the shipped file: the
    bias plus the dot product of ``weights`` with ``Evaluator.value_features`` (summed in the order
    a linear weights file's reader sums them, so a written file plays the same moves)."""

    def __init__(self, weights: list[float], bias: float) -> None:
        super().__init__(value="learned")
        self.weights = [float(w) for w in weights]
        self.bias = float(bias)

    def score(self, state: Any, player: int) -> float:
        total = self.bias
        feats = state.game.evaluator.value_features(state, player)
        for w, x in zip(self.weights, feats, strict=True):
            total += w * x
        return total


def play_game(game: Game, agents: list[Any], seed: int, index: int) -> list[float]:
    """Game ``index`` of ``seed``: chance from ``random.Random(f"{seed}-{index}")``, seat
    ``q``'s agent from ``random.Random(f"{seed}-{index}-{q}")``; the final scores."""
    rng = random.Random(f"{seed}-{index}")
    rngs = [random.Random(f"{seed}-{index}-{q}") for q in range(len(agents))]
    state = game.new_initial_state()
    while not state.is_terminal():
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
        else:
            state.step(agents[seat].choose(state, seat, rngs[seat]), seat)
    return [float(x) for x in state.scores()]


class Duels:
    """The candidate's margin over ``greedy`` in game ``index`` of ``seed``: the candidate in
    seat ``index % n``, ``greedy`` in the others, its score minus the mean of theirs. Alone
    (one seat) the margin is its score minus ``greedy``'s on the same seed (cached)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.solo: dict[tuple[int, int], float] = {}
        self.games = 0

    def margin(self, weights: list[float], bias: float, seed: int, index: int) -> float:
        n = self.game.num_seats
        me = index % n
        agents: list[Any] = [
            CandidateGreedy(weights, bias) if q == me else make_agent("greedy") for q in range(n)
        ]
        scores = play_game(self.game, agents, seed, index)
        self.games += 1
        if n > 1:
            return scores[me] - sum(s for q, s in enumerate(scores) if q != me) / (n - 1)
        key = (seed, index)
        if key not in self.solo:
            self.solo[key] = play_game(self.game, [make_agent("greedy")], seed, index)[0]
            self.games += 1
        return scores[0] - self.solo[key]

    def mean(self, weights: list[float], bias: float, seed: int, indices: range) -> float:
        return sum(self.margin(weights, bias, seed, i) for i in indices) / len(indices)


_WORKER: dict[str, Duels] = {}  # a worker process's own duels, by game id and players


def _margin_job(job: tuple[str, int, list[float], float, int, int]) -> tuple[float, int]:
    """``Duels.margin`` in a worker process: the margin and the games it played."""
    game_id, players, weights, bias, seed, index = job
    key = f"{game_id}/{players}"
    if key not in _WORKER:
        _WORKER[key] = Duels(load_game(game_id, players=players))
    duels = _WORKER[key]
    before = duels.games
    return duels.margin(weights, bias, seed, index), duels.games - before


def sibling_spread(game: Game, games: int, seed: int) -> np.ndarray:
    """Per feature, how much it differs between the positions one decision leads to: the root
    mean square of each child's difference from its siblings' mean, over the decisions of
    ``games`` ``greedy`` self-play games where the feature differs at all (1 where it never
    does). A step of 1 / spread in a weight moves a sibling's value by about one point there."""
    sums: np.ndarray | None = None
    counts: np.ndarray | None = None
    for g in range(games):
        rng = random.Random(f"{seed}-spread-{g}")
        agents = [make_agent("greedy") for _ in range(game.num_seats)]
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_players()[0]
            if seat == CHANCE:
                state.step(state.sample_chance(rng), CHANCE)
                continue
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                kids = []
                for a in legal:
                    child = state.clone(history=False)
                    child.step(a, seat)
                    kids.append(child.game.evaluator.value_features(child, seat))
                x = np.array(kids, dtype=float)
                dev = x - x.mean(axis=0)
                varies = np.ptp(x, axis=0) > 1e-9
                sq = (dev**2).sum(axis=0)
                if sums is None or counts is None:
                    sums, counts = np.zeros(x.shape[1]), np.zeros(x.shape[1])
                sums += np.where(varies, sq, 0.0)
                counts += np.where(varies, len(kids), 0)
            state.step(agents[seat].choose(state, seat, rng), seat)
    if sums is None or counts is None:
        raise SystemExit("no decision with a choice in the spread games")
    spread = np.sqrt(sums / np.maximum(counts, 1))
    spread[(counts == 0) | (spread < 1e-9)] = 1.0
    return spread


def start_weights(args: argparse.Namespace) -> tuple[np.ndarray, float, str]:
    """The weights the tuning starts from: ``--start FILE`` (a weights file of these features)
    or the plain sum of the ``--around`` features (e.g. the hand heuristic's parts)."""
    names = list(args.names)
    if args.start:
        data = json.loads(Path(args.start).read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("features") != names:
            raise SystemExit(f"{args.start}: field 'features' must list {names}")
        return np.array(data["weights"], dtype=float), float(data["bias"]), str(args.start)
    if not args.around:
        raise SystemExit("--method play needs --start FILE or --around FEATURES")
    return (np.array([n in args.around for n in names], dtype=float), 0.0,
            "the sum of " + ",".join(args.around))


def adam_step(
    theta: np.ndarray, grad: np.ndarray, state: dict[str, Any], lr: float
) -> np.ndarray:
    """One Adam ascent step (beta 0.9 / 0.999) on ``theta`` along ``grad``."""
    state["t"] = t = state.get("t", 0) + 1
    m = state["m"] = 0.9 * state.get("m", np.zeros_like(theta)) + 0.1 * grad
    v = state["v"] = 0.999 * state.get("v", np.zeros_like(theta)) + 0.001 * grad**2
    mhat = m / (1 - 0.9**t)
    vhat = v / (1 - 0.999**t)
    return theta + lr * mhat / (np.sqrt(vhat) + 1e-8)


def coordinate(args: argparse.Namespace, game: Game) -> tuple[np.ndarray, float, dict[str, Any]]:
    """Policy improvement by play, one weight at a time (coordinate ascent on common random
    numbers), scored by the margin of ``greedy`` on the candidate over ``greedy``.

    Each of ``--sweeps`` sweeps plays ``--gen-games`` fresh games (games ``s * gen_games ...``
    of ``--seed``) with the current weights, then for every free weight (all but ``--fix``)
    the same games with it moved ``--step`` spread units (``sibling_spread``) up and down; a
    move is kept, and becomes the weights the next tries compare with, when its games gain
    more than ``--accept`` standard errors of the game-by-game difference and at least half a
    point on average. After each sweep the weights play the ``--check-games`` validation games
    (seed ``--seed`` + 7); the weights with the best validation margin are the result."""
    names = list(args.names)
    w0, bias, origin = start_weights(args)
    free = [i for i, n in enumerate(names) if n not in args.fix]
    spread = sibling_spread(game, args.spread_games, args.seed)
    duels = Duels(game)
    check_seed = args.seed + 7
    checks = range(args.check_games)
    start = time.perf_counter()

    pool = Pool(args.jobs) if args.jobs > 1 else None

    def margins_at(w: np.ndarray, seed: int, games: range) -> np.ndarray:
        ws = [float(x) for x in w]
        if pool is None:
            return np.array([duels.margin(ws, bias, seed, g) for g in games])
        jobs = [(game.info.id, game.num_seats, ws, bias, seed, g) for g in games]
        out = pool.map(_margin_job, jobs)
        duels.games += sum(n for _, n in out)
        return np.array([m for m, _ in out])

    def margins(w: np.ndarray, games: range) -> np.ndarray:
        return margins_at(w, args.seed, games)

    def check(w: np.ndarray) -> float:
        return float(sum(margins_at(w, check_seed, checks))) / len(checks)

    w = w0.copy()
    base = check(w)
    history: list[dict[str, Any]] = [{"sweep": 0, "check_margin": round(base, 3)}]
    best = (0.0, w.copy(), 0)
    print(f"  start: validation margin {base:+.2f}", file=sys.stderr, flush=True)
    for sweep in range(1, args.sweeps + 1):
        games = range((sweep - 1) * args.gen_games, sweep * args.gen_games)
        now = margins(w, games)
        moves = []
        for i in free:
            for sign in (1.0, -1.0):
                cand = w.copy()
                cand[i] += sign * args.step / spread[i]
                diff = margins(cand, games) - now
                gain = float(diff.mean())
                err = float(diff.std(ddof=1)) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
                if gain >= 0.5 and gain > args.accept * err:
                    w, now = cand, now + diff
                    moves.append({"feature": names[i], "by": round(float(cand[i] - w0[i]), 6),
                                  "gain": round(gain, 3), "stderr": round(err, 3)})
                    print(f"  sweep {sweep}: {names[i]} {sign * args.step / spread[i]:+.3f}, "
                          f"{gain:+.2f} +- {err:.2f}", file=sys.stderr, flush=True)
                    break
        m = check(w)
        history.append({"sweep": sweep, "moves": moves, "check_margin": round(m, 3)})
        if m - base > best[0]:
            best = (m - base, w.copy(), sweep)
        took = time.perf_counter() - start
        print(f"  sweep {sweep}: validation margin {m:+.2f} ({m - base:+.2f} over the start), "
              f"{duels.games} games, {took:.0f} s", file=sys.stderr, flush=True)
    if pool is not None:
        pool.close()
    gain, w, sweep = best
    info = {
        "method": "play", "search": "coord", "start": origin, "fixed": list(args.fix),
        "sweeps": args.sweeps, "gen_games": args.gen_games, "step": args.step,
        "accept": args.accept, "spread_games": args.spread_games,
        "check_games": args.check_games, "check_seed": check_seed,
        "chosen_sweep": sweep, "check_gain_over_start": round(gain, 3),
        "games_played": duels.games, "history": history,
    }
    return w, bias, info


def tune(args: argparse.Namespace, game: Game) -> tuple[np.ndarray, float, dict[str, Any]]:
    """Policy improvement by play: evolution strategies (mirrored Gaussian perturbations, Adam)
    on the weights, scored by the margin of ``greedy`` on the candidate over ``greedy``.

    The free weights (all but ``--fix``) move in units of ``sibling_spread``. Generation ``t``
    draws ``--pairs-per-gen`` directions; each direction's two candidates (plus and minus
    ``--sigma`` along it) play the same ``--gen-games`` fresh games (common random numbers:
    games ``t * gen_games ...`` of ``--seed``), and the difference of their mean margins
    estimates the slope. Every ``--check-every`` generations the current weights play the
    ``--check-games`` validation games (seed ``--seed`` + 7, the same games each time); the
    weights with the best validation margin are the result."""
    names = list(args.names)
    w0, bias, origin = start_weights(args)
    free = [i for i, n in enumerate(names) if n not in args.fix]
    spread = sibling_spread(game, args.spread_games, args.seed)
    unit = np.array([1.0 / spread[i] for i in free])
    duels = Duels(game)
    check_seed = args.seed + 7
    checks = range(args.check_games)
    noise = np.random.default_rng(args.seed)

    def weights_at(theta: np.ndarray) -> list[float]:
        w = w0.copy()
        w[free] += theta * unit
        return [float(x) for x in w]

    theta = np.zeros(len(free))
    adam: dict[str, Any] = {}
    start = time.perf_counter()
    base = duels.mean(weights_at(theta), bias, check_seed, checks)
    history = [{"generation": 0, "check_margin": round(base, 3)}]
    best = (0.0, theta.copy(), 0)
    print(f"  start: validation margin {base:+.2f}", file=sys.stderr, flush=True)
    for gen in range(1, args.generations + 1):
        games = range((gen - 1) * args.gen_games, gen * args.gen_games)
        grad = np.zeros(len(free))
        for _ in range(args.pairs_per_gen):
            d = noise.standard_normal(len(free))
            up = duels.mean(weights_at(theta + args.sigma * d), bias, args.seed, games)
            down = duels.mean(weights_at(theta - args.sigma * d), bias, args.seed, games)
            grad += (up - down) / (2 * args.sigma) * d / args.pairs_per_gen
        theta = adam_step(theta, grad, adam, args.lr)
        if gen % args.check_every == 0 or gen == args.generations:
            m = duels.mean(weights_at(theta), bias, check_seed, checks)
            gain = m - base
            history.append({"generation": gen, "check_margin": round(m, 3)})
            if gain > best[0]:
                best = (gain, theta.copy(), gen)
            took = time.perf_counter() - start
            print(f"  generation {gen}: validation margin {m:+.2f} ({gain:+.2f} over the "
                  f"start), {duels.games} games, {took:.0f} s", file=sys.stderr, flush=True)
    gain, theta, gen = best
    info = {
        "method": "play", "start": origin, "fixed": list(args.fix),
        "generations": args.generations, "pairs_per_gen": args.pairs_per_gen,
        "gen_games": args.gen_games, "sigma": args.sigma, "lr": args.lr,
        "spread_games": args.spread_games,
        "check_games": args.check_games, "check_seed": check_seed,
        "chosen_generation": gen, "check_gain_over_start": round(gain, 3),
        "games_played": duels.games, "history": history,
    }
    return np.array(weights_at(theta)), bias, info


def write_weights(
    args: argparse.Namespace, game: Game, argv: list[str] | None, names: list[str],
    weights: np.ndarray, bias: float, model: str, trained: dict[str, Any],
) -> None:
    """Write the weights file with the command that reproduces it, the date and ``trained``."""
    package = type(game).__module__.rsplit(".", 1)[0]
    out = args.out or data_path(package, args.file or game.info.value_model)
    # The command that reproduces the file: the arguments, less where files were kept or read.
    given = list(argv if argv is not None else sys.argv[1:])
    kept: list[str] = []
    skip = False
    for a in given:
        if skip:
            skip = False
        elif a in ("--out", "--save-data", "--load-data", "--save-pairs", "--load-pairs"):
            skip = True
        elif not a.startswith(
            ("--out=", "--save-data=", "--load-data=", "--save-pairs=", "--load-pairs=")
        ):
            kept.append(a)
    command = "PYTHONPATH=src python scripts/train_value.py " + " ".join(kept)
    doc = {
        "game": game.info.id,
        "model": model,
        "features": names,
        "weights": [round(float(w), 6) for w in weights],
        "bias": round(bias, 6),
        "trained": {"command": command, **trained, "date": dt.date.today().isoformat()},
    }
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--method", choices=("regression", "play"), default="regression", help=(
        "regression: ridge on self-play outcomes; play: tune the weights by the margin of "
        "greedy on them over greedy (evolution strategies)"))
    parser.add_argument("--start", help="play: the weights file to start from (else --around)")
    parser.add_argument("--fix", default="", help="play: comma-separated features kept as started")
    parser.add_argument("--search", choices=("es", "coord"), default="es", help=(
        "play: evolution strategies, or coordinate ascent (one weight at a time)"))
    parser.add_argument("--sweeps", type=int, default=2, help="coord: sweeps over the weights")
    parser.add_argument("--step", type=float, default=1.0, help="coord: a move, spread units")
    parser.add_argument("--accept", type=float, default=2.0, help="coord: gain in std errors")
    parser.add_argument("--generations", type=int, default=60, help="play: generations")
    parser.add_argument("--pairs-per-gen", type=int, default=4, help="play: directions per gen")
    parser.add_argument("--gen-games", type=int, default=8, help=(
        "play: games a candidate (es) or a sweep (coord)"))
    parser.add_argument("--sigma", type=float, default=0.5, help="play: perturbation size")
    parser.add_argument("--lr", type=float, default=0.1, help="play: Adam step (spread units)")
    parser.add_argument("--spread-games", type=int, default=2, help="play: games to scale features")
    parser.add_argument("--check-games", type=int, default=40, help="play: validation games")
    parser.add_argument("--jobs", type=int, default=1, help=(
        "coord: worker processes for the games (each game's result is the same either way)"))
    parser.add_argument("--check-every", type=int, default=5, help="play: validate every N gens")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5150)
    parser.add_argument("--every", type=int, default=3, help="sample every N-th decision")
    parser.add_argument("--holdout", type=float, default=0.25, help="share of games held out")
    parser.add_argument("--ridge", type=float, default=1.0, help="ridge penalty (standardised)")
    parser.add_argument("--agent", default="greedy", help="the self-play agent's spec")
    parser.add_argument("--around", default="", help=(
        "comma-separated features whose plain sum the model corrects (weights shrunk towards 1)"))
    parser.add_argument("--only", default="", help="comma-separated features to fit (others 0)")
    parser.add_argument("--level", action=argparse.BooleanOptionalAction, default=True, help=(
        "fit the --only features and a bias to the final score (--no-level: keep the weights "
        "from --around and the pairs, bias 0)"))
    parser.add_argument("--pairs", type=int, default=0, help=(
        "games from which sibling pairs are drawn (0: none; the correction is then fitted to "
        "the final score alone)"))
    parser.add_argument("--pair-every", type=int, default=6, help="a pair every N decisions")
    parser.add_argument("--pair-only", default="", help="comma-separated features fitted to pairs")
    parser.add_argument("--pair-ridge", type=float, default=10.0, help="ridge penalty for pairs")
    parser.add_argument("--save-pairs", type=Path)
    parser.add_argument("--load-pairs", type=Path)
    parser.add_argument("--players", type=int, default=2, help=(
        "live players at the table (regression; the game may add seats of its own, e.g. "
        "Starlight's Starbots, whose positions are not recorded)"))
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=(
        "a game option for the recorded games (regression; repeatable), e.g. starbots=2"))
    parser.add_argument("--vary", default="", metavar="KEY=V1,V2,...", help=(
        "regression: game g is played with option KEY at the (g mod count)-th value, e.g. "
        "starbot_level=easy,medium,hard,expert"))
    parser.add_argument("--write", action="store_true", help="write the weights file")
    parser.add_argument("--out", type=Path, help="weights file (default: the game's data/)")
    parser.add_argument("--file", default="", help=(
        "the weights file's name in the game's data/ (default: GameInfo.value_model), e.g. "
        "Starlight's value_starbots.json for its Starbot tables"))
    parser.add_argument("--save-data", type=Path)
    parser.add_argument("--load-data", type=Path)
    args = parser.parse_args(argv)
    args.options = parse_options(args.option, "--option")
    if args.method == "play" and (args.players != 2 or args.options or args.vary):
        parser.error("--players, --option and --vary are for --method regression")
    game = load_game(args.game, players=args.players, **args.options)
    state = game.new_initial_state()
    names = list(state.game.evaluator.value_feature_names())
    if not names or not game.info.value_model:
        parser.error(f"game {args.game!r} has no learned value (GameInfo.value_model)")
    args.names = names
    args.around = [n for n in args.around.split(",") if n]
    args.only = [n for n in args.only.split(",") if n]
    args.pair_only = [n for n in args.pair_only.split(",") if n]
    args.fix = [n for n in args.fix.split(",") if n]
    for n in (*args.around, *args.only, *args.pair_only, *args.fix):
        if n not in names:
            parser.error(f"unknown feature {n!r}; the game's: {', '.join(names)}")
    if args.method == "play":
        weights, bias, info = (coordinate if args.search == "coord" else tune)(args, game)
        print(json.dumps({k: v for k, v in info.items() if k != "history"}, indent=1))
        model = ("linear, tuned by play: the margin of greedy on these weights over greedy "
                 f"({'coordinate ascent' if args.search == 'coord' else 'evolution strategies'})")
        trained = {"games": info["games_played"], "seed": args.seed, **info}
        if args.write:
            write_weights(args, game, argv, names, weights, bias, model, trained)
        return
    if args.load_data:
        data = dict(np.load(args.load_data))
    else:
        data = collect(args, game)
        if args.save_data:
            np.savez_compressed(args.save_data, **data)  # type: ignore[arg-type]  # numpy stubs read ** as allow_pickle
    pairs = None
    if args.load_pairs:
        pairs = dict(np.load(args.load_pairs))
    elif args.pairs:
        pairs = collect_pairs(args, game)
        if args.save_pairs:
            np.savez_compressed(args.save_pairs, **pairs)  # type: ignore[arg-type]
    fit, weights, bias = report(data, args, pairs)
    print(json.dumps(fit, indent=1))
    if not args.write:
        return
    trained = {
        "agent": args.agent, "games": args.games, "seed": args.seed, "every": args.every,
        **({"players": args.players} if args.players != 2 else {}),
        **({"options": args.options} if args.options else {}),
        **({"vary": args.vary} if args.vary else {}),
        "ridge": args.ridge, "rows": int(len(data["final"])),
    }
    write_weights(args, game, argv, names, weights, bias,
                  "ridge regression (linear), target: the seat's final score in points",
                  {**trained, "fit": fit})


if __name__ == "__main__":
    main()
