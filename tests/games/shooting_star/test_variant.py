"""SS-14: the Personalized Star Sector variant."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nightsky.core import CHANCE, IllegalActionError, InvalidActionError, OptionError, load_game
from nightsky.games.shooting_star.actions import Build, Discard
from nightsky.games.shooting_star.constants import (
    DARK,
    DARK_LEVEL,
    MAJOR,
    MINOR,
    PH_BUILD,
    PH_PLACE,
)
from tests.games.shooting_star.helpers import setup, walk


def test_SS_14_1_variant_option() -> None:
    g = load_game("shooting-star", players=3, variant="personalized")
    assert g.personalized and g.params == {"players": 3, "variant": "personalized"}
    with pytest.raises(OptionError):
        load_game("shooting-star", variant="spiral")
    s = setup(3, seed=1, variant="personalized")
    assert s.phase == PH_BUILD and not s.alive


def test_SS_14_2_six_planets_each_open_information() -> None:
    s = setup(4, seed=2, variant="personalized")
    g = s.g
    hands = s.phands
    assert [len(h) for h in hands] == [6] * 4
    allp = [p for h in hands for p in h]
    assert len(set(allp)) == 24
    assert len({g.p_name[p] for p in allp if g.p_kind[p] == MAJOR}) >= 6
    assert any(g.p_kind[p] == DARK for p in allp)
    assert sorted(s.view(1)["seats"][0]["planet_hand"]) == sorted(g.p_code[p] for p in hands[0])


def test_SS_14_3_first_planet_in_the_middle_side_of_choice() -> None:
    s = setup(2, seed=3, variant="personalized")
    centre = s.g.centre
    legal = s.legal_actions(0)
    assert {a.cell for a in legal} == {centre} and s.g.cell_of(8, 8) == centre
    assert all(str(a).endswith("@8,8") for a in legal)
    minor = [a for a in legal if s.g.p_kind[a.planet] == 0]
    if minor:
        assert {a.level for a in minor if a.planet == minor[0].planet} == {1, 2}
    wrong = s.g.build_action(legal[0].planet, legal[0].level, centre + 1)
    with pytest.raises(IllegalActionError, match="SS-14.3"):
        s.apply(wrong, 0)


def test_SS_14_4_adjacent_and_clockwise() -> None:
    s = setup(3, seed=4, variant="personalized")
    centre = s.g.centre
    s.apply(s.legal_actions(0)[0], 0)
    assert s.current_players() == (1,)
    legal = s.legal_actions(1)
    assert {a.cell for a in legal} <= set(s.g.neigh[centre])
    far = s.g.build_action(legal[0].planet, legal[0].level, centre + 3)
    with pytest.raises(IllegalActionError, match="SS-14.4"):
        s.apply(far, 1)
    other = s.phands[0][0]  # seat 0's planet: not in seat 1's hand
    with pytest.raises(IllegalActionError, match="SS-14.4"):
        s.apply(s.g.build_action(other, s.g.p_levels[other][0], centre + 1), 1)


def test_SS_14_5_dark_planets_never_adjacent() -> None:
    s = setup(2, seed=5, variant="personalized")
    g = s.g
    s.lvl[g.centre] = DARK_LEVEL
    s.pl[g.centre] = g.darks[0]
    s.alive = [g.centre]
    s.phands[0] = [g.darks[1], g.minors[0]]
    s.actor = 0
    legal = s.legal_actions(0)
    assert all(a.planet != g.darks[1] for a in legal)
    with pytest.raises(IllegalActionError, match="SS-14.5"):
        s.apply(g.build_action(g.darks[1], DARK_LEVEL, g.centre + 1), 0)


def _row_deal(players: int) -> str:
    """A deal for ``players`` seats: six differently named planets, one Dark Planet (so no two
    Dark Planets can ever touch) and 1/2 planets, dealt round the table."""
    g = load_game("shooting-star", players=players)
    stack = ["n01", "n02", "n03", "n04", "n05", "n06", "d1"]
    stack += [g.p_code[p] for p in g.minors[: 6 * players - len(stack)]]
    hands = [stack[s::players] for s in range(players)]
    return "deal " + "/".join(",".join(h) for h in hands)


def _build_text(g, planet: str, col: int, row: int) -> str:  # type: ignore[no-untyped-def]
    """The notation of building ``planet`` (its lower side up) at ``col,row``."""
    kind = g.p_kind[g.code_index[planet]]
    if kind == DARK:
        return f"{planet}@{col},{row}"
    return f"{planet}:{1 if kind == MINOR else 3}@{col},{row}"


def _built(players: int, spots: list[tuple[int, int]], seed: int = 0):  # type: ignore[no-untyped-def]
    """A Personalized game whose seats build, in turn, one planet at each of ``spots``
    (column, row as the notation writes them; the first is 8,8), each planet from the acting
    seat's hand in the order dealt. Every build goes through the notation and ``apply``."""
    g = load_game("shooting-star", players=players, variant="personalized")
    s = g.new_initial_state()
    rng = random.Random(seed)
    s.apply(g.parse_action(_row_deal(players)), CHANCE)
    while s.current_players() == (CHANCE,):
        s.apply(s.sample_chance(rng), CHANCE)
    for col, row in spots:
        seat = s.current_players()[0]
        planet = g.p_code[s.phands[seat][0]]
        action = g.parse_action(_build_text(g, planet, col, row))
        assert action in s.legal_actions(seat), f"{action} refused"
        s.apply(action, seat)
    return s


