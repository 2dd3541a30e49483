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

from typing import TYPE_CHECKING, Any, Final, cast

from nightsky.core.observer import Observer, update_members, update_onehot

from .constants import FACES

if TYPE_CHECKING:
    from nightsky.core.game import Game, State

    from .game import StarsAreRightGame
    from .state import StarsAreRightState

NFACES: Final = len(FACES)  # Final: a C constant when compiled
MAX_SEATS: Final = 4


_NONE: Final[list[int]] = []
"""The memo's copy of a list never written: equal to an empty list only (never changed)."""
_UNSEEN: Final[list[int]] = [-2] * 25
"""A memo's tiles and sides before any write: none seen at the 25 positions (never changed)."""
_NO_FACES: Final[list[int]] = [-1] * 25
"""A memo's faces before any write: none written."""
_COUNTS0: Final[list[int]] = [0] * (3 + 2 * MAX_SEATS)


class StarsAreRightMemo:
    """What a buffer holds (``StarsAreRightObserver.update_into``): per part, the state's
    values it was written from; a new one describes a buffer of zeros. The lists the state
    changes in place (hand, discard) are copies; tuples are shared. Few objects
    (a whole write makes one)."""

    def __init__(self) -> None:
        # The tiles and sides written from (copies: the state changes its lists in place), and
        # per position the face written (-1: none).
        self.tiles = _UNSEEN
        self.sides = _UNSEEN
        self.faces = _NO_FACES[:]
        self.hand = _NONE
        self.creatures: list[tuple[int, ...]] = [(), (), (), ()]  # by seat counted from p
        self.used: tuple[int, ...] = ()
        self.discard = _NONE
        self.counts = _COUNTS0[:]  # symbols P, S, F, then VP and hand size per seat from p
        self.phase = -1
        self.deck = 0
        self.to_act = False


class StarsAreRightObserver(Observer):
    """Sky, own hand, creatures in play, discards, symbols, step and counts (table above)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        g = cast("StarsAreRightGame", game)
        self._size = observation_size(g)
        # (front, back) faces of each tile, read once and typed (the game is interpreted).
        self._tile_faces: list[tuple[int, int]] = list(g.tile_faces)

    @property
    def size(self) -> int:
        return self._size

    def observation(self, state: State, player: int) -> list[float]:
        return observation(cast("StarsAreRightState", state), player)

    def observation_into(self, state: State, player: int, buf: Any) -> None:
        update(cast("StarsAreRightState", state), player, buf, StarsAreRightMemo(),
               self._tile_faces)

    def update_into(self, state: State, player: int, buf: Any, memo: Any) -> Any:
        m: StarsAreRightMemo = memo if memo is not None else StarsAreRightMemo()
        update(cast("StarsAreRightState", state), player, buf, m, self._tile_faces)
        return m


def observation_size(game: StarsAreRightGame) -> int:
    """Length of every observation of ``game`` (it depends on the number of cards)."""
    n = len(game.cards)
    return 25 * NFACES + n + MAX_SEATS * n + n + n + 3 + 11 + 2 * MAX_SEATS + 1 + 1


def observation(state: StarsAreRightState, p: int) -> list[float]:
    """What seat ``p`` may know of ``state`` as ``observation_size`` numbers in [0, 1]."""
    out = [0.0] * observation_size(state.g)
    write(state, p, out)
    return out


def write(state: StarsAreRightState, p: int, buf: Any) -> None:
    """The non-zero numbers of ``p``'s observation into the zeroed ``buf`` (a list or a
    float32 buffer): ``update`` from a buffer of zeros, so there is one encoding."""
    update(state, p, buf, StarsAreRightMemo(), state.g.tile_faces)


def update(
    state: StarsAreRightState, p: int, buf: Any, m: StarsAreRightMemo,
    tile_faces: list[tuple[int, int]],
) -> None:
    """Bring ``buf``, which holds what ``m`` describes, to ``p``'s observation (the table
    above), writing only the entries that differ; ``m`` follows. A part that did not change
    costs one comparison. ``tile_faces``: the game's (front, back) faces per tile."""
    one: Any = 1.0  # boxed once per call, not at every one-hot entry (compiled)
    zero: Any = 0.0
    n = len(state.g.cards)
    seats = len(state.hands)
    tiles = state.pos_tile
    sides = state.pos_side
    # Most steps leave the sky as it was: two list comparisons (in C) then, instead of 25
    # positions' reads and comparisons.
    if tiles != m.tiles or sides != m.sides:
        was_tiles = m.tiles
        was_sides = m.sides
        faces = m.faces
        for pos in range(25):
            # The face shown (StarsAreRightState.faces), found again where a tile moved or
            # flipped.
            t = tiles[pos]
            side = sides[pos]
            if t != was_tiles[pos] or side != was_sides[pos]:
                f = tile_faces[t][side] if t >= 0 else -1
                update_onehot(buf, pos * NFACES, faces[pos], f, one, zero)
                faces[pos] = f
        m.tiles = tiles[:]
        m.sides = sides[:]
    o = 25 * NFACES
    hand = state.hands[p]
    if hand != m.hand:
        update_members(buf, o, m.hand, hand)
        m.hand = hand[:]
    o += n
    for k in range(seats):
        mine = state.creatures[(p + k) % seats]
        if mine != m.creatures[k]:
            update_members(buf, o + k * n, list(m.creatures[k]), list(mine))
            m.creatures[k] = mine
    o += MAX_SEATS * n
    if state.used != m.used:
        update_members(buf, o, list(m.used), list(state.used))
        m.used = state.used
    o += n
    if state.discard != m.discard:
        update_members(buf, o, m.discard, state.discard)
        m.discard = state.discard[:]
    o += n
    counts = m.counts
    symbols = state.symbols
    for i in range(3):
        x = symbols[i]
        if x != counts[i]:
            buf[o + i] = min(1.0, x / 4)
            counts[i] = x
    o += 3
    update_onehot(buf, o, m.phase, state.phase, one, zero)
    m.phase = state.phase
    o += 11
    for k in range(seats):
        q = (p + k) % seats
        x = state.vp(q)
        if x != counts[3 + k]:
            buf[o + k] = min(1.0, x / 10)
            counts[3 + k] = x
        x = len(state.hands[q])
        if x != counts[3 + MAX_SEATS + k]:
            buf[o + MAX_SEATS + k] = min(1.0, x / 6)
            counts[3 + MAX_SEATS + k] = x
    o += 2 * MAX_SEATS
    x = len(state.deck)
    if x != m.deck:
        buf[o] = x / n
        m.deck = x
    to_act = state.current_players() == (p,)
    if to_act != m.to_act:
        buf[o + 1] = one if to_act else zero
        m.to_act = to_act
