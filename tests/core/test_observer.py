"""The observer contract's buffer paths (``Observer.observation_into``, ``write_bits``,
``Observer.update_into``, ``update_bits``, ``update_onehot``, ``update_members``) and the id
path of legal actions (``State.legal_action_ids``, ``Game.action_ids``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nightsky.core import CHANCE, InvalidActionError
from nightsky.core.observer import update_bits, update_members, update_onehot, write_bits
from tests.support.toygame import Keep, Swap, ToyGame


@pytest.mark.parametrize("mask", [0, 1, 0b1011, (1 << 29) | 1, (1 << 30) | (1 << 31),
                                  (1 << 169) - 1, random.Random(4).getrandbits(200)])
@pytest.mark.parametrize("count", [0, 5, 30, 61, 62, 169, 200])
def test_write_bits_sets_exactly_the_low_count_bits(mask: int, count: int) -> None:
    buf = [0.0] * (count + 3)
    write_bits(buf, 2, mask, count)
    want = [0.0, 0.0] + [float(mask >> i & 1) for i in range(count)] + [0.0]
    assert buf == want
    arr = np.zeros(count + 3, np.float32)
    write_bits(arr.data, 2, mask, count)
    assert arr.tolist() == want


def test_write_bits_refuses_negative_masks() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        write_bits([0.0], 0, -1, 1)


class Recorder(list):  # type: ignore[type-arg]
    """A list buffer that remembers which entries were written."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(values)
        self.written: list[int] = []

    def __setitem__(self, i: Any, v: Any) -> None:
        self.written.append(int(i))
        super().__setitem__(i, v)


_MASKS = [0, 1, 0b1011, (1 << 29) | 1, (1 << 30) | (1 << 31), (1 << 169) - 1,
          random.Random(4).getrandbits(200), random.Random(5).getrandbits(170)]


@pytest.mark.parametrize("old", _MASKS)
@pytest.mark.parametrize("new", _MASKS)
@pytest.mark.parametrize("count", [0, 5, 31, 169, 200])
def test_update_bits_writes_only_the_bits_that_differ(old: int, new: int, count: int) -> None:
    buf = [0.0] * (count + 3)
    write_bits(buf, 2, old, count)
    rec = Recorder(buf)
    update_bits(rec, 2, old, new, count)
    want = [0.0, 0.0] + [float(new >> i & 1) for i in range(count)] + [0.0]
    assert list(rec) == want
    low = (1 << count) - 1
    assert sorted(rec.written) == [2 + i for i in range(count) if ((old ^ new) & low) >> i & 1]
    arr = np.zeros(count + 3, np.float32)
    write_bits(arr.data, 2, old, count)
    update_bits(arr.data, 2, old, new, count)
    assert arr.tolist() == want


def test_update_bits_refuses_negative_masks() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        update_bits([0.0], 0, 0, -1, 1)


@pytest.mark.parametrize("old", [-1, 0, 3, 6])
@pytest.mark.parametrize("new", [-1, 0, 3, 6])
def test_update_onehot_moves_the_one_and_writes_nothing_else(old: int, new: int) -> None:
    buf = [0.0] * 9
    if old >= 0:
        buf[2 + old] = 1.0
    rec = Recorder(buf)
    update_onehot(rec, 2, old, new)
    assert list(rec) == [1.0 if new >= 0 and i == 2 + new else 0.0 for i in range(9)]
    assert sorted(rec.written) == sorted({2 + old, 2 + new} - {1} if old != new else set())


_INDICES = st.lists(st.integers(0, 40), unique=True, max_size=30)


@given(_INDICES, _INDICES, st.booleans())
def test_update_members_writes_exactly_the_indices_in_one_set_only(
    old: list[int], new: list[int], grow: bool
) -> None:
    """Any two sets of indices, in any order, small (scans) or large (sets); ``grow`` makes
    ``new`` the old one with cards added at its end (the pile's fast path)."""
    if grow:
        new = old + [i for i in new if i not in old]
    buf = [0.0] * 44
    for i in old:
        buf[3 + i] = 1.0
    rec = Recorder(buf)
    update_members(rec, 3, old, new)
    assert list(rec) == [1.0 if i >= 3 and i - 3 in new else 0.0 for i in range(44)]
    assert sorted(rec.written) == sorted(3 + i for i in set(old) ^ set(new))
    arr = np.zeros(44, np.float32)
    for i in old:
        arr[3 + i] = 1.0
    update_members(arr.data, 3, old, new)
    assert arr.tolist() == list(rec)


def _played(seed: int) -> list:
    game = ToyGame(players=3)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        seat = state.current_players()[0]
        if seat == CHANCE:
            state.step(state.sample_chance(rng), CHANCE)
            continue
        out.append((state.clone(), seat))
        state.step(rng.choice(state.legal_actions(seat)), seat)
    return out


def test_the_default_observation_into_writes_the_observation() -> None:
    game = ToyGame(players=3)
    observer = game.make_observer()  # ToyObserver keeps the contract's default
    for state, seat in _played(1):
        buf = np.zeros(observer.size, np.float32)
        observer.observation_into(state, seat, buf.data)
        assert np.array_equal(buf, np.array(observer.observation(state, seat), np.float32))


def test_legal_action_ids_are_the_ids_of_legal_actions_in_order() -> None:
    game = ToyGame(players=3)
    for state, seat in _played(2):
        assert state.legal_action_ids(seat) == [game.action_id(a)
                                                for a in state.legal_actions(seat)]
        other = (seat + 1) % 3
        assert state.legal_action_ids(other) == []


def test_action_ids_of_a_foreign_action_raise_the_contract_error() -> None:
    game = ToyGame(players=2)
    with pytest.raises(InvalidActionError, match="not an action"):
        game.action_ids([Keep(), "no-such-move"])
    assert game.action_ids([Swap(1), Keep()]) == [game.action_id(Swap(1)), 0]


def test_the_default_update_into_follows_a_buffer_from_game_to_game() -> None:
    """The contract's default ``update_into``: the buffer holds each new observation, its
    memo names the non-zero entries, and a buffer moves on to another game's positions."""
    game = ToyGame(players=3)
    observer = game.make_observer()
    buf = np.zeros(observer.size, np.float32)
    memo = None
    for seed in (3, 4):
        for state, _seat in _played(seed):
            memo = observer.update_into(state, 0, buf.data, memo)
            want = np.array(observer.observation(state, 0), np.float32)
            assert np.array_equal(buf, want)
            assert sorted(memo) == np.flatnonzero(want).tolist()
