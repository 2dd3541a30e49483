"""Summoning and bonus stars (TSAR-6.x, TSAR-7.x), and the rulebook's worked examples."""

from __future__ import annotations

import random
from typing import Any

import pytest

from nightsky.core.errors import IllegalActionError
from nightsky.core.game import CHANCE

from .util import game, names, play, pos


def _summons(s):
    acts = s.legal_actions(s.current)
    return {str(a).split(" @ ")[0] for a in acts if str(a).startswith("summon")}


def test_TSAR_6_1_one_summon_a_turn_from_hand() -> None:
    g = game()
    cells = {"a1": "V", "b1": "V", "c1": "V", "d1": "Su", "a3": "Sh", "b3": "1", "c3": "3"}
    s = pos(g, cells, [["gug-P", "deep-ones-S-4", "tcho-tcho-P-Mo"], ["gug-F"]])
    assert {"summon gug-P", "summon deep-ones-S-4"} <= _summons(s)
    play(s, "summon gug-P")
    assert names(s, s.creatures[0]) == ["gug-P"] and s.phase == 6
    with pytest.raises(IllegalActionError, match="TSAR-6.1"):
        play(s, "summon deep-ones-S-4")
    s = pos(g, cells, [["tcho-tcho-P-Mo"], ["gug-P"]])
    with pytest.raises(IllegalActionError, match="TSAR-6.1"):
        play(s, "summon gug-P")  # in the other seat's hand


def test_TSAR_6_2_all_constellations_on_separate_tiles() -> None:
    g = game()
    # V&V&V&Su needs three separate Void tiles: two are not enough.
    s = pos(g, {"a1": "V", "b1": "V", "c1": "5", "d1": "Su"}, [["gug-P"], []])
    assert "summon gug-P" not in _summons(s)
    with pytest.raises(IllegalActionError, match="TSAR-6.2"):
        play(s, "summon gug-P")
    # Deep Ones Sh-1 & 1-3: a single 1 between Sh and 3 cannot serve both pairs.
    s = pos(g, {"a1": "Sh", "b1": "1", "c1": "3", "e5": "Me", "e4": "Me"},
            [["deep-ones-S-4"], []])
    assert s.summon_placement(s.hands[0][0], ()) is None
    s = pos(g, {"a1": "Sh", "b1": "1", "c1": "3", "c2": "1", "e5": "Me", "e4": "Me"},
            [["deep-ones-S-4"], []])
    pl = s.summon_placement(s.hands[0][0], ())
    assert pl is not None and not pl[0] & pl[1]
    # Naming overlapping tiles is refused.
    with pytest.raises(IllegalActionError, match="TSAR-6.2"):
        play(s, "summon deep-ones-S-4 @ a1,b1; b1,c1")
    play(s, "summon deep-ones-S-4 @ a1,b1; c1,c2")


def test_TSAR_6_2_remembered_placements_follow_the_sky() -> None:
    # summon_placement remembers its answers for one sky, shared by clones: a clone whose sky
    # moves asks afresh, and the original keeps its own answers.
    g = game()
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P", "gug-F"], []])
    card = s.hands[0][0]
    assert g.cards[card].id == "miri-nigri-P"
    assert s.summon_placement(card, ()) is not None
    c = s.clone()
    assert c.summon_placement(card, ()) == s.summon_placement(card, ())
    play(c, "invoke gug-F", "flip a1")  # Gug (F) flips one tile: the full moon is gone
    assert c.summon_placement(card, ()) is None and "summon" not in str(c.legal_actions(0))
    assert s.summon_placement(card, ()) is not None
    assert any(str(a).startswith("summon miri-nigri-P") for a in s.legal_actions(0))
    s.pos_side[0] ^= 1  # a sky changed by hand must drop the masks, and with them the answers
    s._masks = None
    assert s.summon_placement(card, ()) is None


