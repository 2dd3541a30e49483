"""Bots for The Stars Are Right: the heuristic ``evaluate`` (used by ``greedy``; it lives in
``evaluator.py`` and is re-exported here) and the ``tsar-planner`` agent, which searches the
invocations, powers and symbol moves of its turn for the best summoning.

Both only look at a determinization of their own seat (``state.resample(player, rng)``): the sky,
the creatures in play, the discard pile and their own hand are public to them, nothing else.

The planner's search is exact within its depth: every invocation (or none), every set of powers
that can be applied in some order, every sequence of up to ``depth`` symbol moves (2 by default),
and the remaining symbols spent where they cannot spoil the summoning (a pair of the same symbol
undoes itself; a single push/swap/flip goes on a line/pair/tile away from the constellations).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from nightsky.agents.kit import Bounds, check_flag, determinize
from nightsky.agents.simple import GreedyAgent
from nightsky.core.game import Action, State

from . import matcher
from .actions import Flip, Push, Summon, Swap
from .constants import INVOKE, MINION, MOVE, POWERS, SUMMON
from .evaluator import evaluate, option_value, summon_options, waste_plan
from .game import StarsAreRightGame

if TYPE_CHECKING:
    from .state import StarsAreRightState

# ---------------------------------------------------------------------- the planner
class Plan:
    """A found summoning: the actions to take, in order, and its value."""

    __slots__ = ("actions", "value")

    def __init__(self, actions: list[Action], value: float) -> None:
        self.actions = actions
        self.value = value


def _power_sets(state: StarsAreRightState, p: int, symbols: tuple[int, int, int]
                ) -> dict[tuple[int, int, int], list[int]]:
    """Each reachable symbol multiset -> one order of powers reaching it."""
    cards = state.g.cards
    powers = [c for c in sorted(state.creatures[p])
              if cards[c].kind != MINION and c not in state.used]
    found: dict[tuple[int, int, int], list[int]] = {symbols: []}

    def rec(sym: tuple[int, int, int], left: list[int], order: list[int]) -> None:
        for c in left:
            cc = cards[c]
            if sym[cc.power_from]:
                nxt = list(sym)
                nxt[cc.power_from] -= 1
                for i in range(3):
                    nxt[i] += cc.power_to[i]
                t = (nxt[0], nxt[1], nxt[2])
                o = [*order, c]
                if t not in found:
                    found[t] = o
                rec(t, [x for x in left if x != c], o)

    if len(powers) <= 6:
        rec(symbols, powers, [])
    return found


def plan_turn(state: StarsAreRightState, p: int, depth: int = 2,
              node_budget: int = 20000) -> Plan | None:
    """The best summoning ``p`` can reach this turn from here (start of turn, or with symbols
    in hand), or None.

    First the symbol budgets: every invocation (or none) and every order-feasible set of
    powers gives a multiset of symbols. Then one breadth-first search over the skies reachable
    by up to ``depth`` moves (any types those budgets hold), each sky with the moves that made
    it. A sky's summonings are computed once; a summoning counts for a budget when the moves
    fit in it and the rest can be spent without spoiling the constellations.
    """
    g = state.g
    if state.phase not in (INVOKE, POWERS, MOVE, SUMMON) or state.summoned:
        return None
    # --- budgets: (prefix actions, excluded card, symbols)
    budgets: list[tuple[list[Action], int, tuple[int, int, int]]] = []
    if state.phase in (INVOKE, SUMMON):
        budgets.append(([], -1, (0, 0, 0)))
    if state.phase == INVOKE:
        for inv in state.hands[p]:
            root = state.clone()
            act = g.invoke_action[inv]
            root.step(act, p)
            sym0 = (root.symbols[0], root.symbols[1], root.symbols[2])
            for final, order in _power_sets(root, p, sym0).items():
                budgets.append(([act, *(g.power_action[c] for c in order)], inv, final))
    elif state.phase in (POWERS, MOVE):
        sym0 = (state.symbols[0], state.symbols[1], state.symbols[2])
        sets = _power_sets(state, p, sym0) if state.phase == POWERS else {sym0: []}
        for final, order in sets.items():
            budgets.append(([g.power_action[c] for c in order], -1, final))
    if not budgets:
        return None
    top = [max(b[2][k] for b in budgets) for k in range(3)]
    scratch = state.clone()
    best: Plan | None = None

    def consider(tiles: list[int], sides: list[int], moves: list[Action],
                 used_types: tuple[int, int, int]) -> None:
        nonlocal best
        scratch.pos_tile, scratch.pos_side, scratch._masks = tiles, sides, None
        opts = summon_options(scratch, p)
        if not opts:
            return
        for prefix, exclude, final in budgets:
            rem = (final[0] - used_types[0], final[1] - used_types[1],
                   final[2] - used_types[2])
            if rem[0] < 0 or rem[1] < 0 or rem[2] < 0:
                continue
            for opt in opts:
                if opt[1] == exclude:
                    continue
                val = option_value(scratch, opt)
                if best is not None and val <= best.value:
                    continue
                used = 0
                for m in opt[3]:
                    used |= m
                waste = waste_plan(scratch, rem, used)
                if waste is None:
                    continue
                cells = tuple(tuple(matcher.cells_of(t)) for t in opt[3])
                base = g.summon_action[(opt[1], opt[2])]
                best = Plan([*prefix, *moves, *waste, Summon(opt[1], opt[2], base.text, cells)],
                            val)

    consider(state.pos_tile[:], state.pos_side[:], [], (0, 0, 0))
    kinds = [(k, acts) for k, acts in ((0, g.push_actions), (1, g.swap_actions),
                                       (2, g.flip_actions)) if top[k]]
    Node = tuple[list[int], list[int], list[Action], tuple[int, int, int]]
    frontier: list[Node] = [(state.pos_tile[:], state.pos_side[:], [], (0, 0, 0))]
    seen = {(*state.pos_tile, *state.pos_side, 0, 0, 0)}
    nodes = 0
    for _ in range(depth):
        nxt: list[Node] = []
        for tiles, sides, moves, ut in frontier:
            for k, acts in kinds:
                if ut[k] >= top[k]:
                    continue
                u2 = (ut[0] + (k == 0), ut[1] + (k == 1), ut[2] + (k == 2))
                for a in acts:
                    t2, s2 = _moved(tiles, sides, a)
                    key = (*t2, *s2, *u2)
                    if key in seen:
                        continue
                    seen.add(key)
                    nodes += 1
                    m2 = [*moves, a]
                    consider(t2, s2, m2, u2)
                    nxt.append((t2, s2, m2, u2))
                    if nodes >= node_budget:
                        return best
        frontier = nxt
    return best


def _moved(tiles: list[int], sides: list[int], a: Action) -> tuple[list[int], list[int]]:
    """The sky (tile ids, sides) after one symbol move, as new lists."""
    t, s = tiles[:], sides[:]
    if isinstance(a, Push):
        line = a.path()
        vt = [tiles[i] for i in line]
        vs = [sides[i] for i in line]
        for k, pos in enumerate(line):
            t[pos] = vt[(k - a.delta) % 5]
            s[pos] = vs[(k - a.delta) % 5]
    elif isinstance(a, Swap):
        t[a.a], t[a.b] = t[a.b], t[a.a]
        s[a.a], s[a.b] = s[a.b], s[a.a]
    else:
        assert isinstance(a, Flip)
        s[a.pos] ^= 1
    return t, s


class PlannerAgent:
    """Plans its whole turn for the best summoning; one-ply ``evaluate`` otherwise.

    Options: ``depth`` (symbol moves searched exhaustively, 0 to 8, default 2; a turn rarely
    holds more than five symbols), ``budget`` (search nodes per plan, 1 to 1,000,000, default
    20,000), ``cheat`` (plan on the true state instead of a determinization).
    """

    name = "tsar-planner"
    DEPTH = Bounds(0, 8, whole=True)
    BUDGET = Bounds(1, 1_000_000, whole=True)

    def __init__(self, depth: int = 2, budget: int = 20000, cheat: bool = False) -> None:
        self.depth: int = self.DEPTH.check("depth", depth, "tsar-planner: ")
        self.budget: int = self.BUDGET.check("budget", budget, "tsar-planner: ")
        self.cheat = check_flag("cheat", cheat, "tsar-planner: ")
        self._plan: list[Action] = []
        self._key: tuple[int, int] | None = None
        self._fallback = GreedyAgent(cheat=cheat)

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        if not isinstance(state.game, StarsAreRightGame):
            return self._fallback.choose(state, player, rng)
        return self._choose(cast("StarsAreRightState", state), player, rng)

    def _choose(self, state: StarsAreRightState, player: int, rng: random.Random) -> Action:
        key = (state.turn, player)
        legal = state.legal_actions(player)
        if self._key == key and self._plan:
            nxt = self._plan[0]
            if nxt in legal:
                self._plan.pop(0)
                return _pick(legal, nxt)
        if state.phase in (INVOKE, POWERS, MOVE, SUMMON) and not state.summoned:
            base = state if self.cheat else determinize(state, player, rng)
            plan = plan_turn(
                cast("StarsAreRightState", base), player, self.depth, self.budget
            )
            self._key = key
            if plan is not None and plan.actions and plan.actions[0] in legal:
                self._plan = list(plan.actions[1:])
                return _pick(legal, plan.actions[0])
            self._plan = []
        return self._fallback.choose(state, player, rng)


def _pick(legal: list[Action], want: Action) -> Action:
    """The planned action as it should be played (a summon keeps the planned tiles)."""
    if isinstance(want, Summon):
        return want
    for a in legal:
        if a == want:
            return a
    return want  # pragma: no cover


__all__ = ["PlannerAgent", "evaluate", "plan_turn", "summon_options", "waste_plan"]
