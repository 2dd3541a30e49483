"""Set-up, the rondel, action points and the Gain actions (SL-1 to SL-5, SL-16)."""

from __future__ import annotations

import pytest

from nightsky import load_game
from nightsky.core.errors import ComponentError, IllegalActionError, OptionError
from nightsky.core.game import CHANCE
from nightsky.games.starlight.constants import (
    FREE_RAY,
    GOD,
    MAIN,
    P_ALPHA,
    P_AP,
    P_CORE_RAY,
    P_REFILL,
)
from nightsky.games.starlight.evaluator import cutoff_values, evaluate_all
from tests.games.starlight.starlight_helpers import do, give_core, new, settle, texts, turn


def set_core_pool(s, ids):
    for c in s.core_pool:
        s.core_deck.append(c)
    s.core_pool = []
    for cid in ids:
        c = s.t.core_ids.index(cid)
        s.core_deck.remove(c)
        s.core_pool.append(c)


def set_ray_pool(s, size, colors):
    pool = s.long_pool if size == "long" else s.short_pool
    bag = s.long_bag if size == "long" else s.short_bag
    for c in pool:
        bag[c] += 1
    pool.clear()
    for name in colors:
        c = s.t.colors.index(name)
        bag[c] -= 1
        pool.append(c)


def test_SL_1_1_seats_live_and_starbots():
    g = load_game("starlight", players=3, starbots=2)
    assert g.num_seats == 5
    s = g.new_initial_state()
    assert s.is_bot(3) and s.is_bot(4) and not s.is_bot(2)
    with pytest.raises(OptionError, match="SL-1.1"):
        load_game("starlight", players=4, starbots=2)
    with pytest.raises(OptionError):
        load_game("starlight", players=1, starbots=5)
    with pytest.raises(OptionError):
        load_game("starlight", players=6)


def test_SL_1_2_SL_1_3_gods_dealt_two_keep_one():
    s = new(3, gods=True, starbots=2)
    assert s.phase == GOD and s.turn == 0
    opts = texts(s)
    assert len(opts) == 2 and all(t.startswith("keep G") for t in opts)
    do(s, opts[1])
    kept = s.t.god_ids[s.god[0]]
    assert opts[1] == f"keep {kept}" and s.god_hand[0] == []
    assert s.turn == 1 and s.phase == GOD
    do(s, texts(s)[0])
    do(s, texts(s)[0])
    assert s.phase == MAIN and s.turn == 0 and s.round == 1
    assert all(g >= 0 for g in s.god[:3]) and s.god[3] == s.god[4] == -1
    assert len(s.god_discard) == 3 and len(set(s.god[:3])) == 3
    with pytest.raises(IllegalActionError):
        s.apply(s.game.parse_action("keep G1"), 0)


def test_SL_1_5_setup():
    s = new(3, turn_order_compensation=False)
    assert len(s.core_pool) == 3 and len(s.long_pool) == 5 and len(s.short_pool) == 5
    assert all(f >= 0 for f in s.flare_pool) and len(s.flare_pool) == 4
    for p in range(3):
        assert [s.t.core_ids[c] for c in s.cores[p]] == [f"S{p + 1}"]
        assert len(s.laurels[p]) == 2 and s.saved[p] == 0
    assert s.turn == 0 and s.round == 1 and s.ap == 2