def test_TSAR_6_3_rotations_yes_mirrors_only_as_option() -> None:
    # Miri Nigri (P): Mo-Wx / 1-b. Its mirror image is Wx-Mo / b-1.
    mirror = {"b1": "Wx", "c1": "Mo", "c2": "1"}
    rotated = {"b1": "1", "c1": "Mo", "c2": "Wx"}  # turned 90 degrees clockwise
    for opt, cells, ok in ((False, rotated, True), (False, mirror, False),
                           (True, mirror, True)):
        g = game(mirror=opt)
        s = pos(g, cells, [["miri-nigri-P"], []])
        assert (s.summon_placement(s.hands[0][0], ()) is not None) is ok, (opt, cells)


def test_TSAR_6_4_dark_spaces_are_wild_but_inside_the_sky() -> None:
    g = game()
    # Hastur's Spawn (P): 1-b-So / b-Wn-b. Any tiles on the dark spaces.
    cells = {"c3": "1", "e3": "So", "d4": "Wn"}
    s = pos(g, cells, [["hasturs-spawn-P"], []])
    pl = s.summon_placement(s.hands[0][0], ())
    assert pl is not None and bin(pl[0]).count("1") == 3  # only the stars are used
    # The box as printed must fit: a star with dark spaces on both sides cannot sit in a
    # corner, whatever the turn.
    from nightsky.games.stars_are_right import matcher
    from nightsky.games.stars_are_right.components import parse_constellation

    h, w, cells = parse_constellation("b-1-b")
    shapes = matcher.orientations(h, w, cells, False)
    one = 0  # face index of "1"
    corner = [0] * 14
    corner[one] = 1 << 0  # a1
    assert matcher.find([shapes], corner) is None
    inside = [0] * 14
    inside[one] = 1 << 6  # b2
    assert matcher.find([shapes], inside) == [1 << 6]


def test_TSAR_6_5_void_is_a_real_face() -> None:
    g = game()
    s = pos(g, {"a1": "5", "b1": "5", "c1": "5", "d1": "Su"}, [["gug-P"], []])
    assert s.summon_placement(s.hands[0][0], ()) is None  # five stars are not Void
    s = pos(g, {"a1": "V", "b1": "V", "c1": "V", "d1": "Su"}, [["gug-P"], []])
    assert s.summon_placement(s.hands[0][0], ()) is not None


def test_TSAR_6_6_summoned_creature_scores_and_lends_power_later() -> None:
    g = game()
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P", "byakhee-P-Mo"], []])
    play(s, "summon miri-nigri-P")
    assert s.vp(0) == 2 and s.score_breakdown()[0]["greater_servitors"] == 2
    assert all(str(a) != "power miri-nigri-P" for a in s.legal_actions(0))


def test_TSAR_6_7_summon_names_its_tiles() -> None:
    g = game()
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P"], []])
    (act,) = [a for a in s.legal_actions(0) if str(a).startswith("summon")]
    assert str(act) == "summon miri-nigri-P @ a1,b1,a2"
    assert g.parse_action(str(act)) == act and g.parse_action(str(act)).tiles == act.tiles
    ui = g.ui.action_ui(s, act, 0)
    assert {"tile-0-0", "tile-0-1", "tile-1-0"} <= set(ui["targets"])
    with pytest.raises(IllegalActionError, match="TSAR-6.2"):
        play(s, "summon miri-nigri-P @ a1,b1,b2")
    play(s, "summon miri-nigri-P")  # no tiles: the rules place it
    assert s.view(1)["last_summon"]["tiles"] == [["a1", "b1", "a2"]]


def test_TSAR_6_8_seventh_creature_forces_a_discard_before_scoring() -> None:
    g = game()
    six = ["deep-ones-P-L", "deep-ones-P-4", "deep-ones-P-Sh", "formless-P-Mo",
           "formless-P-1", "formless-P-Wx"]
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P"], []], [six, []])
    play(s, "summon miri-nigri-P")
    assert s.phase == 7 and len(s.creatures[0]) == 7
    assert {type(a).__name__ for a in s.legal_actions(0)} == {"Release"}
    with pytest.raises(IllegalActionError, match="TSAR-6.8"):
        play(s, "end")
    play(s, "release deep-ones-P-L")
    assert len(s.creatures[0]) == 6 and s.vp(0) == 7 and names(s, s.discard) == ["deep-ones-P-L"]