@pytest.mark.parametrize(("dx", "dy"), [(1, 0), (-1, 0), (0, 1), (0, -1)])
def test_SS_14_6_any_shape_a_row_of_eleven_planets_to_one_side(dx: int, dy: int) -> None:
    # all twelve planets of a 2-player game in one straight line from the first one: eleven to
    # one side, reaching column 19 (or -3) where the old 15 x 15 table ended at 15 (and 1)
    spots = [(8 + i * dx, 8 + i * dy) for i in range(12)]
    s = _built(2, spots)
    g = s.g
    assert s.phase == PH_PLACE and len(s.alive) == 12
    assert sorted(g.cell_name(c) for c in s.alive) == sorted(f"{x},{y}" for x, y in spots)
    view = s.view(0)
    assert sorted((c["col"], c["row"]) for c in view["cells"]) == sorted(spots)
    ids = {e.get("id") for e in ET.fromstring(g.ui.board_svg(s, 0) or "").iter()}
    assert {f"cell-{col}-{row}" for col, row in spots} <= ids
    end = g.cell_of(*spots[-1])  # the far end: a blast off the table's edge hits nothing
    assert all(t in range(g.ncells) for t in g.blast[1][end])  # Starburst: four neighbours
    assert [a for a in s.legal_actions(0) if a.cell == end]  # cards go on the far planet
    walk(s, 1)
    assert s.is_terminal()


def test_SS_14_6_the_table_reaches_as_far_as_the_planets() -> None:
    # 6 planets per player: a square of side 2K - 1 around 8,8 holds every possible sector
    for players in (2, 3, 4, 5):
        g = load_game("shooting-star", players=players, variant="personalized")
        k = 6 * players
        assert g.width == g.height == 2 * k - 1 and g.cell_name(g.centre) == "8,8"
        assert g.cell_name(0) == f"{9 - k},{9 - k}"
        last = g.width * g.height - 1
        assert g.cell_name(last) == f"{7 + k},{7 + k}"
        assert g.num_distinct_actions == (9 + 94) * g.ncells + 49
    s = _built(5, [(8 - i, 8) for i in range(30)])  # the farthest reach: 29 to the left
    assert s.phase == PH_PLACE and s.g.cell_name(min(s.alive)) == "-21,8"
    g = load_game("shooting-star", players=2, variant="personalized")
    assert g.parse_action("P1@-3,19") == g.place_rows[0][g.cell_of(-3, 19)]
    with pytest.raises(InvalidActionError, match="SS-14.6"):
        g.parse_action("P1@20,8")
    with pytest.raises(InvalidActionError, match="SS-14.6"):
        g.parse_action("n01:4@8,-4")
    corner = g.cell_of(-3, -3)
    assert g.blast[0][corner] == (corner, g.cell_of(-2, -2))  # Supernova at the corner
    # records of the old 15 x 15 table still read: 1..15 are the same spaces around 8,8
    assert g.cell_name(g.parse_action("n03:4@8,8").cell) == "8,8"
    assert str(g.parse_action("P2@1,15")) == "P2@1,15"


