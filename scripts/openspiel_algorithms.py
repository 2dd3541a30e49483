"""Which OpenSpiel algorithms run on the nightsky games (docs/rl.md, "OpenSpiel algorithms").

Each probe runs in its own interpreter, since some of OpenSpiel's C++ code crashes the whole
process (a segmentation fault) on a game defined in Python: a crash, an error or a time-out of
one probe says so in its row and the others still run. Python's own ``python_kuhn_poker`` (a
Python-defined game that ships with OpenSpiel) and the C++ ``kuhn_poker`` are the controls.

    PYTHONPATH=src python scripts/openspiel_algorithms.py [--game nightsky_star_fire] [--markdown]

Needs the extra ``nightsky[openspiel]``. ``tests/rl/test_openspiel.py`` runs the C++ IS-MCTS
probe too, so the claim in the docs is checked whenever the suite runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import textwrap
import time

SETUP = """
import numpy as np, pyspiel
import open_spiel.python.games  # registers python_kuhn_poker and the other Python games
import nightsky.rl.openspiel  # registers nightsky_<game>
from open_spiel.python.algorithms import mcts, ismcts
game = pyspiel.load_game({game!r})
rs = np.random.RandomState(0)
def play(step):
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal() and n < {moves}:
        if state.is_chance_node():
            acts, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(acts, p=probs)))
        else:
            state.apply_action(step(state)); n += 1
    return n
"""

PROBES: dict[str, str] = {
    "C++ ISMCTSBot (pyspiel.ISMCTSBot)": """
        bot = pyspiel.ISMCTSBot(0, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 4, 10,
                                pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, True, True)
        print("OK", play(bot.step))
    """,
    "C++ MCTSBot (pyspiel.MCTSBot)": """
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, 4, 10**6,
                              False, 0, False)
        print("OK", play(bot.step))
    """,
    "Python ISMCTSBot (algorithms.ismcts)": """
        ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        bot = ismcts.ISMCTSBot(game, ev, uct_c=2.0, max_simulations=4, random_state=rs,
                               allow_inconsistent_action_sets=True)
        print("OK", play(bot.step))
    """,
    "Python MCTSBot (algorithms.mcts)": """
        ev = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
        bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=ev, random_state=rs)
        print("OK", play(bot.step))
    """,
    "Python outcome-sampling MCCFR (algorithms.outcome_sampling_mccfr)": """
        from open_spiel.python.algorithms import outcome_sampling_mccfr as os_mccfr
        solver = os_mccfr.OutcomeSamplingSolver(game)
        for _ in range(3):
            solver.iteration()
        print("OK", len(solver._infostates))
    """,
    "rl_environment.Environment (observation tensor) + random agents": """
        from open_spiel.python import rl_environment
        from open_spiel.python.algorithms import random_agent
        env = rl_environment.Environment(game)
        agents = [random_agent.RandomAgent(p, game.num_distinct_actions())
                  for p in range(game.num_players())]
        ts = env.reset(); n = 0
        while not ts.last() and n < {moves}:
            p = ts.observations["current_player"]
            ts = env.step([agents[p].step(ts).action]); n += 1
        print("OK", n, len(ts.observations["info_state"][0]))
    """,
    "pyspiel.random_sim_test": """
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
        print("OK")
    """,
    "Python tabular CFR (algorithms.cfr), whole tree": """
        from open_spiel.python.algorithms import cfr
        cfr.CFRSolver(game).evaluate_and_update_policy()
        print("OK")
    """,
    "Python external-sampling MCCFR (algorithms.external_sampling_mccfr)": """
        from open_spiel.python.algorithms import external_sampling_mccfr as es_mccfr
        es_mccfr.ExternalSamplingSolver(game).iteration()
        print("OK")
    """,
}


def run_probe(code: str, game: str, moves: int, timeout: float) -> tuple[str, float]:
    """(verdict, seconds) of one probe on one game."""
    src = SETUP.format(game=game, moves=moves) + textwrap.dedent(code).format(moves=moves)
    start = time.perf_counter()
    try:
        run = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True,
                             timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"does not finish in {timeout:g} s", time.perf_counter() - start
    took = time.perf_counter() - start
    if run.returncode < 0:
        return f"crashes (signal {-run.returncode})", took
    if run.returncode != 0 or "OK" not in run.stdout:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return f"error: {last[:90]}", took
    return "works", took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append",
                    help="pyspiel game string(s); default: star-fire, mihi-anguli and controls")
    ap.add_argument("--moves", type=int, default=6, help="seat moves per probe game")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--probe", action="append", help="only probes whose name contains this")
    args = ap.parse_args()
    games = args.game or ["nightsky_star_fire(players=2)", "nightsky_mihi_anguli(players=2)",
                          "python_kuhn_poker", "kuhn_poker"]
    probes = {k: v for k, v in PROBES.items()
              if not args.probe or any(p in k for p in args.probe)}
    print("| algorithm | " + " | ".join(f"`{g}`" for g in games) + " |")
    print("|---|" + "---|" * len(games))
    for name, code in probes.items():
        cells = []
        for game in games:
            verdict, took = run_probe(code, game, args.moves, args.timeout)
            cells.append(verdict + (f" ({took:.0f} s)" if verdict == "works" else ""))
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