def test_TSAR_6_8_scores_count_the_six_kept_while_a_seventh_waits() -> None:
    # Six Lesser Servitors (1 VP each) and a seventh creature, Miri Nigri (2 VP): until one
    # goes, the seat is scored as if it let its least valuable creature go (7 VP, not 8).
    g = game()
    six = ["deep-ones-P-L", "deep-ones-P-4", "deep-ones-P-Sh", "formless-P-Mo",
           "formless-P-1", "formless-P-Wx"]
    s = pos(g, {"a1": "Mo", "b1": "Wx", "a2": "1"}, [["miri-nigri-P"], []],
            [six, ["dagoon-P"]])
    play(s, "summon miri-nigri-P")
    assert s.phase == 7 and len(s.creatures[0]) == 7
    assert s.vp(0) == 7 and s.scores() == [7.0, 2.0]
    assert s.view(0)["scores"] == [7, 2] and s.view(None)["scores"] == [7, 2]
    b = s.score_breakdown()[0]
    assert b["total"] == 7 and b["creatures"] == 6
    assert b["lesser_servitors"] == 5 and b["greater_servitors"] == 2
    assert names(s, s.creatures[0])[-1] == "miri-nigri-P"  # nothing has left play yet
    # Letting Miri Nigri go instead costs the seat what it could have kept.
    play(s, "release miri-nigri-P")
    assert s.vp(0) == 6 and s.scores() == [6.0, 2.0]


CHAUGNAR = {"a1": "So", "b1": "Wn", "d1": "1", "a2": "Sh", "d2": "Mo", "e5": "Sh", "e4": "Sh"}


def test_TSAR_7_1_bonus_star_blanks_a_star_of_its_great_old_one() -> None:
    g = game()
    s = pos(g, CHAUGNAR, [["chaugnar-P"], []])
    assert _summons(s) == set()
    s = pos(g, CHAUGNAR, [["chaugnar-P"], []], [["miri-nigri-S"], []])
    assert _summons(s) == {"summon chaugnar-P +miri-nigri-S"}


def test_TSAR_7_2_at_most_three_bonus_stars_each_on_a_shown_star() -> None:
    g = game()
    # Chaugnar (P) shows So Wn 1 Me Mo. Servitors of Chaugnar with bonus Mo, 1, Me, Mo.
    s = pos(g, {}, [["chaugnar-P"], []],
            [["miri-nigri-P", "miri-nigri-F", "miri-nigri-S", "tcho-tcho-P-Mo"], []])
    opts = s.bonus_options(0, s.hands[0][0])
    assert all(len(o) <= 3 for o in opts)
    faces = [sorted(g.cards[x].bonus for x in o) for o in opts]
    assert all(len(set(f)) == len(f) for f in faces)  # two Mo stars cannot both be used
    assert max(len(o) for o in opts) == 3
    # A Servitor of another Great Old One gives nothing.
    s = pos(g, {}, [["chaugnar-P"], []], [["dagoon-P"], []])
    assert s.bonus_options(0, s.hands[0][0]) == [()]
    from nightsky.games.stars_are_right.actions import Summon

    four = pos(g, CHAUGNAR, [["chaugnar-P"], []],
               [["miri-nigri-P", "miri-nigri-F", "miri-nigri-S", "tcho-tcho-P-1"], []])
    ids = tuple(sorted(four.creatures[0]))
    with pytest.raises(IllegalActionError, match="TSAR-7.2"):
        four.apply(Summon(four.hands[0][0], ids, "summon with four"), 0)
    other = pos(g, CHAUGNAR, [["chaugnar-P"], []], [["dagoon-S"], []])
    with pytest.raises(IllegalActionError, match="TSAR-7.2"):
        other.apply(Summon(other.hands[0][0], (other.creatures[0][0],), "summon x"), 0)


