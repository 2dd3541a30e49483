"""The rules of The Stars Are Right (rule ids TSAR-x.y refer to ``rules.md``).

The state holds the rules and what each seat may know, nothing else: the text, SVG board and
choice labels are the game's ``GameUI`` (``ui.py``), the observation tensor its ``Observer``
(``observer.py``), and the judging of positions in ``evaluator.py``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from nightsky.core.game import CHANCE, Action, LogSecret, State
from nightsky.core.rng import randbelow, randrange, shuffle

from . import matcher
from .actions import (
    END,
    Discard,
    Draw,
    End,
    Exchange,
    Flip,
    Invoke,
    PlaceTile,
    Power,
    Push,
    Release,
    Summon,
    Swap,
    Take,
    cell_name,
)
from .constants import (
    DEAL,
    DISCARD,
    DRAW,
    FACES,
    GOAL,
    GOO,
    GREATER,
    HAND_SIZE,
    INVOKE,
    LESSER,
    MAX_CREATURES,
    MINION,
    MINION_PHASES,
    MOVE,
    OVER,
    OVERFLOW,
    PHASE_NAMES,
    POWERS,
    SETUP,
    SUMMON,
    SYMBOLS,
    TAKE,
)
from .tables import (
    DISCARD_TWO,
    EXCHANGE_GREATER,
    EXCHANGE_LESSER,
    HAND_SIX,
    SKY_CACHE,
    TAKE_CARD,
    Tables,
)

if TYPE_CHECKING:
    from .game import StarsAreRightGame

NO_BONUS: Final[list[tuple[int, ...]]] = [()]
"""The bonus options of a card no Servitor helps: none (shared: never changed)."""
_CHANCE_LOG: Final = LogSecret("chance")
"""How every chance outcome (tiles, draws) reads in the log: the contract's default for a game
with hidden information, without reading the game's info at every draw."""
_CHANCE_SEAT: Final = (CHANCE,)
_SEATS: Final = tuple([(q,) for q in range(8)])
"""``current_players()`` answers, built once."""
_ABSENT: Final[list[int]] = []
"""Marks a summoning not yet looked for in ``_placed`` (never handed out)."""
_UNSEEN: Final = Summon(-1, (), "")
"""Marks a card not yet asked about in ``_ready`` (None there: it cannot be summoned)."""

Why = tuple[str, str | None] | None
"""Why an action is illegal: None when it is legal, else (reason, rule id)."""


