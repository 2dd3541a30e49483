"""Property tests: random games of 1-4 players keep the sheets consistent, end, replay, and
simultaneous seats do not depend on the order in which they act (MA-10.1)."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as hs

from nightsky.core.game import CHANCE
from nightsky.core.record import make_record, replay
from nightsky.games.mihi_anguli.constants import FINISHED
from nightsky.games.mihi_anguli.state import MihiAnguliState

from .helpers import B, game

LIMIT = 5000


def check_sheets(st: MihiAnguliState, prev: list[tuple[int, int]]) -> list[tuple[int, int]]:
    c = st.c
    out = []
    for i, s in enumerate(st.seats):
        # Points and items are only ever filled (MA-6.3, MA-6.1).
        if prev:
            assert s.pts & prev[i][0] == prev[i][0] and s.items & prev[i][1] == prev[i][1]
        # Squares are exactly those with four filled corners (MA-6.5).
        assert s.sq == sum(1 << q for q, m in enumerate(B.SQ_CORNERS) if m & ~s.pts == 0)
        # Acquired = every item filled (MA-6.7).
        for g in range(B.G_AB0, B.NGROUPS):
            assert bool(s.acq >> g & 1) == (c.group_mask[g] & ~s.items == 0)
        assert 1 <= s.week <= 6 and -1 <= s.day <= 6 and s.xp >= 0
        assert s.pstar >= 0 and s.psq >= 0 and len(s.dice) <= 3
        b = st.score_breakdown()[i]
        assert b["total"] == sum(v for k, v in b.items() if k != "total")
        out.append((s.pts, s.items))
    return out


def random_game(players: int, seed: int) -> MihiAnguliState:
    rng = random.Random(seed)
    g = game(players)
    st = g.new_initial_state()
    prev: list[tuple[int, int]] = []
    for step in range(LIMIT):
        cp = st.current_players()
        if not cp:
            break
        if step % 5 == 0:
            prev = check_sheets(st, prev)
        if cp == (CHANCE,):
            outs = st.chance_outcomes()
            if outs is not None:
                assert abs(sum(p for _, p in outs) - 1) < 1e-9
            r = st.sample_chance(rng)
            assert st.is_legal_chance(r) and g.parse_chance(str(r)) == r
            st.apply(r, CHANCE)
            continue
        p = rng.choice(cp)
        acts = st.legal_actions(p)
        assert acts
        # Lean towards doing things so games reach the later weeks' rules.
        doing = [a for a in acts if a.kind not in ("end", "done")]  # type: ignore[attr-defined]
        a = rng.choice(doing if doing and rng.random() < 0.8 else acts)
        st.apply(a, p)
    else:
        raise AssertionError("the game did not end")
    check_sheets(st, prev)
    return st


@given(players=hs.integers(1, 4), seed=hs.integers(0, 10**6))
def test_MA_9_1_random_games_end_with_every_seat_finished_and_replay(players: int,
                                                                    seed: int) -> None:
    st = random_game(players, seed)
    assert st.is_terminal() and all(s.phase == FINISHED and s.week == 6 for s in st.seats)
    rec = json.loads(json.dumps(make_record(st)))
    again = replay(rec)
    assert again.scores() == st.scores() and again.winners() == st.winners()
    assert [s.key() for s in again.seats] == [s.key() for s in st.seats]


@given(players=hs.integers(1, 4), seed=hs.integers(0, 10**6))
def test_MA_10_3_views_hide_nothing_on_the_sheets_and_only_future_dice_are_unknown(
        players: int, seed: int) -> None:
    rng = random.Random(seed)
    g = game(players)
    st = g.new_initial_state()
    for _ in range(rng.randrange(1, 120)):
        cp = st.current_players()
        if not cp:
            break
        if cp == (CHANCE,):
            st.apply(st.sample_chance(rng), CHANCE)
        else:
            p = rng.choice(cp)
            st.apply(rng.choice(st.legal_actions(p)), p)
    views = [st.view(p) for p in [None, *range(players)]]
    json.dumps(views)
    assert all(v["sheets"] == views[0]["sheets"] for v in views)
    for p in range(players):
        assert st.resample(p, rng).view(p) == st.view(p)
    for i, s in enumerate(st.seats):  # the dice shown are the dice rolled, nothing more
        assert views[0]["sheets"][i]["dice"] == list(s.dice)
    assert not g.info.hidden_information


@given(players=hs.integers(2, 4), seed=hs.integers(0, 10**6))
def test_MA_10_1_simultaneous_seats_commute(players: int, seed: int) -> None:
    """Seats acting at once touch only their own sheets: any interleaving gives the same turn."""
    rng = random.Random(seed)
    g = game(players)
    st = g.new_initial_state()
    for _ in range(rng.randrange(0, 6)):  # a few whole turns first
        while st.current_players() and st.current_players() != (CHANCE,):
            p = st.current_players()[0]
            acts = st.legal_actions(p)
            st.apply(next((a for a in acts if str(a) == "end turn"), acts[0]), p)
        if st.current_players():
            st.apply(st.sample_chance(rng), CHANCE)
    if st.current_players() == (CHANCE,):
        st.apply(st.sample_chance(rng), CHANCE)
    seats = st.current_players()
    if not seats or seats == (CHANCE,):
        return
    # Each seat's own plan: a fixed sequence of choices (index picks) until its turn ends.
    plans = {p: [rng.random() for _ in range(60)] for p in seats}

    def run(order: list[int]) -> list[tuple]:
        x = st.clone()
        pos = dict.fromkeys(seats, 0)
        live = list(order)
        while live:
            p = live[0] if rng.random() < 0.5 else live[-1]
            if p not in x.current_players():
                live.remove(p)
                continue
            acts = x.legal_actions(p)
            a = acts[int(plans[p][pos[p] % 60] * len(acts))]
            pos[p] += 1
            x.apply(a, p)
        return [s.key() for s in x.seats]

    first = run(list(seats))
    assert run(list(reversed(seats))) == first
