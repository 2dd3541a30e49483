"""Components, set-up and the loader (TSAR-1.x)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nightsky.core.errors import ComponentError, OptionError
from nightsky.core.game import CHANCE
from nightsky.games.stars_are_right.constants import FACE_INDEX, GOO, GREATER, LESSER, MINION

from .util import game, setup, sky_faces


def test_TSAR_1_1_two_to_four_players() -> None:
    for n in (2, 3, 4):
        assert game(n).num_players == n
    for n in (1, 5):
        with pytest.raises(OptionError):
            game(n)


def test_TSAR_1_2_tiles_pairs_and_counts() -> None:
    g = game()
    pairs = Counter()
    for front, back, count in g.comps.tiles:
        pairs[(front, back)] += count
    F = FACE_INDEX
    assert pairs == {
        (F["2"], F["3"]): 7,
        (F["1"], F["4"]): 5,
        (F["V"], F["5"]): 3,
        (F["Wn"], F["Wx"]): 3,
        (F["Sh"], F["Me"]): 3,
        (F["Su"], F["So"]): 2,
        (F["Mo"], F["L"]): 2,
    }
    s = setup(g)
    v = s.view(1)
    # The back of every tile is public: the view shows it, and it is the pair of the face.
    back_of = {}
    for f, b, _ in g.comps.tiles:
        back_of[f], back_of[b] = b, f
    for r in range(5):
        for c in range(5):
            assert FACE_INDEX[v["sky_backs"][r][c]] == back_of[FACE_INDEX[v["sky"][r][c]]]


def test_TSAR_1_3_setup_lays_25_tiles_with_random_sides_by_chance() -> None:
    g = game()
    s = g.new_initial_state()
    assert s.current_players() == (CHANCE,)
    outs = s.chance_outcomes()
    assert outs and abs(sum(p for _, p in outs) - 1) < 1e-9
    assert len(outs) == 14  # 7 tile kinds x 2 sides
    skies = {tuple(sky_faces(setup(g, seed))) for seed in range(5)}
    assert len(skies) == 5
    s = setup(g, 3)
    assert sorted(s.pos_tile) == list(range(25))
    sides = Counter(s.pos_side)
    assert sides[0] and sides[1]


def test_TSAR_1_4_all_75_creatures() -> None:
    g = game()
    cards = g.cards
    assert len(cards) == 75
    kinds = Counter(c.kind for c in cards)
    assert kinds == {GOO: 12, GREATER: 12, LESSER: 36, MINION: 15}
    assert all(c.bonus >= 0 for c in cards if c.kind in (GREATER, LESSER))
    assert all(c.bonus < 0 for c in cards if c.kind in (GOO, MINION))
    assert {c.vp for c in cards if c.kind == GOO} == {4}
    assert {c.vp for c in cards if c.kind == GREATER} == {2}
    assert {c.vp for c in cards if c.kind == LESSER} == {1}
    assert {c.vp for c in cards if c.kind == MINION} == {0}
    deep = g.comps.card_by_id("deep-ones-S-4")
    assert deep is not None and deep.code_text == "Sh-1 & 1-3" and deep.power_text() == "F>S"
    assert len({c.id for c in cards}) == 75


def test_TSAR_1_5_deal_five_each_rest_is_deck() -> None:
    for n in (2, 3, 4):
        s = setup(game(n), n)
        assert [len(h) for h in s.hands] == [5] * n
        assert len(s.deck) == 75 - 5 * n and s.discard == []
        assert s.view(0)["deck_size"] == 75 - 5 * n


def test_TSAR_1_6_seat_zero_starts_then_clockwise() -> None:
    s = setup(game(3))
    assert s.current_players() == (0,)
    s.apply(s.game.parse_action("end"), 0)
    while s.is_chance_node():
        s.apply(s.sample_chance(random.Random(1)), CHANCE)
    assert s.current_players() == (1,)


def test_TSAR_1_7_reference_cards_are_not_components() -> None:
    s = setup(game())
    census = s.census()
    ids = [c for place in census.values() for c in place]
    assert len(ids) == 75 + 25  # creatures and tiles only, no Little Book of Evil
    assert not any("book" in c for c in ids)


def test_TSAR_1_8_card_text_overrides_basic_rules() -> None:
    # The basic hand size is five; a Ghast's text makes it six (see also TSAR-9.5).
    from .util import pos

    g = game()
    s = pos(g, hands=[["gug-P"], []], creatures=[["ghast-P"], []])
    assert s.hand_limit(0) == 6 and s.hand_limit(1) == 5


def test_loader_errors_name_file_entry_and_field(tmp_path) -> None:
    from nightsky.games.stars_are_right.components import load

    assert load() is load()  # the shipped data is loaded once
    good = tmp_path / "mine.toml"
    good.write_text(
        '[[tiles]]\nfront = "2"\nback = "3"\ncount = 25\nsource = "designed"\nwhy = "test"\n'
    )
    g = game(components=str(good))
    assert g.comps.tiles == ((1, 2, 25),) and len(g.cards) == 75
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[[creatures]]\nid = "x-P"\nname = "X"\nkind = "minion"\ninvocation = "Q"\n'
        'vp = 0\nconstellations = ["V"]\nminion_power = "hand-six"\nsource = "designed"\n'
    )
    with pytest.raises(ComponentError) as err:
        game(components=str(bad))
    msg = str(err.value)
    assert "bad.toml" in msg and "creatures[0]" in msg and "'X'" in msg and "invocation" in msg
    worse = tmp_path / "worse.toml"
    worse.write_text('[[tiles]]\nfront = "Zz"\nback = "3"\ncount = 25\nsource = "designed"\n')
    with pytest.raises(ComponentError, match=r"worse.toml: tiles.0.front"):
        game(components=str(worse))
    with pytest.raises(ComponentError, match="cannot read"):
        game(components=str(tmp_path / "missing.toml"))
    ragged = tmp_path / "ragged.toml"
    ragged.write_text('[[tiles]]\nfront = "2"\nback = "3"\ncount = 24\nsource = "designed"\n')
    with pytest.raises(ComponentError, match="25 tiles"):
        game(components=str(ragged))
