"""Actions compare and hash by their class and meaningful fields (spelled out, compiled)."""

from __future__ import annotations

import pickle

from nightsky import load_game
from nightsky.games.stars_are_right.actions import (
    END,
    Discard,
    Draw,
    End,
    Invoke,
    Release,
    Summon,
)


def test_every_action_hashes_as_its_compared_fields_and_reads_back() -> None:
    g = load_game("stars-are-right", players=3)
    acts = [*g.invoke_action.values(), *g.power_action.values(), *g.push_actions,
            *g.swap_actions, *g.flip_actions, *g.summon_action.values(),
            *g.discard_action.values(), *g.release_action.values(),
            *g.exchange_action.values(), *g.take_action.values(), *g.place_action.values(),
            *g.draw_action.values(), END]
    compared = {"Invoke": ("card",), "Power": ("card",), "Push": ("column", "index", "delta"),
                "Swap": ("a", "b"), "Flip": ("pos",), "Summon": ("card", "bonus"),
                "Discard": ("card",), "Release": ("card",),
                "Exchange": ("minion", "give", "take"), "Take": ("minion", "from_deck"),
                "End": (), "PlaceTile": ("kind", "side"), "Draw": ("card",)}
    assert {type(a).__name__ for a in acts} == set(compared)
    for a in acts:
        fields = tuple(getattr(a, f) for f in compared[type(a).__name__])
        assert hash(a) == hash(fields)  # the value the generated dataclass hash gave
        copy = pickle.loads(pickle.dumps(a))
        assert copy == a and hash(copy) == hash(a)
    assert len(set(acts)) == len(acts)  # no two different moves are equal


def test_equality_ignores_the_notation_and_tiles_but_not_the_class() -> None:
    # TSAR-6.7: a summoning's tiles say where, not what; the same card in another action
    # class is another move.
    assert Summon(3, (), "summon x") == Summon(3, (), "other", ((1, 2),))
    assert Summon(3, (), "s") != Summon(3, (5,), "s") and Summon(3, (), "s") != Summon(4, (), "s")
    assert Invoke(3, "a") == Invoke(3, "b") and Invoke(3, "a") != Discard(3, "a")
    assert Discard(3, "a") != Release(3, "a") and Draw(3, "a") != Invoke(3, "a")
    assert End() == END and Invoke(0, "end") != END
    assert Invoke(3, "a") != (3,) and Invoke(3, "a") != 3


def test_TSAR_5_1_random_action_counts_its_way_to_the_listed_action() -> None:
    # While symbols are spent, ``random_action`` finds the i-th legal action without building
    # the list (powers, pushes, swaps, flips, Minions): the very object ``choice`` picks
    # from ``legal_actions``, with the generator left in the same state, Minions included.
    import random

    from nightsky.core.game import CHANCE
    from nightsky.core.rng import choice
    from nightsky.games.stars_are_right.constants import MOVE, POWERS

    for players, seed in ((2, 21), (3, 22)):
        g = load_game("stars-are-right", players=players)
        rng = random.Random(seed)
        s = g.new_initial_state()
        checked = {POWERS: 0, MOVE: 0}
        minions = 0
        for _ in range(6000):
            seats = s.current_players()
            if not seats:
                break
            seat = seats[0]
            if seat == CHANCE:
                s.step(s.sample_chance(rng), CHANCE)
                continue
            if s.phase in checked:
                legal = s.legal_actions(seat)
                draw = rng.randrange(1 << 30)
                a, b = random.Random(draw), random.Random(draw)
                assert s.random_action(seat, a) is choice(b, legal)
                assert a.getstate() == b.getstate()
                checked[s.phase] += 1
                minions += bool(s._minion_actions(seat))
            s.step(s.random_action(seat, rng), seat)
        assert checked[POWERS] > 10 and checked[MOVE] > 10
    assert minions > 0
