"""The search agents (mcts, ismcts): legality, reproducibility, information hygiene, strength."""

from __future__ import annotations

import random
from typing import Any

import pytest

from nightsky.agents import make_agent
from nightsky.agents.search import SearchAgent, _CutoffScale
from nightsky.core import OptionError, load_game
from nightsky.core.evaluator import Evaluator
from nightsky.core.game import CHANCE, Game, GameInfo, State
from nightsky.sim import MatchSpec, run_matches


def _advance(state: State, rng: random.Random, actions: int) -> State:
    """Play ``actions`` random player actions (and any chance) from ``state``."""
    done = 0
    while not state.is_terminal():
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
            continue
        if done >= actions:
            break
        state.step(rng.choice(state.legal_actions(seat)), seat)
        done += 1
    return state


class Guard:
    """Hands an agent the public surface of a state only; anything else fails the test."""

    def __init__(self, state: State, player: int) -> None:
        self._state = state
        self._player = player
        self.game = state.game

    def current_players(self) -> tuple[int, ...]:
        return self._state.current_players()

    def legal_actions(self, player: int | None = None) -> list[Any]:
        assert player == self._player, "asked for another seat's actions"
        return self._state.legal_actions(player)

    def view(self, player: int | None) -> dict[str, Any]:
        assert player == self._player
        return self._state.view(player)

    def resample(self, player: int, rng: random.Random) -> State:
        assert player == self._player
        return self._state.resample(player, rng)

    def clone(self, history: bool = True) -> Guard:
        # A copy of the true state is as secret as the state: guarded the same way (the
        # search starts from a history-free copy, then only resamples it).
        return Guard(self._state.clone(history), self._player)

    redrawn_for = None  # public: whether the caller already drew the hidden parts

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the agent read state.{name} of the true state")


@pytest.mark.pure_engine  # a guard object or a spy on step
@pytest.mark.parametrize("spec", ["ismcts:iterations=30", "mcts:iterations=30"])
def test_search_never_reads_the_true_hidden_state(spec: str) -> None:
    game = load_game("toy-secret-sum", players=3)
    state = _advance(game.new_initial_state(), random.Random(4), 1)
    player = state.current_players()[0]
    action = make_agent(spec).choose(Guard(state, player), player, random.Random(1))  # type: ignore[arg-type]
    assert action in state.legal_actions(player)


@pytest.mark.pure_engine  # a guard object or a spy on step
def test_cheat_reads_the_true_state() -> None:
    # The guard above can fail: a cheating agent clones the real state.
    game = load_game("toy-secret-sum", players=2)
    state = _advance(game.new_initial_state(), random.Random(4), 1)
    player = state.current_players()[0]
    with pytest.raises(AssertionError, match="true state"):
        make_agent("ismcts:iterations=5,cheat=true").choose(
            Guard(state, player),  # type: ignore[arg-type]
            player,
            random.Random(1),
        )


@pytest.mark.parametrize(
    "game_id, spec",
    [
        ("toy-secret-sum", "ismcts:iterations=40"),
        ("toy-secret-sum", "ismcts:iterations=40,rollout=none,depth=0"),
        ("shooting-star", "ismcts:iterations=25,depth=6"),
        ("star-fire", "mcts:iterations=15,depth=8,rollout=greedy"),
    ],
)
def test_same_seed_same_choices(game_id: str, spec: str) -> None:
    game = load_game(game_id, players=2)
    state = _advance(game.new_initial_state(), random.Random(7), 3)
    player = state.current_players()[0]
    picks = []
    for _ in range(2):
        agent = make_agent(spec)
        rng = random.Random("same")
        picks.append([str(agent.choose(state, player, rng)) for _ in range(3)])
    assert picks[0] == picks[1]
    assert all(game.parse_action(p) in state.legal_actions(player) for p in picks[0])


@pytest.mark.parametrize(
    "game_id, spec",
    [
        ("stars-are-right", "ismcts:iterations=60"),
        ("starlight", "mcts:iterations=40"),
        ("mihi-anguli", "ismcts:iterations=40,rollout=greedy"),
    ],
)
def test_search_reads_no_history_behind_the_root(game_id: str, spec: str) -> None:
    # The search copies the position without its history (``clone(history=False)``), so
    # a long game costs no more per iteration: same choice and statistics from a state and
    # from its history-free copy.
    game = load_game(game_id, players=2)
    state = _advance(game.new_initial_state(), random.Random(3), 40)
    bare = state.clone(history=False)
    assert state.history and not bare.history
    player = state.current_players()[0]
    found = []
    for st in (state, bare):
        agent = make_agent(spec)
        assert isinstance(agent, SearchAgent)
        stats = agent.search(st, player, random.Random("bare"))
        found.append(sorted((repr(k), e.visits, e.reward) for k, e in stats.items()))
    assert found[0] == found[1]
    assert len(state.history) > 40  # the searched state keeps its history


