"""The observation tensor of The Stars Are Right (``game.make_observer()``).

Observation vector (``observation(state, p)``, length ``observation_size(game)``), all in
[0, 1], seats counted from ``p`` (0 = p, 1 = next seat, ...):

| part | size |
|---|---|
| face shown at each sky position, one-hot | 25 x 14 |
| the cards in p's hand | N (number of cards, 75) |
| the creatures each seat controls | 4 x N |
| creatures whose power was used this turn | N |
| the discard pile | N |
| symbols left to spend P, S, F (count / 4, capped at 1) | 3 |
| phase one-hot (setup .. over) | 11 |
| VP of each seat / 10 | 4 |
| hand size of each seat / 6 | 4 |
| deck size / N | 1 |
| 1 if p is to act | 1 |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from nightsky.core.observer import Observer

from .constants import FACES

if TYPE_CHECKING:
    from nightsky.core.game import Game, State

    from .game import StarsAreRightGame
    from .state import StarsAreRightState


class StarsAreRightObserver(Observer):
    """Sky, own hand, creatures in play, discards, symbols, step and counts (table above)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._size = observation_size(cast("StarsAreRightGame", game))

    @property
    def size(self) -> int:
        return self._size

    def observation(self, state: State, player: int) -> list[float]:
        return observation(cast("StarsAreRightState", state), player)

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        write(cast("StarsAreRightState", state), player, buf)


def observation_size(game: StarsAreRightGame) -> int:
    """Length of every observation of ``game`` (it depends on the number of cards)."""
    n = len(game.cards)
    return 25 * len(FACES) + n + 4 * n + n + n + 3 + 11 + 4 + 4 + 1 + 1


def observation(state: StarsAreRightState, p: int) -> list[float]:
    """What seat ``p`` may know of ``state`` as ``observation_size`` numbers in [0, 1]."""
    out = [0.0] * observation_size(state.g)
    write(state, p, out)
    return out


def write(state: StarsAreRightState, p: int, buf: Any) -> None:
    """The non-zero numbers of ``p``'s observation into the zeroed ``buf`` (a list or a
    float32 buffer): the one encoding of the table above."""
    one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
    g = state.g
    n = len(g.cards)
    nf = len(FACES)
    seats = len(state.hands)
    for pos, f in enumerate(state.faces()):
        if f >= 0:
            buf[pos * nf + f] = one
    o = 25 * nf
    for c in state.hands[p]:
        buf[o + c] = one
    o += n
    for k in range(seats):
        q = (p + k) % seats
        for c in state.creatures[q]:
            buf[o + k * n + c] = one
    o += 4 * n
    for c in state.used:
        buf[o + c] = one
    o += n
    for c in state.discard:
        buf[o + c] = one
    o += n
    for i in range(3):
        if state.symbols[i]:
            buf[o + i] = min(1.0, state.symbols[i] / 4)
    o += 3
    buf[o + state.phase] = one
    o += 11
    for k in range(seats):
        q = (p + k) % seats
        vp = state.vp(q)
        if vp:
            buf[o + k] = min(1.0, vp / 10)
        if state.hands[q]:
            buf[o + 4 + k] = min(1.0, len(state.hands[q]) / 6)
    o += 8
    if state.deck:
        buf[o] = len(state.deck) / n
    if state.current_players() == (p,):
        buf[o + 1] = one
