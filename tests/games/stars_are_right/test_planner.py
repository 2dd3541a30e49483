"""The bots: ``tsar-planner`` finds a summoning whenever one is reachable, ``greedy`` is decent."""

from __future__ import annotations

import random

import pytest

from nightsky.agents import make_agent
from nightsky.core.game import CHANCE
from nightsky.games.stars_are_right.planner import evaluate, plan_turn

from .util import game, names, pos, setup


def _run_plan(s, seat=0, agent=None):
    """Let the planner play its turn up to the summoning; return what it summoned."""
    agent = agent or make_agent("tsar-planner")
    rng = random.Random(0)
    before = list(s.creatures[seat])
    for _ in range(40):
        if s.current_players() != (seat,) or s.phase not in (2, 3, 4, 5, 7):
            break
        a = agent.choose(s, seat, rng)
        s.apply(a, seat)
        if s.summoned and s.phase != 7:
            break
    return [c for c in names(s, s.creatures[seat]) if c not in names(s, before)]


def test_planner_summons_what_is_already_in_the_sky() -> None:
    g = game()
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P", "gug-P"], ["gug-F"]])
    assert _run_plan(s) == ["miri-nigri-P"]


def test_planner_invokes_and_flips_to_summon() -> None:
    g = game()
    s = pos(g, {"a1": "Mo", "b1": "Wn", "a2": "1"}, [["miri-nigri-P", "tcho-tcho-F-Mo"], ["gug-F"]])
    assert s.summons(0) == []
    assert _run_plan(s) == ["miri-nigri-P"]
    assert names(s, s.discard) == ["tcho-tcho-F-Mo"]


def test_planner_searches_two_moves_and_powers() -> None:
    g = game()
    # Miri Nigri (P) Mo-Wx / 1-b: Wn at b1 and 4 at a2 both need a flip. Byakhee gives one
    # Push; Deep Ones (P>F) make it a Flip and Miri Nigri (F>FF) doubles it.
    cells = {"a1": "Mo", "b1": "Wn", "a2": "4"}
    s = pos(
        g,
        cells,
        [["miri-nigri-P", "byakhee-P-Mo"], ["gug-F"]],
        [["deep-ones-F-L", "miri-nigri-F"], []],
    )
    assert plan_turn(s.clone(), 0, depth=1) is None  # one move is not enough
    plan = plan_turn(s.clone(), 0, depth=2)
    assert plan is not None
    assert _run_plan(s) == ["miri-nigri-P"]


def test_planner_prefers_more_vp() -> None:
    g = game()
    # Deep Ones (S,4) Sh-1 & 1-3 is there now (1 VP); Miri Nigri (P) needs one flip (2 VP).
    cells = {
        "a1": "Sh",
        "a2": "1",
        "c4": "1",
        "d4": "3",
        "e5": "Me",
        "e4": "Me",
        "c1": "Mo",
        "d1": "Wn",
        "c2": "1",
    }
    s = pos(g, cells, [["deep-ones-S-4", "miri-nigri-P", "tcho-tcho-F-Mo"], ["gug-F"]])
    assert {str(a).split(" @")[0] for a in s.summons(0)} == {"summon deep-ones-S-4"}
    assert _run_plan(s) == ["miri-nigri-P"]


def _brute_best(s, seat):
    """Best VP summonable this turn with one-symbol invocations (or none), by trying all."""
    best = max((s.game.cards[a.card].vp for a in s.summons(seat)), default=-1)
    for inv in s.hands[seat]:
        if sum(s.game.cards[inv].invocation) != 1:
            continue
        t = s.clone()
        t.apply(s.game.invoke_action[inv], seat)
        for mv in t.legal_actions(seat):
            if type(mv).__name__ not in ("Push", "Swap", "Flip"):
                continue
            u = t.clone()
            u.apply(mv, seat)
            best = max([best, *(s.game.cards[a.card].vp for a in u.summons(seat))])
    return best


@pytest.mark.parametrize("seed", range(8))
def test_planner_finds_a_summoning_whenever_one_exists(seed: int) -> None:
    g = game()
    s = setup(g, seed)
    rng = random.Random(seed)
    # A big hand of one-symbol cards makes summonings likely enough to test both ways.
    pool = [c.idx for c in g.cards if sum(c.invocation) == 1]
    s.deck = [c for c in range(75) if c not in s.hands[1]]
    hand = rng.sample([c for c in pool if c in s.deck], 14)
    for c in hand:
        s.deck.remove(c)
    s.hands[0] = sorted(hand)
    want = _brute_best(s, 0)
    plan = plan_turn(s.clone(), 0, depth=1)
    got = -1 if plan is None else g.cards[plan.actions[-1].card].vp
    assert got == want


