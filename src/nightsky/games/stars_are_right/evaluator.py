"""The heuristic ``evaluate`` of The Stars Are Right (``greedy`` maximises it one ply ahead;
``State.evaluate`` calls it) and the helpers it shares with the ``tsar-planner`` bot.

Rules-side: it reads the state (types only, no import of ``state`` at run time) and the game's
action tables, and draws nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

from nightsky.core.evaluator import Evaluator
from nightsky.core.game import Action

from .constants import INVOKE, LESSER, MINION, MOVE, OVER, POWERS, SUMMON

if TYPE_CHECKING:
    from nightsky.core.state import State

    from .state import StarsAreRightState

ROW_MASKS = [0b11111 << (5 * r) for r in range(5)]
COL_MASKS = [sum(1 << (r * 5 + c) for r in range(5)) for c in range(5)]


def waste_plan(
    state: StarsAreRightState, counts: Iterable[int], used: int
) -> list[Action] | None:
    """Moves that spend ``counts`` (P, S, F) without touching the tiles in ``used``, or None."""
    g = state.g
    p, s, f = counts
    out: list[Action] = []
    if p:
        line = None
        for i in range(5):
            if not ROW_MASKS[i] & used:
                line = (False, i)
                break
            if not COL_MASKS[i] & used:
                line = (True, i)
                break
        if p % 2:
            if line is None:
                return None
            out.append(g.push_index[(line[0], line[1], 1)])
            p -= 1
        col, i = line if line is not None else (False, 0)
        for _ in range(p // 2):
            out.append(g.push_index[(col, i, 1)])
            out.append(g.push_index[(col, i, -1)])
    if s:
        pair = None
        for a in g.swap_actions:
            if not (used >> a.a) & 1 and not (used >> a.b) & 1:
                pair = a
                break
        if s % 2:
            if pair is None:
                return None
            out.append(pair)
            s -= 1
        out.extend([pair or g.swap_actions[0]] * s)
    if f:
        free = next((pos for pos in range(25) if not (used >> pos) & 1), None)
        if f % 2:
            if free is None:
                return None
            out.append(g.flip_actions[free])
            f -= 1
        out.extend([g.flip_actions[free if free is not None else 0]] * f)
    return out


def summon_options(
    state: StarsAreRightState, p: int, exclude: int = -1
) -> list[tuple[int, int, tuple[int, ...], list[int]]]:
    """(vp, card, bonus, placement masks) of every summoning ``p`` could make in this sky."""
    vps = state.t.vp  # the typed tables, not the interpreted game's records
    out = []
    for card in state.hands[p]:
        if card == exclude:
            continue
        for bonus in state.bonus_options(p, card):
            pl = state.summon_placement(card, bonus)
            if pl is not None:
                out.append((vps[card], card, bonus, pl))
    return out


def option_value(state: StarsAreRightState, opt: tuple[int, int, tuple[int, ...], list[int]]
                  ) -> float:
    vp, card, bonus, _ = opt
    t = state.t
    lost = sum(t.vp[s] for s in bonus if t.kind[s] == LESSER)
    return vp - lost - 0.01 * len(bonus)


def evaluate(state: StarsAreRightState, p: int) -> float:
    """Heuristic value of ``state`` for seat ``p`` (what ``greedy`` maximises one ply ahead)."""
    n = len(state.hands)
    if state.phase == OVER:
        top = max(state.vp(q) for q in range(n))
        mine = state.vp(p)
        return 1000.0 if mine == top else -1000.0 + mine
    # The typed tables (``state.t``): a search scores every cut-off with this.
    t = state.t
    kind = t.kind
    vp = state.vp(p)
    opp = max((state.vp(q) for q in range(n) if q != p), default=0)
    v = 10.0 * vp - 5.0 * opp
    # Powers and minions in play are worth something beyond their VP.
    v += 0.4 * sum(1 for c in state.creatures[p] if kind[c] != MINION)
    v += 0.2 * sum(1 for c in state.creatures[p] if kind[c] == MINION)
    if state.current == p and not state.summoned and state.phase in (INVOKE, POWERS, MOVE,
                                                                      SUMMON):
        best = 0.0
        for opt in summon_options(state, p):
            val = option_value(state, opt)
            if val > best:
                used = 0
                for m in opt[3]:
                    used |= m
                if waste_plan(state, state.symbols, used) is not None:
                    best = val
        v += 8.0 * best
    # How close each hand card is: the share of its stars the sky shows at all.
    counts = state.face_counts()
    close = 0.0
    for card in state.hands[p]:
        need = t.plain_need[card]  # ``game.shapes_for(card)``'s face counts
        total = sum(k for _, k in need)
        have = sum(min(k, counts[f]) for f, k in need)
        close = max(close, t.vp[card] * have / total if total else 0.0)
    v += 0.3 * close + 0.05 * len(state.hands[p])
    return v


class StarsAreRightEvaluator(Evaluator):
    """The Stars Are Right's judge (``game.evaluator``): ``evaluate`` above, and how a game
    ended for the simulator's statistics."""

    def evaluate(self, state: State, player: int) -> float:
        return evaluate(cast("StarsAreRightState", state), player)

    def end_condition(self, state: State) -> str | None:
        """``goal`` (TSAR-10.2), ``deck`` (the short game's deck cap, TSAR-8.4) or ``rounds``
        (the round safeguard, TSAR-10.3); None before the end."""
        return cast("StarsAreRightState", state).end_reason or None
