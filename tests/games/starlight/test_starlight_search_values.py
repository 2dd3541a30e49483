"""What a search compares at a cut-off (``cutoff_values``) against ``greedy``'s ``evaluate``.

A search game of three seats once answered every turn with ``end`` for 37 rounds: starting a
turn with saved action points looked like a loss to the seat starting it (``evaluate`` counts
at most 6 points in hand), so ending one's own turn made the next seat look worse. The search's
values count the whole hand; ``evaluate`` (``greedy``) is unchanged.
"""

from __future__ import annotations

from nightsky.games.starlight.evaluator import HAND_CAP, SEARCH_HAND_CAP, TURN

from .starlight_helpers import do, new, turn


def _ending_with_savings() -> tuple[list[float], list[float], list[float], list[float]]:
    """Seat 0 holds 10 action points; seat 1 has 5 saved. Seat 0 ends its turn."""
    # Without the turn-order head start (SL-1.5), so that the data's rows do not matter here.
    s = new(players=3, seed=4, turn_order_compensation=False)
    s = turn(s, 0, s.t.rondel[0], ap=10)
    s.pos[1] = 2  # not its first turn (SL-2.1): the turn brings 5 new points
    s.saved[1] = 5
    judge = s.game.evaluator
    before = (judge.cutoff_values(s), judge.evaluate_all(s))
    do(s, "end")
    assert s.turn == 1 and s.ap >= 10  # seat 1's turn began with its saved points in hand
    after = (judge.cutoff_values(s), judge.evaluate_all(s))
    return before[0], after[0], before[1], after[1]


def test_search_values_a_turn_start_is_not_a_loss_to_the_starter() -> None:
    cut_before, cut_after, ev_before, ev_after = _ending_with_savings()
    # The search's value of seat 1 does not fall when its turn starts (it rises a little: the
    # ender's unspent points are gone from the racing term) ...
    assert cut_after[1] - cut_before[1] > -TURN / 2
    # ... where greedy's judge would have it lose most of a turn's worth.
    assert ev_after[1] - ev_before[1] < -1.0


def test_search_values_ending_a_turn_never_gains_on_the_next_seat() -> None:
    cut_before, cut_after, ev_before, ev_after = _ending_with_savings()
    # Ending with 10 points in hand costs the ender more than it costs the next seat.
    assert cut_after[0] - cut_after[1] < cut_before[0] - cut_before[1]
    # With greedy's values the same end looked like a gain on seat 1 (the stall).
    assert ev_after[0] - ev_after[1] > ev_before[0] - ev_before[1]


def test_search_values_differ_from_evaluate_only_in_the_hand() -> None:
    s = new(players=2, seed=1)
    s = turn(s, 0, s.t.rondel[0], ap=HAND_CAP)
    judge = s.game.evaluator
    assert judge.cutoff_values(s) == judge.evaluate_all(s)  # up to 6 in hand: the same values
    s.ap = SEARCH_HAND_CAP
    assert judge.cutoff_values(s)[0] > judge.evaluate_all(s)[0]
