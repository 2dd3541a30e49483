"""Discarding, drawing, Minions, victory and hidden information (TSAR-8.x .. TSAR-11.1)."""

from __future__ import annotations

import json
import random

import pytest

from nightsky.core.errors import IllegalActionError, OptionError
from nightsky.core.game import CHANCE

from .util import cid, game, names, play, pos, setup

HAND = ["byakhee-P-Mo", "tcho-tcho-F-Mo", "formless-S-1", "deep-ones-S-L", "dagoon-P"]


def _draw_all(s, seed=0):
    rng = random.Random(seed)
    while s.is_chance_node():
        s.apply(s.sample_chance(rng), CHANCE)


def test_TSAR_8_1_one_discard_or_two_with_a_ghoul() -> None:
    g = game()
    s = pos(g, {}, [list(HAND), ["gug-F"]])
    play(s, "discard byakhee-P-Mo")
    assert s.is_chance_node()  # the one discard is done: straight on to the draw
    s = pos(g, {}, [list(HAND), ["gug-F"]], [["ghouls-P"], []])
    play(s, "discard byakhee-P-Mo")
    assert s.phase == 6
    play(s, "discard tcho-tcho-F-Mo")
    assert s.is_chance_node()
    s = pos(g, {}, [list(HAND), ["gug-F"]], [["ghouls-P"], []])
    play(s, "discard byakhee-P-Mo")
    s.creatures[0] = ()  # lose the Ghoul: the limit is one again
    with pytest.raises(IllegalActionError, match="TSAR-8.1"):
        play(s, "discard tcho-tcho-F-Mo")


def test_TSAR_8_2_draw_to_five_keep_a_bigger_hand() -> None:
    g = game()
    s = pos(g, {}, [HAND[:2], ["gug-F"]])
    play(s, "end")
    _draw_all(s)
    assert len(s.hands[0]) == 5 and s.current == 1
    s = pos(g, {}, [[*HAND, "gug-P", "gug-S"], ["gug-F"]])
    play(s, "end")
    assert len(s.hands[0]) == 7 and s.current == 1 and not s.is_chance_node()


def test_TSAR_8_3_empty_deck_reshuffles_the_discards() -> None:
    g = game()
    s = pos(g, {}, [HAND[:4], ["gug-F"]], discard=["gug-P", "gug-S"])
    keep = s.deck[:]
    s.deck = []
    play(s, "end")
    assert s.reshuffles == 1 and sorted(s.deck) == sorted([cid(g, "gug-P"), cid(g, "gug-S")])
    assert s.discard == [] and s.is_chance_node()
    outs = s.chance_outcomes()
    assert len(outs) == 2 and all(abs(p - 0.5) < 1e-9 for _, p in outs)
    _draw_all(s)
    assert len(s.hands[0]) == 5
    assert keep  # the rest of the cards were set aside by the test


def test_TSAR_8_4_the_deck_runs_out_once_too_often() -> None:
    g = game(reshuffles=0)
    s = pos(g, {}, [HAND[:4], ["gug-F"]], [["dagoon-P"], []], discard=["gug-P"])
    s.deck = []
    play(s, "end")
    assert s.is_terminal() and s.end_reason == "deck" and s.winners() == [0]
    g = game(reshuffles=1)
    s = pos(g, {}, [HAND[:4], ["gug-F"]], discard=["gug-P"])
    s.deck = []
    play(s, "end")
    assert not s.is_terminal() and s.reshuffles == 1


