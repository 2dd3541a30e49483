"""Search agents: ``mcts`` (UCT on one determinization) and ``ismcts`` (information-set MCTS).

Both share one engine: an *open-loop* UCT tree over the actions of every seat, with chance
outcomes sampled on the way down. The tree is keyed by what the searching seat observes:

* its own actions and everything public are keyed by the action itself;
* another seat's action, in a game with hidden information, is keyed by how the searcher sees
  it (``State.log_text``), so moves the searcher cannot tell apart share one subtree;
* chance outcomes are keyed the same way (a hidden draw is one branch, a public die roll one
  branch per face).

Statistics for the *selection* at a node are kept per real action of the seat to move there, so
every seat plays to maximise its own return (max^n, any number of seats). Because the same node
is reached through different determinizations whose legal actions differ, UCB uses availability
counts (Cowling, Powley & Whitehouse 2012, SO-ISMCTS).

``ismcts`` redraws the hidden parts of the position for every iteration with
``state.resample(player, rng)``; ``mcts`` draws one determinization per decision and searches it
as if it were perfect information. With ``cheat=true`` both search the true state.

Spec keys (``ismcts:seconds=0.2,depth=40``):

``iterations`` (default 200 when no ``seconds``), ``seconds``, ``c`` (UCB exploration, 0.7),
``rollout`` (``random``; ``none``: score the new leaf with ``evaluate`` at once; or any agent
name such as ``greedy`` or a game's own agent),
``depth`` (8: player actions from the root after which the position is scored by the game's
``evaluate`` (``game.evaluator``) instead of played out; 0: play to the end), ``prior`` (1.0:
weight of the one-ply heuristic at the root), ``widen`` (true: progressive widening at the root
in the heuristic's order), ``normalise`` (false: rescale sibling values to [0, 1] in UCB),
``early`` (true: stop once the most visited root action can no longer be overtaken in the
budget left; the choice is the one the full budget makes), ``backup`` (``mean``: UCT's average
reward; ``max``: a seat's consecutive moves with nothing random between are worth the best of
the next moves tried), ``reuse`` (false: a fresh tree for every decision; true: keep the subtree
of the moves played since the seat's last search, so a turn of many steps builds on one tree;
only where nothing is hidden, or with ``cheat``), ``plan`` (0: search every decision; N: after
a search, keep the searcher's own line of moves in its tree (the most visited move while the same
seat moves next with nothing random between, every move there tried and the best with at least N
visits) and play it without searching while only those moves are played: a turn of many small
steps is searched as a whole, once), ``leaf`` (``share``: a cut-off position scores each seat's
softmax share of the seats' centred ``evaluate``; ``delta``: a logistic of each seat's change of
``evaluate`` since the root, see ``_CutoffScale``), ``turn`` (false; true: also stop where a seat
other than the searcher is to move, so the search plans the searcher's own turn only),
``chance`` (``pass``: chance outcomes are sampled and the search goes on; ``stop``: once a player
has moved, a chance outcome is a cut-off, the position before it scored, so no seat's search
reaches past the next draw: where the seats act at once and then roll, the last seat's next
turn no longer falls inside its horizon while the others' do not),
``value`` (``heuristic``: cut-offs and the root prior use ``evaluate``; ``learned``: the game's
learned ``value``, for a game whose ``GameInfo.value_model`` names one; both of
``game.evaluator``), ``others``
(``tree``: the other seats' moves are searched too; ``random`` or an agent name: they are played
by that policy outside the trees and the depth count, for games of separate sheets), ``cheat``.

Numbers are bounded: ``iterations`` 1 to 1,000,000, ``seconds`` above 0 and at most 60, ``c``
0 to 100, ``prior`` 0 to 1,000, ``depth`` 0 to 1,000, ``plan`` 0 to 1,000,000 (``ITERATIONS``,
``SECONDS``, ``BOUNDS``).

A game may set its own defaults for these keys in ``GameInfo.search_defaults``
(``"rollout=none,c=0.2"``): a spec's keys win, then the game's, then ``DEFAULTS``.

With an ``iterations`` budget the choice depends only on the state and the agent's ``rng``,
so games are reproducible; a ``seconds`` budget depends on the machine's speed.

In the code: the settings are a ``SearchSettings``; each decision is one ``_Search`` (its trees,
seat, rng and budget) whose iterations ``_descend`` the trees (``_select`` a tried action by
UCB or ``_expand`` an untried one), ``_rollout`` and ``_backup``; the edge statistics are
``_Edge`` objects; ``_seen`` is the one place that asks how a move looks to a seat.
"""

from __future__ import annotations

import gc
import math
import random
import time
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from nightsky.agents.base import make_agent, parse_spec
from nightsky.agents.kit import Agent, Bounds, check_flag, determinize
from nightsky.core.errors import OptionError
from nightsky.core.evaluator import Evaluator
from nightsky.core.game import CHANCE, Action, State
from nightsky.core.rng import choice, randrange

