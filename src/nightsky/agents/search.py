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
``depth`` (8: player actions from the root after which the position is scored by
``state.evaluate`` instead of played out; 0: play to the end), ``prior`` (1.0: weight of the
one-ply heuristic at the root), ``widen`` (true: progressive widening at the root in the
heuristic's order), ``normalise`` (false: rescale sibling values to [0, 1] in UCB),
``early`` (true: stop once the most visited root action can no longer be overtaken in the
budget left; the choice is the one the full budget makes), ``backup`` (``mean``: UCT's average
reward; ``max``: a seat's consecutive moves with nothing random between are worth the best of
the next moves tried), ``reuse`` (false: a fresh tree for every decision; true: keep the subtree
of the moves played since the seat's last search, so a turn of many steps builds on one tree;
only where nothing is hidden, or with ``cheat``),
``cheat``.

A game may set its own defaults for these keys in ``GameInfo.search_defaults``
(``"rollout=none,c=0.2"``): a spec's keys win, then the game's, then ``DEFAULTS``.

With an ``iterations`` budget the choice depends only on the state and the agent's ``rng``,
so games are reproducible; a ``seconds`` budget depends on the machine's speed.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from nightsky.agents.base import Agent, make_agent, parse_spec, register_agent
from nightsky.core.errors import OptionError
from nightsky.core.game import CHANCE, Action, State

MAX_ROLLOUT_STEPS = 20_000
"""A rollout longer than this is scored by ``evaluate`` (guards against stalling policies)."""


DEFAULTS: dict[str, Any] = {
    "c": 0.7,
    "rollout": "random",
    "depth": 8,
    "prior": 1.0,
    "normalise": False,
    "widen": True,
    "early": True,
    "backup": "mean",
    "reuse": False,
}
"""The engine's settings where neither the spec nor the game's ``search_defaults`` sets a key."""


def _check_settings(settings: dict[str, Any], where: str) -> None:
    """Raise ``OptionError`` naming the key (and ``where`` it came from) for a bad setting."""
    for key, value in settings.items():
        if key not in DEFAULTS:
            known = ", ".join(["iterations", "seconds", "cheat", *DEFAULTS])
            raise OptionError(f"{where}unknown search setting {key!r}; known: {known}")
        bad = None
        if key in {"c", "prior"}:
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                bad = "a number >= 0"
        elif key == "depth":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                bad = "a whole number >= 0"
        elif key in {"normalise", "widen", "early", "reuse"}:
            if not isinstance(value, bool):
                bad = "true or false"
        elif key == "rollout" and not isinstance(value, str):
            bad = "'random', 'none' or an agent name"
        elif key == "backup" and value not in ("mean", "max"):
            bad = "'mean' or 'max'"
        if bad is not None:
            raise OptionError(f"{where}{key} must be {bad}, got {value!r}")
    rollout = settings.get("rollout")
    if isinstance(rollout, str) and rollout not in {"random", "none"}:
        try:
            _rollout_agent(rollout)  # raises for an unknown or search agent
        except OptionError as exc:
            raise OptionError(f"{where}{exc}") from None


def game_search_defaults(info: Any) -> dict[str, Any]:
    """A game's ``search_defaults`` string (``key=value,...``) as checked settings."""
    text = getattr(info, "search_defaults", "") or ""
    if not text.strip():
        return {}
    _, settings = parse_spec(f"search:{text}")
    _check_settings(settings, f"game {info.id!r}, search_defaults: ")
    return settings


class _Node:
    """One node of the open-loop tree.

    ``stats[(seat, action)] = [visits, total reward of seat, availability, value]`` (value: the
    mean reward, or the best next move's value under ``backup=max``);
    ``kids[key]`` is the node reached after the move or outcome observed as ``key``.
    """

    __slots__ = ("kids", "stats")

    def __init__(self) -> None:
        self.stats: dict[tuple[int, Action], list[float]] = {}
        self.kids: dict[Any, _Node] = {}


class SearchAgent:
    """The shared UCT engine behind ``mcts`` and ``ismcts`` (see the module docstring)."""

    name = "search"
    per_iteration_determinization = True

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        cheat: bool = False,
        **settings: Any,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 200
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise OptionError(f"iterations must be a whole number >= 1, got {iterations!r}")
        if seconds is not None and (not isinstance(seconds, int | float) or seconds <= 0):
            raise OptionError(f"seconds must be a positive number, got {seconds!r}")
        self.iterations = iterations
        self.seconds = float(seconds) if seconds is not None else None
        self.cheat = bool(cheat)
        _check_settings(settings, "")
        self._given = dict(settings)  # the spec's own keys win over a game's defaults
        self._for_game: str | None = None
        self._configure({})
        self._done = 0
        self._prior: dict[Action, float] = {}
        self.last_iterations = 0  # iterations of the latest search (for benchmarks)
        self._dev = [0.0, 0.0]
        self._base = 0.0  # root visits kept from the previous search (``reuse``)
        # With ``reuse``: (seat, game, the history searched from, the root of that search)
        self._kept: tuple[int, Any, list[tuple[int, Action]], _Node] | None = None

    def _configure(self, game_defaults: dict[str, Any]) -> None:
        cfg = {**DEFAULTS, **game_defaults, **self._given}
        self.c = float(cfg["c"])
        self.depth = int(cfg["depth"])
        self.prior = float(cfg["prior"])
        self.normalise = bool(cfg["normalise"])
        self.widen = bool(cfg["widen"])
        self.early = bool(cfg["early"])
        self.rollout = str(cfg["rollout"])
        self.backup = str(cfg["backup"])
        self.maxback = self.backup == "max"
        self.reuse = bool(cfg["reuse"])
        self._rollout_agent: Agent | None = None
        if self.rollout not in {"random", "none"}:
            self._rollout_agent = _rollout_agent(self.rollout)

    def settings_for(self, game: Any) -> dict[str, Any]:
        """The settings a search of ``game`` uses: the spec's keys, then the game's
        ``GameInfo.search_defaults``, then the engine's defaults (``DEFAULTS``)."""
        self._use_game(game)
        return {key: getattr(self, key) for key in DEFAULTS}

    def _use_game(self, game: Any) -> None:
        if self._for_game != game.info.id:
            self._configure(game_search_defaults(game.info))
            self._for_game = game.info.id

    # ------------------------------------------------------------------ public
    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        actions = state.legal_actions(player)
        if len(actions) == 1:
            self.last_iterations = 0
            return actions[0]
        stats = self.search(state, player, rng)
        return _best(actions, stats, player)

    def search(
        self, state: State, player: int, rng: random.Random
    ) -> dict[tuple[int, Action], list[float]]:
        """Run the search; the root statistics
        ``{(player, action): [visits, reward, avail, value]}``."""
        game = state.game
        self._use_game(game)
        hidden = game.info.hidden_information and not self.cheat
        # One tree per seat, keyed by what that seat observes, when something is hidden
        # (multiple-observer ISMCTS); else a single tree.
        observe = hidden and self.per_iteration_determinization
        redact = True if observe else None
        n_roots = game.num_seats if observe else 1
        # Following the moves played since the last search reads them as they were, so with
        # hidden information (and no ``cheat``) there is nothing to reuse.
        reuse = self.reuse and not hidden
        kept = self._kept_root(state, player) if reuse else None
        roots = [kept] if kept is not None else [_Node() for _ in range(n_roots)]
        if reuse:
            self._kept = (player, game, list(state.history), roots[0])
        mine = roots[player if observe else 0].stats
        self._base = sum(s[0] for (q, _), s in mine.items() if q == player)
        self._dev = [0.0, 0.0]  # running |evaluate - mean| at cut-offs: the value scale
        fixed: State | None = None
        if not hidden:
            fixed = state
        elif not self.per_iteration_determinization:
            fixed = state.resample(player, rng)
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else None
        budget = self.iterations
        done = 0
        while True:
            if budget is not None and done >= budget:
                break
            if deadline is not None and done > 0:
                now = time.perf_counter()
                if now >= deadline:
                    break
            if self.early and done and done % 16 == 0:
                # Stop once the most visited root action cannot be overtaken in the budget
                # left: the choice is then the one the full budget would make, sooner.
                left = math.inf if budget is None else float(budget - done)
                if deadline is not None:
                    rate = done / max(now - start, 1e-9)
                    left = min(left, rate * (deadline - now))
                if _lead(roots[player if observe else 0].stats, player) > left:
                    break
            # resample already returns a fresh state: no second copy
            world = fixed.clone() if fixed is not None else state.resample(player, rng)
            if done == 0:
                self._prior = self._root_prior(world, player, rng) if self.prior else {}
            self._done = done
            self._iterate(world, roots, player, rng, redact)
            done += 1
        self.last_iterations = done
        return roots[player if observe else 0].stats

    # ------------------------------------------------------------------ one iteration
    def _iterate(
        self, st: State, roots: list[_Node], me: int, rng: random.Random, redact: Any
    ) -> None:
        # ``trees[q]`` is where seat q's own tree stands (a single shared tree when nothing is
        # hidden); the seat to move selects with the statistics of its own tree.
        trees: list[_Node] = list(roots)
        # (edge statistics, seat, the node's statistics, follows the same seat's move with
        # no chance between)
        path: list[tuple[list[float], int, dict[tuple[int, Action], list[float]], bool]] = []
        last_seat = -2
        moves = 0
        c = self.c
        first = True
        seats = range(len(trees))
        while True:
            players = st.current_players()
            if not players:
                break
            # Seats acting at once move in any order: the searcher's own moves come first,
            # so its plan for this turn is in the tree before the depth cut-off.
            seat = me if me in players else players[0]
            if seat == CHANCE:
                out = st.sample_chance(rng)
                st.step(out, CHANCE)
                last_seat = CHANCE
                if redact is None:
                    key: Any = ("c", out)
                    trees[0] = trees[0].kids.get(key) or trees[0].kids.setdefault(key, _Node())
                else:
                    for q in seats:
                        key = ("c", st.log_text(-1, q))
                        kids = trees[q].kids
                        trees[q] = kids.get(key) or kids.setdefault(key, _Node())
                continue
            prior = None
            if first:
                first = False
                prior = self._prior or None
            if self.depth and moves >= self.depth:
                break
            legal = st.legal_actions(seat)
            if prior is not None and self.widen:
                # Progressive widening at the root: the heuristic's best 2 + sqrt(N) actions
                # only, so a small budget is spent on plausible moves, not spread over all.
                legal = sorted(legal, key=lambda a: -prior.get(a, -1.0))[
                    : 2 + int(math.sqrt(self._done + self._base))
                ]
            stats = trees[seat if redact is not None and seat < len(trees) else 0].stats
            untried: list[tuple[Action, list[float]]] = []
            best_a: Action = None
            best_s: list[float] | None = None
            tried: list[tuple[Action, list[float]]] = []
            for a in legal:
                s = stats.get((seat, a))
                if s is None:
                    s = stats[(seat, a)] = [0.0, 0.0, 0.0, 0.0]
                s[2] += 1.0
                if s[0] == 0.0:
                    untried.append((a, s))
                elif not untried:
                    tried.append((a, s))
            if not untried:
                # With ``normalise``, Q is rescaled to [0, 1] among the siblings (cut-off
                # values may sit close together).
                qs = [x[3] if self.maxback else x[1] / x[0] for _, x in tried]
                lo = min(qs)
                span = max(qs) - lo if self.normalise else 0.0
                inv = 1.0 / span if span > 1e-12 else 1.0
                base = lo if span > 1e-12 else 0.0
                best_u: float = -math.inf
                for (a, s), qv in zip(tried, qs, strict=True):
                    u = (qv - base) * inv + c * math.sqrt(math.log(s[2]) / s[0])
                    if prior is not None:  # progressive bias, fading with visits
                        u += self.prior * prior.get(a, 0.0) / (s[0] + 1.0)
                    if u > best_u:
                        best_u, best_a, best_s = u, a, s
            expand = bool(untried)
            if expand:
                if prior is not None:  # try the heuristic's favourites first
                    top = max(prior.get(a, 0.0) for a, _ in untried)
                    untried = [(a, x) for a, x in untried if prior.get(a, 0.0) == top]
                best_a, best_s = untried[rng.randrange(len(untried))]
            assert best_s is not None
            path.append((best_s, seat, stats, seat == last_seat))
            last_seat = seat
            st.step(best_a, seat)
            moves += 1
            if expand:
                break
            if redact is None:
                key = ("a", seat, best_a)
                trees[0] = trees[0].kids.get(key) or trees[0].kids.setdefault(key, _Node())
            else:
                for q in seats:
                    seen = st.log_text(-1, q)
                    key = ("a", seat, best_a) if q == seat else ("o", seat, seen)
                    kids = trees[q].kids
                    trees[q] = kids.get(key) or kids.setdefault(key, _Node())
        reward = self._finish(st, moves, me, rng)
        after: dict[tuple[int, Action], list[float]] | None = None
        for s, seat, node, chained in reversed(path):
            s[0] += 1.0
            s[1] += reward[seat] if seat < len(reward) else 0.0
            # s[3]: the edge's value with ``backup=max``: where the same seat moves next with
            # nothing random between, the best of its next choices (a plan is worth its best
            # continuation, not the average of the ones explored); else the mean reward.
            value = s[1] / s[0]
            if after is not None:
                value = max(
                    (x[3] for (q, _), x in after.items() if q == seat and x[0] > 0),
                    default=value,
                )
            s[3] = value
            after = node if chained and self.maxback else None

    def _kept_root(self, state: State, player: int) -> _Node | None:
        """With ``reuse`` (nothing hidden, so one tree): the node of the previous search's tree
        reached by the moves played since, keyed as the search keys them; None when that search
        was for another seat or game (the same game object and history prefix) or its tree
        never tried a move that was played."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        seat0, game, history, node = kept
        done = len(history)
        now = state.history
        if seat0 != player or game is not state.game or len(now) < done or now[:done] != history:
            return None
        for seat, move in now[done:]:
            key = ("c", move) if seat == CHANCE else ("a", seat, move)
            nxt = node.kids.get(key)
            if nxt is None:
                return None
            node = nxt
        return node

    def _root_prior(self, world: State, me: int, rng: random.Random) -> dict[Action, float]:
        """One-ply heuristic of each root action (the greedy agent's view) scaled to [0, 1]:
        the order in which untried root actions are tried and a bias that fades with visits."""
        values: dict[Action, float] = {}
        for a in world.legal_actions(me):
            child = world.clone()
            child.step(a, me)
            guard = 0
            while child.current_players() == (CHANCE,) and guard < 64:
                child.step(child.sample_chance(rng), CHANCE)
                guard += 1
            values[a] = child.evaluate(me)
        if not values:
            return {}
        lo, hi = min(values.values()), max(values.values())
        span = hi - lo
        return {a: (v - lo) / span if span > 0 else 0.0 for a, v in values.items()}

    def _finish(self, st: State, moves: int, me: int, rng: random.Random) -> list[float]:
        """Play out from ``st`` (random or the rollout policy) to the end or the depth cut-off;
        ``me``, the searching seat, moves first among seats acting at once."""
        limit = self.depth
        policy = self._rollout_agent
        steps = 0
        while True:
            players = st.current_players()
            if not players:
                return st.returns()
            seat = me if me in players else players[0]
            if seat == CHANCE:
                st.step(st.sample_chance(rng), CHANCE)
                continue
            if (limit and moves >= limit) or steps >= MAX_ROLLOUT_STEPS or self.rollout == "none":
                return self._soft_values(st)
            if policy is None:
                st.step(rng.choice(st.legal_actions(seat)), seat)
            else:
                st.step(policy.choose(st, seat, rng), seat)
            moves += 1
            steps += 1

    def _soft_values(self, st: State) -> list[float]:
        """Score a cut-off position: each seat's share of a softmax over ``evaluate``.

        ``evaluate`` is a game's heuristic in its own units, so values are centred and divided
        by the mean spread seen at this search's cut-offs: the result lies in [0, 1] and sums to
        1 like ``returns()``, and a typical lead counts as a ~3:1 favourite, never a certainty.
        """
        n = len(st.returns())
        vals = [st.evaluate(p) for p in range(n)]
        m = sum(vals) / n
        dev = self._dev
        dev[0] += sum(abs(v - m) for v in vals) / n
        dev[1] += 1.0
        scale = max(dev[0] / dev[1], 1e-6)
        ex = [math.exp(max(-30.0, min(30.0, (v - m) / scale))) for v in vals]
        tot = sum(ex)
        return [e / tot for e in ex]


def _rollout_agent(spec: str) -> Agent:
    # A rollout already runs inside a determinization, so a policy that would resample (greedy)
    # may read it directly: try the cheating variant first.
    if spec.split(":", 1)[0] in {"mcts", "ismcts"}:
        raise OptionError(f"rollout={spec!r}: a search agent cannot be a rollout policy")
    if ":" not in spec:
        try:
            return make_agent(f"{spec}:cheat=true")
        except OptionError:
            pass
    return make_agent(spec)


def _lead(stats: dict[tuple[int, Action], list[float]], player: int) -> float:
    """Visits of the most visited root action minus those of the runner-up."""
    first = second = 0.0
    for (seat, _), s in stats.items():
        if seat != player:
            continue
        v = s[0]
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second


def _best(
    actions: list[Action], stats: dict[tuple[int, Action], list[float]], player: int
) -> Action:
    """Most visited root action (the robust child); ties by mean reward, then legal order."""
    best = actions[0]
    best_key = (-1.0, -1.0)
    for a in actions:
        s = stats.get((player, a))
        if s is None or s[0] == 0:
            continue
        key = (s[0], s[1] / s[0])
        if key > best_key:
            best_key, best = key, a
    return best


@register_agent("ismcts")
class ISMCTSAgent(SearchAgent):
    """Information-set MCTS: a fresh determinization (``state.resample``) every iteration."""

    name = "ismcts"
    per_iteration_determinization = True


@register_agent("mcts")
class MCTSAgent(SearchAgent):
    """UCT on the perfect-information view: one determinization per decision (the true state
    with ``cheat=true`` or in a game without hidden information), chance sampled."""

    name = "mcts"
    per_iteration_determinization = False


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
        state.step(rng.choice(state.legal_actions(seat)), seat)
    if not found:
        return {}
    picks = [found[int(i * (len(found) - 1) / max(1, positions - 1))] for i in range(positions)]
    sep = "," if ":" in spec else ":"
    agent = make_agent(f"{spec}{sep}seconds={max(0.01, seconds / len(picks)):.4f}")
    assert isinstance(agent, SearchAgent)
    iterations = 0
    wall = time.perf_counter()
    cpu = time.process_time()
    for st, seat in picks:
        agent.search(st, seat, rng)
        iterations += agent.last_iterations
    wall = time.perf_counter() - wall
    cpu = max(time.process_time() - cpu, 1e-9)
    return {
        f"{agent.name.split(':')[0]}_iterations_per_cpu_second": round(iterations / cpu, 1),
        f"{agent.name.split(':')[0]}_iterations_per_second": round(iterations / wall, 1),
    }
