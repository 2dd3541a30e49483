"""The Shooting Star rules (``ShootingStarState``).

The position is kept in flat lists of ints for speed:

* ``lvl[cell]``: 0 = no planet, 1-4 = the planet's Level, 5 = a Dark Planet;
* ``pl[cell]``: index of the planet card there (-1 none);
* ``cov[cell]``: the cover code of the Destruction card on it (card 0-7 = Priority 1-8,
  8 = Space Shield), -1 none;
* ``hands[seat]``: bit mask of the Destruction cards still in hand;
* piles hold pile codes: a planet's index or a Destruction card's code.

The codes are packed and unpacked only by the helpers of ``constants``.

Rule ids (SS-x.y) refer to ``rules.md`` in this package.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import TYPE_CHECKING, Any, Final

from nightsky.core.errors import IllegalActionError
from nightsky.core.game import CHANCE, Action, LogSecret, State
from nightsky.core.rng import choice, randbelow, sample, shuffle
from nightsky.games.shooting_star.actions import (
    Build,
    DeckOrder,
    Discard,
    GridDeal,
    MissionDeal,
    Place,
    PlanetDeal,
)
from nightsky.games.shooting_star.constants import (
    BITS,
    CARD_BASE,
    CARD_KEYS,
    DARK,
    DARK_LEVEL,
    FULL_HAND,
    MAJOR,
    MAX_TURNS,
    MINOR,
    NCARDS,
    PH_BUILD,
    PH_DEAL,
    PH_DECK,
    PH_GRID,
    PH_MISSIONS,
    PH_OVER,
    PH_PLACE,
    PHASE_NAMES,
    SHIELD,
    cover_card,
    cover_seat,
    decode_cover,
    encode_cover,
    hand_has,
    hand_with,
    hand_without,
    pile_card,
    pile_of_cover,
    pile_planets,
)
from nightsky.games.shooting_star.events import Event, as_event
from nightsky.games.shooting_star.tables import (
    F_ANY,
    F_MAJOR,
    F_MINOR,
    M_DESTROY,
    M_NAMED,
    Tables,
)
from nightsky.games.shooting_star.views import census, view

if TYPE_CHECKING:
    from nightsky.games.shooting_star.game import ShootingStarGame

# Final: compiled code reads them as constants, not from the module's dictionary.
_SEAT_TUPLES: Final = tuple([(s,) for s in range(5)])
_CHANCE_TUPLE: Final = (CHANCE,)
_NOBODY: Final[tuple[int, ...]] = ()
_DECK_SECRET: Final = LogSecret("deck shuffled")
RawEvent = tuple[Any, ...]  # an event as the resolution records it (see ``events``)


class ShootingStarState(State):
    """One position of Shooting Star."""

    g: ShootingStarGame
    t: Tables
    """The game's tables, typed (``game.tables``): what the hot paths read."""

    def __init__(self, game: ShootingStarGame, blank: bool = False) -> None:
        if blank:  # ``_copy``'s way in: it assigns every field (``clone`` the shared ones)
            return
        super().__init__(game)
        self.g = game
        self.t = game.tables
        n = game.num_players
        nc = game.ncells
        self.phase = PH_DEAL if game.personalized else PH_GRID
        self.lvl = [0] * nc
        self.pl = [-1] * nc
        self.cov = [-1] * nc
        self.alive: list[int] = []  # cells holding a planet, ascending
        self.free: list[int] = []  # of those, the ones without a card (placement phase)
        self.hands = [FULL_HAND] * n
        self.placed: list[tuple[int, int, int]] = []  # (seat, card, cell) this turn, in order
        self.conq: list[list[int]] = [[] for _ in range(n)]
        self.debris: list[list[int]] = [[] for _ in range(n)]
        # The five lists below are never changed in place, only replaced, so copies of the
        # state share them (see ``_copy``).
        self.deck: list[int] = []  # the replacement deck, top card last
        self.box: list[int] = []  # planets out of play (SS-2.5, SS-14.7)
        self.missions: list[tuple[int, int, int]] = []
        self.phands: list[list[int]] = [[] for _ in range(n)]  # Personalized variant hands
        self._events: list[RawEvent] = []  # what the last resolution did: see ``events``
        self.invader = 0  # SS-2.8: seat 0 is the youngest
        self.actor = 0
        self.turn = 0  # complete turns played

    # ------------------------------------------------------------------ copying
    def _copy(self) -> ShootingStarState:
        """Copy the lists the rules change in place; share ``deck``, ``box``, ``missions``,
        ``phands`` and ``_events``, which the rules (and ``resample``) only ever replace."""
        s = ShootingStarState(self.g, True)
        s.g = self.g
        s.t = self.t
        s.phase = self.phase
        s.lvl = self.lvl.copy()
        s.pl = self.pl.copy()
        s.cov = self.cov.copy()
        s.alive = self.alive.copy()
        s.free = self.free.copy()
        s.hands = self.hands.copy()
        s.placed = self.placed.copy()
        s.conq = [x.copy() for x in self.conq]
        s.debris = [x.copy() for x in self.debris]
        s.deck = self.deck
        s.box = self.box
        s.missions = self.missions
        s.phands = self.phands
        s._events = self._events
        s.invader = self.invader
        s.actor = self.actor
        s.turn = self.turn
        return s

    # ------------------------------------------------------------------ whose turn
    def current_players(self) -> tuple[int, ...]:
        ph = self.phase
        if ph >= PH_BUILD:
            return _NOBODY if ph == PH_OVER else _SEAT_TUPLES[self.actor]
        return _CHANCE_TUPLE

    def is_terminal(self) -> bool:
        return self.phase == PH_OVER

    def is_chance_node(self) -> bool:
        return self.phase < PH_BUILD

    # ------------------------------------------------------------------ legal actions
    def free_cells(self) -> list[int]:
        """Planets without a Destruction card on them (SS-3.3)."""
        return self.free.copy()

    def _legal_actions(self, player: int) -> list[Action]:
        if player != self.actor:
            return []
        if self.phase == PH_PLACE:  # the hot path: card by card, free cell by free cell
            free = self.free
            rows = self.t.place_rows
            cards = BITS[self.hands[player]]
            # made at its final size and filled in place: cheaper than ~70 appends
            out: list[Action] = [None] * (len(cards) * len(free))
            i = 0
            for k in cards:
                row = rows[k]
                for c in free:
                    out[i] = row[c]
                    i += 1
            return out
        return self._build_actions(player) if self.phase == PH_BUILD else []

    def legal_action_ids(self, player: int) -> list[int]:
        """``game.action_id`` of each of ``legal_actions(player)``, in order, computed while
        placing: card ``k`` on cell ``c`` is id ``k * ncells + c`` (small ints, no lookup: the
        RL adapters' masks read ~90 placements a move)."""
        if self.phase == PH_PLACE:
            if player != self.actor:
                return []
            free = self.free
            ncells = self.t.ncells
            out: list[int] = []
            for k in BITS[self.hands[player]]:
                base = k * ncells
                for c in free:
                    out.append(base + c)
            return out
        return super().legal_action_ids(player)

    def random_action(self, player: int, rng: random.Random) -> Action:
        """``choice(rng, legal_actions(player))`` without the list while placing: the legal
        list runs card by card, free cell by free cell, so its i-th action is card
        ``i // len(free)`` of the hand on free cell ``i % len(free)`` (the same draw)."""
        if self.phase == PH_PLACE and player == self.actor:
            free = self.free
            cards = BITS[self.hands[player]]
            nfree = len(free)
            n = len(cards) * nfree
            if n:
                i = randbelow(rng, n)
                return self.t.place_rows[cards[i // nfree]][free[i % nfree]]
        return super().random_action(player, rng)

    def _build_spots(self, darks: bool) -> tuple[list[int], list[int]]:
        """Cells where a planet may go in the Personalized build (SS-14.3 to SS-14.6):
        (for any planet, for a Dark Planet: computed only when ``darks``, else [])."""
        lvl = self.lvl
        if not self.alive:
            centre = [self.g.centre]
            return centre, centre
        neigh = self.g.neigh
        plain = sorted({nb for c in self.alive for nb in neigh[c] if not lvl[nb]})
        if not darks:
            return plain, []
        dark = [c for c in plain if all(lvl[nb] != DARK_LEVEL for nb in neigh[c])]
        return plain, dark

    def _build_actions(self, player: int) -> list[Action]:
        g = self.g
        rows = g.build_rows  # per planet side, the Build actions by cell (None: not made yet)
        ncells = g.ncells
        kind = g.p_kind
        hand = sorted(self.phands[player])
        out: list[Action] = []
        plain, dark = self._build_spots(any(kind[p] == DARK for p in hand))
        for p in hand:
            cells = dark if kind[p] == DARK else plain
            pair = g.pair_base[p]
            for _ in g.p_levels[p]:  # each side of the planet, lower Level first
                row = rows[pair] or g.build_row(pair)
                base = g.build_id0 + pair * ncells
                for c in cells:
                    a = row[c]
                    out.append(a if a is not None else g.build_by_id(base + c))
                pair += 1
        if not out:  # ruling SS-14.7: nothing fits anywhere, so one planet goes back to the box
            out = [g.discards[p] for p in hand]
        return out

    def is_legal(self, action: Action, player: int) -> bool:
        if type(action) is Place:
            if self.phase != PH_PLACE or player != self.actor:
                return False
            card, cell = action.card, action.cell
            g = self.g
            if not (0 <= card < NCARDS and 0 <= cell < g.ncells):
                return False
            return (
                hand_has(self.hands[player], card)
                and self.lvl[cell] > 0
                and self.cov[cell] < 0
                and g.place_rows[card][cell] == action  # col and row must match the cell
            )
        if type(action) in (Build, Discard):
            if self.phase != PH_BUILD or player != self.actor:
                return False
            return action in self._build_actions(player)
        return False

    def explain_illegal(self, action: Action, player: int) -> tuple[str, str | None]:
        if type(action) is Place:
            if self.phase != PH_PLACE:
                return (
                    f"{action} is not possible now: no Destruction cards are placed in the "
                    f"{PHASE_NAMES[self.phase]} phase",
                    "SS-3.1",
                )
            g = self.g
            if not 0 <= action.cell < g.ncells or g.place_rows[action.card][action.cell] != action:
                return f"{action} names no space of this Star Sector", "SS-2.3"
            if not hand_has(self.hands[player], action.card):
                return (f"{CARD_KEYS[action.card]} is no longer in your hand", "SS-3.3")
            if self.lvl[action.cell] == 0:
                return f"there is no planet at {g.cell_name(action.cell)} to place on", "SS-3.3"
            return (
                f"the planet at {g.cell_name(action.cell)} already holds a Destruction card",
                "SS-3.3",
            )
        if type(action) is Build:
            if self.phase != PH_BUILD:
                return f"{action}: planets are only placed while building the sector", "SS-14.2"
            if not 0 <= action.cell < self.g.ncells or action not in self.g.all_actions():
                return f"{action}: no such planet side or space on the table", "SS-14.6"
            if action.planet not in self.phands[player]:
                return f"{action}: that planet is not in seat {player}'s hand", "SS-14.4"
            if not self.alive and action.cell != self.g.centre:
                return f"{action}: the first planet goes in the middle (8,8)", "SS-14.3"
            if self.lvl[action.cell]:
                return f"{action}: that space already holds a planet", "SS-14.4"
            if self.g.p_kind[action.planet] == DARK and any(
                self.lvl[nb] == DARK_LEVEL for nb in self.g.neigh[action.cell]
            ):
                return f"{action}: two Dark Planets may never be adjacent", "SS-14.5"
            if self.alive and not any(self.lvl[nb] for nb in self.g.neigh[action.cell]):
                return f"{action}: a planet must touch one already on the table", "SS-14.4"
            return f"{action}: not a legal placement now", "SS-14.4"
        if type(action) is Discard:
            return (
                f"{action}: a planet may only go back to the box when none fits anywhere",
                "SS-14.7",
            )
        return f"{action!s} is not a legal action now", None

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        return None  # every set-up outcome is sampled (the lists are astronomically long)

    def sample_chance(self, rng: random.Random) -> Action:
        t = self.t
        ph = self.phase
        if ph in (PH_GRID, PH_DEAL):
            stack = self._sample_stack(rng)
            if ph == PH_DEAL:
                g = self.g
                k = len(stack) // g.num_players
                shuffle(rng, stack)
                return g.make_deal(
                    tuple(tuple(stack[i * k : (i + 1) * k]) for i in range(g.num_players))
                )
            return t.make_grid(self._sample_layout(stack, rng))
        if ph == PH_DECK:
            used = self._dealt()
            cards = [p for p in t.minors if not used[p]]
            shuffle(rng, cards)
            return t.make_deck(tuple(cards))
        if ph == PH_MISSIONS:
            n = t.num_players
            cols = [sample(rng, ms, n) for ms in t.missions_by_value]
            one, two, three = cols[0], cols[1], cols[2]
            return t.make_missions(tuple([(one[i], two[i], three[i]) for i in range(n)]))
        raise RuntimeError("no chance event is pending")

    def _sample_stack(self, rng: random.Random) -> list[int]:
        """SS-2.1/2.2: six differently named Level 4 planets and a Dark Planet set aside
        (ruling: chosen at random), plus random other planets up to the grid's size."""
        t = self.t
        # the names by their index in ``major_names``: the same draws pick the same names
        names = sample(rng, t.name_ids, 6)
        by_name = t.majors_by_id
        aside = [choice(rng, by_name[i]) for i in names]
        aside.append(choice(rng, t.darks))
        chosen = [False] * t.nplanets
        for p in aside:
            chosen[p] = True
        rest = [p for p in range(t.nplanets) if not chosen[p]]
        return aside + sample(rng, rest, t.grid_planets - 7)

    def _sample_layout(self, stack: list[int], rng: random.Random) -> tuple[tuple[int, int], ...]:
        """SS-2.2/2.4: shuffle until no two Dark Planets touch (uniform over valid layouts),
        each planet with a random side up."""
        t = self.t
        kind = t.p_kind
        neigh = t.neigh
        stack = stack.copy()
        while True:
            shuffle(rng, stack)
            darks = [c for c, p in enumerate(stack) if kind[p] == DARK]
            if len(darks) < 2 or not _touching(darks, neigh):
                break
        bits = rng.getrandbits(len(stack))
        sides = t.p_sides  # bit i picks the side of the i-th planet (a Dark one has one)
        return tuple([(p, sides[p][bits >> i & 1]) for i, p in enumerate(stack)])

    def is_legal_chance(self, outcome: Action) -> bool:
        g = self.g
        ph = self.phase
        try:
            if ph == PH_GRID:
                return type(outcome) is GridDeal and self._valid_grid(outcome)
            if ph == PH_DEAL:
                return type(outcome) is PlanetDeal and self._valid_deal(outcome)
            if ph == PH_DECK:
                used = self._dealt()
                want = sorted(p for p in g.minors if not used[p])
                return type(outcome) is DeckOrder and sorted(outcome.cards) == want
            if ph == PH_MISSIONS:
                if type(outcome) is not MissionDeal or len(outcome.seats) != g.num_players:
                    return False
                for v in range(3):
                    col = [trio[v] for trio in outcome.seats]
                    if len(set(col)) != len(col) or any(
                        m not in g.missions_by_value[v] for m in col
                    ):
                        return False
                return True
        except (TypeError, ValueError, IndexError):
            return False
        return False

    def _dealt(self) -> list[bool]:
        """Per planet, whether it is on the table or in a player's planet hand."""
        pl = self.pl
        used = [False] * self.t.nplanets
        for c in self.alive:
            used[pl[c]] = True
        for h in self.phands:
            for p in h:
                used[p] = True
        return used

    def _valid_stack(self, planets: list[int]) -> bool:
        g = self.g
        if len(planets) != g.grid_planets or len(set(planets)) != len(planets):
            return False
        if any(not 0 <= p < len(g.p_kind) for p in planets):
            return False
        names = {g.p_name[p] for p in planets if g.p_kind[p] == MAJOR}
        return len(names) >= 6 and any(g.p_kind[p] == DARK for p in planets)

    def _valid_grid(self, outcome: GridDeal) -> bool:
        g = self.g
        cells = outcome.cells
        if len(cells) != g.ncells or not self._valid_stack([p for p, _ in cells]):
            return False
        for p, lv in cells:
            k = g.p_kind[p]
            ok = (1, 2) if k == MINOR else (3, 4) if k == MAJOR else (DARK_LEVEL,)
            if lv not in ok:
                return False
        for c, (p, _) in enumerate(cells):
            if g.p_kind[p] == DARK and any(g.p_kind[cells[nb][0]] == DARK for nb in g.neigh[c]):
                return False
        return outcome == g.make_grid(cells)

    def _valid_deal(self, outcome: PlanetDeal) -> bool:
        g = self.g
        if len(outcome.hands) != g.num_players or any(len(h) != 6 for h in outcome.hands):
            return False
        return self._valid_stack([p for h in outcome.hands for p in h])

    # ------------------------------------------------------------------ applying
    def _apply(self, action: Action, player: int) -> None:
        if type(action) is Place:  # the hot path (SS-3.3): an exact type check is the cheapest
            card = action.card
            cell = action.cell
            self.hands[player] = hand_without(self.hands[player], card)
            self.cov[cell] = encode_cover(player, card)
            _drop(self.free, cell)
            placed = self.placed
            placed.append((player, card, cell))
            n = self.t.num_players
            if len(placed) < n:
                self.actor = (player + 1) % n  # SS-3.2
            else:
                self._resolve()
        elif type(action) is Build:
            self._build(action, player)
        elif type(action) is Discard:
            self._take_planet(player, action.planet)
            self.box = [*self.box, action.planet]
            self._next_builder()
        else:
            self._apply_chance(action)

    def _apply_chance(self, action: Action) -> None:
        """The set-up (SS-2, SS-14.2): the dealt sector or planets, the deck, the missions."""
        if type(action) is GridDeal:
            pl, lvl = self.pl, self.lvl
            for c, (p, lv) in enumerate(action.cells):
                pl[c] = p
                lvl[c] = lv
            self.alive = self.t.cells.copy()
            self.free = self.alive.copy()
            self.phase = PH_DECK
        elif type(action) is PlanetDeal:
            self.phands = [list(h) for h in action.hands]
            self.phase = PH_DECK
        elif type(action) is DeckOrder:
            cards = action.cards
            self.deck = list(cards[::-1])
            used = self._dealt()
            for p in cards:
                used[p] = True
            self.box = [p for p in range(self.t.nplanets) if not used[p]]
            self.phase = PH_MISSIONS
        elif type(action) is MissionDeal:
            self.missions = list(action.seats)
            self.phase = PH_BUILD if self.t.personalized else PH_PLACE
            self.actor = self.invader
        else:  # pragma: no cover - apply() validated the action
            raise IllegalActionError(f"{action!r} is not a Shooting Star action")

    def _take_planet(self, player: int, planet: int) -> None:
        """Take ``planet`` out of ``player``'s planet hand (a new list: copies share it)."""
        hands = self.phands.copy()
        hands[player] = [p for p in hands[player] if p != planet]
        self.phands = hands

    def _build(self, action: Build, player: int) -> None:
        self._take_planet(player, action.planet)
        self.lvl[action.cell] = action.level
        self.pl[action.cell] = action.planet
        insort(self.alive, action.cell)
        self._next_builder()

    def _next_builder(self) -> None:
        n = self.g.num_players
        if any(self.phands):
            # SS-14.4: clockwise; a seat whose hand is empty is skipped (cannot happen unless
            # a planet went back to the box, SS-14.7)
            s = self.actor
            for _ in range(n):
                s = (s + 1) % n
                if self.phands[s]:
                    break
            self.actor = s
        else:
            self.phase = PH_PLACE  # SS-14.8
            self.free = self.alive.copy()
            self.actor = self.invader

    # ------------------------------------------------------------------ resolution
    def _resolve(self) -> None:
        """SS-4: reveal, resolve by descending priority then turn order; end the turn."""
        events: list[RawEvent] = []
        self._events = events
        placed = self.placed
        cov = self.cov
        shields = False
        for _, k, _ in placed:
            if k == SHIELD:
                shields = True
                break
        # By descending priority, equal priorities in the order of play (SS-4.2), as the stable
        # sorted(placed, key=card, reverse=True) orders them: an insertion sort of at most 5
        # cards, without a Python call. Shields never resolve on their own (SS-4.3).
        order: list[tuple[int, int, int]] = []
        for p in placed:
            i = len(order)
            k = p[1]
            while i > 0 and order[i - 1][1] < k:
                i -= 1
            order.insert(i, p)
        for seat, card, cell in order:
            if card == SHIELD:
                continue
            code = encode_cover(seat, card)
            if cov[cell] == code:  # else destroyed before its turn came (SS-6.2)
                self._fire(seat, card, cell, code, shields, events)
        self._end_turn()

    def _fire(
        self, seat: int, card: int, cell: int, code: int, shields: bool, events: list[RawEvent]
    ) -> None:
        """Card ``card`` of ``seat`` (cover code ``code``) on ``cell`` resolves: a Shield captures
        it (SS-7), or its blast destroys cards (SS-6) and damages planets (SS-5); then isolated
        planets fall (SS-9)."""
        cov = self.cov
        targets = self.t.blast[card][cell]
        guard = self._guard(seat, targets) if shields else -1
        if guard >= 0:
            owner = cover_seat(cov[guard])
            cov[cell] = -1
            cov[guard] = -1
            self.conq[owner].append(pile_of_cover(code))  # SS-7.3
            self.conq[owner].append(pile_card(owner, SHIELD))
            events.append(("shield", owner, seat, card, guard))
            return  # SS-7.2: the whole blast is void
        events.append(("resolve", seat, card, cell))
        lvl, pl = self.lvl, self.pl
        conq, debris = self.conq[seat], self.debris[seat]
        removed = []
        for t in targets:
            v = cov[t]
            if v >= 0 and cover_seat(v) != seat:
                cov[t] = -1  # SS-6.1: the card dies, its planet is spared
                debris.append(pile_of_cover(v))
                events.append(("destroy", seat, *decode_cover(v), t))
                continue
            lv = lvl[t]
            if lv == 4:  # SS-5.2
                lvl[t] = 3
                events.append(("flip", t, 4, 3))
            elif lv == 2:  # SS-5.4
                lvl[t] = 1
                events.append(("flip", t, 2, 1))
            elif lv == 3:  # SS-5.3
                conq.append(pl[t])
                events.append(("capture", seat, pl[t], t, 3))
                if self.deck:
                    p = self.deck[-1]
                    self.deck = self.deck[:-1]  # a new list: copies share the deck
                    pl[t] = p
                    lvl[t] = 2
                    events.append(("replace", t, p))
                else:  # ruling SS-5.7: nothing to replace it with
                    self._remove_planet(t)
                    removed.append(t)
            elif lv == 1:  # SS-5.5
                conq.append(pl[t])
                events.append(("capture", seat, pl[t], t, 1))
                self._remove_planet(t)
                removed.append(t)
            # lv 0 (no planet) and 5 (Dark Planet, SS-8.2): nothing happens
        if cov[cell] == code:
            cov[cell] = -1
        debris.append(pile_of_cover(code))  # SS-4.4
        if removed:
            self._isolate(seat, removed, events)

    def _guard(self, seat: int, targets: tuple[int, ...]) -> int:
        """SS-7.4: the blasted planet with the first Shield in turn order from the Dark
        Invader, not ``seat``'s own (-1: none)."""
        cov = self.cov
        n = self.t.num_players
        inv = self.invader
        guard = -1
        best = n
        for t in targets:
            v = cov[t]
            if v >= 0 and cover_card(v) == SHIELD:
                owner = cover_seat(v)
                pos = (owner - inv) % n
                if owner != seat and pos < best:
                    best = pos
                    guard = t
        return guard

    def _remove_planet(self, cell: int) -> None:
        self.lvl[cell] = 0
        self.pl[cell] = -1
        _drop(self.alive, cell)

    def _isolate(self, seat: int, removed: list[int], events: list[RawEvent]) -> None:
        """SS-9: only planets next to a removed one can have become isolated; ``seat`` takes
        them into its Space Debris (SS-9.2)."""
        lvl, pl, neigh = self.lvl, self.pl, self.t.neigh
        for r in removed:
            for nb in neigh[r]:
                if not lvl[nb]:
                    continue
                for x in neigh[nb]:
                    if lvl[x]:
                        break
                else:  # no planet left around it
                    self.debris[seat].append(pl[nb])
                    events.append(("isolated", seat, pl[nb], nb))
                    self._remove_planet(nb)

    def _end_turn(self) -> None:
        """Shields still in play go to their owners' debris (SS-7.6), the Dark Invader moves on
        (SS-10.1), and the game ends here, at the end of a complete turn, or never (SS-11)."""
        cov = self.cov
        for seat, card, cell in self.placed:
            if card == SHIELD and cov[cell] == encode_cover(seat, SHIELD):
                cov[cell] = -1
                self.debris[seat].append(pile_card(seat, SHIELD))
        self.placed = []
        self.free = self.alive.copy()  # every card has left the table
        self.turn += 1
        n = self.t.num_players
        self.invader = (self.invader + 1) % n
        self.actor = self.invader
        if self.turn >= MAX_TURNS or len(self.alive) <= n:
            for s in range(n):
                for k in BITS[self.hands[s]]:
                    self.debris[s].append(pile_card(s, k))  # SS-11.4
                self.hands[s] = 0
            self.phase = PH_OVER

    # ------------------------------------------------------------------ scoring
    def captured_planets(self, seat: int) -> list[int]:
        """Every planet ``seat`` captured: Conquest pile plus isolation captures (SS-13.4)."""
        return pile_planets(self.conq[seat]) + pile_planets(self.debris[seat])

    def mission_points(self, seat: int, mission: int) -> int:
        """Points ``seat`` earns for one Secret Mission (SS-13)."""
        return self._mission_points(seat, mission, self.captured_planets(seat))

    def missions_points(self, seat: int) -> int:
        """Points ``seat`` earns for its three Secret Missions (none before they are dealt)."""
        if len(self.missions) <= seat:
            return 0
        planets = self.captured_planets(seat)
        return sum(self._mission_points(seat, m, planets) for m in self.missions[seat])

    def _mission_points(self, seat: int, mission: int, planets: list[int]) -> int:
        t = self.t  # typed tables: scoring ends every search rollout
        kind = t.m_kind[mission]
        if kind == M_DESTROY:
            got = 0
            for code in self.debris[seat]:
                if code >= CARD_BASE and (code - CARD_BASE) // NCARDS != seat:
                    got += 1  # an opponent's Destruction card
            return t.m_value[mission] if got >= t.m_count[mission] else 0
        pk = t.p_kind
        if kind == M_NAMED:  # SS-13.2/13.3: copies count once
            named = t.m_planet[mission]
            p_name = t.p_name
            p_zero = t.p_zero
            found = zero = False
            for p in planets:
                if pk[p] == MAJOR and p_name[p] == named:
                    found = True
                if p_zero[p]:
                    zero = True
            hit = int(found) + int(zero)
            return 3 if hit == 2 else hit
        f = t.m_filter[mission]
        moon = t.p_moon
        got = 0
        for p in planets:
            k = pk[p]
            if f == F_ANY:
                ok = k != DARK  # SS-13.1
            elif f == F_MINOR:
                ok = k == MINOR
            elif f == F_MAJOR:
                ok = k == MAJOR
            else:
                ok = k != DARK and moon[p]
            if ok:
                got += 1
        return t.m_value[mission] if got >= t.m_count[mission] else 0

    def moons(self, seat: int) -> int:
        moon = self.t.p_moon
        n = 0
        for code in self.conq[seat]:
            if code < CARD_BASE and moon[code]:  # a planet (not a card) with a Moon
                n += 1
        return n

    def score_breakdown(self) -> list[dict[str, float]]:
        n = self.t.num_players
        most = max(len(d) for d in self.debris)
        out = []
        for s in range(n):
            cards = len(self.conq[s])
            moons = self.moons(s)
            missions = self.missions_points(s)
            bonus = 3 if most > 0 and len(self.debris[s]) == most else 0  # SS-12.4
            out.append(
                {
                    "cards": float(cards),
                    "moons": float(moons),
                    "missions": float(missions),
                    "debris_bonus": float(bonus),
                    "total": float(cards + moons + missions + bonus),
                }
            )
        return out

    def tiebreakers(self, seat: int) -> tuple[float, ...]:
        """SS-12.6/12.7: most captured cards (Conquest pile), then most Moons."""
        return (float(len(self.conq[seat])), float(self.moons(seat)))

    # ------------------------------------------------------------------ hidden information
    def unrevealed(self, seat: int) -> list[int]:
        """Cards of ``seat`` the others have not seen played: the hand plus this turn's
        face-down card (SS-3.4)."""
        mask = self.hands[seat]
        for s, k, _ in self.placed:
            if s == seat:
                mask = hand_with(mask, k)
        return list(BITS[mask])

    def resample(self, player: int, rng: random.Random) -> ShootingStarState:
        """Redraw what ``player`` cannot see: opponents' face-down cards this turn (from the
        cards they have not revealed), opponents' Secret Missions, the replacement deck order."""
        s = self.clone()
        t = self.t  # typed tables: every ISMCTS iteration redraws
        n = t.num_players
        if s.phase == PH_OVER:
            return s
        for i, (seat, card, cell) in enumerate(s.placed):
            if seat == player:
                continue
            pool = s.unrevealed(seat)
            k = choice(rng, pool)
            s.hands[seat] = hand_without(hand_with(s.hands[seat], card), k)
            s.cov[cell] = encode_cover(seat, k)
            s.placed[i] = (seat, k, cell)
        if s.missions:
            s.missions = s.missions.copy()  # shared with this state
            others = [q for q in range(n) if q != player]
            cols = []
            for v in range(3):
                mine = s.missions[player][v] if 0 <= player < n else -1
                pool = [m for m in t.missions_by_value[v] if m != mine]
                cols.append(sample(rng, pool, len(others)))
            for i, q in enumerate(others):
                s.missions[q] = (cols[0][i], cols[1][i], cols[2][i])
        deck = s.deck.copy()  # shared with this state
        shuffle(rng, deck)
        s.deck = deck
        return s

    # ------------------------------------------------------------------ what a seat knows
    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        """A face-down card reads ``?@col,row`` to everyone but its owner, the deck order
        ``deck shuffled``, the Secret Missions only each seat's own; the sector is public."""
        if type(action) is Place:
            return self.t.place_secret(player, action.cell)
        if player != CHANCE or type(action) in (GridDeal, PlanetDeal):
            return None
        if type(action) is DeckOrder:
            return _DECK_SECRET
        if type(action) is MissionDeal:
            # each seat's line is spelled when read (``MissionLines``), not at every deal
            lines: Any = action.private_lines()
            return LogSecret("missions dealt", private=lines)
        return super()._log_secret(action, player)

    @property
    def events(self) -> list[Event]:
        """What the last resolution did, in order (public): ``Resolve``, ``ShieldCapture``,
        ``Destroy``, ``Flip``, ``Capture``, ``Replace`` and ``Isolated`` records."""
        return [as_event(e) for e in self._events]

    def _view(self, player: int | None) -> dict[str, Any]:
        return view(self, player)

    def _view_scores(self) -> list[float] | list[int]:
        """The final score at the end; before it, the public count (cards + Moons)."""
        if self.phase == PH_OVER:
            return self.scores()
        return [len(self.conq[s]) + self.moons(s) for s in range(self.g.num_players)]

    def census(self) -> dict[str, list[str]]:
        return census(self)


def _touching(cells: list[int], neigh: list[tuple[int, ...]]) -> bool:
    """Whether two of ``cells`` are neighbours (SS-2.4: no two Dark Planets may touch)."""
    for c in cells:
        for nb in neigh[c]:
            if nb in cells:
                return True
    return False


def _drop(cells: list[int], cell: int) -> None:
    """``cells.remove(cell)`` for a cell that is there: a typed search and a ``pop``, where
    ``list.remove`` is a method call comparing objects."""
    i = 0
    while cells[i] != cell:
        i += 1
    cells.pop(i)