MAX_ROLLOUT_STEPS = 20_000
"""A rollout longer than this is scored by ``evaluate`` (guards against stalling policies)."""


@dataclass(frozen=True)
class SearchSettings:
    """How a search plays: the spec keys other than the budget (``iterations``, ``seconds``) and
    ``cheat``. The defaults here are the engine's (``DEFAULTS``); see ``merged``."""

    c: float = 0.7
    rollout: str = "random"
    depth: int = 8
    prior: float = 1.0
    normalise: bool = False
    widen: bool = True
    early: bool = True
    backup: str = "mean"
    reuse: bool = False
    plan: int = 0
    leaf: str = "share"
    turn: bool = False
    chance: str = "pass"
    value: str = "heuristic"
    others: str = "tree"

    @classmethod
    def merged(cls, game: dict[str, Any], spec: dict[str, Any]) -> SearchSettings:
        """The settings from checked keys (``_checked_settings``): the spec's win, then the
        game's ``GameInfo.search_defaults``, then ``DEFAULTS``."""
        return cls(**{**game, **spec})


DEFAULTS: dict[str, Any] = asdict(SearchSettings())
"""The engine's settings where neither the spec nor the game's ``search_defaults`` sets a key."""

ITERATIONS = Bounds(1, 1_000_000, whole=True)
SECONDS = Bounds(0, 60, above=True)
BOUNDS: dict[str, Bounds] = {
    "c": Bounds(0, 100),
    "prior": Bounds(0, 1_000),
    "depth": Bounds(0, 1_000, whole=True),
    "plan": Bounds(0, 1_000_000, whole=True),
}
"""The range of each numeric key (``depth`` counts player actions; 0: play to the end;
``plan`` counts visits, 0: off)."""
FLAGS = ("normalise", "widen", "early", "reuse", "turn")


def _checked_settings(settings: dict[str, Any], where: str) -> dict[str, Any]:
    """``settings`` with each value checked and converted; ``OptionError`` naming ``where`` the
    settings came from, the key, what it must be and the value for a bad one."""
    out: dict[str, Any] = {}
    for key, value in settings.items():
        if key in BOUNDS:
            out[key] = BOUNDS[key].check(key, value, where)
        elif key in FLAGS:
            out[key] = check_flag(key, value, where)
        elif key == "backup" and value not in ("mean", "max"):
            raise OptionError(f"{where}backup must be 'mean' or 'max', got {value!r}")
        elif key == "leaf" and value not in ("share", "delta"):
            raise OptionError(f"{where}leaf must be 'share' or 'delta', got {value!r}")
        elif key == "chance" and value not in ("pass", "stop"):
            raise OptionError(f"{where}chance must be 'pass' or 'stop', got {value!r}")
        elif key == "value" and value not in ("heuristic", "learned"):
            raise OptionError(f"{where}value must be 'heuristic' or 'learned', got {value!r}")
        elif key == "rollout" and not isinstance(value, str):
            raise OptionError(
                f"{where}rollout must be 'random', 'none' or an agent name, got {value!r}"
            )
        elif key == "others" and not isinstance(value, str):
            raise OptionError(
                f"{where}others must be 'tree', 'random' or an agent name, got {value!r}"
            )
        elif key not in DEFAULTS:
            known = ", ".join(["iterations", "seconds", "cheat", *DEFAULTS])
            raise OptionError(f"{where}unknown search setting {key!r}; known: {known}")
        else:
            out[key] = value
    for key, builtin in (("rollout", ("random", "none")), ("others", ("tree", "random"))):
        name = out.get(key)
        if name is not None and name not in builtin:
            try:
                _rollout_agent(name, key)  # raises for an unknown or search agent
            except OptionError as exc:
                raise OptionError(f"{where}{exc}") from None
    return out


def game_search_defaults(info: Any) -> dict[str, Any]:
    """A game's ``search_defaults`` string (``key=value,...``) as checked settings."""
    text = getattr(info, "search_defaults", "") or ""
    if not text.strip():
        return {}
    _, settings = parse_spec(f"search:{text}")
    return _checked_settings(settings, f"game {info.id!r}, search_defaults: ")


# ---------------------------------------------------------------------- the tree
class _Edge:
    """The statistics of one seat's action at a node: ``visits``, ``reward`` (the seat's total),
    ``avail`` (iterations in which the action was legal there: UCB's availability count) and
    ``value`` (the mean reward, or the best next move's value under ``backup=max``)."""

    __slots__ = ("avail", "reward", "value", "visits")

    def __init__(self) -> None:
        self.visits = 0.0
        self.reward = 0.0
        self.avail = 0.0
        self.value = 0.0

    def __repr__(self) -> str:
        return (f"_Edge(visits={self.visits}, reward={self.reward}, avail={self.avail}, "
                f"value={self.value})")


