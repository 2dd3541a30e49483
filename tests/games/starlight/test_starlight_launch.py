"""Stars, launching, privileges, Flares, Laurels and Accolades (SL-6 to SL-11)."""

from __future__ import annotations

import pytest

from nightsky.core.errors import IllegalActionError
from nightsky.core.game import CHANCE
from nightsky.games.starlight.constants import (
    BUILD,
    BUYING,
    CHOOSE_STAR,
    FREE_CORE,
    FREE_RAY,
    MAIN,
    P_ALPHA,
    P_BUY,
    P_LAUREL,
)
from tests.games.starlight.starlight_helpers import (
    do,
    give_core,
    give_rays,
    new,
    settle,
    texts,
    turn,
)


def slot(s, name: str) -> int:
    con, n = name.split()
    ci = s.t.constellations.index(con)
    return s.t.slots_of[ci][int(n) - 1]


def ready(core: str = "C1", **rays) -> object:
    """Seat 0 on Gain Cores with 5 AP, holding ``core`` and the given rays."""
    s = turn(new(2), 0, "cores", ap=5)
    give_core(s, 0, core)
    give_rays(s, 0, **rays)
    return s


def test_SL_7_2_SL_7_8_SL_7_11_SL_7_12_SL_7_13_SL_7_14_a_full_launch():
    s = ready("C1", long_red=2)
    do(s, "step", "launch")
    assert s.phase == CHOOSE_STAR and s.ap == 3
    assert texts(s) == ["star C1", "star S1"]
    do(s, "star C1", "attach long red", "attach long red")
    assert s.phase == BUILD
    assert "to aquila 1" in texts(s) and "to hydrus 6" in texts(s)
    bag = s.long_bag[0]
    do(s, "to aquila 1")
    assert s.phase == MAIN and s.np[0] == 4 and s.board[slot(s, "aquila 1")] == 0
    assert s.mags[0] == 1 << 0 and s.aspects[0] == 1  # magnitude 2, cornucopia
    assert s.privs[0] == 0  # aquila 1 has no privilege
    assert s.long_bag[0] == bag + 2 and s.t.core_ids.index("C1") in s.core_discard
    assert "launch" not in texts(s)  # once per action
    with pytest.raises(IllegalActionError, match="SL-7.2"):
        do(s, "launch")


def test_SL_6_1_SL_6_2_no_launch_without_a_complete_star():
    s = ready("C1", long_blue=3)  # C1 takes red and yellow only
    s.cores[0] = [s.t.core_ids.index("C1")]
    do(s, "step")
    assert "launch" not in texts(s)
    with pytest.raises(IllegalActionError, match="SL-6.1"):
        do(s, "launch")


def test_SL_6_3_colours_of_the_plan():
    s = ready("C1", long_red=1, long_yellow=1, long_blue=2)
    do(s, "step", "launch", "star C1")
    assert "attach long blue" not in texts(s)
    with pytest.raises(IllegalActionError, match="SL-6.3"):
        do(s, "attach long blue")
    do(s, "attach long yellow", "attach long red")
    assert s.star_complete()


def test_SL_6_4_sizes_of_the_plan():
    s = ready("C3", long_red=2, short_red=2)  # C3: all long
    do(s, "step", "launch", "star C3")
    assert "attach short red" not in texts(s)
    s2 = ready("C4", long_red=2, short_red=2)  # C4: all short
    do(s2, "step", "launch", "star C4")
    assert "attach long red" not in texts(s2) and "attach short red" in texts(s2)


def test_SL_6_5_equal_sizes_with_odd_counts():
    s = ready("C5", long_red=3, short_red=3)  # C5: equal sizes
    s.privs[0] |= P_ALPHA
    do(s, "step", "launch", "star C5", "attach long red", "attach long red")
    # Only small slots are open (magnitude 2-3): a third long could never be balanced.
    assert "attach long red" not in texts(s)
    assert not s.star_complete()
    do(s, "attach short red")
    assert s.star_complete() and s.star_magnitude() == 3  # 2 long + 1 short is fine
    # With a medium slot open (Hydrus 3, linked to a filled Hydrus 1): the book's own example,
    # 3 long and 2 short, is complete; 4 long and 1 short is not.
    s = ready("C5", long_red=4, short_red=3)
    s.board[slot(s, "hydrus 1")] = 1
    do(s, "step", "launch", "star C5")
    do(s, "attach long red", "attach long red", "attach long red", "attach short red")
    assert s.star_magnitude() == 4 and not s.star_complete()
    assert "attach long red" not in texts(s)  # 4 long + 1 short is never as close as possible
    do(s, "attach short red")
    assert s.star_complete() and s.star_counts() == (3, 2)
    assert "to hydrus 3" in texts(s)
    do(s, "to hydrus 3")
    assert s.mags[0] == 1 << 3  # magnitude 5 recorded


