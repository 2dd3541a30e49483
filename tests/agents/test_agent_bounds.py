"""Every agent parameter is bounded: NaN, infinities, out-of-range numbers and wrong types are
refused with an ``OptionError`` naming the parameter, its bounds and the value; good specs work."""

from __future__ import annotations

import inspect
import random

import pytest

from nightsky.agents import agent_names, make_agent, parse_spec
from nightsky.agents.base import _FACTORIES, spec_seconds
from nightsky.agents.search import DEFAULTS, game_search_defaults
from nightsky.core import OptionError, load_game
from nightsky.core.game import GameInfo

# (agent, key): the text of its bounds in the message, values it must refuse
NUMERIC = {
    ("ismcts", "iterations"): ("a whole number between 1 and 1000000", ["0", "1000001", "2.5"]),
    ("mcts", "iterations"): ("a whole number between 1 and 1000000", ["-3", "1e9"]),
    ("ismcts", "seconds"): ("a finite number above 0 and at most 60", ["0", "-1", "60.5"]),
    ("mcts", "seconds"): ("a finite number above 0 and at most 60", ["61"]),
    ("ismcts", "c"): ("a finite number between 0 and 100", ["-0.1", "101"]),
    ("mcts", "c"): ("a finite number between 0 and 100", ["1000"]),
    ("ismcts", "prior"): ("a finite number between 0 and 1000", ["-1", "1001"]),
    ("mcts", "prior"): ("a finite number between 0 and 1000", ["-0.5"]),
    ("ismcts", "depth"): ("a whole number between 0 and 1000", ["-2", "1001", "2.5"]),
    ("mcts", "depth"): ("a whole number between 0 and 1000", ["5000"]),
    ("ismcts", "plan"): ("a whole number between 0 and 1000000", ["-1", "1000001", "0.5"]),
    ("mcts", "plan"): ("a whole number between 0 and 1000000", ["2.5"]),
    ("greedy", "samples"): ("a whole number between 1 and 10000", ["0", "-1", "10001", "1.5"]),
    ("greedy", "epsilon"): ("a finite number between 0 and 1", ["-0.1", "1.5", "2"]),
    ("greedy", "seconds"): ("a finite number above 0 and at most 60", ["0", "-1", "61"]),
    ("tsar-planner", "depth"): ("a whole number between 0 and 8", ["-1", "9", "100"]),
    ("tsar-planner", "budget"): ("a whole number between 1 and 1000000", ["0", "1000001"]),
}
NOT_FINITE = ["nan", "inf", "-inf", "1e999", "NaN", "true", "lots"]
FLAGS = {
    "ismcts": ["cheat", "normalise", "widen", "early", "reuse", "turn"],
    "mcts": ["cheat", "normalise", "widen", "early", "reuse", "turn"],
    "greedy": ["cheat"],
    "tsar-planner": ["cheat"],
}
CHOICES = {
    ("greedy", "value"): "'heuristic' or 'learned'",
    ("ismcts", "value"): "'heuristic' or 'learned'",
    ("mcts", "value"): "'heuristic' or 'learned'",
}


@pytest.mark.parametrize(("agent", "key"), sorted(CHOICES))
def test_a_word_outside_a_keys_choices_is_refused_naming_them(agent: str, key: str) -> None:
    with pytest.raises(OptionError) as err:
        make_agent(f"{agent}:{key}=neural")
    assert str(err.value) == f"{agent}: {key} must be {CHOICES[agent, key]}, got 'neural'"


def _cases() -> list[tuple[str, str, str, str]]:
    out = []
    for (agent, key), (bounds, bad) in NUMERIC.items():
        out += [(agent, key, bounds, value) for value in [*NOT_FINITE, *bad]]
    return out


@pytest.mark.parametrize(("agent", "key", "bounds", "value"), _cases())
def test_a_bad_number_is_refused_naming_the_key_bounds_and_value(
    agent: str, key: str, bounds: str, value: str
) -> None:
    with pytest.raises(OptionError) as err:
        make_agent(f"{agent}:{key}={value}")
    given = parse_spec(f"{agent}:{key}={value}")[1][key]  # as the spec reads it: 1e999 is inf
    assert str(err.value) == f"{agent}: {key} must be {bounds}, got {given!r}"


@pytest.mark.parametrize("spec", ["greedy:samples=nan", "tsar-planner:depth=nan"])
def test_nan_is_an_option_error(spec: str) -> None:
    with pytest.raises(OptionError, match="got nan"):
        make_agent(spec)