Stats = dict[tuple[int, Action], _Edge]
"""A node's edges, by (seat, real action)."""


class _Node:
    """One node of the open-loop tree: ``stats`` per (seat, action) of the seat that selects
    there; ``kids[key]``, the node reached after the move or outcome observed as ``key``."""

    __slots__ = ("kids", "stats", "seats")

    def __init__(self) -> None:
        self.stats: Stats = {}
        self.kids: dict[Any, _Node] = {}
        # The same edges again by seat, then action: ``_choose`` looks every legal action up
        # at every visit, and a (seat, action) key would be a new tuple hashed each time.
        self.seats: dict[int, dict[Action, _Edge]] = {}

    def edges(self, seat: int) -> dict[Action, _Edge]:
        """``seat``'s edges here by action (those of ``stats`` whose seat is ``seat``)."""
        mine = self.seats.get(seat)
        if mine is None:
            mine = self.seats[seat] = {}
        return mine


def _child(node: _Node, key: Any) -> _Node:
    kid = node.kids.get(key)
    if kid is None:
        kid = node.kids[key] = _Node()
    return kid


def _key(seat: int, action: Action) -> tuple[Any, ...]:
    """The key of a move or chance outcome in a tree that sees everything (a single tree)."""
    return ("c", action) if seat == CHANCE else ("a", seat, action)


def _seen(state: State, viewer: int) -> str:
    """How ``viewer`` read the move just applied to ``state`` in its log (``log_text``): moves
    that look the same to ``viewer`` share its subtree. The only place the search asks how a
    move looks to a seat."""
    return state.log_text(-1, viewer)


class _Kept(NamedTuple):
    """What ``reuse`` keeps of a search: its seat, game, the history it searched from and the
    root of its tree."""

    seat: int
    game: Any
    history: list[tuple[int, Action]]
    root: _Node


# (the edge chosen, its seat, the node's statistics, whether it follows the same seat's move
# with nothing random between)
_Step = tuple[_Edge, int, Stats, bool]