def test_SL_6_6_SL_6_7_starter_core():
    s = ready("C1", long_red=1)
    s.cores[0] = [s.t.core_ids.index("S1")]
    do(s, "step", "launch", "star S1", "attach long red")
    assert s.star_magnitude() == 2 and s.star_complete()
    do(s, "to hydrus 1")
    assert s.aspects[0] == 0 and s.mags[0] == 1  # no Aspect, magnitude 2 recorded
    assert s.t.core_ids.index("S1") in s.starters_out


def test_SL_7_1_only_the_two_constellations_shown():
    s = ready("C1", long_red=2)
    do(s, "step", "launch", "star C1", "attach long red", "attach long red")
    assert not any(t.startswith("to cygnus") for t in texts(s))
    with pytest.raises(IllegalActionError, match="SL-7.1"):
        do(s, "to cygnus 2")


def test_SL_7_3_slot_size_by_magnitude():
    s = ready("C1", long_red=4)
    do(s, "step", "launch", "star C1")
    for _ in range(3):
        do(s, "attach long red")
    # Magnitude 4 fits medium slots only, and no medium target exists in Aquila or Hydrus.
    assert s.star_magnitude() == 3 and "attach long red" not in texts(s)
    s2 = ready("C1", long_red=4)
    s2.board[slot(s2, "hydrus 1")] = 1
    do(s2, "step", "launch", "star C1")
    for _ in range(4):
        do(s2, "attach long red")
    assert texts(s2)[-1] == "to hydrus 3"
    with pytest.raises(IllegalActionError, match="SL-7.3"):
        do(s2, "to hydrus 2")


def test_SL_7_4_SL_7_5_SL_7_6_target_and_links():
    s = ready("C1", long_red=2)
    do(s, "step", "launch", "star C1", "attach long red", "attach long red")
    slots = [t for t in texts(s) if t.startswith("to ")]
    assert slots == ["to aquila 1", "to aquila 6", "to hydrus 1", "to hydrus 6"]
    with pytest.raises(IllegalActionError, match="SL-7.5"):
        do(s, "to aquila 2")
    s2 = ready("C1", long_red=2)
    s2.board[slot(s2, "aquila 1")] = 1
    do(s2, "step", "launch", "star C1", "attach long red", "attach long red")
    assert "to aquila 2" in texts(s2) and "to aquila 4" not in texts(s2)
    with pytest.raises(IllegalActionError, match="SL-7.4"):
        do(s2, "to aquila 1")
    with pytest.raises(IllegalActionError, match="SL-7.6"):
        do(s2, "to aquila 4")


def test_SL_7_7_SL_8_6_alpha_needs_the_privilege():
    s = ready("C1", long_red=6)
    for n in range(1, 8):
        s.board[slot(s, f"aquila {n}")] = 1
    for n in range(1, 9):
        s.board[slot(s, f"hydrus {n}")] = 1
    do(s, "step")
    assert "launch" not in texts(s)  # only the alpha slot is left
    s.privs[0] |= P_ALPHA
    do(s, "launch", "star C1")
    for _ in range(6):
        do(s, "attach long red")
    do(s, "to aquila 8")
    assert s.np[0] == 15 and s.alpha_of(0) == 1


def test_SL_7_9_SL_9_1_SL_9_3_flare_for_night_points():
    s = ready("C1", long_red=2)
    f6 = s.t.flare_ids.index("F6")  # 2 per launched star, this one included
    s.flares[0] = [f6]
    s.flare_deck = [f for f in s.flare_deck if f != f6]
    do(s, "step", "launch", "star C1", "use F6", "attach long red", "attach long red")
    assert "use F6" not in texts(s)
    do(s, "to aquila 1")
    assert s.np[0] == 4 + 2 and s.used[0] == [f6] and s.flares[0] == []
    assert "boon F6" not in texts(s)


def test_SL_7_10_buy_night_points():
    s = ready("C1", long_red=2)
    s.privs[0] |= P_BUY
    do(s, "step", "launch", "star C1", "attach long red", "attach long red", "to aquila 1")
    assert s.phase == BUYING and texts(s) == ["buy", "done"]
    do(s, "buy")
    assert s.np[0] == 5 and s.ap == 1
    assert texts(s) == ["done"]
    do(s, "done")
    assert s.phase == MAIN and s.cores[0] == [s.t.core_ids.index("S1")]