@pytest.mark.parametrize("players,starbots", [(2, 0), (3, 0), (4, 0), (5, 0), (2, 2), (3, 1)])
def test_SL_1_5_later_seats_start_with_saved_ap_and_day_points_even_up(players, starbots):
    comp = load_game("starlight", players=players).tables.data.turn_order
    zero = [0] * players
    saved = comp.saved_ap.get(str(players), zero)
    night = comp.night_points.get(str(players), zero)
    day = comp.day_points.get(str(players), zero)
    # The designed compensation (Ruling SL-1.5): tempo for every later seat (2-4 saved action
    # points, so a first turn of 4-6 instead of 2), a few day points to even out what the
    # measurement left (at most 5), no night points at all; 2 players start with no tempo, the
    # second seat with one day point (issue 54), 1 player with nothing.
    assert saved[0] == 0 and night == zero and max(day) <= 5
    if players >= 3:
        assert all(2 <= a <= 4 for a in saved[1:])
    else:
        assert saved == zero and day == [0, 1][:players]
    s = new(players, starbots=starbots)
    bots = [0] * starbots
    assert s.saved == saved + bots and s.np == night + bots  # Starbots get none (SL-1.5)
    assert s.g.head_start == comp.row("day_points", players, starbots) + bots
    assert s.turn == 0 and s.ap == 2  # seat 0 has nothing saved to add to its first turn
    off = new(players, starbots=starbots, turn_order_compensation=False)
    nobody = [0] * (players + starbots)
    assert off.saved == nobody and off.np == nobody and off.g.head_start == nobody


@pytest.mark.parametrize(
    "players,starbots,day",
    [(2, 1, [0, 6]), (2, 2, [0, 5]), (2, 3, [0, 6]), (3, 1, [2, 0, 3]), (3, 2, [2, 0, 3]),
     (4, 1, [6, 3, 0, 5]), (1, 2, [0])],
)
def test_SL_1_5_tables_with_starbots_have_their_own_day_points(players, starbots, day):
    # Ruling SL-1.5 (issue 19): Starbots sit after the live seats, and with them the later
    # live seats fall further behind (2 live players and 2 Starbots: the second seat won a
    # third of the games without a head start); those tables have their own day-point rows,
    # keyed "L+B", and keep the saved action points of L live players.
    g = load_game("starlight", players=players, starbots=starbots)
    comp = g.tables.data.turn_order
    assert comp.row("day_points", players, starbots) == day
    assert g.head_start == day + [0] * starbots
    s = g.new_initial_state()
    assert s.saved == comp.saved_ap[str(players)] + [0] * starbots
    assert f"{players}+{starbots}" not in comp.saved_ap  # tempo follows the live players
    alone = load_game("starlight", players=players)
    assert alone.head_start == comp.day_points[str(players)]  # "L" still rules without bots


def test_SL_1_5_two_players_start_alike_but_for_a_day_point():
    # Ruling SL-1.5 (issues 19 and 54): at 2 players nobody starts with tempo or night points;
    # the second seat's one day point answers `greedy`'s first seat winning 51.9% of 3,200
    # games without it (the first launch's target slots, Lyra 4 and Aquila 6, go to it more).
    comp = load_game("starlight", players=2).tables.data.turn_order
    assert comp.saved_ap["2"] == [0, 0] and comp.night_points["2"] == [0, 0]
    assert comp.day_points["2"] == [0, 1]
    s = new(2)
    assert s.saved == [0, 0] and s.np == [0, 0] and s.ap == 2 and s.g.head_start == [0, 1]
    do(s, "place flares", "end")
    settle(s)
    assert s.turn == 1 and s.ap == 2  # nothing saved to add to seat 1's first turn


@pytest.mark.parametrize(
    "players,saved,day",
    [(3, [0, 2, 2], [3, 0, 0]), (4, [0, 3, 4, 3], [5, 2, 0, 2]),
     (5, [0, 2, 3, 2, 2], [3, 2, 0, 0, 1])],
)
def test_SL_1_5_three_to_five_players_later_seats_save_action_points(players, saved, day):
    # Ruling SL-1.5 (issue 19): at 3-5 players every later seat starts with 2-4 saved action
    # points (the third seat one more at 4-5 players; SL-2.7: a first turn of 4-6 instead of 2)
    # and some seats with a few day points: a search agent turns a saved point into about three
    # times what `greedy` does, and the day points give back what `greedy` alone would lose.
    comp = load_game("starlight", players=players).tables.data.turn_order
    assert comp.day_points[str(players)] == day
    assert comp.saved_ap[str(players)] == saved
    assert comp.night_points[str(players)] == [0] * players
    s = new(players)
    assert s.saved == saved and s.np == [0] * players and s.ap == 2
    do(s, "place flares", "end")
    settle(s)
    assert s.turn == 1 and s.ap == 2 + saved[1]  # seat 1's first turn adds what it saved


