"""``greedy``'s judge knows when the game ends (SL-12.1, SL-12.5).

Before, what a seat held (rays, Cores, a step towards a Launch space) counted alike in round 3
and after the seat's last turn, so ``greedy`` forfeited about a third of its last turns (no
complete star, SL-12.5) and later seats, whose final turns come last, lost most by it
(docs/games/starlight.md, "What a head start cannot fix").
"""

from __future__ import annotations

from nightsky.games.starlight.evaluator import potential, turns_to_come

from .starlight_helpers import give_rays, new, turn


def _three_seats_at(round_: int, daybreak: int, turn_of: int):
    s = new(players=3, seed=4, turn_order_compensation=False)
    s = turn(s, turn_of, s.t.rondel[0])
    s.round = round_
    s.daybreak_round = daybreak
    return s


def test_SL_12_1_turns_to_come_count_the_round_after_daybreak() -> None:
    # Before daybreak the end is not in sight.
    s = _three_seats_at(5, 0, 1)
    assert [turns_to_come(s, p) for p in range(3)] == [-1, -1, -1]
    # Seat 1 reached daybreak in round 5: its round finishes, then one more round.
    s = _three_seats_at(5, 5, 1)
    assert [turns_to_come(s, p) for p in range(3)] == [1, 1, 2]
    s = _three_seats_at(6, 5, 1)
    assert [turns_to_come(s, p) for p in range(3)] == [0, 0, 1]


def test_SL_12_1_holdings_are_worth_nothing_after_the_last_turn() -> None:
    s = _three_seats_at(6, 5, 1)  # seat 0's final turn (round 6) is over
    before = potential(s, 0)
    give_rays(s, 0, long_red=2, short_blue=2)
    assert potential(s, 0) == before  # rays can no longer become stars
    s = _three_seats_at(5, 0, 1)  # the same rays before daybreak are a promise
    before = potential(s, 0)
    give_rays(s, 0, long_red=2, short_blue=2)
    assert potential(s, 0) > before


def test_SL_12_5_a_last_turn_without_a_complete_star_is_worth_only_the_points() -> None:
    # Seat 2's next turn is its last and it holds no complete star (no rays at all): the turn
    # will be forfeit, so a magnitude mark that only helps future stars adds nothing.
    s = _three_seats_at(6, 5, 1)
    base = potential(s, 2)
    s.mags[2] |= 1
    assert potential(s, 2) == base
    # One turn earlier (round 5, two turns to come) the same mark is worth something.
    s = _three_seats_at(5, 5, 1)
    base = potential(s, 2)
    s.mags[2] |= 1
    assert potential(s, 2) > base