class StarsAreRightState(State):
    """One position, in lists and tuples of ints, so that ``clone`` is a handful of list copies:
    the parts that change rarely (tiles left to lay, powers used, creatures in play, cards seen
    entering a hand) are tuples, shared by clones and replaced when they change."""

    g: StarsAreRightGame
    """The game, typed (``State.game`` stays a ``Game``): the rules read ``self.g``."""
    t: Tables
    """The game's tables by card index (``game.tables``), what the hot paths read."""
    pos_tile: list[int]  # tile id at each sky position (-1: not laid yet)
    pos_side: list[int]  # 0 front, 1 back, of the tile at each position
    kinds_left: tuple[int, ...]  # per tile kind, tiles not yet laid (set-up)
    placed: int
    hands: list[list[int]]  # kept sorted
    known: list[tuple[int, ...]]  # hand cards everyone has seen
    creatures: list[tuple[int, ...]]
    deck: list[int]  # kept sorted: its order is hidden
    discard: list[int]  # bottom .. top
    current: int
    phase: int
    symbols: list[int]  # P, S, F left to spend
    invoked: int
    resolving: int  # a Dhole waiting for its card
    return_phase: int
    used: tuple[int, ...]  # creatures whose power was used this turn
    discards_done: int
    summoned: bool
    reshuffles: int
    turn: int
    end_reason: str
    last_summon: tuple[int, int, tuple[int, ...], tuple[tuple[int, ...], ...]] | None
    """(seat, card, bonus servitors, tiles per constellation) of the last summoning."""
    _masks: list[int] | None  # per face, the positions showing it (None: to recompute)
    _counts: list[int]  # per face, how many positions show it (with ``_masks``)
    _placed: dict[int | tuple[int, tuple[int, ...]], list[int] | None]
    """``summon_placement`` answers for this sky, by (card, bonus), or by card alone without
    bonus servitors: a new dict whenever
    ``masks`` are recomputed, shared by clones until their sky moves (the answers depend on
    the sky alone)."""
    _ready: dict[int, Summon | None]
    """For this sky as ``_placed``: per card, its summoning without bonus servitors (with
    its tiles) or None where it cannot be summoned; ``summons`` hands out these very actions."""
    _share_skies: bool
    """Whether a new sky's answers come from (and go to) the game's ``Tables.skies``: set on
    the states a search resamples, which meet the same skies in every iteration; off for a
    played game and random playouts, where skies seldom recur and the shared cache only costs
    (about a third of a compiled random playout's speed, measured 2026-12-07)."""

    def __init__(self, game: StarsAreRightGame, copy_of: StarsAreRightState | None = None
                 ) -> None:
        """The state before set-up (its first chance events lay the sky and deal); with
        ``copy_of``, a copy of that state's own fields and no set-up: the path of ``clone``,
        which sets the shared fields (``game``, ``history``, the log's secrets) itself."""
        if copy_of is not None:
            o = copy_of
            self.g = game
            self.t = o.t
            self.pos_tile = o.pos_tile[:]
            self.pos_side = o.pos_side[:]
            self.kinds_left = o.kinds_left
            self.placed = o.placed
            self.hands = list(map(list.copy, o.hands))
            self.known = o.known[:]
            self.creatures = o.creatures[:]
            self.deck = o.deck[:]
            self.discard = o.discard[:]
            self.current = o.current
            self.phase = o.phase
            self.symbols = o.symbols[:]
            self.invoked = o.invoked
            self.resolving = o.resolving
            self.return_phase = o.return_phase
            self.used = o.used
            self.discards_done = o.discards_done
            self.summoned = o.summoned
            self.reshuffles = o.reshuffles
            self.turn = o.turn
            self.end_reason = o.end_reason
            self.last_summon = o.last_summon
            self._masks = o._masks
            self._counts = o._counts
            self._placed = o._placed
            self._ready = o._ready
            self._share_skies = o._share_skies
            return
        super().__init__(game)
        self.g = game
        self.t = game.tables
        n = game.num_players
        self.pos_tile = [-1] * 25
        self.pos_side = [0] * 25
        self.kinds_left = tuple(k[2] for k in game.comps.tiles)
        self.placed = 0
        self.hands = [[] for _ in range(n)]
        self.known = [()] * n
        self.creatures = [()] * n
        self.deck = list(range(len(game.comps.cards)))
        self.discard = []
        self.current = 0
        self.phase = SETUP
        self.symbols = [0, 0, 0]
        self.invoked = -1
        self.resolving = -1
        self.return_phase = INVOKE
        self.used = ()
        self.discards_done = 0
        self.summoned = False
        self.reshuffles = 0
        self.turn = 0
        self.end_reason = ""
        self.last_summon = None
        self._masks = None
        self._counts = []
        self._placed = {}
        self._ready = {}
        self._share_skies = False

    # ------------------------------------------------------------------ copying
    def _copy(self) -> StarsAreRightState:
        return StarsAreRightState(self.g, self)

    # ------------------------------------------------------------------ sky helpers
    def faces(self) -> list[int]:
        """Face shown at each of the 25 positions (-1 before set-up lays it)."""
        tf = self.g.tile_faces
        return [
            tf[t][s] if t >= 0 else -1 for t, s in zip(self.pos_tile, self.pos_side, strict=True)
        ]

    def masks(self) -> list[int]:
        """Per face, the bitmask of positions showing it (cached until the sky moves)."""
        m = self._masks
        if m is None:
            m = [0] * len(FACES)
            counts = [0] * len(FACES)
            tf = self.t.tile_faces
            pos_tile = self.pos_tile
            pos_side = self.pos_side
            for pos in range(25):
                t = pos_tile[pos]
                if t >= 0:
                    f = tf[t][pos_side[pos]]
                    m[f] |= 1 << pos
                    counts[f] += 1
            self._masks = m
            self._counts = counts
            if not self._share_skies:
                self._placed = {}  # a new sky: earlier answers are for the old one
                self._ready = {}
                return m
            # A new sky in a search: the answers found for it before, by this state or any
            # other of the game (a search walks the same moves from the same sky again).
            skies = self.t.skies
            key = tuple(m)
            known = skies.get(key)
            if known is None:
                if len(skies) >= SKY_CACHE:
                    skies.clear()
                known = skies[key] = ({}, {})
            self._placed, self._ready = known
        return m

    def face_counts(self) -> list[int]:
        """Per face, how many positions show it (``masks()[f].bit_count()``, kept with the
        masks: compiled, ``int.bit_count`` is a method call)."""
        self.masks()
        return self._counts

    # ------------------------------------------------------------------ whose turn
    def current_players(self) -> tuple[int, ...]:
        ph = self.phase
        if ph == OVER:
            return ()
        if ph in (SETUP, DEAL, DRAW, TAKE):
            return _CHANCE_SEAT
        return _SEATS[self.current]

    def vp(self, p: int) -> int:
        """Victory points of seat ``p``: the VP of the creatures it controls (TSAR-10.1), of
        the six it keeps while a seventh waits to be let go (``counted``, TSAR-6.8)."""
        vp = self.t.vp
        total = 0
        for c in self.counted(p):
            total += vp[c]
        return total

    def counted(self, p: int) -> tuple[int, ...]:
        """The creatures whose VP count for ``p``: all it controls, except while it holds a
        seventh and must let one go (phase ``overflow``): then the six it keeps when it lets
        its least valuable creature go (the first such, in the order it holds them), i.e. the
        most VP it can keep (TSAR-6.8: VP are counted after that discard)."""
        mine = self.creatures[p]
        if len(mine) <= MAX_CREATURES:
            return mine
        vp = self.t.vp
        while len(mine) > MAX_CREATURES:
            low = min(mine, key=lambda c: vp[c])
            mine = _without(mine, low)
        return mine

    def hand_limit(self, p: int) -> int:
        """Five cards, six while controlling a Ghast (TSAR-8.2, TSAR-9.5)."""
        minion = self.t.minion
        for c in self.creatures[p]:
            if minion[c] == HAND_SIX:
                return HAND_SIZE + 1
        return HAND_SIZE

    def discard_limit(self, p: int) -> int:
        """One discard in step 5, two while controlling a Ghoul (TSAR-8.1, TSAR-9.6)."""
        minion = self.t.minion
        for c in self.creatures[p]:
            if minion[c] == DISCARD_TWO:
                return 2
        return 1

    # ------------------------------------------------------------------ summoning
    def bonus_options(self, p: int, card: int) -> list[tuple[int, ...]]:
        """Sets of servitors ``p`` may use for their bonus stars when summoning ``card``.

        Only for a Great Old One, only its own Servitors, at most three, each ignoring a star
        the card still shows (TSAR-7.1, TSAR-7.2, TSAR-7.4). The empty set comes first. The
        list is the game's (``bonus_sets``): callers must not change it.
        """
        t = self.t
        group = t.group[card]  # -2 unless a Great Old One
        serves = t.serves
        held = self.creatures[p]
        for s in held:
            if serves[s] == group:
                break
        else:
            return NO_BONUS  # no Servitor of its own in play (the common case)
        mine = tuple(sorted([s for s in held if serves[s] == group]))
        key = (card, mine)
        got = t.bonus.get(key)
        if got is None:
            got = t.bonus[key] = self.g.bonus_sets(card, mine)
        return got

    def summon_placement(self, card: int, bonus: tuple[int, ...]) -> list[int] | None:
        """Tile masks of the constellations of ``card`` in the sky (bonus stars ignored), the
        first placement found; None where they do not all show. Remembered for this sky
        (``_placed``): callers must not change the list."""
        m = self.masks()  # first: a recomputed sky starts a new ``_placed``
        counts = self._counts
        # A plain summoning by its card alone: no tuple to build and hash (the common case).
        key: int | tuple[int, tuple[int, ...]] = (card, bonus) if bonus else card
        placed = self._placed
        known = placed.get(key, _ABSENT)  # one look-up (None is an answer: cannot)
        if known is not _ABSENT:
            return known
        if bonus:
            bkey = (card, bonus)
            got = self.t.bonus_shapes.get(bkey)
            if got is None:
                g = self.g
                got = self.t.bonus_shapes[bkey] = g.shapes_for(
                    card, tuple([g.cards[s].bonus for s in bonus]))
            shapes, need = got
        else:
            shapes = self.t.plain_shapes[card]
            need = self.t.plain_need[card]
        found: list[int] | None = None
        for f, n in need:
            if counts[f] < n:
                break
        else:
            found = matcher.find(shapes, m)
        placed[key] = found
        return found

    def summons(self, p: int) -> list[Summon]:
        """Every legal summoning of ``p`` now, each with the first placement found."""
        t = self.t
        kind = t.kind
        out: list[Summon] = []
        self.masks()  # first: a recomputed sky starts a new ``_ready``
        ready = self._ready
        for card in self.hands[p]:
            # The plain summoning (no bonus servitors), found once per sky.
            a = ready.get(card, _UNSEEN)
            if a is _UNSEEN:
                pl = self.summon_placement(card, ())
                a = None if pl is None else Summon(card, (), t.summon_text[card], _tiles(pl))
                ready[card] = a
            if a is not None:
                out.append(a)
            if kind[card] == GOO:
                # Then those with a Great Old One's own Servitors, in ``bonus_options``
                # order (its first option is the plain one above).
                opts = self.bonus_options(p, card)
                for i in range(1, len(opts)):
                    bonus = opts[i]
                    pl = self.summon_placement(card, bonus)
                    if pl is not None:
                        text = self.g.summon_action[(card, bonus)].text
                        out.append(Summon(card, bonus, text, _tiles(pl)))
        return out

    def _tiles_ok(self, a: Summon) -> bool:
        g = self.g
        faces = tuple(g.cards[s].bonus for s in a.bonus)
        shapes, _ = g.shapes_for(a.card, faces)
        if len(a.tiles) != len(shapes):
            return False
        m = self.masks()
        taken = 0
        for cons, cells in zip(shapes, a.tiles, strict=True):
            tm = 0
            for pos in cells:
                if not 0 <= pos < 25 or tm >> pos & 1:
                    return False
                tm |= 1 << pos
            if tm & taken or tm not in matcher.placements(cons, m):
                return False
            taken |= tm
        return True

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, p: int) -> list[Action]:
        if p == CHANCE:
            return [o for o, _ in self.chance_outcomes() or []]
        ph = self.phase
        if p != self.current or ph in (SETUP, DEAL, DRAW, TAKE, OVER):
            return []
        t = self.t
        out: list[Action] = []
        if ph == OVERFLOW:
            release = t.release_action
            return [release[c] for c in sorted(self.creatures[p])]
        if ph == INVOKE:
            invoke = t.invoke_action
            for c in self.hands[p]:
                out.append(invoke[c])
        if ph == POWERS:
            out = self._powers(p)
        if ph in (POWERS, MOVE):
            if self.symbols[0]:
                out.extend(t.push_actions)
            if self.symbols[1]:
                out.extend(t.swap_actions)
            if self.symbols[2]:
                out.extend(t.flip_actions)
        step5 = ph in (INVOKE, SUMMON, DISCARD)  # where a turn may end
        if ph in (INVOKE, SUMMON):
            out.extend(self.summons(p))
        if step5 and self.discards_done < self.discard_limit(p):
            discard = t.discard_action
            for c in self.hands[p]:
                out.append(discard[c])
        if step5 or ph in (POWERS, MOVE):  # MINION_PHASES
            out.extend(self._minion_actions(p))
        if step5:
            out.append(END)
        return out

    def _powers(self, p: int) -> list[Action]:
        """Step 2's powers ``p`` may use now, by card (TSAR-4.1)."""
        t = self.t
        kind = t.kind
        power_from = t.power_from
        power_action = t.power_action
        symbols = self.symbols
        out: list[Action] = []
        for c in sorted(self.creatures[p]):
            if kind[c] != MINION and c not in self.used and symbols[power_from[c]]:
                out.append(power_action[c])
        return out

    def random_action(self, player: int, rng: random.Random) -> Action:
        """``choice(rng, legal_actions(player))`` without the list while symbols are spent
        (steps 2 and 4): that list is the powers, then every push, swap or flip a symbol
        left pays for (up to 345 actions), then the Minions' actions, so the i-th action is
        found by counting (the same draw, the same action)."""
        ph = self.phase
        if ph in (POWERS, MOVE) and player == self.current:
            t = self.t
            head = self._powers(player) if ph == POWERS else []
            symbols = self.symbols
            pushes = t.push_actions if symbols[0] else []
            swaps = t.swap_actions if symbols[1] else []
            flips = t.flip_actions if symbols[2] else []
            tail = self._minion_actions(player)
            n = len(head) + len(pushes) + len(swaps) + len(flips) + len(tail)
            if n:
                i = randbelow(rng, n)
                for part in (head, pushes, swaps, flips):
                    if i < len(part):
                        return part[i]
                    i -= len(part)
                return tail[i]
        return super().random_action(player, rng)

    def _minion_actions(self, p: int) -> list[Action]:
        out: list[Action] = []
        t = self.t
        minion = t.minion
        for c in self.creatures[p]:
            if minion[c] >= 0:
                break
        else:
            return out  # no Minion: nothing to do (the common case)
        g = self.g
        kinds = t.kind
        exchange = t.exchange
        n = t.ncards
        mine = sorted(self.creatures[p])
        for m in mine:
            power = minion[m]
            if power in (EXCHANGE_LESSER, EXCHANGE_GREATER):
                kind = LESSER if power == EXCHANGE_LESSER else GREATER
                gives = [c for c in mine if kinds[c] == kind and c not in self.used]
                if not gives:
                    continue
                takes = sorted([c for q in range(len(self.hands)) if q != p
                                for c in self.creatures[q] if kinds[c] == kind])
                for give in gives:
                    for take in takes:
                        out.append(exchange[(m * n + give) * n + take])
            elif power == TAKE_CARD:
                if self._deck_available():
                    out.append(g.take_action[(m, True)])
                if self.discard:
                    out.append(g.take_action[(m, False)])
        return out

    def _deck_available(self) -> bool:
        return bool(self.deck) or (bool(self.discard) and self._may_reshuffle())

    def _may_reshuffle(self) -> bool:
        """Whether the discard pile may become the deck once more (TSAR-8.3, TSAR-8.4): always
        by the book (``reshuffles=-1``, the default), else ``reshuffles`` times in a game."""
        cap = self.t.reshuffle_cap
        return cap < 0 or self.reshuffles < cap

    def is_legal(self, action: Action, player: int) -> bool:
        return self._why_illegal(action, player) is None

    def explain_illegal(self, action: Action, player: int) -> tuple[str, str | None]:
        why = self._why_illegal(action, player)
        if why is None:  # pragma: no cover - only called for illegal actions
            return f"{action!s} is legal", None
        return why

    def _why_illegal(self, a: Action, p: int) -> Why:
        """None when legal, else (reason, rule id). The fast path of ``is_legal``."""
        ph = self.phase
        if p != self.current or ph in (SETUP, DEAL, DRAW, TAKE, OVER):
            return "it is not this seat's turn to act", "TSAR-2.2"
        if ph == OVERFLOW and not isinstance(a, Release):
            return ("with a seventh creature you must first discard one of them", "TSAR-6.8")
        if ph == MOVE and not isinstance(a, (Push, Swap, Flip, Exchange, Take)):
            return ("every gained symbol must be spent on the sky first", "TSAR-5.1")
        if isinstance(a, Invoke):
            if ph != INVOKE:
                return ("an invocation comes first in the turn, and only one", "TSAR-3.1")
            if a.card not in self.hands[p]:
                return (f"{a.text[7:]} is not in your hand to invoke", "TSAR-3.1")
            return None
        if isinstance(a, Power):
            return self._why_not_power(a, p)
        if isinstance(a, (Push, Swap, Flip)):
            return self._why_not_move(a)
        if isinstance(a, Summon):
            return self._why_not_summon(a, p)
        if isinstance(a, Discard):
            if ph not in (INVOKE, SUMMON, DISCARD):
                return ("discarding is step 5", "TSAR-2.1")
            if a.card not in self.hands[p]:
                return ("you can only discard a card from your hand", "TSAR-8.1")
            if self.discards_done >= self.discard_limit(p):
                return ("one discard a turn (two with a Ghoul)", "TSAR-8.1")
            return None
        if isinstance(a, Release):
            if ph != OVERFLOW:
                return ("creatures are discarded only on gaining a seventh", "TSAR-6.8")
            if a.card not in self.creatures[p]:
                return ("discard one of your own creatures", "TSAR-6.8")
            return None
        if isinstance(a, (Exchange, Take)):
            return self._why_not_minion(a, p)
        if isinstance(a, End):
            if ph not in (INVOKE, SUMMON, DISCARD):
                return ("every gained symbol must be spent on the sky first", "TSAR-5.1")
            return None
        return (f"{a!s} is not an action of this game", None)

    def _why_not_power(self, a: Power, p: int) -> Why:
        """TSAR-4: a summoned creature's power, once a turn, on a symbol the player holds."""
        cards = self.g.cards
        ph = self.phase
        if ph not in (POWERS,):
            if ph == INVOKE:
                return ("powers change the symbols of an invocation: invoke first", "TSAR-3.3")
            return ("powers come after the invocation and before moving stars", "TSAR-4.3")
        if a.card not in self.creatures[p] or cards[a.card].kind == MINION:
            return ("only a summoned creature's symbol power can be used", "TSAR-4.1")
        if a.card in self.used:
            return ("each creature's power works once a turn", "TSAR-4.2")
        if not self.symbols[cards[a.card].power_from]:
            sym = SYMBOLS[cards[a.card].power_from]
            return (f"that power needs a {sym} symbol to change", "TSAR-4.1")
        return None

    def _why_not_move(self, a: Push | Swap | Flip) -> Why:
        """TSAR-5: each push, swap or flip spends a symbol of its kind."""
        g = self.g
        ph = self.phase
        if ph == INVOKE:
            return ("stars move only with symbols gained by an invocation", "TSAR-3.3")
        rule = "TSAR-5.2" if isinstance(a, Push) else (
            "TSAR-5.3" if isinstance(a, Swap) else "TSAR-5.4")
        if ph not in (POWERS, MOVE):
            return ("no symbol left to move the stars with", rule)
        if isinstance(a, Push):
            if not self.symbols[0]:
                return ("no Push symbol left", "TSAR-5.2")
            if g.push_index.get((a.column, a.index, a.delta)) is None:
                return ("a push moves a whole row or column by one", "TSAR-5.2")
        elif isinstance(a, Swap):
            if not self.symbols[1]:
                return ("no Swap symbol left", "TSAR-5.3")
            if (a.a, a.b) not in g.swap_index:
                return ("only orthogonally adjacent tiles swap, never across edges",
                        "TSAR-5.3")
        else:
            if not self.symbols[2]:
                return ("no Flip symbol left", "TSAR-5.4")
            if not 0 <= a.pos < 25:
                return ("flip a tile of the sky", "TSAR-5.4")
        return None

    def _why_not_summon(self, a: Summon, p: int) -> Why:
        """TSAR-6 and TSAR-7: a card of the hand whose constellations all show in the sky."""
        if self.phase not in (INVOKE, SUMMON):
            if self.summoned:
                return ("only one creature may be summoned a turn", "TSAR-6.1")
            return ("summoning comes before the discard step", "TSAR-2.1")
        if a.card not in self.hands[p]:
            return ("you summon creatures from your own hand", "TSAR-6.1")
        if a.bonus not in self.bonus_options(p, a.card):
            return ("bonus stars come from your own Servitors of this Great Old One, at most "
                    "three, each on a star the card shows", "TSAR-7.2")
        if a.tiles:
            if not self._tiles_ok(a):
                return ("those tiles do not show the creature's constellations on separate "
                        "tiles", "TSAR-6.2")
            return None
        if self.summon_placement(a.card, a.bonus) is None:
            return ("the stars are not right: the constellations are not all in the sky",
                    "TSAR-6.2")
        return None

    def _why_not_minion(self, a: Exchange | Take, p: int) -> Why:
        """TSAR-9: a Minion in front of the player, discarded for its power."""
        cards = self.g.cards
        if self.phase not in MINION_PHASES:
            return ("Minion powers are used during your own turn", "TSAR-9.7")
        if a.minion not in self.creatures[p]:
            return ("a Minion's power needs the Minion summoned in front of you", "TSAR-9.1")
        power = cards[a.minion].minion
        if isinstance(a, Take):
            if power != "take-card":
                return ("only a Dhole takes a card", "TSAR-9.4")
            if a.from_deck and not self._deck_available():
                return ("the draw deck is empty", "TSAR-9.4")
            if not a.from_deck and not self.discard:
                return ("the discard pile is empty", "TSAR-9.4")
            return None
        rule = "TSAR-9.2" if power == "exchange-lesser" else "TSAR-9.3"
        if power not in ("exchange-lesser", "exchange-greater"):
            return ("only a Gug or a Tindaloo exchanges creatures", "TSAR-9.2")
        kind = LESSER if power == "exchange-lesser" else GREATER
        if a.give not in self.creatures[p] or cards[a.give].kind != kind:
            return ("give one of your own Servitors of the Minion's kind", rule)
        if a.give in self.used:
            return ("a creature whose power you used this turn cannot be given away",
                    "TSAR-4.4")
        owner = self.owner(a.take)
        if owner is None or owner == p or cards[a.take].kind != kind:
            return ("take an opponent's Servitor of the Minion's kind", rule)
        return None

    def owner(self, card: int) -> int | None:
        """The seat controlling a summoned ``card``, or None."""
        for q, cs in enumerate(self.creatures):
            if card in cs:
                return q
        return None

    # ------------------------------------------------------------------ chance
    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        return _CHANCE_LOG if player == CHANCE else None

    def _history_entry(self, action: Action, player: int) -> Any:
        """The game's prebuilt ``(player, action)`` for its own actions (``Tables.entries``):
        a game of ~9,000 moves then adds no tuple per move for the collector to scan.
        Summonings (built per sky) and actions from elsewhere get a new tuple, as before.
        (``Any`` throughout: a typed pair would be unpacked and boxed anew when compiled.)"""
        got = self.t.entries.get(id(action))
        return (player, action) if got is None else got[player]

    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        g = self.g
        if self.phase == SETUP:
            left = 25 - self.placed
            out: list[tuple[Action, float]] = []
            for k, n in enumerate(self.kinds_left):
                if n:
                    for side in (0, 1):
                        out.append((g.place_action[(k, side)], n / left / 2))
            return out
        if self.phase in (DEAL, DRAW, TAKE):
            pr = 1.0 / len(self.deck)
            return [(g.draw_action[c], pr) for c in self.deck]
        return []

    def sample_chance(self, rng: random.Random) -> Action:
        if self.phase in (DEAL, DRAW, TAKE):
            return self.t.draw_action[self.deck[randrange(rng, len(self.deck))]]
        return super().sample_chance(rng)

    def is_legal_chance(self, outcome: Action) -> bool:
        if self.phase == SETUP:
            return isinstance(outcome, PlaceTile) and self.kinds_left[outcome.kind] > 0 and (
                outcome.side in (0, 1))
        if self.phase in (DEAL, DRAW, TAKE):
            return isinstance(outcome, Draw) and outcome.card in self.deck
        return False

    # ------------------------------------------------------------------ applying
    def _apply(self, a: Action, p: int) -> None:
        if p == CHANCE:
            self._apply_chance(a)
            return
        # A tuple, not ``Push | Swap | Flip``: compiled code would build that union anew at
        # every call.
        if isinstance(a, (Push, Swap, Flip)):
            self._move_stars(a)
            return
        t = self.t
        if isinstance(a, Invoke):
            self._from_hand(p, a.card)
            self.invoked = a.card
            self.symbols = t.invocation[a.card].copy()
            self.phase = POWERS
            return
        if isinstance(a, Power):
            power_to = t.power_to[a.card]
            self.symbols[t.power_from[a.card]] -= 1
            for i in range(3):
                self.symbols[i] += power_to[i]
            self.used = (*self.used, a.card)
            return
        if isinstance(a, Summon):
            self._summon(p, a)
            return
        if isinstance(a, Discard):
            self._discard(p, a.card)
            return
        if isinstance(a, Release):
            self.creatures[p] = _without(self.creatures[p], a.card)
            self.discard.append(a.card)
            self._after_summon()
            return
        if isinstance(a, Exchange):
            self._exchange(p, a)
            return
        if isinstance(a, Take):
            self._take(p, a)
            return
        if isinstance(a, End):
            self._begin_draw()
            return
        raise AssertionError(f"unhandled action {a!r}")  # pragma: no cover

    def _apply_chance(self, a: Action) -> None:
        """A tile laid in set-up (TSAR-1.3), or a card drawn: dealt (TSAR-1.5), drawn or taken."""
        if isinstance(a, PlaceTile):
            g = self.g
            left = list(self.kinds_left)
            tid = g.tile_first[a.kind] + g.comps.tiles[a.kind][2] - left[a.kind]
            left[a.kind] -= 1
            self.kinds_left = tuple(left)
            self.pos_tile[self.placed] = tid
            self.pos_side[self.placed] = a.side
            self.placed += 1
            self._masks = None
            if self.placed == 25:
                self.phase = DEAL
            return
        assert isinstance(a, Draw)
        self.deck.remove(a.card)
        if self.phase == DEAL:
            dealt = sum(len(h) for h in self.hands)
            seat = dealt % len(self.hands)
            _insort(self.hands[seat], a.card)
            if dealt + 1 == HAND_SIZE * len(self.hands):
                self.phase = INVOKE
        elif self.phase == TAKE:
            _insort(self.hands[self.current], a.card)
            self.discard.append(self.resolving)
            self.resolving = -1
            self.phase = self.return_phase
        else:
            _insort(self.hands[self.current], a.card)
            self._continue_draw()

    def _move_stars(self, a: Push | Swap | Flip) -> None:
        """Spend a symbol on the sky; with none left the invoked card goes to the discards."""
        if isinstance(a, Push):
            line = a.path()
            t = self.pos_tile
            s = self.pos_side
            vt = [t[i] for i in line]
            vs = [s[i] for i in line]
            d = a.delta
            for k, pos in enumerate(line):
                t[pos] = vt[(k - d) % 5]
                s[pos] = vs[(k - d) % 5]
            self.symbols[0] -= 1
        elif isinstance(a, Swap):
            t, s = self.pos_tile, self.pos_side
            t[a.a], t[a.b] = t[a.b], t[a.a]
            s[a.a], s[a.b] = s[a.b], s[a.a]
            self.symbols[1] -= 1
        else:
            self.pos_side[a.pos] ^= 1
            self.symbols[2] -= 1
        self._masks = None
        if self.symbols[0] or self.symbols[1] or self.symbols[2]:
            self.phase = MOVE
        else:
            self.discard.append(self.invoked)
            self.invoked = -1
            self.phase = SUMMON

    def _discard(self, p: int, card: int) -> None:
        """Step 5 (TSAR-8.1); the draw follows at once when nothing else is left to do."""
        self._from_hand(p, card)
        self.discard.append(card)
        self.discards_done += 1
        done = self.discards_done >= self.discard_limit(p) or not self.hands[p]
        if done and not self._minion_actions(p):
            self._begin_draw()  # "end" would be the only choice left: take it
        else:
            self.phase = DISCARD

    def _exchange(self, p: int, a: Exchange) -> None:
        """Gug / Tindaloo (TSAR-9.2, TSAR-9.3): the Minion is discarded, two Servitors trade."""
        q = self.owner(a.take)
        assert q is not None
        self.discard.append(a.minion)
        mine = _without(_without(self.creatures[p], a.minion), a.give)
        self.creatures[p] = (*mine, a.take)
        self.creatures[q] = (*_without(self.creatures[q], a.take), a.give)
        self._check_goal()

    def _take(self, p: int, a: Take) -> None:
        """Dhole (TSAR-9.4): the top of the deck (a chance draw follows) or of the discards."""
        self.creatures[p] = _without(self.creatures[p], a.minion)
        if a.from_deck:
            if not self.deck:
                self._reshuffle()
            self.resolving = a.minion
            self.return_phase = self.phase
            self.phase = TAKE
        else:
            card = self.discard.pop()
            _insort(self.hands[p], card)
            self.known[p] = (*self.known[p], card)
            self.discard.append(a.minion)

    def _from_hand(self, p: int, card: int) -> None:
        self.hands[p].remove(card)
        if card in self.known[p]:
            self.known[p] = _without(self.known[p], card)

    def _summon(self, p: int, a: Summon) -> None:
        tiles = a.tiles
        if not tiles:
            pl = self.summon_placement(a.card, a.bonus)
            assert pl is not None
            tiles = _tiles(pl)
        self._from_hand(p, a.card)
        mine = self.creatures[p]
        for s in a.bonus:
            if self.t.kind[s] == LESSER:  # TSAR-7.3: Lesser Servitors pay with their life
                mine = _without(mine, s)
                self.discard.append(s)
        self.creatures[p] = (*mine, a.card)
        self.summoned = True
        self.last_summon = (p, a.card, a.bonus, tiles)
        if len(self.creatures[p]) > MAX_CREATURES:
            self.phase = OVERFLOW
        else:
            self._after_summon()

    def _after_summon(self) -> None:
        if self._check_goal():
            return
        self.phase = DISCARD

    def _check_goal(self) -> bool:
        """TSAR-10.2: the game ends as soon as a seat reaches the goal."""
        for q in range(len(self.hands)):
            if self.vp(q) >= GOAL:
                self.phase = OVER
                self.end_reason = "goal"
                return True
        return False

    def _reshuffle(self) -> None:
        """TSAR-8.3: the discard pile becomes the new face-down deck."""
        self.deck = sorted(self.discard)
        self.discard = []
        self.reshuffles += 1

    def _begin_draw(self) -> None:
        self.phase = DRAW
        self._continue_draw()

    def _continue_draw(self) -> None:
        p = self.current
        if len(self.hands[p]) < self.hand_limit(p):
            if self.deck:
                return
            if self.discard:
                if self._may_reshuffle():
                    self._reshuffle()
                    return
                self.phase = OVER  # TSAR-8.4: the deck ran out once too often
                self.end_reason = "deck"
                return
            # TSAR-8.5: nothing left to draw.
        self._next_turn()

    def _next_turn(self) -> None:
        n = len(self.hands)
        self.turn += 1
        if self.turn >= self.t.max_turns:  # max_rounds x seats
            self.phase = OVER  # TSAR-10.3
            self.end_reason = "rounds"
            return
        self.current = (self.current + 1) % n
        self.phase = INVOKE
        self.symbols = [0, 0, 0]
        self.used = ()
        self.discards_done = 0
        self.summoned = False

    # ------------------------------------------------------------------ results
    def score_breakdown(self) -> list[dict[str, float]]:
        cards = self.g.cards
        out = []
        for p in range(len(self.hands)):
            mine = self.counted(p)  # the six kept while a seventh waits (TSAR-6.8)
            d: dict[str, float] = {"creatures": float(len(mine))}
            for kind, name in ((GOO, "great_old_ones"), (GREATER, "greater_servitors"),
                               (LESSER, "lesser_servitors")):
                d[name] = float(sum(cards[c].vp for c in mine if cards[c].kind == kind))
            d["total"] = float(self.vp(p))
            out.append(d)
        return out

    def scores(self) -> list[float]:
        """Each seat's ``score_breakdown`` total, without building the breakdown (searches
        score every finished rollout)."""
        return [float(self.vp(q)) for q in range(len(self.hands))]

    # ------------------------------------------------------------------ views
    def _codes(self, cs: Iterable[int]) -> list[str]:
        cards = self.g.cards
        return [cards[c].id for c in cs]

    def _view_scores(self) -> list[int]:
        """The VP each seat has now (``scores()`` gives the same as floats): while a seventh
        creature waits to be let go, the VP of the six its seat keeps at best (TSAR-6.8)."""
        return [self.vp(q) for q in range(len(self.hands))]

    def _view(self, player: int | None) -> dict[str, Any]:
        g = self.g
        faces = self.faces()
        tf = g.tile_faces
        backs = [tf[t][1 - s] if t >= 0 else -1
                 for t, s in zip(self.pos_tile, self.pos_side, strict=True)]
        v: dict[str, Any] = {
            "phase": PHASE_NAMES[self.phase],
            "current": self.current,
            "turn": self.turn,
            "sky": [[FACES[f] if f >= 0 else None for f in faces[r * 5:r * 5 + 5]]
                    for r in range(5)],
            "sky_backs": [[FACES[f] if f >= 0 else None for f in backs[r * 5:r * 5 + 5]]
                          for r in range(5)],
            "symbols": {s: self.symbols[i] for i, s in enumerate(SYMBOLS)},
            "invoked": g.cards[self.invoked].id if self.invoked >= 0 else None,
            "resolving": g.cards[self.resolving].id if self.resolving >= 0 else None,
            "powers_used": self._codes(self.used),
            "discards_this_turn": self.discards_done,
            "summoned_this_turn": self.summoned,
            "creatures": [self._codes(c) for c in self.creatures],
            "hand_sizes": [len(h) for h in self.hands],
            "known_in_hands": [sorted(self._codes(k)) for k in self.known],
            "hand": self._codes(self.hands[player]) if player is not None else None,
            "deck_size": len(self.deck),
            "discard": self._codes(self.discard),
            "reshuffles": self.reshuffles,
            "end_reason": self.end_reason or None,
            "last_summon": None,
        }
        if self.last_summon is not None:
            q, c, bonus, tiles = self.last_summon
            v["last_summon"] = {
                "seat": q, "card": g.cards[c].id, "bonus": self._codes(list(bonus)),
                "tiles": [[cell_name(t) for t in cons] for cons in tiles],
            }
        return v

    def resample(self, player: int, rng: random.Random) -> StarsAreRightState:
        """Redraw the unseen cards: other seats' hands (except cards seen entering them) and
        the deck, keeping every hand size."""
        s = self.clone()
        s._share_skies = True  # a search's state: its skies recur (``_share_skies``)
        pool = list(s.deck)
        for q in range(len(s.hands)):
            if q != player:
                hidden = [c for c in s.hands[q] if c not in s.known[q]]
                pool.extend(hidden)
        shuffle(rng, pool)
        k = 0
        for q in range(len(s.hands)):
            if q != player:
                m = len(s.hands[q]) - len(s.known[q])
                s.hands[q] = sorted([*s.known[q], *pool[k:k + m]])
                k += m
        # The deck in order, by marking its cards rather than sorting them (the same list).
        mark = [False] * self.t.ncards
        for i in range(k, len(pool)):
            mark[pool[i]] = True
        s.deck = [c for c in range(len(mark)) if mark[c]]
        return s

    def census(self) -> dict[str, list[str]]:
        cards = self.g.cards
        out: dict[str, list[str]] = {
            "deck": [cards[c].id for c in self.deck],
            "discard": [cards[c].id for c in self.discard],
            "invoked": [cards[self.invoked].id] if self.invoked >= 0 else [],
            "resolving": [cards[self.resolving].id] if self.resolving >= 0 else [],
        }
        for q in range(len(self.hands)):
            out[f"hand-{q}"] = [cards[c].id for c in self.hands[q]]
            out[f"creatures-{q}"] = [cards[c].id for c in self.creatures[q]]
        out["sky"] = [f"tile-{t}" for t in self.pos_tile if t >= 0]
        laid = set(self.pos_tile)
        out["tile-bag"] = [f"tile-{t}" for t in range(25) if t not in laid]
        return out


def _tiles(placement: list[int]) -> tuple[tuple[int, ...], ...]:
    """The positions of each constellation's tile mask."""
    return tuple([tuple(matcher.cells_of(m)) for m in placement])


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` less ``card`` (which must be there: ValueError otherwise, as list.remove)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _insort(hand: list[int], card: int) -> None:
    """Hands are kept sorted so that a position has one canonical form."""
    i = 0
    while i < len(hand) and hand[i] < card:
        i += 1
    hand.insert(i, card)