def _brute_best_two(s, seat):
    """Best VP summonable with no invocation or a two-symbol one: every pair of moves tried."""
    moves = ("Push", "Swap", "Flip")
    best = max((s.game.cards[a.card].vp for a in s.summons(seat)), default=-1)
    for inv in s.hands[seat]:
        if sum(s.game.cards[inv].invocation) != 2:
            continue
        t = s.clone()
        t.apply(s.game.invoke_action[inv], seat)
        for m1 in [a for a in t.legal_actions(seat) if type(a).__name__ in moves]:
            u = t.clone()
            u.apply(m1, seat)
            for m2 in [a for a in u.legal_actions(seat) if type(a).__name__ in moves]:
                v = u.clone()
                v.apply(m2, seat)
                best = max([best, *(s.game.cards[a.card].vp for a in v.summons(seat))])
    return best


def _two_symbol_position(seed: int, size: int):
    g = game()
    s = setup(g, seed)
    rng = random.Random(seed)
    pool = [c.idx for c in g.cards if sum(c.invocation) == 2]
    s.deck = [c for c in range(75) if c not in s.hands[1]]
    hand = rng.sample([c for c in pool if c in s.deck], size)
    for c in hand:
        s.deck.remove(c)
    s.hands[0] = sorted(hand)
    return s


@pytest.mark.parametrize("seed", [0, 2, 3])  # 0 and 3 need moves; 2 has no summoning
def test_planner_finds_two_move_summonings(seed: int) -> None:
    """Depth 2 is exact for two-symbol invocations: the planner's best equals brute force."""
    s = _two_symbol_position(seed, 4)
    want = _brute_best_two(s, 0)
    if seed != 2:
        assert not s.summons(0) and want > 0
    plan = plan_turn(s.clone(), 0, depth=2)
    assert (-1 if plan is None else s.game.cards[plan.actions[-1].card].vp) == want


@pytest.mark.bench
@pytest.mark.parametrize("seed", range(10))
def test_bench_planner_finds_two_move_summonings(seed: int) -> None:
    s = _two_symbol_position(seed, 8)
    want = _brute_best_two(s, 0)
    plan = plan_turn(s.clone(), 0, depth=2)
    assert (-1 if plan is None else s.game.cards[plan.actions[-1].card].vp) == want


def test_planner_uses_only_its_view() -> None:
    g = game(3)
    s = setup(g, 2)
    agent = make_agent("tsar-planner")
    a = agent.choose(s, 0, random.Random(1))
    other = s.clone()
    other.hands[1], other.hands[2] = other.hands[2], other.hands[1]
    b = make_agent("tsar-planner").choose(other, 0, random.Random(1))
    assert str(a) == str(b)


def test_evaluate_counts_vp_and_reachable_summons() -> None:
    g = game()
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P"], ["gug-F"]])
    t = pos(g, {"a1": "Mo", "b1": "Wn", "a2": "1"}, [["miri-nigri-P"], ["gug-F"]])
    assert evaluate(s, 0) > evaluate(t, 0)
    u = s.clone()
    u.apply(g.parse_action("summon miri-nigri-P"), 0)
    assert evaluate(u, 0) > evaluate(s, 0)


def _play(g, agents, seed):
    rng = random.Random(seed)
    s = g.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply(s.sample_chance(rng), CHANCE)
        else:
            p = s.current_players()[0]
            s.apply(agents[p].choose(s, p, rng), p)
    return s


@pytest.mark.bench
@pytest.mark.parametrize("spec", ["greedy", "tsar-planner"])
def test_bots_beat_random(spec: str) -> None:
    g = game(3)
    wins = 0.0
    n = 12
    for seed in range(n):
        agents = [make_agent(spec), make_agent("random"), make_agent("random")]
        s = _play(g, agents, seed)
        w = s.winners()
        wins += 1 / len(w) if 0 in w else 0
    assert wins / n > 0.6


def test_bench_reports_matcher_and_planner_time() -> None:
    """``nightsky bench stars-are-right`` gives the planner's time per decision (wall and CPU)."""
    import json

    from typer.testing import CliRunner

    from nightsky.cli import _load_commands, app

    _load_commands()
    out = CliRunner().invoke(app, ["bench", "stars-are-right", "--seconds", "0.3", "--json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout)
    assert got["planner_decisions"] > 0
    assert got["planner_cpu_ms_per_decision_mean"] > 0
    assert 0 < got["matcher_all_creatures_us_median"] <= got["matcher_all_creatures_us_max"]