def test_TSAR_7_3_lesser_servitor_used_is_discarded_greater_stays() -> None:
    g = game()
    # Chaugnar (P) without So (blanked by nothing) - use Tcho Tcho (F, bonus Mo) and Miri (S).
    cells = {"a1": "So", "b1": "Wn", "d1": "1", "a2": "Sh", "d2": "L", "e5": "Sh", "e4": "Sh",
             "c5": "L"}
    s = pos(g, cells, [["chaugnar-P"], []], [["miri-nigri-S", "tcho-tcho-F-Mo"], []])
    assert _summons(s) == {"summon chaugnar-P +miri-nigri-S +tcho-tcho-F-Mo"}
    play(s, "summon chaugnar-P +miri-nigri-S +tcho-tcho-F-Mo")
    assert names(s, s.creatures[0]) == ["miri-nigri-S", "chaugnar-P"]
    assert names(s, s.discard) == ["tcho-tcho-F-Mo"]


def test_TSAR_7_4_bonus_stars_only_for_their_great_old_one() -> None:
    g = game()
    # Miri Nigri (S) gives Meteors; Dagoon (S) needs 4-Me-b-5 and gets no help from it.
    s = pos(g, {"a1": "4", "b1": "Sh", "d1": "5", "e5": "Sh", "e4": "Sh"}, [["dagoon-S"], []],
            [["miri-nigri-S"], []])
    assert s.bonus_options(0, s.hands[0][0]) == [()]
    assert _summons(s) == set()