_STEPS = 4  # a growth step below this continues the last planet's line in that direction
_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@settings(max_examples=40, deadline=None)
@given(
    players=st.sampled_from([2, 3, 5]),
    growth=st.lists(
        st.one_of(st.integers(0, _STEPS - 1), st.integers(_STEPS, 2**16)), min_size=29
    ),
    seed=st.integers(0, 2**16),
)
def test_SS_14_6_sectors_of_any_shape_are_legal(players: int, growth: list[int], seed: int) -> None:
    # grow a random connected shape from 8,8, one planet beside another (arms in a straight
    # line are drawn often): every such shape can be built, drawn, observed and played out
    spots = [(8, 8)]
    for step in growth[: 6 * players - 1]:
        taken = set(spots)
        frontier = sorted(
            {(x + dx, y + dy) for x, y in spots for dx, dy in _DIRS} - taken,
            key=lambda cr: (cr[1], cr[0]),
        )
        spot = frontier[step % len(frontier)]
        if step < _STEPS:
            x, y = spots[-1]
            ahead = (x + _DIRS[step][0], y + _DIRS[step][1])
            spot = ahead if ahead not in taken else spot
        spots.append(spot)
    s = _built(players, spots, seed)
    g = s.g
    assert s.phase == PH_PLACE
    assert sorted(g.cell_name(c) for c in s.alive) == sorted(f"{x},{y}" for x, y in spots)
    assert sorted((c["col"], c["row"]) for c in s.view(None)["cells"]) == sorted(spots)
    ids = {e.get("id") for e in ET.fromstring(g.ui.board_svg(s, 0) or "").iter()}
    assert {f"cell-{col}-{row}" for col, row in spots} <= ids
    obs = g.make_observer()
    vec = obs.observation(s, 0)
    assert len(vec) == obs.size
    assert sum(vec[c * 22] for c in range(g.ncells)) == g.ncells - len(spots)  # "no planet"
    walk(s, seed)
    assert s.is_terminal() and s.winners()


def test_SS_14_7_unplaceable_planet_goes_back_to_the_box() -> None:
    s = setup(2, seed=6, variant="personalized")
    g = s.g
    s.lvl[g.centre] = DARK_LEVEL
    s.pl[g.centre] = g.darks[0]
    s.alive = [g.centre]
    s.phands = [[], [g.darks[1]]]
    s.actor = 1
    assert s.legal_actions(1) == [Discard(g.darks[1], g.p_code[g.darks[1]])]
    with pytest.raises(IllegalActionError, match="SS-14.7"):
        s.apply(g.discards[g.minors[0]], 1)
    s.apply(g.parse_action(f"{g.p_code[g.darks[1]]}:out"), 1)
    assert g.darks[1] in s.box and s.phase == PH_PLACE


def test_SS_14_8_after_building_the_game_goes_on() -> None:
    for seed in range(5):
        s = setup(3, seed=seed, variant="personalized")
        rng = random.Random(seed)
        while s.phase == PH_BUILD:
            p = s.current_players()[0]
            s.apply(rng.choice(s.legal_actions(p)), p)
        assert len(s.alive) == 18 and s.current_players() == (0,)
        assert all(isinstance(a, type(s.g.place_rows[0][0])) for a in s.legal_actions(0))
        darks = [c for c in s.alive if s.lvl[c] == DARK_LEVEL]
        assert all(s.lvl[nb] != DARK_LEVEL for c in darks for nb in s.g.neigh[c])
        walk(s, seed)
        assert s.is_terminal()


def test_SS_14_build_notation_round_trip() -> None:
    g = load_game("shooting-star", players=2, variant="personalized")
    s = g.new_initial_state()
    rng = random.Random(1)
    while s.current_players() == (CHANCE,):
        out = s.sample_chance(rng)
        assert g.parse_action(str(out)) == out
        s.apply(out, CHANCE)
    for a in s.legal_actions(0):
        assert isinstance(a, Build) and g.parse_action(str(a)) == a
