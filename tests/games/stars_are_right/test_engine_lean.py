"""What keeps random playouts lean (issue 56, fifth step), checked compiled and pure alike:
no new history tuple per move for the game's own actions, no cyclic garbage from the matcher,
and the Servitor look-up by numbers saying what the rulebook's names say."""

from __future__ import annotations

import gc
import random
from itertools import combinations

from nightsky.core.game import CHANCE
from nightsky.games.stars_are_right import matcher
from nightsky.games.stars_are_right.actions import Exchange, Summon
from nightsky.games.stars_are_right.constants import FACES, GOO, GREATER, LESSER
from nightsky.games.stars_are_right.game import StarsAreRightGame
from nightsky.games.stars_are_right.state import NO_BONUS, StarsAreRightState

from .util import game


def _random_game(players: int, seed: int, moves: int, g: StarsAreRightGame | None = None
                 ) -> StarsAreRightState:
    s = (g or game(players)).new_initial_state()
    assert isinstance(s, StarsAreRightState)
    rng = random.Random(seed)
    for _ in range(moves):
        seats = s.current_players()
        if not seats:
            break
        seat = seats[0]
        a = s.sample_chance(rng) if seat == CHANCE else rng.choice(s.legal_actions(seat))
        s.step(a, seat)
    return s


def test_history_holds_the_games_prebuilt_entries_equal_to_the_moves() -> None:
    # Every move is recorded as (seat, action) as before; for the game's own action objects
    # the very tuple of ``Tables.entries`` (one per seat, chance last), others anew.
    for players in (2, 3):
        s = _random_game(players, seed=players, moves=1500)
        entries = s.t.entries
        shared = fresh = 0
        seen_seats = set()
        for entry in s.history:
            seat, action = entry
            seen_seats.add(seat)
            assert type(entry) is tuple and len(entry) == 2
            got = entries.get(id(action))
            if got is None:
                # Summonings are built per sky; the ~4,000 rare exchanges are left out.
                assert isinstance(action, (Summon, Exchange))
                fresh += 1
            else:
                assert entry is got[seat] and got[seat] == (seat, action)
                shared += 1
        assert shared > 1000 and CHANCE in seen_seats and len(seen_seats) == players + 1
        # A clone goes on sharing them; its history equals the original's.
        c = s.clone()
        assert c.history == s.history
        assert all(x is y for x, y in zip(c.history, s.history, strict=True))


def test_an_action_not_from_the_table_gets_its_own_entry() -> None:
    g = game()
    s = g.new_initial_state()
    assert isinstance(s, StarsAreRightState)
    place = next(iter(g.place_action.values()))
    twin = type(place)(place.kind, place.side, place.text)  # equal, another object
    s.apply(twin)
    assert s.history == [(CHANCE, place)] and s.history[0][1] is twin


def test_playouts_leave_no_cyclic_garbage() -> None:
    # The matcher's backtracking was a recursive closure: a reference cycle at every
    # multi-constellation look-up, for the collector to find. Nothing of a played game
    # should need the collector to be freed.
    g = game()  # the game itself holds cycles (its tables name it): made before
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        s = _random_game(2, seed=5, moves=3000, g=g)
        del s
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_find_answers_as_a_brute_force_search_does() -> None:
    # ``find`` (its backtracking now a module function): the first disjoint choice in the
    # order of ``placements`` lists, fewest placements first, as any exhaustive search finds.
    g = game()
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        masks = matcher.face_masks([rng.randrange(len(FACES)) for _ in range(25)])
        for card in range(len(g.cards)):
            shapes, _ = g.shapes_for(card)
            if len(shapes) < 2:
                continue
            got = matcher.find(shapes, masks)
            lists = [matcher.placements(c, masks) for c in shapes]
            if _size(lists) > 4000:
                continue
            exists = any(
                all(not (a & b) for a, b in combinations(choice, 2))
                for choice in _product(lists)
            )
            assert (got is not None) == exists
            if got is not None:
                checked += 1
                assert all(p in lists[i] for i, p in enumerate(got))
                assert all(not (a & b) for a, b in combinations(got, 2))
    assert checked > 20


def _size(lists: list[list[int]]) -> int:
    n = 1
    for options in lists:
        n *= len(options)
    return n


def _product(lists: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = [[]]
    for options in lists:
        out = [[*head, p] for head in out for p in options]
    return out


def test_TSAR_7_2_bonus_options_by_numbers_as_by_names() -> None:
    # TSAR-7.1/7.2: only a Great Old One, helped by its own Servitors (Greater or Lesser)
    # in play. ``Tables.group``/``serves`` number the names; the answer is the rulebook's
    # by names and kinds, for every card against many sets of creatures.
    g = game(3)
    s = g.new_initial_state()
    assert isinstance(s, StarsAreRightState)
    cards = g.cards
    rng = random.Random(3)
    helped = 0
    for _ in range(300):
        held = tuple(rng.sample(range(len(cards)), rng.randrange(0, 8)))
        s.creatures[0] = held
        for card in range(len(cards)):
            c = cards[card]
            mine = tuple(sorted(x for x in held if cards[x].ruler == c.name
                                and cards[x].kind in (GREATER, LESSER)))
            want = g.bonus_sets(card, mine) if c.kind == GOO and mine else NO_BONUS
            got = s.bonus_options(0, card)
            assert got == want
            helped += len(got) > 1
    assert helped > 0
