"""The rulebook's worked examples as loadable positions, and ``build_position`` for tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nightsky.core.errors import ComponentError
from nightsky.core.game import Tutorial

from .actions import cell_pos
from .constants import FACE_INDEX, INVOKE

if TYPE_CHECKING:
    from .game import StarsAreRightGame
    from .state import StarsAreRightState


def build_position(
    game: StarsAreRightGame,
    cells: dict[str, str],
    hands: list[list[str]],
    creatures: list[list[str]] | None = None,
    current: int = 0,
    discard: list[str] | None = None,
) -> StarsAreRightState:
    """A state at the start of ``current``'s turn with the given sky, hands and creatures.

    ``cells`` maps cell names (``"c2"``) to face codes; the other cells get the remaining tiles
    front side up in tile order. Cards are named by id; the rest form the deck.
    """
    s = game.new_initial_state()
    left = [k[2] for k in game.comps.tiles]
    kind_of = {}
    for k, (front, back, _) in enumerate(game.comps.tiles):
        kind_of[front] = (k, 0)
        kind_of[back] = (k, 1)
    for name, code in cells.items():
        k, side = kind_of[FACE_INDEX[code]]
        if not left[k]:
            raise ComponentError(f"not enough tiles showing {code} for this sky")
        pos = cell_pos(name)
        s.pos_tile[pos] = game.tile_first[k] + game.comps.tiles[k][2] - left[k]
        s.pos_side[pos] = side
        left[k] -= 1
    for pos in range(25):
        if s.pos_tile[pos] < 0:
            k = next(i for i, n in enumerate(left) if n)
            s.pos_tile[pos] = game.tile_first[k] + game.comps.tiles[k][2] - left[k]
            left[k] -= 1
    s.kinds_left = tuple(left)
    s.placed = 25
    s._masks = None

    def idx(cid: str) -> int:
        c = game.comps.card_by_id(cid)
        if c is None:
            raise ComponentError(f"no card {cid!r}")
        s.deck.remove(c.idx)
        return c.idx

    for q, h in enumerate(hands):
        s.hands[q] = sorted(idx(c) for c in h)
    for q, cs in enumerate(creatures or []):
        s.creatures[q] = tuple(idx(c) for c in cs)
    s.discard = [idx(c) for c in discard or []]
    s.current = current
    s.phase = INVOKE
    return s


def harvey_deep_ones(game: StarsAreRightGame) -> StarsAreRightState:
    return build_position(
        game, {}, [["miri-nigri-S", "tcho-tcho-P-Mo"], ["gug-P"]],
        creatures=[["deep-ones-F-Sh"], []])


def harvey_byakhee(game: StarsAreRightGame) -> StarsAreRightState:
    return build_position(
        game, {}, [["byakhee-P-Mo", "tcho-tcho-P-Mo"], ["gug-P"]],
        creatures=[["miri-nigri-P", "formless-S-Mo"], []])


DEEP_ONES_SKY = {"a1": "Sh", "a2": "1", "c4": "1", "d4": "3"}


def deep_ones(game: StarsAreRightGame) -> StarsAreRightState:
    # Every other Shooting Star/Meteors tile shows Meteors, so the pair a1-a2 is the only one.
    cells = dict(DEEP_ONES_SKY)
    cells.update({"e5": "Me", "e4": "Me"})
    return build_position(game, cells, [["deep-ones-S-4", "gug-P"], ["gug-F"]])


# Chaugnar (P) shows So Wn . 1 / Me . . Mo; the sky has all but the meteors.
CHAUGNAR_SKY = {"a1": "So", "b1": "Wn", "d1": "1", "a2": "Sh", "d2": "Mo",
                "e5": "Sh", "e4": "Sh"}


def chaugnar(game: StarsAreRightGame) -> StarsAreRightState:
    return build_position(
        game, CHAUGNAR_SKY, [["chaugnar-P", "gug-P"], ["gug-F"]],
        creatures=[["miri-nigri-S"], []])


def tutorials(game: StarsAreRightGame) -> list[Tutorial]:
    return [
        Tutorial(
            "harvey-deep-ones",
            "Powers change symbols: Miri Nigri plus Deep Ones",
            "Seat 1 invokes a Miri Nigri for two Swaps, then uses the power of the Deep Ones "
            "already in play to turn one Swap into a Flip: one swap and one flip to spend.",
            lambda: harvey_deep_ones(game),
            ((0, "invoke miri-nigri-S"), (0, "power deep-ones-F-Sh")),
        ),
        Tutorial(
            "harvey-byakhee",
            "Combining powers: Byakhee, Miri Nigri and Formless",
            "Seat 1 invokes a Byakhee for one Push. The Miri Nigri in play doubles it into two "
            "Pushes, then the Formless turns one of them into a Swap: a push and a swap remain, "
            "to be spent in either order.",
            lambda: harvey_byakhee(game),
            ((0, "invoke byakhee-P-Mo"), (0, "power miri-nigri-P"), (0, "power formless-S-Mo")),
        ),
        Tutorial(
            "deep-ones-constellation",
            "Two constellations anywhere: the Deep Ones",
            "These Deep Ones need a Shooting Star beside a 1 and, on other tiles, a 1 beside a "
            "3. The first pair stands vertically (a1-a2), turned from the card; the second lies "
            "elsewhere (c4-d4). Where the pairs lie relative to each other does not matter.",
            lambda: deep_ones(game),
            ((0, "summon deep-ones-S-4 @ a1,a2; c4,d4"),),
        ),
        Tutorial(
            "chaugnar-bonus-star",
            "A bonus star: Chaugnar with a Miri Nigri",
            "Seat 1 controls a Miri Nigri whose bonus star is Meteors. Chaugnar's constellation "
            "shows Meteors at the lower left, and no tile there shows it, but the bonus star "
            "makes that space wild. The Miri Nigri is a Greater Servitor, so it stays in play.",
            lambda: chaugnar(game),
            ((0, "summon chaugnar-P +miri-nigri-S @ a1,b1,d1,d2"),),
        ),
    ]
