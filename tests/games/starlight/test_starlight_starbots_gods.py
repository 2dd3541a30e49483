"""Starbots (SL-14) and Gods (SL-1.4, SL-15)."""

from __future__ import annotations

import random

from nightsky import load_game
from nightsky.core.game import CHANCE
from nightsky.games.starlight.constants import BOT, MAIN
from tests.games.starlight.starlight_helpers import (
    do,
    give_core,
    give_rays,
    new,
    settle,
    texts,
    turn,
)


def to_bot_turn(**opts):
    s = new(1, starbots=1, **opts)
    do(s, "place flares", "end")
    rng = random.Random(1)
    while s.pending:
        s.apply(s.sample_chance(rng), CHANCE)
    assert s.phase == BOT and s.turn == 1 and s.current_players() == (CHANCE,)
    return s


def flip(s, sid):
    s.apply(s.game.parse_chance(f"flip {sid}"), CHANCE)


def test_SL_14_1_SL_14_2_SL_14_3_SL_14_4_starbot_turn():
    s = to_bot_turn()
    outs = s.chance_outcomes()
    assert len(outs) == 24 and abs(sum(p for _, p in outs) - 1) < 1e-9
    assert s.legal_actions() == [] and s.flares[1] == [] and s.laurels[1] == []
    first = s.core_pool[0]
    flip(s, "SB-10")  # 1 Core from the left, 2 night points, Accolade #5
    assert s.np[1] == 2 and s.marks[4 + 5] == 1 and first in s.core_discard
    assert s.space(1) == "cores"
    settle(s)
    assert s.turn == 0 and s.round == 2 and len(s.core_pool) == 3


def test_SL_14_5_SL_14_6_accolade_markers():
    s = to_bot_turn()
    s.marks[4 + 5] = 4
    flip(s, "SB-10")
    assert s.accolade[4] == 1
    s2 = to_bot_turn()
    s2.accolade[4] = 0
    flip(s2, "SB-10")
    assert s2.marks[4 + 5] == 0


def test_SL_14_7_refresh():
    s = to_bot_turn()
    s.sb_discard = [0, 1, 2]
    s.sb_deck = [x for x in s.sb_deck if x not in (0, 1, 2)]
    pool = list(s.flare_pool)
    flip(s, "SB-24")
    assert sorted(s.sb_deck) == list(range(24)) and s.sb_discard == []
    assert s.np[1] == 0 and s.core_pool == [] and s.flare_bottom == pool
    settle(s)
    assert len(s.core_pool) == 3 and len(s.long_pool) == 5


def test_SL_14_8_difficulty_orders_points():
    vals = []
    for level in ("easy", "medium", "hard", "expert"):
        s = new(1, starbots=1, starbot_level=level)
        s.board[0] = s.board[1] = 1
        vals.append(s.score_breakdown()[1]["stars"])
    assert vals == sorted(vals) and vals[0] < vals[-1]
    assert load_game("starlight", starbots=1).info.option("starbot_level").choices[0] == "easy"


def test_SL_14_9_starbot_launch_and_takes():
    s = to_bot_turn()
    flip(s, "SB-1")  # launch1, small
    assert s.board[0] == 1 and s.space(1) == "launch1"
    s2 = to_bot_turn()
    reds = list(s2.long_pool[:3])
    bag = list(s2.long_bag)
    flip(s2, "SB-13")  # 3 long rays from the left
    assert len(s2.long_pool) == 2 and s2.long_bag == bag  # held out until the refill
    settle(s2)
    assert sum(s2.long_bag) + len(s2.long_pool) == sum(bag) + 5
    del reds


def test_SL_14_10_starbot_deck_reshuffles():
    s = to_bot_turn()
    s.sb_discard = sorted(s.sb_deck)
    s.sb_deck = []
    assert len(s.chance_outcomes()) == 24
    flip(s, "SB-2")
    assert len(s.sb_deck) == 23 and s.sb_discard == [1]


def god(s, p, name):
    s.god[p] = [g.name for g in s.t.data.gods].index(name)


def test_SL_1_4_SL_15_1_apollo():
    s = turn(new(2), 0, "cores", ap=5)
    god(s, 0, "Apollo")
    do(s, "step", "step")
    c = s.t.colors
    do(s, f"take long {c[s.long_pool[0]]}")
    assert s.ap == 3
    do(s, f"take long {c[s.long_pool[0]]}")
    assert s.ap == 2


def test_SL_15_2_zeus():
    s = turn(new(2), 0, "cores", ap=5)
    god(s, 0, "Zeus")
    give_rays(s, 0, long_red=1)
    do(s, "step", "launch", "star S1", "attach long red")
    assert "to orion 1" in texts(s)


def test_SL_15_3_hermes():
    s = new(2)
    god(s, 0, "Hermes")
    turn(s, 0, "cores", ap=5)
    do(s, "step")
    assert s.ap == 5
    do(s, "step")
    assert s.ap == 4


def test_SL_15_4_hera():
    s = turn(new(2), 0, "short", ap=5)
    god(s, 0, "Hera")
    s.pos[1] = s.t.rondel.index("cores")
    do(s, "step", f"core {s.t.core_ids[s.core_pool[0]]}")
    assert s.ap == 3


def test_SL_15_5_artemis_and_SL_15_10_ares():
    s = turn(new(2), 0, "cores", ap=9)
    god(s, 0, "Artemis")
    do(s, "end")
    assert s.saved[0] == 7
    s2 = turn(new(2), 0, "cores", ap=5)
    god(s2, 0, "Ares")
    give_rays(s2, 0, long_red=1)
    do(s2, "step", "launch", "star S1", "attach long red", "to aquila 1")
    assert s2.np[0] == 4 + 2
    do(s2, "end")
    assert s2.saved[0] == 0


def test_SL_15_6_hephaestus_and_SL_15_7_demeter():
    s = turn(new(2), 0, "short", ap=5)
    god(s, 0, "Hephaestus")
    for cid in ("C10", "C11", "C12"):
        give_core(s, 0, cid)
    do(s, "step", f"core {s.t.core_ids[s.core_pool[0]]}")
    assert len(s.cores[0]) == 5
    assert not any(t.startswith("core ") for t in texts(s))
    s2 = turn(new(2), 0, "short", ap=5)
    god(s2, 0, "Demeter")
    do(s2, "step")
    for _ in range(3):
        do(s2, f"core {s2.t.core_ids[s2.core_pool[0]]}")
    assert len(s2.cores[0]) == 4 and s2.ap == 1


def test_SL_15_8_poseidon_and_SL_15_9_athena():
    s = turn(new(2), 0, "launch2", ap=6)
    god(s, 0, "Poseidon")
    do(s, "step", "flare 3", "flare 1")
    assert s.ap == 6 - 1 - 2 - 1
    s2 = new(2)
    god(s2, 0, "Athena")
    s2.laurels[0] = [s2.t.laurel_ids.index("L9")]
    s2.board[7] = 0
    assert s2.score_breakdown()[0]["laurels"] == 4 + 2
    assert s2.phase == MAIN