@pytest.mark.parametrize(
    ("agent", "key"), [(agent, key) for agent, keys in FLAGS.items() for key in keys]
)
def test_a_flag_must_be_true_or_false(agent: str, key: str) -> None:
    with pytest.raises(OptionError, match=f"{agent}: {key} must be true or false, got 'maybe'"):
        make_agent(f"{agent}:{key}=maybe")
    with pytest.raises(OptionError, match=f"{key} must be true or false, got 2"):
        make_agent(f"{agent}:{key}=2")


def test_every_parameter_of_every_agent_is_covered_here() -> None:
    # A new agent or parameter must come with its bounds (and a row above).
    covered = {*NUMERIC, *CHOICES, *((a, k) for a, keys in FLAGS.items() for k in keys)}
    for name in agent_names():
        params = inspect.signature(_FACTORIES[name]).parameters.values()
        keys = {p.name for p in params if p.kind is not p.VAR_KEYWORD}
        if any(p.kind is p.VAR_KEYWORD for p in params):  # the search agents' settings
            keys |= {k for k, v in DEFAULTS.items() if not isinstance(v, str)}
        for key in keys:
            assert (name, key) in covered, f"{name}:{key} has no bounds test"


@pytest.mark.parametrize(
    "text, needle",
    [("c=inf", "c must be a finite number between 0 and 100, got inf"),
     ("depth=nan", "depth must be a whole number between 0 and 1000, got nan"),
     ("prior=1e999", "prior must be a finite number between 0 and 1000, got inf")],
)
def test_a_games_search_defaults_are_bounded_too(text: str, needle: str) -> None:
    info = GameInfo(id="test-bounds", title="Bounds", min_players=2, max_players=2,
                    chance=False, hidden_information=False, simultaneous=False,
                    search_defaults=text)
    with pytest.raises(OptionError, match=needle) as err:
        game_search_defaults(info)
    assert "test-bounds" in str(err.value)


@pytest.mark.parametrize(
    "spec",
    ["random", "greedy", "greedy:samples=3", "greedy:samples=1", "greedy:samples=10000",
     "greedy:cheat=true", "ismcts", "mcts", "ismcts:iterations=1", "mcts:iterations=1000000",
     "ismcts:seconds=60", "ismcts:seconds=0.01", "ismcts:seconds=1,iterations=50",
     "ismcts:c=0,prior=0,depth=0", "ismcts:c=100,prior=1000,depth=1000", "mcts:c=1",
     "ismcts:iterations=10,rollout=greedy", "ismcts:rollout=greedy:samples=2",
     "ismcts:normalise=true,widen=false,early=false,backup=max,reuse=true,cheat=true",
     "tsar-planner", "tsar-planner:depth=0", "tsar-planner:depth=8,budget=1",
     "tsar-planner:budget=1000000,cheat=true"],
)
def test_good_specs_still_work(spec: str) -> None:
    make_agent(spec)


@pytest.mark.parametrize("spec", ["ismcts:iterations=20", "mcts:iterations=20,c=1",
                                  "greedy:samples=2", "tsar-planner:depth=1"])
def test_good_specs_still_play(spec: str) -> None:
    game = load_game("stars-are-right", players=2)
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.current_players()[0] < 0:
        state.step(state.sample_chance(rng), state.current_players()[0])
    seat = state.current_players()[0]
    assert make_agent(spec).choose(state, seat, rng) in state.legal_actions(seat)


def test_search_settings_keep_their_types() -> None:
    agent = make_agent("ismcts:c=1,prior=2,depth=3")
    settings = agent.settings_for(load_game("shooting-star", players=2))  # type: ignore[attr-defined]
    assert settings["c"] == 1.0 and isinstance(settings["c"], float)
    assert settings["prior"] == 2.0 and isinstance(settings["prior"], float)
    assert settings["depth"] == 3 and isinstance(settings["depth"], int)


def test_spec_seconds_tells_the_time_bound_of_a_spec() -> None:
    assert spec_seconds("ismcts:seconds=0.5") == 0.5
    assert spec_seconds("mcts:seconds=60,iterations=100") == 60.0
    assert spec_seconds("ismcts:seconds=2") == 2.0
    assert spec_seconds("ismcts:iterations=400") is None  # bounded by iterations, not time
    assert spec_seconds("ismcts") is None
    assert spec_seconds("greedy") is None
    assert spec_seconds("random") is None
    for bad in ("ismcts:seconds=inf", "ismcts:seconds=61", "ismcts:seconds=nan", "nobody"):
        with pytest.raises(OptionError):
            spec_seconds(bad)
