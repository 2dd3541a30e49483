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
    assert len(s.observation(0)) == g.observation_size
    import random

    from nightsky.core.game import CHANCE

    rng = random.Random(0)
    while s.current_players() == (CHANCE,):
        s.apply(s.sample_chance(rng), CHANCE)
    for a in s.legal_actions():
        ui = s.action_ui(a, 0)
        assert ui["label"] and ui["targets"][0].startswith("rondel:")