def test_TSAR_8_4_by_default_the_deck_is_rebuilt_whenever_it_runs_out() -> None:
    # The book sets no limit: a deck used up for the third (or fiftieth) time is rebuilt too.
    g = game()
    assert g.options["reshuffles"] == -1
    for before in (2, 50):
        s = pos(g, {}, [HAND[:4], ["gug-F"]], [["dagoon-P"], []], discard=["gug-P"])
        s.deck = []
        s.reshuffles = before
        play(s, "end")
        assert not s.is_terminal() and s.reshuffles == before + 1
        assert s.deck == [cid(g, "gug-P")] and s.is_chance_node()
        assert s.game.evaluator.end_condition(s) is None
    # The Dhole may take from an empty deck whenever there are discards to rebuild it from.
    s = pos(g, {}, [HAND[:3], ["gug-F"]], [["dhole-P"], []], discard=["gug-P"])
    s.deck = []
    s.reshuffles = 7
    play(s, "take deck dhole-P")
    assert s.reshuffles == 8 and s.is_chance_node()
    # The short game stays selectable: reshuffles=2 ends on points at the third exhaustion.
    g = game(reshuffles=2)
    s = pos(g, {}, [HAND[:4], ["gug-F"]], [["dagoon-P"], []], discard=["gug-P"])
    s.deck = []
    s.reshuffles = 2
    play(s, "end")
    assert s.is_terminal() and s.game.evaluator.end_condition(s) == "deck" and s.winners() == [0]
    with pytest.raises(OptionError, match="reshuffles"):
        game(reshuffles=-2)


def test_TSAR_8_5_nothing_left_to_draw() -> None:
    g = game()
    s = pos(g, {}, [HAND[:4], ["gug-F"]])
    s.deck = []
    play(s, "end")
    assert s.current == 1 and len(s.hands[0]) == 4 and not s.is_terminal()


def test_TSAR_9_1_minions_work_only_when_summoned_and_change_no_symbols() -> None:
    g = game()
    s = pos(g, {}, [["dhole-P", *HAND[:2]], ["gug-F"]], discard=["gug-P"])
    acts = [str(a) for a in s.legal_actions(0)]
    assert not any(a.startswith("take") for a in acts)
    assert not any(a.startswith("power") for a in acts)
    from nightsky.games.stars_are_right.actions import Take

    with pytest.raises(IllegalActionError, match="TSAR-9.1"):
        s.apply(Take(cid(g, "dhole-P"), False, "take discard dhole-P"), 0)
    assert all(c.power_from < 0 for c in g.cards if c.kind == 3)


def _exchange_position(minion: str, mine: str, theirs: str):
    g = game()
    return g, pos(g, {}, [list(HAND[:3]), ["gug-F"]], [[minion, mine], [theirs]])


def test_TSAR_9_2_gug_trades_lesser_servitors() -> None:
    g, s = _exchange_position("gug-P", "deep-ones-P-L", "formless-P-Mo")
    play(s, "exchange gug-P deep-ones-P-L for formless-P-Mo")
    assert names(s, s.creatures[0]) == ["formless-P-Mo"]
    assert names(s, s.creatures[1]) == ["deep-ones-P-L"]
    assert names(s, s.discard) == ["gug-P"]
    g, s = _exchange_position("gug-P", "deep-ones-P-L", "dagoon-P")
    assert not any(str(a).startswith("exchange") for a in s.legal_actions(0))
    from nightsky.games.stars_are_right.actions import Exchange

    with pytest.raises(IllegalActionError, match="TSAR-9.2"):
        s.apply(Exchange(cid(g, "gug-P"), cid(g, "deep-ones-P-L"), cid(g, "dagoon-P"), "x"), 0)


def test_TSAR_9_3_tindaloo_trades_greater_servitors() -> None:
    g, s = _exchange_position("tindaloo-P", "dagoon-P", "miri-nigri-P")
    play(s, "invoke byakhee-P-Mo")
    play(s, "exchange tindaloo-P dagoon-P for miri-nigri-P")
    # TSAR-4.4: the creature received lends its power this very turn.
    play(s, "power miri-nigri-P")
    assert s.symbols == [2, 0, 0]


def test_TSAR_4_4_power_used_then_no_giving_away() -> None:
    g, s = _exchange_position("tindaloo-P", "dagoon-P", "miri-nigri-P")
    play(s, "invoke byakhee-P-Mo", "power dagoon-P")
    assert not any(str(a).startswith("exchange") for a in s.legal_actions(0))
    with pytest.raises(IllegalActionError, match="TSAR-4.4"):
        play(s, "exchange tindaloo-P dagoon-P for miri-nigri-P")


