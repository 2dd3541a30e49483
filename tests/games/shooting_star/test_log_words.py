"""The log in words (``ShootingStarUI.describe_log_entry``): a resolution tells each capture,
destroyed card and Shield by name; a face-down card stays face down in the others' log."""

from __future__ import annotations

from nightsky.core.narration import narrate
from nightsky.games.shooting_star.state import ShootingStarState
from tests.games.shooting_star.helpers import build_position, cell, play, setup, walk

NAMES = ["Alice", "Bob", "Carol"]


def told(s: ShootingStarState, *moves: tuple[int, str], viewer: int | None = None) -> list[str]:
    """Play ``moves``; the last one's lines as ``viewer`` reads them."""
    *first, last = moves
    play(s, *first)
    before = s.clone()
    play(s, last)
    return s.game.ui.describe_log_entry(before, s, len(s.history) - 1, viewer, NAMES)


def test_a_resolution_names_the_captured_planet_and_the_card_that_took_it() -> None:
    s = build_position(["2 2 2 2", "3 2 2 2", "2 2 2 D"], players=2, deck=["p05", "p06"])
    taken = s.g.planet_label(s.pl[cell(s, 1, 2)])
    lines = told(s, (0, "P6@2,2"), (1, "P7@4,3"))
    assert lines[0].startswith("Bob placed a card face down on a Dark Planet at 4,3")
    assert lines[1].startswith("Turn 1 resolves")
    twin = s.g.cards[5].title
    assert f"Alice captured the Level 3 planet {taken} at 1,2 with Priority 6 ({twin})." in lines
    # p05 prints no name: players know it by its kind and where it lands, never by its code.
    assert "A 1/2 planet from the replacement deck takes its place at 1,2, Level 2 up." in lines
    assert not any("p05" in line for line in lines)
    assert lines[-1] == "The Dark Invader passes to Bob: turn 2 begins."


def test_a_destroyed_card_is_told_with_its_owner_and_the_card_that_destroyed_it() -> None:
    s = build_position(["2 2 2 2", "1 4 3 2", "2 2 2 D"], players=2)
    lines = told(s, (0, "P6@2,2"), (1, "P2@3,2"), viewer=None)
    assert any(
        line.startswith("Bob's Priority 2") and "at 3,2 was destroyed by Alice's Priority 6" in line
        for line in lines
    ), lines


def test_a_shield_capture_and_an_unused_shield_are_told() -> None:
    rows = ["2 2 2 2 2 2", "2 4 2 2 2 2", "2 2 2 2 2 D"]
    s = build_position(rows, players=3)
    lines = told(s, (0, "P6@2,2"), (1, "P7@5,2"), (2, "S@3,2"))
    assert any("Carol's Space Shield at 3,2 captured Alice's Priority 6" in x for x in lines)
    t = build_position(rows, players=3)
    lines = told(t, (0, "S@3,2"), (1, "P7@5,2"), (2, "P8@6,1"))
    assert "Alice's Space Shield at 3,2 caught nothing: it goes to Alice's Space Debris." in lines


def test_a_face_down_card_reads_face_down_to_everyone_but_its_owner() -> None:
    s = build_position(["2 2 2 2", "3 2 2 2", "2 2 2 D"], players=2)
    before = s.clone()
    play(s, (0, "P6@2,2"))
    ui = s.game.ui
    title = s.g.cards[5].title
    mine = ui.describe_log_entry(before, s, 0, 0, NAMES)
    name = s.g.p_name[s.pl[cell(s, 2, 2)]]
    planet = f"the Level 2 planet {name}" if name else "a Level 2 planet"
    assert mine == [f"Alice placed Priority 6 ({title}) face down on {planet} at 2,2."]
    for viewer in (1, None):
        theirs = ui.describe_log_entry(before, s, 0, viewer, NAMES)
        assert len(theirs) == 1 and "a card face down" in theirs[0]
        assert "P6" not in theirs[0] and "Priority" not in theirs[0] and title not in theirs[0]


def test_a_whole_game_is_told_in_words_numbered_without_gaps() -> None:
    s = walk(setup(players=3, seed=4), seed=9)
    for viewer in (None, 0, 1, 2):
        lines = narrate(s, viewer, NAMES)
        assert [x["n"] for x in lines] == list(range(1, len(lines) + 1))
        assert {x["index"] for x in lines} >= {
            i for i, (seat, _) in enumerate(s.history) if seat >= 0
        }, "every move is told"
        texts = [x["text"] for x in lines]
        assert not any(t.startswith(("?@", "grid ", "deck ", "missions ")) for t in texts)
        assert sum(t.startswith("Turn ") and "resolves" in t for t in texts) == s.turn
        assert texts[-1].startswith("The game is over")
