"""Balance and game length, measured the way ``nightsky simulate`` measures them.

The Starbot difficulty settings must order Starbot strength as their names say (SL-14.8), and
games must reach daybreak through 65 night points, not through the round-limit safeguard
(SL-12.6). The big runs are benchmarks (``make bench``); small runs check the same quickly.
"""

from __future__ import annotations

import random
from statistics import mean

import pytest

from nightsky import load_game
from nightsky.agents.base import make_agent
from nightsky.core.game import CHANCE
from nightsky.games.starlight.game import LEVELS
from nightsky.sim.runner import MatchSpec, play_game, run_matches

# Every mix of 1-5 live players and 0-4 Starbots, at most five seats (SL-1.1).
MIXES = [{"players": live, "starbots": bots} for live in range(1, 6) for bots in range(6 - live)]


def final_state(cfg: dict, agents: list[str], seed: int, index: int = 0):
    g = load_game("starlight", **cfg)
    box: list = []
    play_game(g, [make_agent(a) for a in agents], seed, index, on_state=lambda s: box.append(s))
    return box[-1]


def level_table(games: int, seed: int = 1) -> dict[str, tuple[float, float]]:
    """Per level: the greedy seat's win share and the Starbots' mean score (1 live + 2 bots).

    Same games as ``nightsky simulate starlight --players 1 --option starbots=2
    --option starbot_level=LEVEL --agents greedy --games GAMES --seed SEED``.
    """
    out = {}
    for level in LEVELS:
        params = {"players": 1, "starbots": 2, "starbot_level": level}
        results = list(run_matches(MatchSpec("starlight", params, ("greedy",), seed), games))
        wins = mean((1 / len(r.winners)) if 0 in r.winners else 0.0 for r in results)
        bots = mean(s for r in results for s in r.scores[1:])
        out[level] = (wins, bots)
    return out


def test_SL_14_8_harder_starbots_score_more():
    table = level_table(games=2)
    bots = [table[level][1] for level in LEVELS]
    assert bots == sorted(bots) and bots[0] < bots[-1]


@pytest.mark.bench
def test_SL_14_8_difficulty_orders_starbot_strength():
    table = level_table(games=200)
    for level, (wins, bots) in table.items():
        print(f"{level:>7}: greedy win share {wins:.3f}, Starbot mean score {bots:.1f}")
    wins = [table[level][0] for level in LEVELS]
    bots = [table[level][1] for level in LEVELS]
    # Easiest first: the greedy player wins less and the Starbots score more at every step.
    assert all(a > b for a, b in zip(wins, wins[1:], strict=False))
    assert all(a < b for a, b in zip(bots, bots[1:], strict=False))


@pytest.mark.parametrize(
    "cfg",
    MIXES,
    ids=lambda c: f"SL-12.1-{c['players']}p{c['starbots']}b",
)
def test_SL_12_1_SL_12_6_every_mix_reaches_daybreak_by_points(cfg):
    # One greedy seat is enough to launch stars; the other live seats play at random.
    s = final_state(cfg, ["greedy"] + ["random"] * (cfg["players"] - 1), seed=7)
    assert s.is_terminal() and s.winners()
    assert not s.safeguard and s.daybreak_round < s.game.options["max_rounds"]
    assert max(s.np) >= 65


@pytest.mark.bench
def test_SL_12_6_safeguard_never_ends_a_greedy_game():
    hits = 0
    for cfg in MIXES:
        for i in range(10):
            s = final_state(cfg, ["greedy"] * cfg["players"], seed=11, index=i)
            hits += s.safeguard
    assert hits == 0


def test_greedy_beats_random_and_does_not_idle():
    from tests.games.starlight.starlight_helpers import give_rays, new, turn

    for seed in range(2):
        g = load_game("starlight", players=2)
        s = g.new_initial_state()
        rng = random.Random(seed)
        agents = [make_agent("greedy"), make_agent("random")]
        while not s.is_terminal():
            cp = s.current_players()
            if cp == (CHANCE,):
                s.step(s.sample_chance(rng), CHANCE)
            else:
                s.step(agents[cp[0]].choose(s, cp[0], rng), cp[0])
        assert s.winners() == [0]
    # A ready star on a Launch space at the start of the turn: step on, do not idle.
    s = turn(new(2), 0, "launch1", ap=5)
    give_rays(s, 0, short_red=2)
    choice = make_agent("greedy").choose(s, 0, random.Random(0))
    assert str(choice) == "step"


def test_greedy_alone_does_not_end_turns_early():
    # Alone, ending a turn leads straight to one's own next turn: that must not look free.
    from tests.games.starlight.starlight_helpers import new, turn

    s = turn(new(1), 0, "short", ap=5)
    choice = make_agent("greedy").choose(s, 0, random.Random(0))
    assert str(choice) != "end"
    s = final_state({"players": 1}, ["greedy"], seed=5)
    assert not s.safeguard and s.daybreak_round <= 25