@pytest.mark.parametrize("players,starbots", [(2, 0), (3, 0), (4, 0), (5, 0), (3, 2), (4, 1)])
def test_SL_1_5_SL_13_1_head_start_day_points_score_at_the_end_not_toward_daybreak(
    players, starbots
):
    # Ruling SL-1.5 (issues 19, 54): at 2-5 players some seats start with day points, scored
    # with the others at the end (SL-13.1); unlike night points they bring no seat nearer
    # daybreak.
    g = load_game("starlight", players=players, starbots=starbots)
    day = g.tables.data.turn_order.row("day_points", players, starbots)
    assert any(day) and g.head_start == day + [0] * starbots
    s = g.new_initial_state()
    night = g.tables.data.turn_order.night_points.get(str(players), [0] * players)
    assert s.np[:players] == night  # SL-12.1 counts night points only
    for p, b in enumerate(s.score_breakdown()):
        parts = sum(v for k, v in b.items() if k != "total")
        assert b["total"] == parts
        if p < players:
            assert b["head_start"] == day[p]
        else:
            assert "head_start" not in b  # Starbots neither receive nor count (SL-1.5)
    # The game's judge of positions leaves the head start out (no move changes it): `greedy`
    # and a search's cut-offs value the position exactly as without it.
    off = load_game("starlight", players=players, starbots=starbots,
                    turn_order_compensation=False).new_initial_state()
    off.np = list(s.np)
    off.saved = list(s.saved)
    assert evaluate_all(s) == evaluate_all(off) and cutoff_values(s) == cutoff_values(off)
    # Seen by every seat: in the views, the score breakdown's parts and the observation.
    v = s.view(None)
    assert [d.get("head_start", 0) for d in v["seats"]] == g.head_start
    keys = [part.key for part in g.ui.score_parts(s)]
    assert "head_start" in keys
    obs = g.make_observer()
    for viewer in range(players):
        o = obs.observation(s, viewer)
        assert o[14] == pytest.approx(day[viewer] / 10)  # the viewer's own seat block first
    plain = load_game("starlight", players=players, turn_order_compensation=False)
    assert "head_start" not in [part.key for part in plain.ui.score_parts(
        plain.new_initial_state())]
    assert all("head_start" not in b for b in plain.new_initial_state().score_breakdown())


def _turn_order_file(tmp_path, rows: str) -> str:
    """A components file holding only a 2-player turn-order table with ``rows``."""
    p = tmp_path / "turn.toml"
    p.write_text(f'[turn_order]\nsource = "designed"\n{rows}\n')
    return str(p)


def test_SL_1_5_SL_2_1_saved_ap_compensation_adds_to_the_first_turn(tmp_path):
    # A components file may still give saved action points (the table before issue 19).
    rows = 'saved_ap = { "2" = [0, 5] }\nnight_points = { "2" = [0, 0] }'
    path = _turn_order_file(tmp_path, rows)
    s = new(2, components=path)
    assert s.saved == [0, 5]
    do(s, "place flares", "end")
    settle(s)
    assert s.turn == 1 and s.ap == 2 + 5 and s.saved[1] == 0


def test_SL_2_1_first_turn():
    s = new(2)
    assert texts(s) == [f"place {sp}" for sp in s.t.rondel]
    with pytest.raises(IllegalActionError, match="SL-2.1"):
        do(s, "end")  # the marker must go onto the rondel first
    do(s, "place flares")
    assert s.pos[0] == s.t.rondel.index("flares") and "end" in texts(s)