def test_iterations_budget_is_exact_and_seconds_budget_stops() -> None:
    game = load_game("toy-secret-sum", players=2)
    state = _advance(game.new_initial_state(), random.Random(1), 0)
    player = state.current_players()[0]
    agent = make_agent("ismcts:iterations=37,early=false")
    assert isinstance(agent, SearchAgent)
    stats = agent.search(state, player, random.Random(0))
    assert agent.last_iterations == 37
    assert sum(e.visits for (seat, _), e in stats.items() if seat == player) == 37
    timed = make_agent("ismcts:seconds=0.05")
    assert isinstance(timed, SearchAgent)
    timed.search(state, player, random.Random(0))
    assert timed.last_iterations >= 1


def test_three_players_and_depth_cutoff_values() -> None:
    game = load_game("toy-secret-sum", players=3)
    state = _advance(game.new_initial_state(), random.Random(2), 2)
    player = state.current_players()[0]
    agent = make_agent("ismcts:iterations=30,depth=1")
    assert isinstance(agent, SearchAgent)
    assert agent.choose(state, player, random.Random(3)) in state.legal_actions(player)
    values = _CutoffScale(game.evaluator).shares(state.resample(player, random.Random(0)))
    assert len(values) == 3 and abs(sum(values) - 1) < 1e-9 and all(0 < v < 1 for v in values)


def test_leaf_delta_values_a_cutoff_by_each_seats_change_since_the_root() -> None:
    # leaf=delta: each seat scores a logistic of its own change of its cut-off value
    # (cutoff_values) since the root, scaled by the mean size of the changes seen: above 1/2
    # for a gain, below for a loss,
    # exactly 1/2 where nothing changed, however far ahead a seat already was at the root.
    import math

    game = load_game("starlight", players=2)
    root = _advance(game.new_initial_state(), random.Random(4), 6)
    scale = _CutoffScale(game.evaluator, delta=True)
    scale.set_base(root)
    assert scale.shares(root) == [0.5, 0.5]
    later = _advance(root.clone(), random.Random(5), 12)
    judge = game.evaluator
    diffs = [judge.cutoff_values(later)[p] - judge.cutoff_values(root)[p] for p in range(2)]
    assert any(abs(d) > 1e-9 for d in diffs)
    values = scale.shares(later)
    spread = sum(abs(d) for d in diffs) / 2 / 2  # two cut-offs seen: the root's (0) and this
    for d, v in zip(diffs, values, strict=True):
        assert v == pytest.approx(1 / (1 + math.exp(-d / spread)))
        assert (v > 0.5) == (d > 0) and (v < 0.5) == (d < 0)
    # the default (share) still sums to one over the seats
    assert sum(_CutoffScale(game.evaluator).shares(later)) == pytest.approx(1.0)


def test_leaf_delta_search_is_legal_and_reproducible() -> None:
    game = load_game("starlight", players=2)
    state = _advance(game.new_initial_state(), random.Random(4), 6)
    player = state.current_players()[0]
    spec = "ismcts:iterations=60,leaf=delta,backup=max"
    picks = {str(make_agent(spec).choose(state, player, random.Random(1))) for _ in range(2)}
    assert len(picks) == 1
    assert make_agent(spec).choose(state, player, random.Random(1)) in state.legal_actions(player)


def test_turn_cutoff_searches_only_the_searchers_own_moves() -> None:
    # turn=true: the tree stops (and evaluates) where a seat other than the searcher is to
    # move, so no other seat's move is ever in it; without it the opponent's replies are
    # (one tree for all seats with cheat=true). depth=8: Starlight's own default (3) stops
    # before the other seat's turn.
    game = load_game("starlight", players=2)
    state = _advance(game.new_initial_state(), random.Random(4), 6)
    player = state.current_players()[0]

    def seats_in_tree(extra: str) -> set[int]:
        agent = make_agent(f"ismcts:iterations=300,early=false,plan=1,cheat=true,depth=8{extra}")
        assert isinstance(agent, SearchAgent)
        agent.search(state, player, random.Random(2))
        seen: set[int] = set()
        todo = [agent._tree]
        while todo:
            node = todo.pop()
            assert node is not None
            seen.update(q for q, _ in node.stats)
            todo.extend(node.kids.values())
        return seen

    assert seats_in_tree(",turn=true") == {player}
    assert len(seats_in_tree("")) == 2