# ---------------------------------------------------------------------- the agents
class SearchAgent:
    """The shared UCT engine behind ``mcts`` and ``ismcts`` (see the module docstring)."""

    name = "search"
    per_iteration_determinization = True

    def __init__(
        self,
        iterations: Any = None,
        seconds: Any = None,
        cheat: Any = False,
        **settings: Any,
    ) -> None:
        # Parameters arrive as a spec reads them (any type): the bounds check them, and a
        # compiled signature must not refuse a float before the check can name the key.
        where = f"{self.name}: "
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations: int | None = (
            None if iterations is None else ITERATIONS.check("iterations", iterations, where)
        )
        self.seconds: float | None = (
            None if seconds is None else SECONDS.check("seconds", seconds, where)
        )
        self.cheat = check_flag("cheat", cheat, where)
        # the spec's own keys, which win over a game's defaults
        self._given = _checked_settings(settings, where)
        # The game id and search defaults the settings were merged with: a game may set other
        # defaults for some tables (``GameInfo`` per instance), so both are the key.
        self._game_id: tuple[str, str] | None = None
        self._settings = SearchSettings.merged({}, self._given)
        self._policy: Agent | None = None  # the rollout agent (for the game in ``_game_id``)
        self._others: Agent | None = None  # the other seats' agent with ``others=NAME``
        self._kept: _Kept | None = None  # with ``reuse``: the latest search's tree
        self.last_iterations = 0  # iterations of the latest search (for benchmarks)
        self.last_reused = 0.0  # root visits the latest search took over (``reuse``)
        # With ``plan``: the searcher's own next moves from the latest search's tree, still to
        # play; the seat, game and history length they were planned at; the moves played since.
        self._plan: list[Action] = []
        self._plan_seat = -1
        self._plan_game: Any = None
        self._plan_from = 0
        self._plan_done: list[tuple[int, Action]] = []
        self._tree: _Node | None = None  # with ``plan``: the root of the search just made

    def settings_for(self, game: Any) -> dict[str, Any]:
        """The settings a search of ``game`` uses: the spec's keys, then the game's
        ``GameInfo.search_defaults``, then the engine's defaults (``DEFAULTS``)."""
        return asdict(self._use_game(game))

    def _use_game(self, game: Any) -> SearchSettings:
        key = (game.info.id, getattr(game.info, "search_defaults", "") or "")
        if self._game_id != key:
            self._settings = SearchSettings.merged(game_search_defaults(game.info), self._given)
            if self._settings.value == "learned" and not getattr(game.info, "value_model", ""):
                raise OptionError(
                    f"{self.name}: value=learned, but game {game.info.id!r} has no learned value "
                    "(GameInfo.value_model); use value=heuristic"
                )
            rollout = self._settings.rollout
            self._policy = None if rollout in {"random", "none"} else _rollout_agent(rollout)
            others = self._settings.others
            self._others = (
                None if others in {"tree", "random"} else _rollout_agent(others, "others")
            )
            self._game_id = key
        return self._settings

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        actions = state.legal_actions(player)
        settings = self._use_game(state.game)
        if settings.plan:
            planned = self._planned(state, player, actions)
            if planned is not None:
                self.last_iterations = 0
                return planned
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        best = _best(actions, self.search(state, player, rng), player)
        if self._tree is not None:
            self._make_plan(self._tree, best, state, player, settings.plan)
            self._tree = None  # the tree is not kept beyond the plan drawn from it
        return best

    def _planned(self, state: State, player: int, actions: list[Action]) -> Action | None:
        """With ``plan``: the next move of the plan when only the plan's own moves were played
        since it was made (no other seat's move, no chance) and it is legal; else None (and the
        plan is dropped)."""
        plan = self._plan
        if not plan:
            return None
        done = self._plan_done
        history = state.history
        start = self._plan_from
        if (self._plan_seat != player or self._plan_game is not state.game
                or len(history) != start + len(done) or history[start:] != done):
            self._plan = []
            return None
        want = plan[0]
        for a in actions:
            if a == want:
                del plan[0]
                done.append((player, a))
                return a
        self._plan = []
        return None

    def _make_plan(
        self, root: _Node, first: Action, state: State, player: int, visits: int
    ) -> None:
        """Keep the searcher's own line after ``first`` in the tree of the search just made:
        while the same seat moves next with nothing random between, every move there was tried
        and the most visited one has at least ``visits`` visits, that move."""
        plan: list[Action] = []
        node = root.kids.get(("a", player, first))
        while node is not None:
            best: Action | None = None
            most = 0.0
            for (q, a), e in node.stats.items():
                if q != player:
                    continue
                if e.visits == 0.0:  # a move never tried: the line is not settled here
                    best = None
                    break
                if e.visits > most:
                    best, most = a, e.visits
            if best is None or most < visits:
                break
            plan.append(best)
            node = node.kids.get(("a", player, best))
        self._plan = plan
        self._plan_seat = player
        self._plan_game = state.game
        self._plan_from = len(state.history)
        self._plan_done = [(player, first)]

    def search(self, state: State, player: int, rng: random.Random) -> Stats:
        """Run one decision's search; the root statistics ``{(player, action): edge}``."""
        settings = self._use_game(state.game)
        hidden = state.game.info.hidden_information and not self.cheat
        # Following the moves played since the last search reads them as they were, so with
        # hidden information (and no ``cheat``) there is nothing to reuse.
        reuse = settings.reuse and not hidden
        root = self._kept_root(state, player) if reuse else None
        # The tree and the states it plays are all garbage the moment the search ends, and
        # nothing it builds is a reference cycle the collector must break: collections during
        # the search only rescan the growing tree (7-15% of a compiled search's time in py-spy
        # profiles of every game). Paused for this search only (its set-up included), and
        # turned back on only by the search that paused it (a caller that disabled the
        # collector keeps it disabled), once ``_run`` has returned: by then the tree is freed
        # unless kept, so re-enabling does not scan it.
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._run(state, player, rng, settings, hidden, reuse, root)
        finally:
            if paused:
                gc.enable()

    def _run(
        self, state: State, player: int, rng: random.Random, settings: SearchSettings,
        hidden: bool, reuse: bool, root: _Node | None,
    ) -> Stats:
        """``search``'s work: the tree lives in this call only (unless kept for ``reuse`` or
        ``plan``)."""
        search = _Search(
            state, player, rng, settings, self._policy, self._others,
            iterations=self.iterations, seconds=self.seconds, hidden=hidden,
            each_iteration=self.per_iteration_determinization, root=root,
        )
        if reuse:
            self._kept = _Kept(player, state.game, list(state.history), search.roots[0])
        stats = search.run()
        if settings.plan:
            self._tree = search.roots[player if search.observe else 0]
        self.last_iterations = search.done
        self.last_reused = search.base
        return stats

    def _kept_root(self, state: State, player: int) -> _Node | None:
        """With ``reuse`` (nothing hidden, so one tree): the node of the previous search's tree
        reached by the moves played since, keyed as the search keys them; None when that search
        was for another seat or game (the same game object and history prefix) or its tree
        never tried a move that was played."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        done = len(kept.history)
        now = state.history
        if (kept.seat != player or kept.game is not state.game or len(now) < done
                or now[:done] != kept.history):
            return None
        node = kept.root
        for seat, move in now[done:]:
            nxt = node.kids.get(_key(seat, move))
            if nxt is None:
                return None
            node = nxt
        return node


class ISMCTSAgent(SearchAgent):
    """Information-set MCTS: a fresh determinization (``state.resample``) every iteration."""

    name = "ismcts"
    per_iteration_determinization = True


class MCTSAgent(SearchAgent):
    """UCT on the perfect-information view: one determinization per decision (the true state
    with ``cheat=true`` or in a game without hidden information), chance sampled."""

    name = "mcts"
    per_iteration_determinization = False


# ---------------------------------------------------------------------- one decision
class _Search:
    """One decision's search: the trees, the searching seat ``me``, its ``rng``, the budget and
    the settings. ``run`` iterates ``_iterate``: ``_descend`` the tree (``_select`` among tried
    actions, ``_expand`` an untried one), ``_rollout`` to a result, ``_backup`` the rewards."""

    def __init__(
        self,
        state: State,
        me: int,
        rng: random.Random,
        settings: SearchSettings,
        policy: Agent | None,
        others: Agent | None,
        *,
        iterations: int | None,
        seconds: float | None,
        hidden: bool,
        each_iteration: bool,
        root: _Node | None,
    ) -> None:
        # The search reads only the moves it plays itself (``_seen``: the log text of the
        # move just applied), never the history behind the root: its worlds start from a
        # history-free copy, so each clone or determinization copies the position only (a
        # long game's history made every iteration copy hundreds of moves).
        drawn = state.redrawn_for
        state = state.clone(history=False)
        state.redrawn_for = drawn  # ``determinize`` below uses a redraw handed in as it is
        self.state, self.me, self.rng = state, me, rng
        self.settings, self.policy = settings, policy
        # ``others``: the other seats' moves are played by a policy (None: uniform at random),
        # outside the trees and the depth count, instead of searched.
        self.others = settings.others != "tree"
        self.others_policy = others
        self.iterations, self.seconds = iterations, seconds
        self.maxback = settings.backup == "max"
        # One tree per seat, keyed by what that seat observes, when something is hidden
        # (multiple-observer ISMCTS); else a single tree.
        self.observe = hidden and each_iteration
        trees = state.game.num_seats if self.observe else 1
        self.roots = [root] if root is not None else [_Node() for _ in range(trees)]
        self.mine = self.roots[me if self.observe else 0].stats  # the searcher's root edges
        # Root visits kept from the previous search (``reuse``)
        self.base = sum(e.visits for (q, _), e in self.mine.items() if q == me)
        self.learned = settings.value == "learned"
        self.evaluator = state.game.evaluator
        self.scale = _CutoffScale(self.evaluator, settings.leaf == "delta", self.learned)
        # Where each iteration starts: the true state, one determinization (``mcts``), or a
        # new determinization every iteration (None).
        self.fixed: State | None = state
        if hidden:
            self.fixed = None if each_iteration else determinize(state, me, rng)
        self.prior: dict[Action, float] = {}
        # The root's legal actions last seen and them sorted by the prior (widening): a new
        # determinization usually offers the same list, which then needs no new sort.
        self.root_legal: list[Action] = []
        self.root_ranked: list[Action] = []
        self.done = 0
        self.start = self.deadline = 0.0

    def run(self) -> Stats:
        """Iterate until the budget is spent (or ``early`` settles the choice)."""
        self.start = time.perf_counter()
        self.deadline = math.inf if self.seconds is None else self.start + self.seconds
        while not self._finished():
            # resample already returns a fresh state: no second copy
            fixed = self.fixed
            world = fixed.clone() if fixed is not None else self.state.resample(self.me, self.rng)
            if self.done == 0:
                if self.settings.prior:
                    self.prior = _root_prior(world, self.me, self.rng, self.evaluator, self.learned)
                if self.scale.delta:
                    self.scale.set_base(world)
            self._iterate(world)
            self.done += 1
        return self.mine

    def _finished(self) -> bool:
        done = self.done
        if self.iterations is not None and done >= self.iterations:
            return True
        timed = self.seconds is not None
        now = 0.0
        if timed and done > 0:
            now = time.perf_counter()
            if now >= self.deadline:
                return True
        if not (self.settings.early and done and done % 16 == 0):
            return False
        # Stop once the most visited root action cannot be overtaken in the budget left: the
        # choice is then the one the full budget would make, sooner.
        left = math.inf if self.iterations is None else float(self.iterations - done)
        if timed:
            rate = done / max(now - self.start, 1e-9)
            left = min(left, rate * (self.deadline - now))
        return _lead(self.mine, self.me) > left

    def _iterate(self, world: State) -> None:
        path, moves = self._descend(world)
        self._backup(path, self._rollout(world, moves))

    def _descend(self, world: State) -> tuple[list[_Step], int]:
        """Walk down from the roots, playing on ``world``, until an untried action is played
        (expansion), the depth cut-off or the end; the edges taken and the player moves made."""
        # ``trees[q]`` is where seat q's own tree stands (a single shared tree when nothing is
        # hidden); the seat to move selects with the statistics of its own tree.
        trees = list(self.roots)
        path: list[_Step] = []
        prior = self.prior or None  # the root prior, used at the first choice only
        last_seat = -2
        moves = 0
        depth = self.settings.depth
        own_turn = self.settings.turn
        stop_chance = self.settings.chance == "stop"
        while True:
            players = world.current_players()
            if not players:
                break
            # Seats acting at once move in any order: the searcher's own moves come first,
            # so its plan for this turn is in the tree before the depth cut-off.
            seat = self.me if self.me in players else players[0]
            if seat == CHANCE:
                if stop_chance and moves:
                    break
                outcome = world.sample_chance(self.rng)
                world.step(outcome, CHANCE)
                last_seat = CHANCE
                self._follow(trees, world, CHANCE, outcome)
                continue
            if self.others and seat != self.me:
                world.step(self._other_move(world, seat), seat)
                last_seat = seat  # the searcher's next move is not a continuation of this one
                continue
            here, prior = prior, None
            if (depth and moves >= depth) or (own_turn and seat != self.me):
                break
            node = trees[seat if self.observe and seat < len(trees) else 0]
            action, edge, new = self._choose(node, world, seat, here)
            path.append((edge, seat, node.stats, seat == last_seat))
            last_seat = seat
            world.step(action, seat)
            moves += 1
            if new:
                break
            self._follow(trees, world, seat, action)
        return path, moves

    def _follow(self, trees: list[_Node], world: State, seat: int, action: Action) -> None:
        """Move every tree to the child reached by ``seat``'s ``action`` (or a chance outcome),
        just applied to ``world``, keyed by what the tree's seat observed."""
        if not self.observe:
            trees[0] = _child(trees[0], _key(seat, action))
            return
        for q in range(len(trees)):
            if seat == CHANCE:
                key: tuple[Any, ...] = ("c", _seen(world, q))
            elif q == seat:
                key = ("a", seat, action)
            else:
                key = ("o", seat, _seen(world, q))
            trees[q] = _child(trees[q], key)

    def _choose(
        self, node: _Node, world: State, seat: int, prior: dict[Action, float] | None
    ) -> tuple[Action, _Edge, bool]:
        """``seat``'s action at ``node``: an untried one if any (``_expand``, True), else the
        best by UCB (``_select``). ``prior`` is given at the root only."""
        legal = world.legal_actions(seat)
        if prior is not None and self.settings.widen:
            # Progressive widening at the root: the heuristic's best 2 + sqrt(N) actions
            # only, so a small budget is spent on plausible moves, not spread over all.
            if not _same_objects(legal, self.root_legal):
                self.root_legal = list(legal)
                self.root_ranked = sorted(legal, key=lambda a: -prior.get(a, -1.0))
            legal = self.root_ranked[: 2 + int(math.sqrt(self.done + self.base))]
        # Actions and their edges in parallel lists: a pair per legal action would be a new
        # tuple at every visit of every node.
        untried: list[Action] = []
        untried_edges: list[_Edge] = []
        tried: list[Action] = []
        tried_edges: list[_Edge] = []
        stats = node.stats
        mine = node.edges(seat)
        for a in legal:
            edge = mine.get(a)
            if edge is None:
                edge = mine[a] = stats[(seat, a)] = _Edge()
            edge.avail += 1.0
            if edge.visits == 0.0:
                untried.append(a)
                untried_edges.append(edge)
            elif not untried:
                tried.append(a)
                tried_edges.append(edge)
        if untried:
            i = self._expand(untried, prior)
            return untried[i], untried_edges[i], True
        i = self._select(tried, tried_edges, prior)
        return tried[i], tried_edges[i], False

    def _expand(self, untried: list[Action], prior: dict[Action, float] | None) -> int:
        """The index of an untried action drawn at random; at the root, among the heuristic's
        favourites."""
        if prior is None:
            return randrange(self.rng, len(untried))
        top = max(prior.get(a, 0.0) for a in untried)
        picks = [i for i, a in enumerate(untried) if prior.get(a, 0.0) == top]
        return picks[randrange(self.rng, len(picks))]

    def _select(
        self, tried: list[Action], edges: list[_Edge], prior: dict[Action, float] | None
    ) -> int:
        """The index of the best tried action (``edges[i]`` is ``tried[i]``'s) by UCB with
        availability counts."""
        # With ``normalise``, Q is rescaled to [0, 1] among the siblings (cut-off values may
        # sit close together).
        maxback = self.maxback
        qs = [e.value if maxback else e.reward / e.visits for e in edges]
        lo = min(qs)
        span = max(qs) - lo if self.settings.normalise else 0.0
        inv = 1.0 / span if span > 1e-12 else 1.0
        base = lo if span > 1e-12 else 0.0
        c, weight = self.settings.c, self.settings.prior
        best = -1
        best_u = -math.inf
        for i in range(len(edges)):
            e = edges[i]
            u = (qs[i] - base) * inv + c * math.sqrt(math.log(e.avail) / e.visits)
            if prior is not None:  # progressive bias, fading with visits
                u += weight * prior.get(tried[i], 0.0) / (e.visits + 1.0)
            if u > best_u:
                best_u, best = u, i
        assert best >= 0
        return best

    def _rollout(self, st: State, moves: int) -> list[float]:
        """Play out from ``st`` (random or the rollout policy) to the end or the depth cut-off;
        ``me``, the searching seat, moves first among seats acting at once."""
        limit = self.settings.depth
        policy = self.policy
        stop = self.settings.rollout == "none"
        own_turn = self.settings.turn
        stop_chance = self.settings.chance == "stop"
        steps = 0
        while True:
            players = st.current_players()
            if not players:
                return st.returns()
            seat = self.me if self.me in players else players[0]
            if seat == CHANCE:
                if stop_chance and moves:
                    return self.scale.shares(st)
                st.step(st.sample_chance(self.rng), CHANCE)
                continue
            if steps >= MAX_ROLLOUT_STEPS:
                return self.scale.shares(st)
            if self.others and seat != self.me:
                st.step(self._other_move(st, seat), seat)
                steps += 1
                continue
            if (limit and moves >= limit) or stop or (own_turn and seat != self.me):
                return self.scale.shares(st)
            if policy is None:
                st.step(st.random_action(seat, self.rng), seat)
            else:
                st.step(policy.choose(st, seat, self.rng), seat)
            moves += 1
            steps += 1

    def _other_move(self, st: State, seat: int) -> Action:
        """Another seat's move with ``others``: its policy's, or uniform at random."""
        policy = self.others_policy
        if policy is None:
            return st.random_action(seat, self.rng)
        return policy.choose(st, seat, self.rng)

    def _backup(self, path: list[_Step], reward: list[float]) -> None:
        """Add each seat's reward to the edges it chose on the way down."""
        after: Stats | None = None
        for edge, seat, node, chained in reversed(path):
            edge.visits += 1.0
            edge.reward += reward[seat] if seat < len(reward) else 0.0
            # The edge's value with ``backup=max``: where the same seat moves next with nothing
            # random between, the best of its next choices (a plan is worth its best
            # continuation, not the average of the ones explored); else the mean reward.
            value = edge.reward / edge.visits
            if after is not None:
                value = max(
                    (x.value for (q, _), x in after.items() if q == seat and x.visits > 0),
                    default=value,
                )
            edge.value = value
            after = node if chained and self.maxback else None