def test_SL_2_1_first_turn_takes_only_placed_action_without_surcharge():
    s = new(2)
    s.pos[1] = s.t.rondel.index("cores")
    set_core_pool(s, ["C1", "C2", "C3"])
    do(s, "place cores")
    assert "step" not in texts(s)
    assert s.ap == 2
    do(s, "core C1")
    assert s.ap == 1  # no occupation surcharge on the first turn
    with pytest.raises(IllegalActionError, match="SL-2.1"):
        do(s, "step")


def test_SL_2_2_must_move_before_acting():
    s = turn(new(2), 0, "cores", ap=5)
    assert not any(t.startswith("core ") for t in texts(s))
    c = s.t.core_ids[s.core_pool[0]]
    with pytest.raises(IllegalActionError, match="SL-2.2"):
        do(s, f"core {c}")
    assert s.ap == 5


def test_SL_2_3_SL_2_4_step_costs_one_and_actions_belong_to_spaces():
    s = turn(new(2), 0, "short", ap=5)
    s.pos[1] = s.t.rondel.index("flares")
    do(s, "step")
    assert s.space(0) == "cores" and s.ap == 4
    do(s, "step", "step")
    assert s.space(0) == "long" and s.ap == 2
    assert any(t.startswith("take long") for t in texts(s))
    with pytest.raises(IllegalActionError, match="SL-2.4"):
        do(s, "flare 1")
    # Full circle: seven steps bring the marker back.
    s.ap = 10
    for _ in range(7):
        do(s, "step")
    assert s.space(0) == "long"


def test_SL_2_5_SL_8_2_action_points_per_turn():
    s = new(2)
    s.saved[0] = 2
    turn(s, 0, "cores")
    assert s.ap == 7
    s.privs[0] |= P_AP
    turn(s, 0, "cores")
    assert s.ap == 6


def test_SL_2_6_occupation_surcharge_once_per_action():
    s = turn(new(3), 0, "short", ap=6)
    set_core_pool(s, ["C1", "C2", "C3"])
    s.pos[1] = s.pos[2] = s.t.rondel.index("cores")
    do(s, "step", "core C1")
    assert s.ap == 6 - 1 - 2  # one step, one Core and the surcharge once (two markers)
    do(s, "core C2")
    assert s.ap == 2


def test_SL_2_6_surcharge_needs_the_point():
    s = turn(new(2), 0, "short", ap=2)
    s.pos[1] = s.t.rondel.index("cores")
    do(s, "step")
    assert s.ap == 1 and not any(t.startswith("core ") for t in texts(s))
    c = s.t.core_ids[s.core_pool[0]]
    with pytest.raises(IllegalActionError, match="SL-2.6"):
        do(s, f"core {c}")


def test_SL_2_7_SL_2_10_save_up_to_five():
    s = turn(new(2), 0, "cores", ap=8)
    do(s, "end")
    assert s.saved[0] == 5
    s2 = turn(new(2), 0, "cores", ap=3)
    do(s2, "end")
    assert s2.saved[0] == 3 and s2.pos[0] == s2.t.rondel.index("cores")


def test_SL_2_8_no_points_left_only_end():
    s = turn(new(2), 0, "cores", ap=0)
    s.flares[0] = []
    assert texts(s) == ["end"]


def test_SL_2_9_SL_16_1_pools_refill_at_end_of_turn_only():
    s = turn(new(2), 0, "cores", ap=5)
    do(s, "step", "step")
    col = s.t.colors[s.long_pool[0]]
    do(s, f"take long {col}")
    assert len(s.long_pool) == 4 and s.current_players() == (0,)
    do(s, "end")
    assert s.current_players() == (CHANCE,)
    settle(s)
    assert len(s.long_pool) == 5 and s.turn == 1


def test_SL_3_1_two_cores_per_action():
    s = turn(new(2), 0, "short", ap=5)
    set_core_pool(s, ["C1", "C2", "C3"])
    do(s, "step", "core C1", "core C2")
    assert not any(t.startswith("core ") for t in texts(s))
    with pytest.raises(IllegalActionError, match="SL-3.1"):
        do(s, "core C3")