# ------------------------------------------------------------ the rulebook's worked examples
EXAMPLES = [
    pytest.param("harvey-deep-ones", id="TSAR-4.1-harvey-deep-ones"),
    pytest.param("harvey-byakhee", id="TSAR-4.3-harvey-byakhee-miri-nigri-formless"),
    pytest.param("deep-ones-constellation", id="TSAR-6.2-deep-ones-constellation"),
    pytest.param("chaugnar-bonus-star", id="TSAR-7.1-chaugnar-miri-nigri-bonus-star"),
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", EXAMPLES)
def test_rulebook_examples_as_tutorials(name: str, players: int) -> None:
    g = game(players)
    t = g.tutorial(name)
    s = t.build()
    for seat, text in t.steps:
        s.apply(g.parse_action(text), seat)
    if name == "harvey-deep-ones":
        assert s.symbols == [0, 1, 1]  # one swap, one flip
    elif name == "harvey-byakhee":
        assert s.symbols == [1, 1, 0]  # one push, one swap
        play(s, "swap a1 b1", "push row 2 right")  # either order works
        assert s.phase == 5
    elif name == "deep-ones-constellation":
        assert names(s, s.creatures[0]) == ["deep-ones-S-4"]
        assert s.view(None)["last_summon"]["tiles"] == [["a1", "a2"], ["c4", "d4"]]
    else:
        assert names(s, s.creatures[0]) == ["miri-nigri-S", "chaugnar-P"] and s.vp(0) == 6


def test_rulebook_example_chaugnar_needs_the_bonus() -> None:
    g = game()
    s = g.tutorial("chaugnar-bonus-star").build()
    with pytest.raises(IllegalActionError, match="TSAR-6.2"):
        play(s, "summon chaugnar-P")


@pytest.mark.parametrize("name", EXAMPLES)
def test_rulebook_examples_load_in_the_cli(name: str) -> None:
    """``nightsky play stars-are-right --tutorial NAME`` starts from the example and says so."""
    from typer.testing import CliRunner

    from nightsky.cli import _load_commands, app

    _load_commands()
    g = game()
    t = g.tutorial(name)
    out = CliRunner().invoke(app, ["play", "stars-are-right", "--players", "2", "--seats",
                                   "random,random", "--seed", "3", "--tutorial", name])
    assert out.exit_code == 0, out.output
    assert t.title in out.output and "The example plays" in out.output
    assert "Final score" in out.output


def test_TSAR_6_2_kept_summonings_are_the_ones_computed_afresh() -> None:
    # ``summons`` keeps each sky's summonings (``_ready``, shared by clones as the placements
    # are): over a random game they equal a fresh computation from the sky, tiles included.
    g = game()
    rng = random.Random(5)
    s = g.new_initial_state()
    checked = 0
    for _ in range(3000):
        players = s.current_players()
        if not players:
            break
        seat = players[0]
        if seat == CHANCE:
            s.step(s.sample_chance(rng), CHANCE)
            continue
        fresh = s.clone()
        kept = s.summons(seat)
        g.tables.skies.clear()  # nothing remembered for any sky (``Tables.skies``)
        fresh._masks = None  # a new sky for the copy
        assert kept == fresh.summons(seat)
        assert [a.tiles for a in kept] == [a.tiles for a in fresh.summons(seat)]
        checked += bool(kept)
        s.step(rng.choice(s.legal_actions(seat)), seat)
    assert checked > 0


def test_the_tables_are_the_games_own_records() -> None:
    g = game()
    t = g.tables
    for c in g.cards:
        assert (t.kind[c.idx], t.vp[c.idx], t.name[c.idx], t.ruler[c.idx]) == (
            c.kind, c.vp, c.name, c.ruler)
        assert t.power_from[c.idx] == c.power_from
        assert t.invocation[c.idx] == list(c.invocation)
        assert t.invoke_action[c.idx] is g.invoke_action[c.idx]
        assert t.summon_text[c.idx] == g.summon_action[(c.idx, ())].text
        assert (t.minion[c.idx] >= 0) == bool(c.minion)
    assert t.max_turns == g.options["max_rounds"] * g.num_players


def _dealt(g: Any, rng: random.Random) -> Any:
    """A new game after its set-up chance events (the sky laid, the hands dealt)."""
    s = g.new_initial_state()
    while s.current_players() == (CHANCE,):
        s.step(s.sample_chance(rng), CHANCE)
    return s


def test_TSAR_6_2_a_sky_met_again_reuses_its_answers() -> None:
    # ``Tables.skies``: two states that reach the same sky by different paths share its
    # placements and summonings (a search meets the same skies in every iteration), and a
    # state whose sky moves gets that sky's own answers, never the old ones.
    g = game()
    s = _dealt(g, random.Random(11)).resample(0, random.Random(1))  # as a search's state
    assert s._share_skies
    seat = s.current_players()[0]
    s._masks = None
    s.summons(seat)
    other = s.clone()
    other._masks = None  # as a state that arrived at this sky by other moves
    assert other.masks() == s.masks()
    assert other._placed is s._placed and other._ready is s._ready
    moved = s.clone()
    moved.pos_side[0] ^= 1  # a flip: another sky
    moved._masks = None
    assert moved.masks() != s.masks()
    assert moved._placed is not s._placed
    g.tables.skies.clear()
    fresh = moved.clone()
    fresh._masks = None
    assert moved.summons(seat) == fresh.summons(seat)


def test_the_sky_cache_is_bounded() -> None:
    from nightsky.games.stars_are_right.tables import SKY_CACHE

    g = game()
    rng = random.Random(12)
    s = _dealt(g, rng).resample(0, random.Random(2))
    g.tables.skies.clear()
    sizes = []
    for _ in range(SKY_CACHE + 5):
        rng.shuffle(s.pos_tile)  # another sky (almost surely one not met yet)
        s._masks = None
        s.masks()
        sizes.append(len(g.tables.skies))
    assert max(sizes) == SKY_CACHE  # filled up to the bound, never beyond
    assert sizes[-1] < SKY_CACHE  # then started afresh


def test_a_played_game_keeps_its_answers_to_itself() -> None:
    # Outside a search (a played game, a random playout) skies seldom recur: a state keeps
    # its answers for its own sky and the game's shared cache stays empty.
    g = game()
    g.tables.skies.clear()
    s = _dealt(g, random.Random(13))
    assert not s._share_skies
    s.summons(s.current_players()[0])
    assert not g.tables.skies
    assert s.clone()._placed is s._placed  # clones still share it until their sky moves
