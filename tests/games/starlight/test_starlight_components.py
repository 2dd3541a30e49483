"""Component files: validation errors, user files, and the designed data fitting the rules."""

from __future__ import annotations

import pytest

from nightsky import load_game
from nightsky.core.errors import ComponentError
from nightsky.games.starlight.components import load_tables


def test_shipped_components_fit_the_rules():
    t = load_tables()
    d = t.data
    assert len(t.rondel) == 7 and d.board.core_pool == 3 and d.board.flare_pool == 4
    assert {"aquila", "hydrus"} <= set(t.constellations)
    assert t.launch_shows["launch1"] == (0, 1)  # Aquila/Hydrus, as in the Example of Play
    # Every privilege can be won somewhere, every constellation has an alpha slot.
    privs = {s.privilege for s in t.slots}
    assert set(range(6)) <= privs
    for sl in t.slots_of:
        assert any(t.slots[i].size == 2 for i in sl)
        assert any(t.slots[i].target for i in sl)
    assert len(d.accolades) == 5 and len(d.gods) == 10
    assert {g.name for g in d.gods} >= {"Apollo", "Zeus"}
    assert "SB-20" in t.starbot_ids and any(c.action == "refresh" for c in d.starbots)
    for entry in [*d.cores, *d.flares, *d.laurels, *d.accolades, *d.starbots, *d.gods]:
        assert entry.source in ("designed", "rulebook")
    assert all(g.why for g in d.gods) and d.board.why


def test_table_columns_match_the_slots_and_accolades():
    # The rules' hot loops read these columns instead of the slot objects: they must agree.
    t = load_tables()
    assert [s.index for s in t.slots] == list(range(len(t.slots)))
    assert t.slot_size == tuple(s.size for s in t.slots)
    assert t.slot_target == tuple(s.target for s in t.slots)
    assert t.slot_links == tuple(s.links for s in t.slots)
    assert t.alpha_slots == tuple(s.index for s in t.slots if s.size == 2)
    assert len(t.alpha_slots) == len(t.slots_of)  # one alpha slot a constellation
    by_index = {a.index: a.dp for a in t.data.accolades}
    assert t.accolade_dp == tuple(by_index[i] for i in range(1, 6))


def test_bad_file_names_file_entry_and_field(tmp_path):
    bad = tmp_path / "mine.toml"
    bad.write_text(
        '[[gods]]\nid = "G1"\nname = "Apollo"\ntitle = "x"\ntext = "y"\npower = "fly"\n'
        'source = "designed"\n'
    )
    with pytest.raises(ComponentError, match=r"mine\.toml: gods\[0\] \('G1'\)\.power"):
        load_game("starlight", components=str(bad))


def test_bad_board_links(tmp_path):
    text = (
        '[[constellations]]\nname = "aquila"\ntitle = "A"\nsource = "designed"\n'
        'slots = [{ n = 1, size = "small", np = 4, privilege = "", target = true, links = [2] },'
        ' { n = 2, size = "small", np = 4, privilege = "", target = false, links = [] }]\n'
    )
    p = tmp_path / "board.toml"
    p.write_text(text)
    with pytest.raises(ComponentError, match="does not link back"):
        load_game("starlight", components=str(p))


def test_user_file_replaces_a_table(tmp_path):
    p = tmp_path / "slotless.toml"
    p.write_text('[slotless]\nsource = "rulebook"\nsmall = 4\nmedium = 8\nlarge = 12\n')
    g = load_game("starlight", components=str(p))
    assert g.tables.data.slotless.small == 4
    assert g.params["components"] == str(p)
    with pytest.raises(ComponentError, match="cannot read"):
        load_game("starlight", components=str(tmp_path / "missing.toml"))


def test_views_observation_and_ui():
    g = load_game("starlight", players=2, starbots=1)
    s = g.new_initial_state()
    v = s.view(None)
    for key in ("game", "viewer", "current_players", "terminal", "scores"):
        assert key in v
    observer = g.make_observer()
    assert len(observer.observation(s, 0)) == observer.size
    import random

    from nightsky.core.game import CHANCE

    rng = random.Random(0)
    while s.current_players() == (CHANCE,):
        s.apply(s.sample_chance(rng), CHANCE)
    for a in s.legal_actions():
        ui = g.ui.action_ui(s, a, 0)
        assert ui["label"] and ui["targets"][0].startswith("rondel:")


