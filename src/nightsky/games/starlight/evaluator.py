"""How Starlight judges a position (``StarlightEvaluator``, ``game.evaluator``): the heuristic
``greedy`` maximises, points now plus the promise of what a seat holds.

The weights are tuned so that every small action of a good turn is a small gain on its own
(a one-ply search only sees one action ahead): a ray towards a Core's plan is worth more than
the action point it costs, a step towards a Launch space with a ready star is worth more than
the step, and a star being launched is worth more than the same star still in hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from nightsky.core.components import data_path
from nightsky.core.evaluator import Evaluator
from nightsky.core.linear_value import LinearValue, load_linear_value
from nightsky.games.starlight.constants import BETWEEN, CHOOSE_STAR

if TYPE_CHECKING:
    from nightsky.core.state import State

    # Typed so that compiled, every call on the state is a native one.
    from nightsky.games.starlight.state import StarlightState

AP_VALUE = 0.45
SAVED_VALUE = 0.4
READY_CORE = 5.5
LAUNCHING = 8.0
RAY = 0.6
FLARE = 1.2
PRIVILEGE = 1.5
TURN = 2.5  # what a fresh turn is worth: ending one early is not free
HAND_CAP = 6  # action points in hand that count for ``greedy`` (see ``cutoff_values``)
SEARCH_HAND_CAP = 11  # a turn's 5 (6 with the privilege) plus up to 5 saved (SL-2.5, SL-2.7)


def turns_started(s: StarlightState, p: int) -> int:
    """Turns the seat has begun so far (seats take turns in seat order within a round)."""
    if s.round <= 0:
        return 0
    return s.round if s.turn >= p else s.round - 1


def _launch_distance(s: StarlightState, p: int) -> int:
    """Steps from the seat's marker to the nearest Launch space where it could launch.

    0 only when the seat has moved this turn onto a Launch space it has not launched from:
    a marker that has not moved cannot act where it stands (SL-2.2).
    """
    rondel = s.t.rondel
    pos = s.pos[p]
    if pos < 0:
        return 3
    mine = s.turn == p and s.phase != BETWEEN  # between turns the marker waits for its turn
    if rondel[pos].startswith("launch") and mine and s.moved and not s.launched_here:
        return 0
    for d in range(1, 8):
        if rondel[(pos + d) % 7].startswith("launch"):
            return d
    return 3


def turns_to_come(s: StarlightState, p: int) -> int:
    """Turns of the seat still to start after daybreak (SL-12.1), a turn under way not counted;
    -1 before daybreak, when the end is not yet in sight."""
    d = s.daybreak_round
    if not d or s.round <= 0:
        return -1
    later = 1 if s.turn < p else 0  # seats take their turns in seat order
    if s.round == d:
        return 1 + later
    if s.round == d + 1:
        return later
    return 0


def points_now(s: StarlightState, p: int) -> float:
    """The seat's night points plus the day points it would score if the game ended now: its
    alpha stars, Accolades and met Laurels (the head start of SL-1.5 left out)."""
    t = s.t
    val = float(s.np[p])
    val += t.data.board.alpha_day_points * s.alpha_of(p)
    acc_dp = t.accolade_dp
    for i in range(len(acc_dp)):
        if s.accolade[i] == p:
            val += acc_dp[i]
    for li in s.laurels[p]:
        lr = t.data.laurels[li]
        if s.goal_met(p, lr):
            val += lr.dp
    return val


def core_progress(s: StarlightState, p: int, launching: bool, sizes: int = -1) -> tuple[int, float]:
    """The seat's Cores that could launch now (at most what its rays can serve) and the
    promise of the others (1.3 each plus 0.7 a matching ray, two at most); the Core of a star
    being launched counts in neither."""
    t = s.t
    mask = s.all_mask()
    ready = 0
    partial = 0.0
    nc = len(t.colors)
    for c in s.cores[p]:
        if launching and c == s.star_core:
            continue
        if s.core_can_launch(p, c, mask, False, sizes):
            ready += 1
        else:
            colors = t.core_colors[c]
            match = sum(s.rays[p][i] for i in range(2 * nc) if colors >> (i % nc) & 1)
            partial += 1.3 + 0.7 * min(match, 2)
    # Rays are shared between Cores: two rays or so per ready star.
    ready = min(ready, sum(s.rays[p]) // 2 + sum(1 for c in s.cores[p] if c >= t.num_deck_cores))
    return ready, partial


def potential(
    s: StarlightState, p: int, sizes: int = -1, hand_cap: int = HAND_CAP,
    parts: list[float] | None = None,
) -> float:
    """Points a seat can expect from what it holds and where it stands (no secrets of others).

    ``sizes``: ``s.slot_sizes(s.all_mask())`` when the caller has it (-1: worked out here).
    ``hand_cap``: how many action points in hand count (``HAND_CAP`` or ``SEARCH_HAND_CAP``).
    ``parts``: a list of ``len(PROMISE)`` zeros that gets what the seat holds, part by part
    (``value_features``); left at zero where nothing it holds can score any more."""
    if s.is_bot(p):
        # A Starbot's future is its deck: its stars score per difficulty level.
        return s.np[p] + s.g.per_star_points * s.stars_of(p)
    val = points_now(s, p)
    points = val
    mine = s.turn == p and s.phase != BETWEEN  # a turn under way
    to_come = turns_to_come(s, p)
    if to_come == 0 and not mine:
        return points  # the seat's last turn is over: what it holds scores nothing more
    # The next turn to start is the seat's last (SL-12.1): only one star can still be launched,
    # and only if it is complete when that turn starts (SL-12.5).
    final_next = to_come == 1 and not mine
    val += PRIVILEGE * bin(s.privs[p]).count("1")
    val += 0.3 * (bin(s.mags[p]).count("1") + bin(s.aspects[p]).count("1"))
    launching = s.turn == p and s.star_core >= 0
    nrays = sum(s.rays[p])
    ready, partial = core_progress(s, p, launching, sizes)
    if final_next:
        if not ready:
            return points  # the last turn will be forfeit
        ready, partial = 1, 0.0
    elif s.last and s.turn == p:
        ready = 0 if launching else min(ready, 1)  # the final launch ends the last turn
    val += READY_CORE * ready + partial
    val += RAY * min(nrays, 3 * len(s.cores[p]) + 2) + 0.1 * max(0, nrays - 3 * len(s.cores[p]) - 2)
    if launching:
        val += LAUNCHING + RAY * sum(s.star_rays)
        if s.star_flare >= 0:
            val += FLARE
    elif mine and s.phase == CHOOSE_STAR:  # choosing the star: the launch is paid for
        val += LAUNCHING - READY_CORE
    val += FLARE * len(s.flares[p])
    ap = s.ap if s.turn == p else 0
    # Saved points are worth a little less than points in hand, so idling is not free.
    val += AP_VALUE * min(ap, hand_cap) + SAVED_VALUE * s.saved[p]
    near = 0.0
    if ready and not launching:
        near = (1.5, 0.9, 0.3, 0.0)[min(_launch_distance(s, p), 3)]
        val += near
    if parts is not None:
        _record(s, p, parts, ready, partial, nrays, launching, ap, near)
    return val


PROMISE = (
    *(f"priv:{x}" for x in ("buy", "ap", "refill", "laurel", "core_ray", "alpha")),
    "marks", "ready", "partial", "rays", "flares", "launching", "launch_rays", "ap", "saved",
    "near_launch",
)
"""``potential``'s parts one by one (``parts``): each privilege held (bit order of
``constants.P_*``), magnitudes and aspects, Cores ready and the promise of the others, rays,
Flares, a star being launched and its rays, action points in hand and saved, and the bonus for
a ready star near a Launch space."""


def _record(
    s: StarlightState, p: int, parts: list[float], ready: int, partial: float, nrays: int,
    launching: bool, ap: int, near: float,
) -> None:
    privs = s.privs[p]
    for i in range(6):
        parts[i] = float(privs >> i & 1)
    parts[6] = float(bin(s.mags[p]).count("1") + bin(s.aspects[p]).count("1"))
    parts[7] = float(ready)
    parts[8] = partial
    parts[9] = float(nrays)
    parts[10] = float(len(s.flares[p]))
    if launching:
        parts[11] = 1.0
        parts[12] = float(sum(s.star_rays))
    parts[13] = float(ap)
    parts[14] = float(s.saved[p])
    parts[15] = near


def evaluate(s: StarlightState, p: int) -> float:
    """Own potential minus half the best opponent's (so the greedy agent also races).

    Each turn the seat has begun is charged: alone (or with only Starbots) ending a turn leads
    straight to one's own next turn, which a one-ply search would otherwise see as costless.
    Only one's own turns are charged, so ending a turn never looks good for using up a rival's.
    """
    return evaluate_all(s)[p]


def evaluate_all(s: StarlightState) -> list[float]:
    """``evaluate`` of every seat, each seat's potential worked out once (the same values)."""
    return _values(s, HAND_CAP)