class _CutoffScale:
    """Scores cut-off positions from each seat's ``evaluate`` (the game's ``Evaluator``).

    ``evaluate`` is a game's heuristic in its own units. With ``leaf=share`` (the default) the
    seats' values are centred on their mean and divided by the mean spread seen at this
    search's cut-offs, then turned into shares by a softmax: the result lies in [0, 1] and sums
    to 1 like ``returns()``, and a typical lead counts as a ~3:1 favourite, never a certainty.
    With ``leaf=delta`` each seat's value is centred on its own value at the root instead (what
    the move sequence gained or lost it, the quantity ``greedy`` compares) and scaled by the
    mean size of those changes, then squashed by a logistic: a lead already held at the root
    no longer flattens the differences between the moves (the softmax saturates when one seat
    is far ahead), and each seat's reward is its own gain.
    """

    __slots__ = ("base", "count", "delta", "evaluator", "learned", "seats", "spread")

    def __init__(self, evaluator: Evaluator, delta: bool = False, learned: bool = False) -> None:
        self.evaluator = evaluator
        seats = evaluator.game.num_seats
        self.seats = seats  # len(st.returns()), without scoring a position that is not over
        self.spread = 0.0  # the sum of the mean |evaluate - centre| of each cut-off
        self.count = 0.0
        self.delta = delta
        self.base: list[float] = [0.0] * seats  # with ``delta``: each seat's value at the root
        self.learned = learned  # ``value=learned``: the learned ``value`` instead of ``evaluate``

    def values(self, st: State) -> list[float]:
        """Each seat's value of ``st``: its ``cutoff_values`` (``evaluate`` unless the game says
        otherwise), or its learned ``value``."""
        judge = self.evaluator
        if self.learned:
            return [judge.value(st, p) for p in range(self.seats)]
        return judge.cutoff_values(st)

    def set_base(self, root: State) -> None:
        """With ``delta``: remember each seat's ``evaluate`` at the root (``root`` is the first
        determinization, before any move)."""
        self.base = self.values(root)

    def shares(self, st: State) -> list[float]:
        n = self.seats
        vals = self.values(st)
        if self.delta:
            base = self.base
            diffs = [v - b for v, b in zip(vals, base, strict=True)]
            self.spread += sum(abs(d) for d in diffs) / n
            self.count += 1.0
            scale = max(self.spread / self.count, 1e-6)
            return [1.0 / (1.0 + math.exp(max(-30.0, min(30.0, -d / scale)))) for d in diffs]
        m = sum(vals) / n
        self.spread += sum(abs(v - m) for v in vals) / n
        self.count += 1.0
        scale = max(self.spread / self.count, 1e-6)
        ex = [math.exp(max(-30.0, min(30.0, (v - m) / scale))) for v in vals]
        tot = sum(ex)
        return [e / tot for e in ex]


