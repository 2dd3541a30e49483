"""The turn sequence, invocation, powers and moving stars (TSAR-2.x .. TSAR-5.x)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nightsky.core.errors import IllegalActionError
from nightsky.core.game import CHANCE

from .util import game, names, play, pos, setup, sky_faces

SKY = {"a1": "Su", "b1": "1", "c1": "2", "d1": "3", "e1": "4", "a2": "Mo", "b2": "V", "a5": "Sh"}


def _fresh(
    hand=("miri-nigri-S", "byakhee-P-Mo", "tcho-tcho-F-Mo", "gug-P", "ghast-F"), creatures=()
):
    g = game()
    return pos(g, SKY, [list(hand), ["gug-F"]], [list(creatures), []])


def test_TSAR_2_1_steps_in_fixed_order() -> None:
    s = _fresh(creatures=("ghouls-P",))
    play(s, "discard gug-P")  # step 5 taken: steps 1-4 are gone
    with pytest.raises(IllegalActionError, match="TSAR-2.1"):
        play(s, "summon ghast-F")
    with pytest.raises(IllegalActionError, match="TSAR-3.1"):
        play(s, "invoke byakhee-P-Mo")
    s = _fresh()
    play(s, "end")
    assert s.phase == 8 or s.current == 1  # went on to the draw


def test_TSAR_2_2_only_the_current_seat_acts_and_turn_passes() -> None:
    s = _fresh()
    with pytest.raises(IllegalActionError):
        s.apply(s.game.parse_action("end"), 1)
    play(s, "end")
    rng = random.Random(0)
    while s.is_chance_node():
        s.apply(s.sample_chance(rng), CHANCE)
    assert s.current_players() == (1,) and len(s.hands[0]) == 5


def test_TSAR_3_1_invoke_one_card_for_its_symbols() -> None:
    s = _fresh()
    play(s, "invoke miri-nigri-S")
    assert s.symbols == [0, 2, 0]
    assert "miri-nigri-S" not in names(s, s.hands[0])
    with pytest.raises(IllegalActionError, match="TSAR-3.1"):
        play(s, "invoke byakhee-P-Mo")
    s = _fresh()
    with pytest.raises(IllegalActionError, match="TSAR-3.1"):
        play(s, "invoke gug-F")  # not in this hand


def test_TSAR_3_2_invoked_card_waits_until_symbols_are_spent() -> None:
    s = _fresh()
    play(s, "invoke miri-nigri-S", "swap a1 b1")
    assert s.view(None)["invoked"] == "miri-nigri-S" and s.discard == []
    play(s, "swap a1 b1")
    assert s.view(None)["invoked"] is None and names(s, s.discard) == ["miri-nigri-S"]


def test_TSAR_3_3_no_invocation_no_symbols() -> None:
    s = _fresh(creatures=("miri-nigri-P",))
    for text in ("flip a1", "push row 1 right", "swap a1 b1"):
        with pytest.raises(IllegalActionError, match="TSAR-3.3"):
            play(s, text)
    with pytest.raises(IllegalActionError, match="TSAR-3.3"):
        play(s, "power miri-nigri-P")


def test_TSAR_4_1_power_changes_one_symbol() -> None:
    s = _fresh(creatures=("miri-nigri-P", "deep-ones-F-Sh"))
    play(s, "invoke byakhee-P-Mo")
    with pytest.raises(IllegalActionError, match="TSAR-4.1"):
        play(s, "power deep-ones-F-Sh")  # S>F needs a Swap
    play(s, "power miri-nigri-P")
    assert s.symbols == [2, 0, 0]
    with pytest.raises(IllegalActionError, match="TSAR-4.1"):
        play(s, "power formless-S-Mo")  # not summoned by seat 0


def test_TSAR_4_2_each_power_once_a_turn() -> None:
    s = _fresh(creatures=("miri-nigri-P",))
    play(s, "invoke byakhee-P-Mo", "power miri-nigri-P")
    with pytest.raises(IllegalActionError, match="TSAR-4.2"):
        play(s, "power miri-nigri-P")
    assert s.view(None)["powers_used"] == ["miri-nigri-P"]


def test_TSAR_4_3_powers_before_the_first_move_in_any_order() -> None:
    s = _fresh(creatures=("miri-nigri-P", "formless-S-Mo"))
    play(s, "invoke byakhee-P-Mo", "push row 3 right")
    with pytest.raises(IllegalActionError, match="TSAR-4.3"):
        play(s, "power miri-nigri-P")
    s = _fresh(creatures=("miri-nigri-P", "formless-S-Mo"))
    play(s, "invoke byakhee-P-Mo", "power miri-nigri-P", "power formless-S-Mo")
    assert s.symbols == [1, 1, 0]
    s = _fresh(creatures=("miri-nigri-P", "formless-S-Mo"))
    play(s, "invoke byakhee-P-Mo", "power formless-S-Mo")
    assert s.symbols == [0, 1, 0]
    with pytest.raises(IllegalActionError, match="TSAR-4.1"):
        play(s, "power miri-nigri-P")  # no Push left to double


def test_TSAR_5_1_all_symbols_must_be_spent() -> None:
    s = _fresh(creatures=("miri-nigri-F",))
    play(s, "invoke miri-nigri-S")
    play(s, "swap a1 a2")
    for text in ("end", "discard gug-P", "summon ghast-F"):
        with pytest.raises(IllegalActionError, match="TSAR-5.1"):
            play(s, text)
    acts = s.legal_actions(0)
    assert {type(a).__name__ for a in acts} == {"Swap"}


def test_TSAR_5_2_push_wraps_around_keeping_sides() -> None:
    s = _fresh()
    before = sky_faces(s)
    play(s, "invoke byakhee-P-Mo", "push row 1 right")
    after = sky_faces(s)
    assert after[0:5] == [before[4]] + before[0:4]
    assert after[5:] == before[5:]
    s = _fresh()
    play(s, "invoke byakhee-P-Mo", "push col a up")
    after = sky_faces(s)
    col = [before[r * 5] for r in range(5)]
    assert [after[r * 5] for r in range(5)] == col[1:] + col[:1]
    with pytest.raises(IllegalActionError, match="TSAR-5.2"):
        play(s, "push row 2 left")  # no Push left


def test_TSAR_5_3_swap_adjacent_only_no_wraparound() -> None:
    g = game()
    texts = {str(a) for a in g.swap_actions}
    assert len(texts) == 40
    assert "swap a1 b1" in texts and "swap a1 a2" in texts
    assert "swap a1 e1" not in texts and "swap a1 a5" not in texts and "swap a1 b2" not in texts
    from nightsky.games.stars_are_right.actions import Swap

    s = _fresh()
    play(s, "invoke miri-nigri-S")
    with pytest.raises(IllegalActionError, match="TSAR-5.3"):
        s.apply(Swap(0, 4, "swap a1 e1"), 0)
    before = sky_faces(s)
    play(s, "swap a1 b1")
    after = sky_faces(s)
    assert after[0] == before[1] and after[1] == before[0] and after[2:] == before[2:]


def test_TSAR_5_4_flip_turns_one_tile() -> None:
    s = _fresh()
    play(s, "invoke tcho-tcho-F-Mo")
    before = sky_faces(s)
    play(s, "flip a1")
    after = sky_faces(s)
    assert before[0] == "Su" and after[0] == "So" and after[1:] == before[1:]


def test_TSAR_5_5_symbols_any_order_same_or_other_tiles() -> None:
    for seq in (
        ("flip a1", "push row 1 right"),
        ("push row 1 right", "flip a1"),
        ("flip b1", "push row 1 right"),
    ):
        s = _fresh(creatures=("formless-F-Mo",))  # P>F
        play(s, "invoke byakhee-P-Mo")
        s.apply(s.game.parse_action("power formless-F-Mo"), 0)
        assert s.symbols == [0, 0, 1]
        s.symbols = [1, 0, 1]  # give a push and a flip to test ordering freely
        play(s, *seq)
        assert s.phase == 5


@given(seed=st.integers(0, 10**6))
def test_TSAR_5_2_moves_are_permutations_property(seed: int) -> None:
    """Any sequence of moves keeps the 25 tiles, and a push done five times is the identity."""
    g = game()
    s = setup(g, seed)
    rng = random.Random(seed)
    s.phase, s.symbols, s.invoked = 3, [5, 5, 5], s.hands[0].pop()
    start = sky_faces(s)
    push = rng.choice(g.push_actions)
    for _ in range(5):
        s.apply(push, 0)
    assert sky_faces(s) == start
    for _ in range(5):
        a = rng.choice(g.swap_actions + g.flip_actions)
        if s.is_legal(a, 0):
            s.apply(a, 0)
    assert sorted(s.pos_tile) == list(range(25))
