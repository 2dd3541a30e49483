"""A random policy and a masked-legal policy, 100 games through each RL adapter.

    PYTHONPATH=src python examples/rl_random_vs_masked.py [--game shooting-star] [--games 100]

Nothing is trained. Two policies meet at every table:

* ``random``: picks uniformly among *all* action ids, ignoring the mask (what an untrained
  network does); an illegal pick forfeits the game (PettingZoo's ``TerminateIllegalWrapper``,
  the Gymnasium env's default ``illegal="lose"``, and the same rule written out for OpenSpiel);
* ``masked``: picks uniformly among the ids the action mask marks legal.

Seat 0 plays ``random``, every other seat ``masked`` (in a one-player game, the seat alternates
between the two from game to game). The table shows, per adapter and policy, how many games it
played, how many it forfeited, and its mean reward (the win share, -1 for a forfeit).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from typing import Any

import numpy as np

Policy = str  # "random" or "masked"


def pick(policy: Policy, mask: np.ndarray, rng: np.random.Generator) -> int:
    """An action id: uniform over all ids (random) or over the legal ones (masked)."""
    if policy == "random":
        return int(rng.integers(len(mask)))
    return int(rng.choice(np.flatnonzero(mask)))


def seat_policies(players: int, game_index: int) -> list[Policy]:
    if players == 1:
        return ["random" if game_index % 2 == 0 else "masked"]
    return ["random"] + ["masked"] * (players - 1)


class Tally:
    def __init__(self) -> None:
        self.games: dict[Policy, int] = defaultdict(int)
        self.forfeits: dict[Policy, int] = defaultdict(int)
        self.reward: dict[Policy, float] = defaultdict(float)

    def add(self, policy: Policy, reward: float, forfeit: bool) -> None:
        self.games[policy] += 1
        self.forfeits[policy] += int(forfeit)
        self.reward[policy] += reward

    def rows(self, adapter: str) -> list[str]:
        return [
            f"| {adapter} | {p} | {self.games[p]} | {self.forfeits[p]} "
            f"| {self.reward[p] / max(1, self.games[p]):+.3f} |"
            for p in ("random", "masked")
            if self.games[p]
        ]


def run_pettingzoo(game_id: str, params: dict[str, Any], games: int, seed: int) -> Tally:
    from pettingzoo.utils.env_logger import EnvLogger
    from pettingzoo.utils.wrappers import TerminateIllegalWrapper

    from nightsky.rl import pettingzoo_env

    EnvLogger.suppress_output()  # the wrapper prints a warning at every forfeit
    tally = Tally()
    rng = np.random.default_rng(seed)
    env = TerminateIllegalWrapper(pettingzoo_env(game_id, **params), illegal_reward=-1.0)
    for g in range(games):
        env.reset(seed=seed + g)
        policies = seat_policies(len(env.possible_agents), g)
        total: dict[str, float] = defaultdict(float)
        forfeit: set[str] = set()
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            action = pick(policies[seat], obs["action_mask"], rng)
            if not obs["action_mask"][action]:
                forfeit.add(agent)
            env.step(action)
        for seat, agent in enumerate(env.possible_agents):
            tally.add(policies[seat], total[agent], agent in forfeit)
    return tally


def run_gymnasium(game_id: str, params: dict[str, Any], games: int, seed: int) -> Tally:
    from nightsky.rl import gym_env

    tally = Tally()
    rng = np.random.default_rng(seed)
    env = gym_env(game_id, seat=0, opponents="random", **params)  # agent "random" is legal-only
    for g in range(games):
        policy = ["random", "masked"][g % 2]
        obs, _ = env.reset(seed=seed + g)
        total, done, info = 0.0, False, {}
        while not done:
            action = pick(policy, obs["action_mask"], rng)
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        tally.add(policy, total, bool(info.get("illegal_action")))
    return tally


def run_openspiel(game_id: str, params: dict[str, Any], games: int, seed: int) -> Tally:
    from nightsky.rl import openspiel as nos

    tally = Tally()
    rng = np.random.default_rng(seed)
    game = nos.load(game_id, **params)
    n = game.num_players()
    nda = game.num_distinct_actions()
    for g in range(games):
        policies = seat_policies(n, g)
        state = game.new_initial_state()
        forfeit: int | None = None
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=probs)))
                continue
            seat = state.current_player()
            mask = np.zeros(nda, dtype=np.int8)
            mask[state.legal_actions()] = 1
            action = pick(policies[seat], mask, rng)
            if not mask[action]:
                forfeit = seat
                break
            state.apply_action(action)
        returns = list(state.returns()) if forfeit is None else [0.0] * n
        if forfeit is not None:
            returns[forfeit] = -1.0
        for seat in range(n):
            tally.add(policies[seat], returns[seat], seat == forfeit)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="shooting-star")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    params = {"players": args.players}
    print(f"{args.game}, {args.players} players, {args.games} games per adapter\n")
    print("| adapter | policy | seat-games | forfeits | mean reward |")
    print("|---|---|---:|---:|---:|")
    for name, run in (
        ("PettingZoo", run_pettingzoo),
        ("Gymnasium", run_gymnasium),
        ("OpenSpiel", run_openspiel),
    ):
        for row in run(args.game, params, args.games, args.seed).rows(name):
            print(row, flush=True)


if __name__ == "__main__":
    main()
