"""SS-14: the Personalized Star Sector variant."""

from __future__ import annotations

import random

import pytest

from nightsky.core import CHANCE, IllegalActionError, InvalidActionError, OptionError, load_game
from nightsky.games.shooting_star.actions import Build, Discard
from nightsky.games.shooting_star.constants import (
    CENTRE,
    DARK,
    DARK_LEVEL,
    MAJOR,
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
    legal = s.legal_actions(0)
    assert {a.cell for a in legal} == {CENTRE}
    assert all(str(a).endswith("@8,8") for a in legal)
    minor = [a for a in legal if s.g.p_kind[a.planet] == 0]
    if minor:
        assert {a.level for a in minor if a.planet == minor[0].planet} == {1, 2}
    wrong = s.g.build_table[(legal[0].planet, legal[0].level, CENTRE + 1)]
    with pytest.raises(IllegalActionError, match="SS-14.3"):
        s.apply(wrong, 0)


def test_SS_14_4_adjacent_and_clockwise() -> None:
    s = setup(3, seed=4, variant="personalized")
    s.apply(s.legal_actions(0)[0], 0)
    assert s.current_players() == (1,)
    legal = s.legal_actions(1)
    assert {a.cell for a in legal} <= set(s.g.neigh[CENTRE])
    far = s.g.build_table[(legal[0].planet, legal[0].level, CENTRE + 3)]
    with pytest.raises(IllegalActionError, match="SS-14.4"):
        s.apply(far, 1)
    with pytest.raises(IllegalActionError, match="SS-14.4"):
        s.apply(
            s.g.build_table[
                (
                    s.phands[0][0],
                    5
                    if s.g.p_kind[s.phands[0][0]] == DARK
                    else (1 if s.g.p_kind[s.phands[0][0]] == 0 else 3),
                    CENTRE + 1,
                )
            ],
            1,
        )


def test_SS_14_5_dark_planets_never_adjacent() -> None:
    s = setup(2, seed=5, variant="personalized")
    g = s.g
    s.lvl[CENTRE] = DARK_LEVEL
    s.pl[CENTRE] = g.darks[0]
    s.alive = [CENTRE]
    s.phands[0] = [g.darks[1], g.minors[0]]
    s.actor = 0
    legal = s.legal_actions(0)
    assert all(a.planet != g.darks[1] for a in legal)
    with pytest.raises(IllegalActionError, match="SS-14.5"):
        s.apply(g.build_table[(g.darks[1], DARK_LEVEL, CENTRE + 1)], 0)


def test_SS_14_6_table_edges() -> None:
    g = load_game("shooting-star", players=2, variant="personalized")
    assert (g.width, g.height) == (15, 15)
    with pytest.raises(InvalidActionError):
        g.parse_action("P1@16,8")
    corner = g.cell_of(1, 1)
    assert g.blast[0][corner] == (corner, g.cell_of(2, 2))  # Supernova at the corner


def test_SS_14_7_unplaceable_planet_goes_back_to_the_box() -> None:
    s = setup(2, seed=6, variant="personalized")
    g = s.g
    s.lvl[CENTRE] = DARK_LEVEL
    s.pl[CENTRE] = g.darks[0]
    s.alive = [CENTRE]
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
