"""SF-16.1 audited on whole games: every elimination is checked by brute force.

Seeded 2-6 player games (greedy and random seats) are played to the end. At the start of every
turn, and at every turn that began and ended inside one step (nothing to decide), the seat's
verdict is checked by ``two_actions``, an enumeration written here, independent of the engine's
``can_take_two``: on a copy where that seat is to act with two actions, it tries every legal
first action through the public ``legal_actions``/``apply`` API and asks whether a second one
is then legal. A seat put on its last turn (and so eliminated) must have no such sequence; a
seat judged able to act must have one.

What the rules say (rulebook, game flow), restated here for the enumeration:

* a Divine Intervention or a Gamma Ray Burst on a Star costs both actions (SF-10.2, SF-11.1);
* discarding (2 actions) keeps nobody in the game (SF-16.1 ruling, default options);
* a card drawn unseen brings nothing to count on: after such a draw only a second draw counts,
  and that needs two cards left to draw in all, the spent elements included until the one
  reshuffle (SF-15.1). Any other action stays legal after a draw (a draw removes nothing but
  the card), so "draw, then X" is found as "X, then draw".
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from nightsky.agents import make_agent
from nightsky.core import CHANCE
from nightsky.games.star_fire.constants import PH_PLAY
from tests.games.star_fire.helpers import game


def _drawable(s: Any, seat: int) -> int:
    """Cards left to draw, as the seat sees them (deck counts, spent elements before the
    reshuffle)."""
    v = s.view(seat)
    n = sum(d["count"] for d in v["decks"].values())
    return n + (0 if v["reshuffled"] else len(v["spent"]))


def _costs_two(s: Any, action: Any) -> bool:
    text = str(action)
    word, _, card = text.partition(" ")
    card = card.split(" ")[0]
    return word in ("divine", "gamma") and s.C.by_name[card] in s.C.stars


def _turn_goes_on(s: Any, seat: int) -> bool:
    """After the first action: the same turn of ``seat`` with a legal second action."""
    if s.current_players() != (seat,) or s.view(seat)["actions_taken"] != 1:
        return False
    return any(str(a) != "end" for a in s.legal_actions(seat))


def _finish(s: Any, seat: int, drawable: int, seen: set[Any]) -> bool:
    """Complete a first action (Worm Hole steals, Transmutation choices) every way; True
    when some way leaves a second action."""
    if s.is_chance_node():  # an unseen card: only a second draw can follow
        return drawable >= 2
    v = s.view(seat)
    if v["substep"]:
        key = (v["substep"], v["substep_units"], tuple(sorted(
            (c["card"], c["wild"]) for c in v["players"][seat]["nursery"])))
        if key in seen:
            return False
        seen.add(key)
        for a in s.legal_actions(seat):
            t = s.clone()
            t.apply(a, seat)
            if _finish(t, seat, drawable, seen):
                return True
        return False
    return _turn_goes_on(s, seat)


def two_actions(state: Any, seat: int, eliminated: list[bool] | None = None) -> str | None:
    """A legal two-action sequence for ``seat`` from ``state`` (its first action), or None.

    The copy gets ``seat`` to act at the start of a turn of two actions; ``eliminated`` are
    the flags at that moment (default: the state's)."""
    s = state.clone()
    s.forget_history()
    s.phase = PH_PLAY
    s.queue = []
    s.cur = seat
    s.eliminated = list(eliminated if eliminated is not None else state.eliminated)
    s.eliminated[seat] = False
    s.actions_left, s.actions_taken, s.last_turn = 2, 0, False
    s.sub, s.credit, s.fusion_now = 0, [0, 0, 0, 0, 0], False
    s._legal = None
    drawable = _drawable(s, seat)
    for a in s.legal_actions(seat):
        if str(a) == "end" or str(a).startswith("discard"):
            continue
        if _costs_two(s, a):
            return str(a)
        t = s.clone()
        t.apply(a, seat)
        if _finish(t, seat, drawable, set()):
            return str(a)
    return None


def _skipped_starts(prev: Any, s: Any) -> list[tuple[int, list[bool], bool]]:
    """Turns that began and ended within the step from ``prev`` to ``s`` (nothing to decide):
    (seat, eliminated flags at that start, eliminated at its end). Nothing on the table changed
    between them and ``s``. The turn order is walked here (SF-3.1, SF-16.5): the turn in
    progress at ``prev`` ends with an elimination when it was a last turn; a skipped turn
    does when its seat was eliminated in this step."""
    n = s.n
    newly = {q for q in range(n) if s.eliminated[q] and not prev.eliminated[q]}
    flags = prev.eliminated[:]
    walked: list[tuple[int, list[bool]]] = []
    cur, ends_out = (prev.cur, prev.last_turn) if prev.phase == PH_PLAY else (-1, False)
    for _ in range(s.turns - prev.turns):
        if ends_out:
            flags[cur] = True
        active = [q for q in range(n) if not flags[q]]
        cur = next((q for q in active if q > cur), active[0])
        walked.append((cur, flags[:]))
        ends_out = cur in newly
    if s.is_terminal():
        if ends_out:
            flags[cur] = True
    else:
        assert not walked or walked.pop()[0] == s.cur  # that turn waits for a decision
    assert flags == s.eliminated, "the walk of the turn order disagrees with the game"
    return [(q, fl, q in newly) for q, fl in walked]


def audit(players: int, seed: int, seats: list[str]) -> tuple[int, int]:
    """Play one seeded game; check every turn start. Returns (eliminations, checked)."""
    rng = random.Random(seed)
    agents = [make_agent(kind) for kind in seats]
    s = game(players).new_initial_state()
    checked: set[int] = set()  # seats whose last turn start was checked
    last_start = -1
    while not s.is_terminal():
        p = s.current_players()[0]
        if p != CHANCE and s.phase == PH_PLAY and s.turns != last_start:
            last_start = s.turns
            assert s.actions_taken == 0 and s.sub == 0
            witness = two_actions(s, p)
            assert (witness is None) == s.last_turn, (players, seed, s.turns, p, witness)
            if s.last_turn:
                checked.add(p)
        prev = s.clone()
        if p == CHANCE:
            s.step(s.sample_chance(rng), CHANCE)
        else:
            s.step(agents[p].choose(s, p, rng), p)
        for q, flags, out in _skipped_starts(prev, s):
            witness = two_actions(s, q, flags)
            assert (witness is None) == out, (players, seed, s.turns, q, witness)
            if out:
                checked.add(q)
    return sum(s.eliminated), len(checked)


GAMES = {2: 4, 3: 4, 4: 3, 5: 3, 6: 3}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_sf_16_1_every_elimination_in_seeded_games_had_no_two_action_sequence(
    players: int,
) -> None:
    eliminated = checked = 0
    for seed in range(GAMES[players]):
        # Mostly greedy seats (their games end by elimination), one random seat in odd seeds.
        seats = ["greedy"] * players
        if seed % 2:
            seats[seed % players] = "random"
        e, c = audit(players, 1600 + seed, seats)
        eliminated += e
        checked += c
    print(f"{players} players: {eliminated} eliminations, {checked} checked by brute force")
    assert eliminated > 0 and checked == eliminated