def _same_objects(a: list[Action], b: list[Action]) -> bool:
    """The same objects in the same order (equal actions may still differ in what they
    carry, e.g. a summoning's tiles)."""
    if len(a) != len(b):
        return False
    for i in range(len(a)):  # noqa: SIM110 - a plain loop compiles without a generator
        if a[i] is not b[i]:
            return False
    return True


def _root_prior(
    world: State, me: int, rng: random.Random, evaluator: Evaluator, learned: bool = False
) -> dict[Action, float]:
    """One-ply heuristic of each root action (the greedy agent's view; with ``learned`` the
    game's learned ``value``) scaled to [0, 1]: the order in which untried root actions are
    tried and a bias that fades with visits."""
    values: dict[Action, float] = {}
    for a in world.legal_actions(me):
        child = world.clone()
        child.step(a, me)
        guard = 0
        while child.current_players() == (CHANCE,) and guard < 64:
            child.step(child.sample_chance(rng), CHANCE)
            guard += 1
        values[a] = evaluator.value(child, me) if learned else evaluator.evaluate(child, me)
    if not values:
        return {}
    lo, hi = min(values.values()), max(values.values())
    span = hi - lo
    return {a: (v - lo) / span if span > 0 else 0.0 for a, v in values.items()}


def _rollout_agent(spec: str, key: str = "rollout") -> Agent:
    # A rollout already runs inside a determinization, so a policy that would resample (greedy)
    # may read it directly: try the cheating variant first.
    if spec.split(":", 1)[0] in {"mcts", "ismcts"}:
        raise OptionError(f"{key}={spec!r}: a search agent cannot play inside a search")
    if ":" not in spec:
        try:
            return make_agent(f"{spec}:cheat=true")
        except OptionError:
            pass
    return make_agent(spec)


