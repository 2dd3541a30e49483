"""The table's one-line summary of every seat (``GameUI.glance``, sent as ``glance`` in each
seat's view): read from the view alone, one line per player with the game's counts, and the
docked section names a part of that viewer's board."""

from __future__ import annotations

import random
import re

import pytest

from nightsky.core.game import State
from nightsky.core.registry import game_class, packaged_game_ids
from nightsky.server.views import seat_payload


def positions(game_id: str, players: int, seed: int, steps: int = 40) -> list[State]:
    """Every few steps of a random game."""
    state = game_class(game_id)(players).new_initial_state()
    rng = random.Random(seed)
    out = [state.clone()]
    for i in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.current_players()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
        if i % 8 == 7:
            out.append(state.clone())
    return out


@pytest.mark.parametrize("game_id", packaged_game_ids())
@pytest.mark.parametrize("players", [2, 3])
def test_glance_has_a_line_per_player_read_from_the_view(game_id: str, players: int) -> None:
    ui = game_class(game_id)(players).ui
    for state in positions(game_id, players, seed=players):
        for viewer in [None, *range(players)]:
            view = state.view(viewer)
            glance = ui.glance(view, viewer)
            assert len(glance["seats"]) == players
            for line in glance["seats"]:
                assert line["counts"], f"{game_id}: a seat's line has no counts"
                for c in line["counts"]:
                    assert isinstance(c["label"], str) and c["label"]
                    assert isinstance(c["value"], int) and c["value"] >= 0, c
                    assert not re.search(r"[a-z]_[a-z]", c["label"]), c  # words, no snake_case
            # The same view gives the same glance: nothing else is read.
            assert ui.glance(state.view(viewer), viewer) == glance
            payload = seat_payload(state, viewer)
            assert payload["glance"] == glance
            dock = glance["dock"]
            if viewer is None:
                assert dock is None  # a spectator has no hand
            elif dock is not None:
                assert f'data-section="{dock}"' in (payload["svg"] or ""), (game_id, dock)


def test_a_game_without_a_glance_module_shows_the_scores() -> None:
    """The contract's default: each seat's score where the view has ``scores``, no counts."""
    from nightsky.core.ui import GameUI

    class Plain(GameUI):
        pass

    view = {"scores": [3, 5]}
    # A game type outside any package with a glance module: the default applies.
    loose = type("Loose", (), {"__module__": "loose", "num_players": 2})()
    plain = Plain(loose)  # type: ignore[arg-type]
    assert plain.glance(view, 0) == {
        "seats": [{"score": 3, "counts": []}, {"score": 5, "counts": []}], "dock": None}
    game = game_class("stars-are-right")(2)  # a game with its own module: that answers
    assert game.ui.glance(game.new_initial_state().view(0), 0)["dock"] == "Your hand"
