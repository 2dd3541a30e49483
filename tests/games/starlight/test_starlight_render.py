"""Text rendering of the Sky Board and the player mats (what `nightsky play starlight` shows)."""

from __future__ import annotations

from nightsky import load_game


def test_render_sky_board_and_mats_of_the_example_position():
    g = load_game("starlight", players=3)
    s = g.tutorial("example-of-play").build()
    text = s.game.ui.render(s, 1)  # Yellow's view
    lines = text.splitlines()
    assert all(len(line) <= 100 for line in lines)
    assert "to act: Seat 1" in lines[0]
    # markers on the rondel, by the seats' names (no names given: Seat 1...)
    assert "Gain Cores [Seat 1, Seat 3]" in text and "Short Rays [Seat 2]" in text
    assert "Launch (Aquila/Hydrus)" in text  # the two constellations each Launch space shows
    hydrus = next(i for i, line in enumerate(lines) if line.lstrip().startswith("hydrus"))
    assert "1* s  5 -- 3" in lines[hydrus]  # Blue's (seat 3's) star on the target slot
    assert "2  s  7 RR ." in lines[hydrus]  # the empty small slot of the Example
    assert lines[hydrus + 2].strip().startswith("lines 1-2 1-3")
    # Yellow's mat: the Core's plan, rays by size, and Yellow's own Laurels in words.
    assert "C2 (red/blue, any sizes, cornucopia)" in text
    assert "rays: long red 1; short red 1, blue 1" in text
    own = [line for line in lines if "Laurels:" in line]
    assert own[0].endswith("2 (secret)") and "dp)" in own[1] and own[2].endswith("2 (secret)")
    assert "magnitudes 3" in text and "saved AP 2" in text
    # A spectator sees no Laurel at all.
    assert s.game.ui.render(s, None).count("(secret)") == 3
