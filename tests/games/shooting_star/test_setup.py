"""SS-2: preparation (all of it chance events of the initial state)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nightsky.core import CHANCE, IllegalActionError, NotYourTurnError, load_game
from nightsky.games.shooting_star.constants import DARK, DARK_LEVEL, MAJOR
from tests.games.shooting_star.helpers import setup


def _dealt_grid(players: int, seed: int):
    g = load_game("shooting-star", players=players)
    s = g.new_initial_state()
    out = s.sample_chance(random.Random(seed))
    s.apply(out, CHANCE)
    return s, out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_SS_2_1_six_named_level4_and_a_dark_planet(players: int) -> None:
    for seed in range(40):
        s, _ = _dealt_grid(players, seed)
        g = s.g
        names = {g.p_name[p] for p in s.pl if g.p_kind[p] == MAJOR}
        assert len(names) >= 6
        assert any(g.p_kind[p] == DARK for p in s.pl)


def test_SS_2_1_grid_without_the_set_aside_is_refused() -> None:
    g = load_game("shooting-star", players=2)
    s = g.new_initial_state()
    # twelve 1/2 planets: no named planet, no Dark Planet
    cells = tuple((p, 1) for p in g.minors[:12])
    with pytest.raises(IllegalActionError, match="not a possible chance outcome"):
        s.apply(g.make_grid(cells), CHANCE)


def test_SS_2_2_random_sides_and_fill() -> None:
    seen: Counter[tuple[int, int]] = Counter()
    for seed in range(60):
        s, _ = _dealt_grid(3, seed)
        for c in range(s.g.ncells):
            seen[(s.g.p_kind[s.pl[c]], s.lvl[c])] += 1
    assert seen[(0, 1)] and seen[(0, 2)] and seen[(1, 3)] and seen[(1, 4)]
    assert set(seen) == {(0, 1), (0, 2), (1, 3), (1, 4), (2, DARK_LEVEL)}


@pytest.mark.parametrize(("players", "size"), [(2, (4, 3)), (3, (6, 3)), (4, (6, 4)), (5, (6, 5))])
def test_SS_2_3_grid_sizes(players: int, size: tuple[int, int]) -> None:
    s, _ = _dealt_grid(players, 1)
    assert (s.g.width, s.g.height) == size
    assert len(s.alive) == 6 * players == size[0] * size[1]


def test_SS_2_4_dark_planets_never_adjacent() -> None:
    g = load_game("shooting-star", players=2)
    many_darks = 0
    for seed in range(300):
        s, _ = _dealt_grid(2, seed)
        darks = [c for c in range(g.ncells) if s.lvl[c] == DARK_LEVEL]
        many_darks += len(darks) > 1
        for c in darks:
            assert all(s.lvl[nb] != DARK_LEVEL for nb in g.neigh[c])
    assert many_darks > 0  # the rejection really had something to reject


def test_SS_2_4_adjacent_darks_refused_and_uniform_layouts() -> None:
    g = load_game("shooting-star", players=2)
    s = g.new_initial_state()
    fill = [(p, 4) for p in g.majors[:6]] + [(p, 1) for p in g.minors[:4]]
    side_by_side = [(g.darks[0], DARK_LEVEL), (g.darks[1], DARK_LEVEL)] + fill
    apart = [(g.darks[0], DARK_LEVEL), fill[0], (g.darks[1], DARK_LEVEL)] + fill[1:]
    assert not s.is_legal_chance(g.make_grid(tuple(side_by_side)))
    assert s.is_legal_chance(g.make_grid(tuple(apart)))
    # uniform over valid layouts: every cell hosts the set-aside Dark Planet now and then
    where: Counter[int] = Counter()
    for seed in range(400):
        grid = g.new_initial_state().sample_chance(random.Random(seed))
        where.update(c for c, (p, _) in enumerate(grid.cells) if g.p_kind[p] == DARK)
    assert set(where) == set(range(g.ncells))


def test_SS_2_5_replacement_deck_and_box() -> None:
    s = setup(3, seed=2)
    g = s.g
    on_grid = set(s.pl)
    assert set(s.deck) == {p for p in g.minors if p not in on_grid}
    assert set(s.box) == {p for p in range(49) if p not in on_grid and g.p_kind[p] != 0}
    v = s.view(0)
    assert v["deck_size"] == len(s.deck) and "deck" not in v
    assert s.resample(0, random.Random(1)).deck != s.deck


def test_SS_2_6_each_seat_has_nine_cards_of_its_colour() -> None:
    s = setup(5, seed=1)
    census = s.census()
    for seat, colour in enumerate(["red", "yellow", "green", "blue", "purple"]):
        assert census[f"hand:{seat}"] == [
            f"{colour}:{k}" for k in ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "S")
        ]


def test_SS_2_7_secret_missions_dealt_and_hidden() -> None:
    s = setup(4, seed=9)
    g = s.g
    for trio in s.missions:
        assert [g.missions[m].value for m in trio] == [1, 2, 3]
    assert len({m for trio in s.missions for m in trio}) == 12
    v = s.view(1)
    assert "missions" in v["seats"][1] and "missions" not in v["seats"][0]
    assert "missions" not in s.view(None)["seats"][1]
    assert len(s.census()["box-missions"]) == 3
    assert s.history[-1][0] == CHANCE
    assert s.log_text(-1, 2).endswith("(yours)")
    assert g.missions_text(s.missions) not in s.log_text(-1, 2)


def test_SS_2_8_seat_0_holds_the_dark_invader_and_starts() -> None:
    s = setup(3, seed=4)
    assert s.invader == 0 and s.current_players() == (0,)
    assert s.census()["dark-invader:0"] == ["dark-invader"]
    with pytest.raises(NotYourTurnError):
        s.apply(s.legal_actions(0)[0], 1)