def cutoff_values(s: StarlightState) -> list[float]:
    """Each seat's value where a search compares the seats (``State.cutoff_values``).

    ``evaluate`` counts at most 6 action points in hand, which suits ``greedy``'s one-ply
    choices. A search also compares positions across the start of a turn, where a seat's saved
    points join the turn's new ones (SL-2.5, SL-2.7): with the cap, a seat starting its turn
    with 5 saved points lost 1.8 points of value (its saved points counted 2.0 before, its full
    hand 2.7 after, less ``TURN``), so ending one's own turn looked good for making the next
    seat's start look bad, and with enough saved points every seat of a search game answered
    each turn with ``end`` until the round limit (docs/games/starlight.md). Counting the whole
    hand (up to ``SEARCH_HAND_CAP``) makes a turn's start about even for the seat starting it.
    """
    return _values(s, SEARCH_HAND_CAP)


def _values(s: StarlightState, hand_cap: int) -> list[float]:
    n = s.g.num_seats
    # Where a star could go depends on the board only: found once for every seat.
    sizes = s.slot_sizes(s.all_mask()) if any(s.cores[q] for q in range(n)) else -1
    # A later seat's head start (Ruling SL-1.5) is left out: no move changes it, so it says
    # nothing about which move is better. Counted in, it made every earlier `greedy` seat race
    # the seat with the largest head start all game, and under a search's ``leaf=share`` it
    # read as a lead that flattened the other seats' choices (their shares saturate); both
    # moved whole points between the seats (docs/games/starlight.md, "Seat balance"). The
    # final scores, and so a search's finished games, do count it.
    pots = [potential(s, q, sizes, hand_cap) for q in range(n)]
    out: list[float] = []
    for p in range(n):
        mine = pots[p] - TURN * turns_started(s, p)
        others = [pots[q] for q in range(n) if q != p]
        out.append(mine - (max(others) if others else 0.0) * 0.5)
    return out