def test_SL_3_2_SL_3_3_flush_cores():
    s = turn(new(2), 0, "short", ap=5)
    set_core_pool(s, ["C1", "C2", "C3"])
    do(s, "step", "core C1")
    assert len(s.core_pool) == 2  # not refilled during the action
    do(s, "flush")
    assert s.ap == 2 and len(s.core_discard) == 2
    settle(s)
    assert len(s.core_pool) == 3
    assert s.t.core_ids.index("C2") not in s.core_pool


def test_SL_3_4_SL_3_5_refill_and_reshuffle():
    s = turn(new(2), 0, "short", ap=5)
    s.core_discard = list(s.core_deck)
    s.core_deck = []
    s._core_deck_check()
    assert s.core_discard == [] and len(s.core_deck) > 0
    set_core_pool(s, ["C1", "C2", "C3"])
    do(s, "step", "core C1", "end")
    settle(s)
    assert len(s.core_pool) == 3


def test_SL_3_6_SL_8_5_core_plus_ray():
    s = turn(new(2), 0, "short", ap=5)
    s.privs[0] |= P_CORE_RAY
    set_core_pool(s, ["C1", "C2", "C3"])
    set_ray_pool(s, "long", ["red", "red", "blue", "blue", "white"])
    do(s, "step", "core C1")
    assert s.phase == FREE_RAY and "skip" in texts(s)
    assert "flush" not in texts(s)  # SL-16.2: no ray flush during Gain Cores
    do(s, "free long blue")
    assert s.phase == MAIN and s.ap == 3 and len(s.long_pool) == 4
    assert s.current_players() == (0,)  # no refill without Refill Rays


def test_SL_3_7_four_cores_at_most():
    s = turn(new(2), 0, "short", ap=5)
    for cid in ("C10", "C11"):  # with the Starter Core: three
        give_core(s, 0, cid)
    set_core_pool(s, ["C1", "C2", "C3"])
    do(s, "step", "core C1")
    assert len(s.cores[0]) == 4
    with pytest.raises(IllegalActionError, match="SL-3.7"):
        do(s, "core C2")


def test_SL_4_1_SL_4_5_take_rays():
    s = turn(new(2), 0, "launch2", ap=5)
    set_ray_pool(s, "short", ["red", "red", "blue", "white", "white"])
    s.pos[0] = s.t.rondel.index("launch3")
    do(s, "step", "take short red", "take short red", "take short white")
    assert s.ap == 1 and s.rays[0][len(s.t.colors) + 0] == 2
    assert "take short red" not in texts(s)


def test_SL_4_2_SL_4_3_flush_rays_and_SL_16_3_rays_back_after_refill():
    s = turn(new(2), 0, "cores", ap=5)
    set_ray_pool(s, "long", ["red"] * 5)
    red_before = s.long_bag[0]
    do(s, "step", "step", "flush")
    assert s.long_pool == [] and s.long_bag[0] == red_before  # held out
    settle(s)
    assert len(s.long_pool) == 5
    total = sum(s.long_bag) + len(s.long_pool)
    assert total == 8 * len(s.t.colors)


def test_SL_4_4_SL_16_4_partial_refill():
    s = turn(new(2), 0, "cores", ap=5)
    set_ray_pool(s, "long", ["red"] * 5)
    for c in range(len(s.t.colors)):
        s.rays[1][c] += s.long_bag[c]
        s.long_bag[c] = 0
    s.long_bag[1] = 2
    s.rays[1][1] -= 2
    do(s, "step", "step", "take long red", "take long red", "take long red", "end")
    settle(s)
    assert sorted(s.long_pool) == [0, 0, 1, 1]


def test_SL_5_1_SL_5_4_buy_flares():
    s = turn(new(2), 0, "launch2", ap=6)
    f1, f3 = s.flare_pool[0], s.flare_pool[2]
    do(s, "step", "flare 3")
    assert s.ap == 2 and f3 in s.flares[0]
    do(s, "flare 1")
    assert s.ap == 1 and s.flares[0] == [f3, f1]
    assert "flare 2" not in texts(s)