def test_SL_7_10_SL_8_1_not_in_the_launch_that_gains_it():
    s = ready("C1", long_red=4)
    s.board[slot(s, "hydrus 1")] = 1
    s.board[slot(s, "hydrus 2")] = 1
    do(s, "step", "launch", "star C1")
    for _ in range(4):
        do(s, "attach long red")
    do(s, "to hydrus 4")  # medium, Buy Night Points
    assert s.privs[0] & P_BUY and s.phase == MAIN


def test_SL_8_1_privilege_recorded_once():
    s = ready("C1", long_red=2)
    s.board[slot(s, "hydrus 1")] = 1
    do(s, "step", "launch", "star C1", "attach long red", "attach long red", "to hydrus 2")
    assert s.privs[0] == 1 << 2  # Refill Rays
    assert s.np[0] == 7


def test_SL_8_4_SL_10_2_laurels_plus_three():
    s = new(2)
    s.laurels[0] = [s.t.laurel_ids.index("L9")]  # one alpha star: 4
    s.board[slot(s, "aquila 8")] = 0
    b = s.score_breakdown()[0]
    assert b["laurels"] == 4 and b["alpha"] == 5
    s.privs[0] |= P_LAUREL
    assert s.score_breakdown()[0]["laurels"] == 7
    assert s.scores()[0] == 0  # day points only count at the end


def test_SL_9_2_SL_9_4_boons():
    s = turn(new(2), 0, "cores", ap=1)
    f1 = s.t.flare_ids.index("F1")  # +1 AP
    f2 = s.t.flare_ids.index("F2")  # 1 free ray
    f3 = s.t.flare_ids.index("F3")  # 1 free Core
    s.flares[0] = [f1, f2, f3]
    do(s, "boon F1")
    assert s.ap == 2 and s.used[0] == [f1]
    with pytest.raises(IllegalActionError, match="SL-9.2"):
        do(s, "boon F1")
    do(s, "boon F2")
    assert s.phase == FREE_RAY
    col = s.t.colors[s.short_pool[0]]
    do(s, f"free short {col}")
    assert s.phase == MAIN and sum(s.rays[0]) == 1 and s.ap == 2
    do(s, "boon F3")
    assert s.phase == FREE_CORE
    c = s.core_pool[0]
    do(s, f"core {s.t.core_ids[c]}")
    assert c in s.cores[0] and s.ap == 2 and s.phase == MAIN


def test_SL_10_1_SL_16_5_laurels_are_secret():
    import random

    s = new(3)
    v1 = s.view(1)
    assert "laurels" not in v1["seats"][0] and v1["seats"][0]["laurel_count"] == 2
    assert s.view(0)["seats"][0]["laurels"] == [s.t.laurel_ids[x] for x in sorted(s.laurels[0])]
    differs = False
    for seed in range(10):
        r = s.resample(1, random.Random(seed))
        assert r.view(1) == v1
        differs |= r.laurels[0] != s.laurels[0]
        assert r.laurels[1] == s.laurels[1]
    assert differs
    # The deals are hidden in the log from every reader, the dealt seat included.
    deals = [i for i, (seat, a) in enumerate(s.history) if str(a).startswith("deal ")]
    assert len(deals) == 6 and all(s.history[i][0] == CHANCE for i in deals)
    for i in deals:
        for viewer in (None, 0, 1, 2):
            assert s.log_text(i, viewer) == "deal (hidden)"
    # Other draws (the pools) read as their notation to everyone.
    others = [i for i in range(len(s.history)) if i not in deals]
    assert others
    for i in others:
        for viewer in (None, 0, 1, 2):
            assert s.log_text(i, viewer) == str(s.history[i][1])


def test_SL_11_1_SL_11_2_SL_11_3_accolades_first_come():
    s = ready("C1", long_red=2)
    for n in (2, 3, 4, 5):
        s.board[slot(s, f"draco {n}")] = 0  # four stars already
    s.board[slot(s, "draco 1")] = 1
    assert s.accolade == [-1] * 5
    do(s, "step", "launch", "star C1", "attach long red", "attach long red", "to aquila 1")
    assert s.accolade[0] == 0  # five stars: Accolade #1
    assert s.score_breakdown()[0]["accolades"] == s.t.accolade_dp[0] > 0
    # Someone else reaching five later does not take it.
    for n in (1, 2, 3, 4, 5):
        s.board[slot(s, f"orion {n}")] = 1
    s._claim_accolades(1)
    assert s.accolade[0] == 0