def test_designed_components_fit_every_rule_that_mentions_them():
    """The designed Sky Board and decks agree with each rule (and example) that mentions them."""
    t = load_tables()
    d = t.data
    r = t.rondel
    # SL-2.2 and the Example of Play: two steps from Gain Cores, past the Aquila/Hydrus Launch
    # space, reach Gain Long Rays; Gain Short Rays is one step before Gain Cores.
    i = r.index("cores")
    assert r[(i + 1) % 7] == "launch1" and r[(i + 2) % 7] == "long" and r[i - 1] == "short"
    # SL-7.1: three Launch spaces, each showing two constellations, each constellation once.
    shown = [c for sp in ("launch1", "launch2", "launch3") for c in t.launch_shows[sp]]
    assert sorted(shown) == list(range(len(t.constellations))) == list(range(6))
    # SL-7.5, SL-7.6: from a target slot every slot of a constellation can be reached by lines.
    for sl in t.slots_of:
        seen = {i for i in sl if t.slots[i].target}
        todo = list(seen)
        while todo:
            for j in t.slots[todo.pop()].links:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
        assert seen == set(sl)
    # The Example of Play: a star in a Hydrus target slot leaves exactly one empty small slot
    # (7 night points, Refill Rays) and one medium slot linked to it.
    hy = t.slots_of[t.constellations.index("hydrus")]
    first = t.slots[hy[0]]
    assert first.target
    assert sorted(t.slots[j].size for j in first.links) == [0, 1]
    small = next(t.slots[j] for j in first.links if t.slots[j].size == 0)
    assert small.np == 7 and small.privilege == 2  # Refill Rays
    # SL-7.3: slots of all three sizes; SL-12.4: the slotless table grows with size.
    assert {s.size for s in t.slots} == {0, 1, 2}
    assert d.slotless.small < d.slotless.medium < d.slotless.large
    # SL-14: the Starbot deck is numbered SB-1.. with one Refresh card; every Accolade index
    # is named by some card; launch cards name a Launch space and a slot size.
    assert t.starbot_ids == tuple(f"SB-{n}" for n in range(1, len(t.starbot_ids) + 1))
    assert [c.action for c in d.starbots].count("refresh") == 1
    assert {c.accolade for c in d.starbots if c.action != "refresh"} == {1, 2, 3, 4, 5}
    for c in d.starbots:
        assert c.action != "launch" or (c.space in t.launch_shows and c.size)
    # SL-6.3 to SL-6.6: every Core plan can make a star from the bags; Starter Cores have no
    # Aspect and take any colour; six Aspects, so the Aspect goals can be met.
    assert len(t.aspects) == 6 and all(a == -1 for a in t.core_aspect[t.num_deck_cores :])
    for c in d.cores:
        assert set(c.colors) <= set(t.colors) and len(c.colors) >= 2
    # SL-10, SL-11: every goal can be met on this board (magnitudes 2-7, six privileges).
    for goal in [*d.laurels, *d.accolades]:
        limit = {"magnitudes": 6, "aspects": 6, "privileges": 6, "alpha": 6}.get(goal.kind)
        assert limit is None or goal.value <= limit
        assert goal.kind != "stars_in_one" or goal.value <= 8
    # SL-1.3: two Gods for each of five players; Apollo and Zeus (launch anywhere) among them.
    zeus = next(g for g in d.gods if g.name == "Zeus")
    assert zeus.power == "any_constellation" and len(d.gods) >= 2 * 5
    assert all(g.text and g.why for g in d.gods)


def test_SL_1_5_SL_2_7_turn_order_table_is_checked(tmp_path):
    p = tmp_path / "turn.toml"
    zeros = '{ "2" = [0, 0] }'
    p.write_text(
        f'[turn_order]\nsource = "designed"\nsaved_ap = {{ "2" = [0, 6] }}\n'
        f"night_points = {zeros}\n"
    )
    with pytest.raises(ComponentError, match="SL-2.7"):
        load_game("starlight", components=str(p))
    p.write_text(
        f'[turn_order]\nsource = "designed"\nsaved_ap = {{ "2" = [0] }}\nnight_points = {zeros}\n'
    )
    with pytest.raises(ComponentError, match="one value per live seat"):
        load_game("starlight", components=str(p))
    p.write_text(
        f'[turn_order]\nsource = "designed"\nsaved_ap = {zeros}\n'
        'night_points = { "2" = [0, 3] }\n'
    )
    s = load_game("starlight", players=2, components=str(p)).new_initial_state()
    assert s.np == [0, 3] and s.saved == [0, 0]
    # A count missing from the table gets no compensation.
    assert load_game("starlight", players=3, components=str(p)).new_initial_state().saved == [0] * 3
    # Day points (the head start scored at the end) are checked the same way, by field name.
    for bad, msg in (('{ "6" = [0, 1] }', "day_points is keyed by live player count"),
                     ('{ "3" = [0, 1] }', r"day_points\[3\] must give one value per live seat"),
                     ('{ "2" = [0, -1] }', r"day_points\[2\] values must not be negative"),
                     ('{ "2+0" = [0, 1] }', "'2\\+0': 'L\\+B' needs at least one Starbot"),
                     ('{ "3+3" = [0, 1, 2] }', "at most five seats in all"),
                     ('{ "x+1" = [0] }', "day_points is keyed by live player count"),
                     ('{ "2+2" = [0] }', r"day_points\[2\+2\] must give one value per live")):
        p.write_text(
            f'[turn_order]\nsource = "designed"\nsaved_ap = {zeros}\n'
            f"night_points = {zeros}\nday_points = {bad}\n"
        )
        with pytest.raises(ComponentError, match=msg):
            load_game("starlight", components=str(p))
    p.write_text(
        f'[turn_order]\nsource = "designed"\nsaved_ap = {zeros}\nnight_points = {zeros}\n'
        'day_points = { "2" = [0, 5] }\n'
    )
    g = load_game("starlight", players=2, components=str(p))
    assert g.head_start == [0, 5] and g.new_initial_state().np == [0, 0]
    # A table with Starbots ("L+B") takes its own row where it has one, field by field.
    p.write_text(
        '[turn_order]\nsource = "designed"\nsaved_ap = { "2" = [0, 1], "2+1" = [0, 3] }\n'
        'night_points = { "2+2" = [0, 2] }\nday_points = { "2" = [0, 5], "2+2" = [0, 7] }\n'
    )
    mixed = load_game("starlight", players=2, starbots=2, components=str(p))
    assert mixed.head_start == [0, 7, 0, 0]
    s = mixed.new_initial_state()
    assert s.saved == [0, 1, 0, 0] and s.np == [0, 2, 0, 0]
    one = load_game("starlight", players=2, starbots=1, components=str(p))
    assert one.head_start == [0, 5, 0] and one.new_initial_state().saved == [0, 3, 0]