def test_SL_5_2_SL_5_3_flush_and_slide():
    s = turn(new(2), 0, "launch2", ap=6)
    pool = list(s.flare_pool)
    do(s, "step", "flare 1", "flare 3", "end")
    assert s.flare_pool[:2] == [pool[1], pool[3]]  # slid left before the refill
    settle(s)
    assert s.flare_pool[:2] == [pool[1], pool[3]] and all(f >= 0 for f in s.flare_pool)
    s2 = turn(new(2), 0, "launch2", ap=6)
    pool2 = list(s2.flare_pool)
    do(s2, "step", "flush")
    assert s2.flare_bottom == pool2 and s2.ap == 4


def test_SL_16_2_flush_only_in_its_action():
    s = turn(new(2), 0, "cores", ap=5)
    assert "flush" not in texts(s)
    with pytest.raises(IllegalActionError, match="SL-2.2"):
        do(s, "flush")
    do(s, "step")  # launch1: a Launch space has no pool
    assert "flush" not in texts(s)


def test_SL_16_3_flushed_flares_come_back_in_order():
    s = turn(new(2), 0, "launch2", ap=6)
    s.flare_bottom = s.flare_deck[:2]
    s.flare_deck = []
    pool = list(s.flare_pool)
    do(s, "step", "flush")
    # The deck is empty: the cards under it come back in order, no chance involved.
    assert s.current_players() == (0,)
    assert s.flare_pool == [*s.flare_pool[:2], *pool[:2]] and len(s.flare_bottom) == 2


def test_SL_8_3_refill_rays():
    s = turn(new(2), 0, "cores", ap=5)
    s.privs[0] |= P_REFILL
    do(s, "step", "step")
    col = s.t.colors[s.long_pool[0]]
    do(s, f"take long {col}")
    assert s.current_players() == (CHANCE,)
    settle(s)
    assert len(s.long_pool) == 5 and s.phase == MAIN


def test_SL_1_5_SL_8_head_start_privileges_are_on_the_mat_from_the_start(tmp_path):
    # A components file may give later seats privileges from the start (a tempo head start,
    # issue 19): they work from the start, as if recorded on the mat (SL-7.11).
    zero = 'saved_ap = { "2" = [0, 0] }\nnight_points = { "2" = [0, 0] }\n'
    path = _turn_order_file(tmp_path, zero + 'privileges = { "2" = [[], ["plus_ap", "alpha"]] }')
    s = new(2, components=path)
    assert s.privs[0] == 0 and s.privs[1] == P_AP | P_ALPHA
    do(s, "place flares", "end")
    settle(s)
    assert s.turn == 1 and s.ap == 2  # the first turn is 2 action points for everyone (SL-2.1)
    off = new(2, components=path, turn_order_compensation=False)
    do(off, "place flares", "end")
    settle(off)
    aps = []
    for state in (s, off):
        do(state, "place long", "end")
        settle(state)
        seat0 = state.ap
        do(state, "end")
        settle(state)
        aps.append((seat0, state.turn, state.ap))
    # The same games apart from the privilege: seat 1's first full turn has one more action
    # point (SL-8.2), seat 0's none.
    assert aps[0][0] == aps[1][0] and aps[0][1] == aps[1][1] == 1
    assert aps[0][2] == aps[1][2] + 1
    assert off.privs == [0, 0]
    for bad, msg in (('{ "2" = [[]] }', r"privileges\[2\] must give one list per live seat"),
                     ('{ "7" = [[]] }', "privileges is keyed by live player count"),
                     ('{ "2" = [[], ["wings"]] }', "privileges"),
                     ('{ "2" = [[], [""]] }', "must name privileges")):
        broken = _turn_order_file(tmp_path, zero + f"privileges = {bad}")
        with pytest.raises(ComponentError, match=msg):
            load_game("starlight", components=broken)