# ---------------------------------------------------------------- the learned value (issue 58)
_BASE = ("points", "potential", *PROMISE, "stars", "cores", "turns")
VALUE_FEATURES: tuple[str, ...] = (*_BASE, *(f"{x}*left" for x in _BASE), "left", "left^2")
"""The names of ``value_features``' numbers, in order (the weights file lists the same)."""
WEIGHTS_FILE = "value.json"
"""The learned value's weights in the game package's ``data/`` (``GameInfo.value_model``)."""
STARBOT_WEIGHTS_FILE = "value_starbots.json"
"""The weights for one live player at a Starbot table (``value_model_for``): fitted on such
tables, where the Starbots claim slots on their deck's schedule and the game's pace is theirs."""


def game_left(s: StarlightState) -> float:
    """The share of the game still to play, by the night points still missing before daybreak
    (SL-12.1): 1 at the start, 0 from daybreak on."""
    if s.daybreak_round:
        return 0.0
    return max(0.0, 1.0 - max(s.np) / s.t.data.board.daybreak)


def value_features(s: StarlightState, p: int, sizes: int = -1) -> list[float]:
    """Seat ``p``'s position as the numbers ``VALUE_FEATURES`` names: its points now, the whole
    of ``potential`` as the search counts it and its parts one by one (``PROMISE``; 0 once what
    the seat holds can no longer score, as in ``potential``), its stars, Cores and turns begun;
    each once as it is and once times ``game_left``, so a fit can weigh them differently early
    and late. ``sizes`` as for ``potential``."""
    promise = [0.0] * len(PROMISE)
    whole = potential(s, p, sizes, SEARCH_HAND_CAP, promise)
    base = [
        points_now(s, p), whole, *promise,
        float(s.stars_of(p)), float(len(s.cores[p])), float(turns_started(s, p)),
    ]
    left = game_left(s)
    return [*base, *(x * left for x in base), left, left * left]


_LOADED: dict[str, LinearValue] = {}  # the shipped weights by file name, each read once


def shipped_value_model(name: str = WEIGHTS_FILE) -> LinearValue:
    """The shipped weights of ``data/<name>`` (``WEIGHTS_FILE`` or ``STARBOT_WEIGHTS_FILE``),
    read on first use."""
    model = _LOADED.get(name)
    if model is None:
        model = load_linear_value(data_path("nightsky.games.starlight", name), VALUE_FEATURES)
        _LOADED[name] = model
    return model


def value_model_for(num_players: int, starbots: int) -> str:
    """Which shipped weights judge a table: ``STARBOT_WEIGHTS_FILE`` for one live player with
    Starbots (the weights fitted on live opponents scored 5-12 points a game less there than
    ``greedy``: docs/games/starlight.md, "Against Starbots"), else ``WEIGHTS_FILE``."""
    return STARBOT_WEIGHTS_FILE if num_players == 1 and starbots > 0 else WEIGHTS_FILE


def value(s: StarlightState, p: int) -> float:
    """Seat ``p``'s expected final score by the weights for its table (``value_model_for``); a
    Starbot's is its ``potential`` (its deck decides its play, and the weights were fitted on
    live seats)."""
    if s.is_bot(p):
        return potential(s, p)
    g = s.g
    model = shipped_value_model(value_model_for(g.num_players, g.options["starbots"]))
    # Where a star could go depends on the board only: found once, not once per Core.
    sizes = s.slot_sizes(s.all_mask()) if s.cores[p] else -1
    return model.predict(value_features(s, p, sizes))


class StarlightEvaluator(Evaluator):
    """Starlight's judge (``game.evaluator``): ``evaluate`` for ``greedy``, ``cutoff_values``
    (the whole hand of action points counted) for the search."""

    def evaluate(self, state: State, player: int) -> float:
        return evaluate(cast("StarlightState", state), player)

    def evaluate_all(self, state: State) -> list[float]:
        return evaluate_all(cast("StarlightState", state))

    def cutoff_values(self, state: State) -> list[float]:
        return cutoff_values(cast("StarlightState", state))

    def value(self, state: State, player: int) -> float:
        """The learned value: ``player``'s expected final score (``data/value.json``)."""
        return value(cast("StarlightState", state), player)

    def value_features(self, state: State, player: int) -> list[float]:
        return value_features(cast("StarlightState", state), player)

    def value_feature_names(self) -> tuple[str, ...]:
        return VALUE_FEATURES