def test_SL_9_3_flare_formulas_count_this_star():
    s = ready("C1", long_red=2)
    s.board[slot(s, "hydrus 1")] = 1
    f = s.t.flare_ids.index("F9")  # 1 per privilege
    s.flares[0] = [f]
    s.flare_deck = [x for x in s.flare_deck if x != f]
    do(s, "step", "launch", "star C1", "use F9", "attach long red", "attach long red")
    do(s, "to hydrus 2")  # gains Refill Rays, which the Flare counts
    assert s.np[0] == 7 + 1


def test_SL_7_14_rays_return_and_flare_face_down_census():
    s = ready("C1", long_red=2)
    before = {k: sorted(v) for k, v in s.census().items()}
    ids_before = sorted(x for v in before.values() for x in v)
    do(s, "step", "launch", "star C1", "attach long red", "attach long red", "to aquila 1")
    after = s.census()
    assert sorted(x for v in after.values() for x in v) == ids_before
    assert "C1" in after["core_discard"]


def test_SL_3_6_free_ray_can_be_skipped_and_core_limit_for_boon():
    s = turn(new(2), 0, "cores", ap=2)
    for cid in ("C10", "C11", "C12"):
        give_core(s, 0, cid)
    f3 = s.t.flare_ids.index("F3")
    s.flares[0] = [f3]
    assert "boon F3" not in texts(s)  # four Cores: a free Core is not possible
    settle(s)


def take_flare(s, fid):
    f = s.t.flare_ids.index(fid)
    if f in s.flare_deck:
        s.flare_deck.remove(f)
    s.flare_pool = [-1 if x == f else x for x in s.flare_pool]
    s.flares[0].append(f)
    return f


def test_SL_8_3_SL_9_4_refill_rays_applies_to_boon_rays():
    from nightsky.core.game import CHANCE
    from nightsky.games.starlight.constants import P_REFILL

    s = turn(new(2), 0, "cores", ap=1)
    s.privs[0] |= P_REFILL
    take_flare(s, "F5")  # boon: two free rays
    do(s, "boon F5")
    col = s.t.colors[s.short_pool[0]]
    do(s, f"free short {col}")
    assert s.current_players() == (CHANCE,)
    settle(s)
    assert s.phase == FREE_RAY and len(s.short_pool) == 5
    do(s, f"free short {s.t.colors[s.short_pool[0]]}")
    settle(s)
    assert s.phase == MAIN and sum(s.rays[0]) == 2


def test_SL_13_1_laurels_revealed_at_the_end():
    import random

    s = new(3)
    s.phase = 9  # over
    v = s.view(1)
    assert v["seats"][0]["laurels"]
    assert s.resample(1, random.Random(0)).view(1) == v


@pytest.mark.parametrize(
    ("fid", "expected"),
    [
        ("F1", 3),  # flat 3
        ("F4", 1 * 3),  # per star: two before plus this one
        ("F8", 2 * 2),  # per constellation: aquila and draco
        ("F11", 1 * 2),  # per Aspect: cornucopia before, crown now
        ("F14", 2 * 2),  # per magnitude: 4 before, 2 now
        ("F16", 1 * 2),  # this star's magnitude
        ("F18", 1 * 2),  # per used Flare, itself included
    ],
    ids=lambda x: f"SL-9.3-{x}",
)
def test_SL_9_3_flare_formulas(fid, expected):
    s = ready("C7", long_red=2)  # C7: crown, red/white
    s.board[slot(s, "draco 1")] = 0
    s.board[slot(s, "draco 2")] = 0
    s.aspects[0] = 1  # cornucopia
    s.mags[0] = 1 << 2  # magnitude 4
    s.used[0] = [s.t.flare_ids.index("F24")]
    take_flare(s, fid)
    do(s, "step", "launch", "star C7", f"use {fid}", "attach long red", "attach long red")
    do(s, "to aquila 1")
    assert s.np[0] == 4 + expected


def test_SL_2_4_again_after_a_full_circle():
    s = turn(new(2), 0, "short", ap=12)
    s.pos[1] = s.t.rondel.index("cores")
    do(s, "step", f"core {s.t.core_ids[s.core_pool[0]]}")
    assert s.ap == 9  # Core plus surcharge
    for _ in range(7):
        do(s, "step")
    assert s.space(0) == "cores" and s.ap == 2
    do(s, f"core {s.t.core_ids[s.core_pool[0]]}")
    assert s.ap == 0  # a new action: the surcharge is due again
