"""The game's tables as the rules read them on the hot path: typed lists indexed by card.

``StarsAreRightGame`` (interpreted) keeps its cards as ``Card`` records and its actions in
dictionaries; reading those from the compiled rules costs a dictionary lookup per attribute.
``Tables`` (compiled with the rules, ``setup.py``) holds the same facts once more as lists of
ints and actions indexed by card, built once per game from the game's own records, so the two
never disagree. The state reads them as ``self.t``.
"""

from __future__ import annotations

from typing import Any, Final

from nightsky.core.game import CHANCE

from .actions import END, Discard, Draw, Invoke, Power, Release
from .constants import GOO, GREATER, LESSER, MINION_POWERS
from .matcher import Shape

SKY_CACHE: Final = 4096
"""How many skies ``Tables.skies`` keeps before it is emptied (a few MB at most)."""

# Minion powers as small ints (``Tables.minion``); -1: not a Minion's power. ``Final``: the
# rules read them at every hand limit and Minion check, which compiled code would otherwise
# look up in this module's dictionary each time (trap 14).
EXCHANGE_LESSER: Final = MINION_POWERS.index("exchange-lesser")
EXCHANGE_GREATER: Final = MINION_POWERS.index("exchange-greater")
TAKE_CARD: Final = MINION_POWERS.index("take-card")
HAND_SIX: Final = MINION_POWERS.index("hand-six")
DISCARD_TWO: Final = MINION_POWERS.index("discard-two")


class Tables:
    """Per card index: its facts and its actions (see the module's docstring)."""

    def __init__(self, game: Any) -> None:
        cards = game.cards
        self.ncards: int = len(cards)
        self.kind: list[int] = [c.kind for c in cards]
        self.vp: list[int] = [c.vp for c in cards]
        self.name: list[str] = [c.name for c in cards]
        self.ruler: list[str] = [c.ruler for c in cards]
        self.power_from: list[int] = [c.power_from for c in cards]
        self.power_to: list[list[int]] = [list(c.power_to) for c in cards]
        self.invocation: list[list[int]] = [list(c.invocation) for c in cards]
        self.minion: list[int] = [
            MINION_POWERS.index(c.minion) if c.minion in MINION_POWERS else -1 for c in cards
        ]
        self.invoke_action: list[Invoke] = [game.invoke_action[c] for c in range(self.ncards)]
        self.discard_action: list[Discard] = [
            game.discard_action[c] for c in range(self.ncards)
        ]
        self.release_action: list[Release] = [
            game.release_action[c] for c in range(self.ncards)
        ]
        self.power_action: list[Power | None] = [
            game.power_action.get(c) for c in range(self.ncards)
        ]
        self.draw_action: list[Draw] = [game.draw_action[c] for c in range(self.ncards)]
        self.summon_text: list[str] = [
            game.summon_action[(c, ())].text for c in range(self.ncards)
        ]
        plain = [game.shapes_for(c) for c in range(self.ncards)]
        self.plain_shapes: list[list[list[Shape]]] = [shapes for shapes, _ in plain]
        self.plain_need: list[list[tuple[int, int]]] = [list(need) for _, need in plain]
        # Per tile, the face of each side (front, back): what ``masks`` reads per position.
        self.tile_faces: list[tuple[int, int]] = list(game.tile_faces)
        # Exchanges (Gug, Tindaloo) by one int, ``(minion * ncards + give) * ncards + take``:
        # the game's dictionary is keyed by a new tuple at every look-up.
        n = self.ncards
        self.exchange: dict[int, Any] = {
            (m * n + give) * n + take: a for (m, give, take), a in game.exchange_action.items()
        }
        self.push_actions: list[Any] = list(game.push_actions)
        self.swap_actions: list[Any] = list(game.swap_actions)
        self.flip_actions: list[Any] = list(game.flip_actions)
        self.skies: dict[tuple[int, ...], tuple[dict[Any, list[int] | None],
                                                dict[int, Any]]] = {}
        """Per sky (its face masks as a tuple): the ``summon_placement`` answers and the
        plain summonings found there (``StarsAreRightState._placed`` and ``_ready``). A search
        meets the same skies again in every iteration that takes the same moves, and the
        answers depend on the sky alone; at most ``SKY_CACHE`` skies, then it starts afresh."""
        # Great Old Ones and their Servitors by one int per name: whether a seat holds a
        # Servitor of a Great Old One is then a few int comparisons, no string and no sort.
        groups: dict[str, int] = {}
        for c in cards:
            groups.setdefault(c.name, len(groups))
        self.group: list[int] = [groups[c.name] if c.kind == GOO else -2 for c in cards]
        """Per Great Old One, its number (-2 for other cards)."""
        self.serves: list[int] = [
            groups.get(c.ruler, -1) if c.kind in (GREATER, LESSER) else -1 for c in cards
        ]
        """Per Servitor, the number of its Great Old One (-1 for other cards)."""
        self.bonus: dict[tuple[int, tuple[int, ...]], list[tuple[int, ...]]] = {}
        """``game.bonus_sets`` answers by (card, Servitors held), asked from compiled code."""
        self.bonus_shapes: dict[tuple[int, tuple[int, ...]],
                                tuple[list[list[Shape]], list[tuple[int, int]]]] = {}
        """``game.shapes_for`` a card with its bonus servitors' stars ignored, by (card,
        servitors), asked from compiled code."""
        # The history's records of the game's own action objects, one tuple per seat and one
        # for chance (index -1), by ``id`` of the action: a move adds no new tuple to the
        # history (``StarsAreRightState._history_entry``). The tuples keep the actions alive,
        # so an id here never names another object. Not the ~4,000 rare exchanges: a small
        # table stays in the processor's cache.
        shared: list[Any] = [
            *game.invoke_action.values(), *game.power_action.values(),
            *game.discard_action.values(), *game.release_action.values(),
            *game.push_actions, *game.swap_actions, *game.flip_actions,
            *game.take_action.values(), END,
            *game.place_action.values(), *game.draw_action.values(),
        ]
        seats = range(game.num_players)
        self.entries: dict[int, tuple[Any, ...]] = {  # Any: kept boxed when compiled
            id(a): (*[(q, a) for q in seats], (CHANCE, a)) for a in shared
        }
        self.reshuffle_cap: int = game.reshuffle_cap
        self.max_turns: int = game.options["max_rounds"] * game.num_players
        self.game = game

    def __reduce__(self) -> tuple[Any, ...]:
        # States pickle their fields (the server's thinking processes): rebuilt from the game.
        return (_tables_of, (self.game,))


def _tables_of(game: Any) -> Tables:
    tables: Tables = game.tables
    return tables