def test_TSAR_9_4_dhole_takes_the_top_card_of_deck_or_discards() -> None:
    g = game()
    s = pos(g, {}, [HAND[:3], ["gug-F"]], [["dhole-P"], []], discard=["gug-P", "gug-S"])
    play(s, "take discard dhole-P")
    assert "gug-S" in names(s, s.hands[0]) and names(s, s.discard) == ["gug-P", "dhole-P"]
    assert s.view(1)["known_in_hands"][0] == ["gug-S"]  # everyone saw it taken
    s = pos(g, {}, [HAND[:3], ["gug-F"]], [["dhole-P"], []])
    play(s, "take deck dhole-P")
    assert s.is_chance_node() and s.view(None)["resolving"] == "dhole-P"
    _draw_all(s)
    assert len(s.hands[0]) == 4 and names(s, s.discard) == ["dhole-P"] and s.phase == 2
    s.deck = []
    s.creatures[0] = (cid(g, "dhole-F"),)
    s.discard.remove(cid(g, "dhole-P"))
    with pytest.raises(IllegalActionError, match="TSAR-9.4"):
        play(s, "take discard dhole-F")


def test_TSAR_9_5_ghast_hand_of_six() -> None:
    g = game()
    s = pos(g, {}, [HAND[:2], ["gug-F"]], [["ghast-P"], []])
    play(s, "end")
    _draw_all(s)
    assert len(s.hands[0]) == 6


def test_TSAR_9_6_ghouls_discard_two() -> None:
    g = game()
    s = pos(g, {}, [list(HAND), ["gug-F"]], [["ghouls-S"], []])
    assert s.discard_limit(0) == 2 and s.discard_limit(1) == 1


def test_TSAR_9_7_discard_minions_at_any_time_of_the_turn() -> None:
    g = game()
    s = pos(
        g,
        {"a1": "Mo", "b1": "Wx", "a2": "1"},
        [["miri-nigri-P", "byakhee-P-Mo"], ["gug-F"]],
        [["dhole-P", "dhole-F", "dhole-S"], []],
        discard=["gug-P", "gug-S", "tcho-tcho-P-1"],
    )
    play(s, "take discard dhole-P")  # before invoking
    play(s, "invoke byakhee-P-Mo")
    play(s, "take discard dhole-F")  # with symbols unspent
    play(s, "push row 5 right")
    play(s, "summon miri-nigri-P")
    play(s, "take discard dhole-S")  # after summoning
    assert s.phase == 6
    # Not while a seventh creature waits to be released, nor in another seat's turn.
    six = [
        "deep-ones-P-4",
        "deep-ones-P-Sh",
        "formless-P-Mo",
        "formless-P-1",
        "formless-P-Wx",
        "dhole-P",
    ]
    s = pos(
        g,
        {"a1": "Mo", "b1": "Wx", "a2": "1"},
        [["miri-nigri-P"], ["gug-F"]],
        [six, []],
        discard=["gug-P"],
    )
    play(s, "summon miri-nigri-P")
    with pytest.raises(IllegalActionError, match="TSAR-6.8"):
        play(s, "take discard dhole-P")
    with pytest.raises(IllegalActionError):
        s.apply(g.parse_action("take discard dhole-P"), 1)


def test_TSAR_10_1_vp_are_the_creatures_in_play() -> None:
    g = game()
    s = pos(g, {}, [[], []], [["chaugnar-P", "dagoon-P", "deep-ones-P-L", "gug-P"], []])
    assert s.vp(0) == 4 + 2 + 1 + 0 and s.scores() == [7.0, 0.0]