def _mihi_first_turn(seed: int) -> State:
    """A 2-player Mihi Anguli game at its first turn: the dice rolled, both seats to act."""
    state = load_game("mihi-anguli", players=2).new_initial_state()
    rng = random.Random(seed)
    while state.current_players() == (CHANCE,):
        state.step(state.sample_chance(rng), CHANCE)
    return state


def test_simultaneous_seats_each_get_their_own_choice() -> None:
    # Mihi Anguli multiplayer: several seats act at once; the agent may be asked for any of them.
    state = _mihi_first_turn(5)
    acting = state.current_players()
    assert len(acting) == 2
    agent = make_agent("ismcts:iterations=12,depth=4")
    for seat in acting:
        assert agent.choose(state, seat, random.Random(seat)) in state.legal_actions(seat)


@pytest.mark.pure_engine  # a guard object or a spy on step
@pytest.mark.parametrize("rollout", ["random", "none"])
def test_the_searching_seat_moves_first_among_seats_acting_at_once(
    rollout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seat 1 searches while seat 0 also has its turn to play: inside the tree and the playout,
    # seat 0 may only move once seat 1 has ended its turn (seat 1's plan comes first, before
    # the depth cut-off).
    state = _mihi_first_turn(3)
    assert state.current_players() == (0, 1)
    cls = type(state)
    real_step = cls.step
    moves = {0: 0, 1: 0}
    early = []

    def spy(self: State, action: Any, player: int | None = None) -> None:
        if player in moves:
            moves[player] += 1
            if player == 0 and 1 in self.current_players():
                early.append(action)
        real_step(self, action, player)

    monkeypatch.setattr(cls, "step", spy)
    agent = make_agent(f"ismcts:iterations=40,depth=12,rollout={rollout}")
    agent.choose(state, 1, random.Random(0))
    assert moves[1] > 40
    if rollout == "random":
        assert moves[0] > 0  # playouts reach seat 0's moves...
    assert early == []  # ...but never before seat 1 has ended its turn


@pytest.mark.parametrize("spec", ["ismcts:iterations=60", "mcts:iterations=60"])
def test_search_beats_random_on_the_toy_game(spec: str) -> None:
    wins = 0.0
    games = 50
    for seats in ((spec, "random"), ("random", spec)):
        me = seats.index(spec)
        for r in run_matches(MatchSpec("toy-secret-sum", {"players": 2}, seats, seed=11), games):
            wins += 1 / len(r.winners) if me in r.winners else 0.0
    assert wins / (2 * games) > 0.6  # measured ~0.72 (greedy: ~0.68)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("ismcts:iterations=0", "iterations"),
        ("ismcts:seconds=-1", "seconds"),
        ("mcts:depth=-2", "depth"),
        ("ismcts:rollout=ismcts", "rollout"),
        ("ismcts:rollout=wizard", "unknown agent"),
        ("ismcts:colour=3", "colour"),
        ("ismcts:prior=-1", "prior"),
    ],
)
def test_bad_specs_are_refused_clearly(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_agent(spec)


def test_bench_reports_ismcts_iterations_per_second() -> None:
    import json

    from typer.testing import CliRunner

    from nightsky.cli import _load_commands, app

    _load_commands()
    out = CliRunner().invoke(app, ["bench", "toy-secret-sum", "--seconds", "0.2", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["ismcts_iterations_per_second"] > 0
    # CPU time never exceeds wall time on one core, so the CPU figure is the larger one.
    assert data["ismcts_iterations_per_cpu_second"] >= data["ismcts_iterations_per_second"]


def test_root_widening_follows_the_heuristic() -> None:
    game = load_game("shooting-star", players=2)
    state = _advance(game.new_initial_state(), random.Random(3), 0)
    player = state.current_players()[0]
    assert len(state.legal_actions(player)) > 20
    narrow = make_agent("ismcts:iterations=16")
    wide = make_agent("ismcts:iterations=16,widen=false")
    assert isinstance(narrow, SearchAgent) and isinstance(wide, SearchAgent)
    seen = [
        {a for (seat, a), e in agent.search(state, player, random.Random(1)).items()
         if seat == player and e.visits > 0}
        for agent in (narrow, wide)
    ]
    # 2 + sqrt(15) = 5 actions at most with widening; one new action per iteration without.
    assert len(seen[0]) <= 5 < len(seen[1])


@pytest.mark.parametrize("game_id", ["shooting-star", "star-fire", "stars-are-right"])
def test_early_stop_makes_the_full_budgets_choice_sooner(game_id: str) -> None:
    # The search stops once the leader cannot be overtaken in the iterations left; what it has
    # searched until then is a prefix of the full search, so the choice cannot differ.
    game = load_game(game_id, players=2)
    rng = random.Random(5)
    for moves in (0, 3, 9, 20):
        state = _advance(game.new_initial_state(), rng, moves)
        if state.is_terminal():
            continue
        player = state.current_players()[0]
        if len(state.legal_actions(player)) < 2:
            continue
        early = make_agent("ismcts:iterations=400")
        full = make_agent("ismcts:iterations=400,early=false")
        assert isinstance(early, SearchAgent) and isinstance(full, SearchAgent)
        a = early.choose(state, player, random.Random(moves))
        b = full.choose(state, player, random.Random(moves))
        assert a == b
        assert full.last_iterations == 400
        assert early.last_iterations <= 400


def test_early_stop_saves_iterations_when_one_move_stands_out() -> None:
    # Star Fire's first decision has two actions and the search soon prefers one of them.
    game = load_game("star-fire", players=2)
    state = _advance(game.new_initial_state(), random.Random(5), 0)
    player = state.current_players()[0]
    early = make_agent("ismcts:iterations=400")
    assert isinstance(early, SearchAgent)
    early.choose(state, player, random.Random(0))
    assert early.last_iterations < 400


def _with_defaults(game_id: str, text: str) -> Any:
    from dataclasses import replace

    game = load_game(game_id, players=2)
    game.__dict__["info"] = replace(type(game).info, search_defaults=text)
    return game


def test_a_games_search_defaults_apply_unless_the_spec_sets_the_key() -> None:
    game = _with_defaults("toy-secret-sum", "rollout=none,c=0.2,depth=3")
    plain = make_agent("ismcts:iterations=5")
    own = make_agent("ismcts:iterations=5,c=1.5")
    assert isinstance(plain, SearchAgent) and isinstance(own, SearchAgent)
    assert plain.settings_for(game)["rollout"] == "none"
    assert plain.settings_for(game)["c"] == 0.2
    assert plain.settings_for(game)["depth"] == 3
    assert own.settings_for(game)["c"] == 1.5
    assert own.settings_for(game)["rollout"] == "none"
    # Another game without defaults gets the engine's own again.
    other = load_game("shooting-star", players=2)
    assert plain.settings_for(other)["rollout"] == "random"
    state = _advance(game.new_initial_state(), random.Random(1), 0)
    player = state.current_players()[0]
    assert plain.choose(state, player, random.Random(0)) in state.legal_actions(player)


@pytest.mark.parametrize(
    ("text", "needle"),
    [("depth=-1", "depth"), ("c=fast", "c must be"), ("colour=red", "unknown search setting"),
     ("rollout=ismcts", "rollout"), ("depth", "key=value")],
)
def test_a_broken_search_defaults_string_names_the_game_and_key(text: str, needle: str) -> None:
    game = _with_defaults("toy-secret-sum", text)
    agent = make_agent("ismcts:iterations=5")
    assert isinstance(agent, SearchAgent)
    with pytest.raises(OptionError, match=needle) as err:
        agent.settings_for(game)
    if needle != "key=value":
        assert "toy-secret-sum" in str(err.value)


@pytest.mark.parametrize(
    "spec", ["ismcts:depth=-2", "ismcts:widen=maybe", "ismcts:speed=9", "ismcts:backup=median",
             "ismcts:reuse=maybe", "ismcts:leaf=mean"]
)
def test_bad_search_keys_in_a_spec_are_option_errors(spec: str) -> None:
    with pytest.raises(OptionError):
        make_agent(spec)


def test_every_registered_games_search_defaults_are_valid() -> None:
    from nightsky.agents.search import game_search_defaults
    from nightsky.core.registry import game_class, game_ids

    for gid in game_ids():
        game_search_defaults(game_class(gid).info)  # raises OptionError if broken


class _NeedleState(State):
    """Seat 0 picks ``wide`` or ``safe``, then one of ten needles; seat 1 never moves.

    ``wide`` then ``n0`` wins outright, ``wide`` then any other needle loses, ``safe`` then
    anything ties (half a win). A plan through ``wide`` is worth its best continuation (1),
    but the average of the continuations explored is far lower.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.picks: list[str] = []

    def current_players(self) -> tuple[int, ...]:
        return (0,) if len(self.picks) < 2 else ()

    def _legal_actions(self, seat: int) -> list[Any]:
        if seat != 0 or self.is_terminal():
            return []
        return ["wide", "safe"] if not self.picks else [f"n{i}" for i in range(10)]

    def _apply(self, action: Any, player: int) -> None:
        self.picks.append(action)

    def score_breakdown(self) -> list[dict[str, float]]:
        mine = 2.0
        if self.picks[:1] == ["wide"]:
            mine = 10.0 if self.picks[1:] == ["n0"] else 0.0
        return [{"total": mine if len(self.picks) == 2 else 0.0}, {"total": 2.0}]

    def _copy(self) -> _NeedleState:
        c = _NeedleState(self.game)
        c.picks = list(self.picks)
        return c

    def _view(self, player: int | None) -> dict[str, Any]:
        return {"picks": list(self.picks)}


class _NoHint(Evaluator):
    def evaluate(self, state: State, player: int) -> float:
        return 0.0  # no hint: only the search's backups tell the plans apart

class _NeedleGame(Game):
    info = GameInfo(id="test-needle", title="Needle (test)", min_players=2, max_players=2,
                    chance=False, hidden_information=False, simultaneous=False)
    evaluator_class = _NoHint

    def new_initial_state(self) -> _NeedleState:
        return _NeedleState(self)

    def all_actions(self) -> list[Any]:
        return ["wide", "safe", *(f"n{i}" for i in range(10))]


def test_backup_max_values_a_plan_by_its_best_continuation() -> None:
    state = _NeedleGame(2).new_initial_state()
    spec = "ismcts:iterations=100,rollout=none,prior=0,widen=false,early=false,c=1.5"
    picks = {
        backup: [str(make_agent(f"{spec},backup={backup}").choose(state, 0, random.Random(s)))
                 for s in range(6)]
        for backup in ("mean", "max")
    }
    assert picks["max"] == ["wide"] * 6
    assert picks["mean"] == ["safe"] * 6  # averaging the explored needles hides the win
    stats = make_agent(f"{spec},backup=max").search(state, 0, random.Random(0))
    assert stats[(0, "wide")].value == 1.0  # the value the choice used: the best continuation
    assert stats[(0, "wide")].reward / stats[(0, "wide")].visits < 1.0  # the mean is lower


def test_reuse_continues_the_tree_of_the_moves_played_since() -> None:
    state = _NeedleGame(2).new_initial_state()
    agent = make_agent("ismcts:iterations=60,rollout=none,early=false,backup=max,reuse=true")
    assert isinstance(agent, SearchAgent)
    rng = random.Random(0)
    first = agent.search(state, 0, rng)
    assert agent.last_reused == 0  # nothing to continue at the first decision
    before = sum(e.visits for e in first.values())
    move = agent.choose(state, 0, rng)  # a second search from the same position: continued
    assert agent.last_reused == before == 60
    assert sum(e.visits for e in first.values()) == 120  # the same root grew
    kept = agent._kept
    assert kept is not None
    child = kept.root.kids[("a", 0, move)]
    below = sum(e.visits for e in child.stats.values())
    state.step(move, 0)
    again = agent.search(state, 0, rng)
    assert agent.last_reused == below > 0  # the chosen move's subtree, visits and all
    assert agent._kept is not None and agent._kept.root is child
    assert sum(e.visits for e in again.values()) == below + 60


def test_reuse_starts_afresh_for_another_game_or_seat() -> None:
    agent = make_agent("ismcts:iterations=30,rollout=none,early=false,reuse=true")
    assert isinstance(agent, SearchAgent)
    state = _NeedleGame(2).new_initial_state()
    state.step(agent.choose(state, 0, random.Random(1)), 0)
    other = _NeedleGame(2).new_initial_state()  # another game object: its history may match
    other.step(state.history[0][1], 0)
    agent.search(other, 0, random.Random(1))
    assert agent.last_reused == 0
    game = load_game("shooting-star", players=2)
    st = _advance(game.new_initial_state(), random.Random(2), 0)
    seat = st.current_players()[0]
    agent.search(st, seat, random.Random(2))
    st2 = st.clone()  # the same history, but the kept tree belongs to another seat
    agent._kept = agent._kept._replace(seat=1 - seat) if agent._kept else None
    agent.search(st2, seat, random.Random(2))
    assert agent.last_reused == 0


def test_reuse_keeps_games_reproducible() -> None:
    spec = MatchSpec("shooting-star", {"players": 2}, ("ismcts:iterations=40,reuse=true",
                                                       "ismcts:iterations=40"), seed=3)
    first = [(r.scores, r.actions) for r in run_matches(spec, 3)]
    assert first == [(r.scores, r.actions) for r in run_matches(spec, 3)]


@pytest.mark.pure_engine  # a guard object or a spy on step
def test_reuse_is_off_where_moves_are_hidden() -> None:
    agent = make_agent("ismcts:iterations=20,reuse=true")
    assert isinstance(agent, SearchAgent)
    state = _advance(load_game("toy-secret-sum", players=2).new_initial_state(),
                     random.Random(4), 0)
    seat = state.current_players()[0]
    agent.search(Guard(state, seat), seat, random.Random(4))  # type: ignore[arg-type]
    assert agent._kept is None  # the true history was never read


def test_plan_plays_the_searchs_own_line_without_searching_again() -> None:
    state = _NeedleGame(2).new_initial_state()
    spec = "ismcts:iterations=100,rollout=none,prior=0,widen=false,early=false,c=1.5"
    agent = make_agent(f"{spec},backup=max,plan=5")
    assert isinstance(agent, SearchAgent)
    rng = random.Random(0)
    first = agent.choose(state, 0, rng)
    assert str(first) == "wide" and agent.last_iterations == 100
    assert agent._plan == ["n0"]  # the follow-up the tree found, well visited
    state.step(first, 0)
    assert agent.choose(state, 0, rng) == "n0"
    assert agent.last_iterations == 0  # played from the plan: no search


def test_plan_is_dropped_when_the_position_is_not_the_one_planned_for() -> None:
    spec = "ismcts:iterations=100,rollout=none,prior=0,widen=false,early=false,c=1.5"
    agent = make_agent(f"{spec},backup=max,plan=5")
    assert isinstance(agent, SearchAgent)
    state = _NeedleGame(2).new_initial_state()
    state.step(agent.choose(state, 0, random.Random(0)), 0)
    other = _NeedleGame(2).new_initial_state()  # another game: the plan is not for it
    other.step("wide", 0)
    agent.choose(other, 0, random.Random(0))
    assert agent.last_iterations == 100
    agent.choose(state, 0, random.Random(0))  # the plan was spent on nothing, so search
    assert agent.last_iterations == 100
    strict = make_agent(f"{spec},backup=max,plan=1000")  # no follow-up that well visited
    assert isinstance(strict, SearchAgent)
    fresh = _NeedleGame(2).new_initial_state()
    fresh.step(strict.choose(fresh, 0, random.Random(0)), 0)
    assert strict._plan == []
    strict.choose(fresh, 0, random.Random(0))
    assert strict.last_iterations == 100


@pytest.mark.parametrize("game_id", ["starlight", "mihi-anguli"])
def test_plan_keeps_games_legal_and_reproducible(game_id: str) -> None:
    spec = MatchSpec(game_id, {"players": 2}, ("ismcts:iterations=30,plan=3", "greedy"), seed=5)
    first = [(r.scores, r.actions) for r in run_matches(spec, 1)]
    assert first == [(r.scores, r.actions) for r in run_matches(spec, 1)]


def test_search_pauses_the_collector_only_while_it_runs() -> None:
    """The cyclic collector is off during a search and as it was afterwards (on stays on; a
    caller's own ``gc.disable()`` is kept)."""
    import gc

    state = load_game("shooting-star", players=2).new_initial_state()
    seen: list[bool] = []

    class Probe(random.Random):
        def random(self) -> float:
            seen.append(gc.isenabled())
            return super().random()

    rng = random.Random(0)
    while state.current_players() == [CHANCE] or state.current_players() == (CHANCE,):
        state.apply(state.sample_chance(rng), CHANCE)
    agent = make_agent("ismcts:iterations=30")
    seat = state.current_players()[0]
    assert gc.isenabled()
    agent.choose(state, seat, Probe(1))
    assert gc.isenabled() and seen and not any(seen)
    gc.disable()
    try:
        agent.choose(state, seat, Probe(2))
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.pure_engine  # a spy on step
@pytest.mark.parametrize("rollout", ["random", "none"])
def test_chance_stop_never_searches_past_the_next_draw(
    rollout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # chance=stop: once a player has moved, a chance outcome is a cut-off (the position before
    # it is scored), so no iteration samples a draw; with chance=pass (the default) the tree
    # and the playouts go on through the dice. Mihi Anguli, where both seats act at once and
    # then roll: without it the last seat's search reached its next turn's dice and the
    # others' did not (a seat bias of search agents, docs/games/mihi-anguli.md).
    state = _mihi_first_turn(3)
    cls = type(state)
    real_step = cls.step
    draws = [0]

    def spy(self: State, action: Any, player: int | None = None) -> None:
        if player == CHANCE:
            draws[0] += 1
        real_step(self, action, player)

    monkeypatch.setattr(cls, "step", spy)
    for mode, expect_draws in (("stop", False), ("pass", True)):
        draws[0] = 0
        agent = make_agent(
            f"ismcts:iterations=150,depth=30,early=false,rollout={rollout},chance={mode}"
        )
        assert agent.choose(state, 0, random.Random(1)) in state.legal_actions(0)
        if expect_draws and rollout == "none":
            continue  # best-first from a turn's start need not reach the dice in 150 iterations
        assert (draws[0] > 0) == expect_draws, (mode, draws[0])


def test_chance_key_is_checked() -> None:
    with pytest.raises(OptionError, match="chance must be 'pass' or 'stop'"):
        make_agent("ismcts:iterations=5,chance=later")


def _tree_seats(node: Any) -> set[int]:
    """Every seat with an edge anywhere in the tree under ``node``."""
    seats: set[int] = set()
    todo = [node]
    while todo:
        n = todo.pop()
        seats.update(seat for seat, _ in n.stats)
        todo.extend(n.kids.values())
    return seats


def test_others_plays_the_other_seats_outside_the_tree() -> None:
    # others=random: another seat's moves are played by a policy, not searched, and do not
    # count toward the depth, so the tree holds only the searcher's own choices and reaches
    # past the other seats' turn into the searcher's next one (Mihi Anguli: separate sheets).
    state = _mihi_first_turn(3)
    spec = "ismcts:iterations=400,depth=30,early=false,rollout=none,reuse=true"
    seats_by_mode = {}
    for others in ("tree", "random"):
        agent = make_agent(f"{spec},others={others}")
        assert isinstance(agent, SearchAgent)
        assert agent.choose(state, 0, random.Random(2)) in state.legal_actions(0)
        assert agent._kept is not None
        seats_by_mode[others] = _tree_seats(agent._kept.root)
    assert seats_by_mode["tree"] == {0, 1}
    assert seats_by_mode["random"] == {0}


def test_others_with_an_agent_plays_its_moves() -> None:
    state = _mihi_first_turn(4)
    agent = make_agent("ismcts:iterations=60,depth=30,early=false,rollout=none,others=greedy")
    assert isinstance(agent, SearchAgent)
    assert agent.settings_for(state.game)["others"] == "greedy"
    assert agent._others is not None and agent._others.name.startswith("greedy")
    assert agent.choose(state, 1, random.Random(0)) in state.legal_actions(1)


def test_others_key_is_checked() -> None:
    with pytest.raises(OptionError, match="others='ismcts'.*cannot play inside a search"):
        make_agent("ismcts:iterations=5,others=ismcts")
    with pytest.raises(OptionError, match="unknown agent"):
        make_agent("ismcts:iterations=5,others=nobody")


@pytest.mark.parametrize("game_id", ["starlight", "mihi-anguli"])
def test_others_keeps_games_legal_and_reproducible(game_id: str) -> None:
    spec = MatchSpec(
        game_id, {"players": 2}, ("ismcts:iterations=30,others=random", "greedy"), seed=6
    )
    first = [(r.scores, r.actions) for r in run_matches(spec, 1)]
    assert first == [(r.scores, r.actions) for r in run_matches(spec, 1)]