def _lead(stats: Stats, player: int) -> float:
    """Visits of the most visited root action minus those of the runner-up."""
    first = second = 0.0
    for (seat, _), e in stats.items():
        if seat != player:
            continue
        v = e.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second


def _best(actions: list[Action], stats: Stats, player: int) -> Action:
    """Most visited root action (the robust child); ties by mean reward, then legal order."""
    best = actions[0]
    best_key = (-1.0, -1.0)
    for a in actions:
        e = stats.get((player, a))
        if e is None or e.visits == 0:
            continue
        key = (e.visits, e.reward / e.visits)
        if key > best_key:
            best_key, best = key, a
    return best


def measure_speed(
    game: Any, seconds: float = 1.0, spec: str = "ismcts", positions: int = 5, seed: int = 0
) -> dict[str, float]:
    """Search speed on ``positions`` states taken from one random game (start to late game):
    iterations per second of CPU time (one core) and per wall-clock second."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found: list[tuple[State, int]] = []
    while not state.is_terminal():
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
            continue
        found.append((state.clone(), seat))
        state.step(choice(rng, state.legal_actions(seat)), seat)
    if not found:
        return {}
    picks = [found[int(i * (len(found) - 1) / max(1, positions - 1))] for i in range(positions)]
    sep = "," if ":" in spec else ":"
    agent = make_agent(f"{spec}{sep}seconds={max(0.01, seconds / len(picks)):.4f}")
    assert isinstance(agent, SearchAgent)
    iterations = 0
    wall = time.perf_counter()
    cpu = time.thread_time()
    for st, seat in picks:
        agent.search(st, seat, rng)
        iterations += agent.last_iterations
    # This thread's CPU time, read inside the wall-clock interval: never more than it on one
    # core, whatever other threads of the process do.
    cpu = max(time.thread_time() - cpu, 1e-9)
    wall = time.perf_counter() - wall
    return {
        f"{agent.name.split(':')[0]}_iterations_per_cpu_second": round(iterations / cpu, 1),
        f"{agent.name.split(':')[0]}_iterations_per_second": round(iterations / wall, 1),
    }