def test_TSAR_10_2_ten_vp_wins_at_once() -> None:
    g = game()
    s = pos(
        g,
        {"a1": "Mo", "b1": "Wx", "a2": "1"},
        [["miri-nigri-P"], ["gug-F"]],
        [["chaugnar-P", "hastur-P"], []],
    )
    play(s, "summon miri-nigri-P")
    assert s.is_terminal() and s.end_reason == "goal" and s.winners() == [0]
    assert s.returns() == [1.0, 0.0]


def test_TSAR_10_3_round_cap_ends_on_points() -> None:
    g = game(max_rounds=1)
    s = pos(g, {}, [HAND[:4], ["gug-F"]], [["dagoon-P"], ["dagoon-S"]])
    play(s, "end")
    _draw_all(s)
    play(s, "end")
    _draw_all(s)
    assert s.is_terminal() and s.end_reason == "rounds" and s.winners() == [0, 1]


def test_TSAR_10_3_the_default_safeguard_is_1000_rounds() -> None:
    # Games played to the goal took up to 290 rounds: the default cap lies far beyond them.
    g = game()
    assert g.options["max_rounds"] == 1000
    s = pos(g, {}, [HAND, ["gug-F", "gug-P", "gug-S", "dhole-P", "dhole-S"]])
    s.turn = 60 * 2 - 1  # the last turn of round 60, the former default cap
    play(s, "end")
    assert not s.is_terminal() and s.current == 1 and s.turn == 120
    s.turn = 1000 * 2 - 1
    play(s, "end", seat=1)
    assert s.is_terminal() and s.winners() == [0, 1]
    assert s.game.evaluator.end_condition(s) == "rounds"


def test_TSAR_8_4_and_TSAR_10_3_the_simulator_counts_how_games_end() -> None:
    from typer.testing import CliRunner

    from nightsky.cli import _load_commands, app
    from nightsky.sim.runner import MatchSpec, run_matches

    spec = MatchSpec("stars-are-right", {"players": 3, "reshuffles": 0, "max_rounds": 15},
                     ("random",) * 3, 3)
    results = list(run_matches(spec, 8))
    ends = [r.end for r in results]
    assert set(ends) == {"deck", "rounds"}  # this seed gives both caps
    _load_commands()
    out = CliRunner().invoke(app, [
        "simulate", "stars-are-right", "--players", "3", "--agents", "random", "--games", "8",
        "--seed", "3", "--option", "reshuffles=0", "--option", "max_rounds=15", "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["end_conditions"] == {e: ends.count(e) for e in dict.fromkeys(ends)}


def test_TSAR_11_1_views_hide_hands_and_deck_resample_redraws_them() -> None:
    g = game(3)
    s = setup(g, 4)
    v0, vn = s.view(0), s.view(None)
    assert v0["hand"] == names(s, s.hands[0]) and vn["hand"] is None
    text = str(s.view(1))
    for c in names(s, s.hands[0]):
        if c not in names(s, s.hands[1]):
            assert c not in text
    assert "deck" not in str({k: v for k, v in v0.items() if k != "deck_size"})
    r = s.resample(0, random.Random(1))
    assert r.view(0) == v0 and r.hands[0] == s.hands[0]
    assert r.hands[1] != s.hands[1] or r.hands[2] != s.hands[2]
    assert sorted(r.deck + r.hands[1] + r.hands[2]) == sorted(s.deck + s.hands[1] + s.hands[2])
    # A card seen entering a hand stays there in every resample.
    s.known[1] = (s.hands[1][0],)
    for seed in range(5):
        assert s.hands[1][0] in s.resample(0, random.Random(seed)).hands[1]


def test_TSAR_9_7_dhole_still_usable_after_the_last_discard() -> None:
    g = game()
    s = pos(g, {}, [list(HAND), ["gug-F"]], [["dhole-P"], []], discard=["gug-P"])
    play(s, "discard byakhee-P-Mo")
    assert not s.is_chance_node()
    assert {str(a) for a in s.legal_actions(0)} == {
        "take deck dhole-P",
        "take discard dhole-P",
        "end",
    }
    play(s, "take discard dhole-P", "end")
    assert "byakhee-P-Mo" in names(s, s.hands[0])
