"""The rules of Star Fire: Galactic Architects (rule ids refer to ``rules.md``).

Only the rules and what a seat may know live here; the presentation is ``StarFireUI``
(``ui.py``, ``svg.py``) and the observation tensor ``StarFireObserver`` (``observer.py``).

State layout (small lists of ints, cloned by hand):

* ``pool[d]``: the unseen, shuffled part of deck ``d`` (elements, bodies, Star Fire, and the
  set-up Stars); a draw from it is a chance node. ``bottom[d]``: cards returned to the bottom
  of deck ``d`` in order; they are public and are drawn only when the pool is empty (SF-4.3).
* ``queue``: pending draws ``(seat, deck, mode)``; the head is resolved by chance.
* systems per seat: ``[stars, planets, loose_moons]``; ``moons_on[planet]`` lists hosted moons.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from nightsky.core.game import CHANCE, Action, LogSecret, State
from nightsky.core.rng import randrange, shuffle
from nightsky.games.star_fire.actions import Act, Card
from nightsky.games.star_fire.constants import (
    BUILD,
    DECK_B,
    DECK_E,
    DECK_S,
    DECK_SETUP,
    DECKS,
    DISCARD,
    DISCARD_SF,
    DIVINE,
    DRAW,
    ELEMENT,
    END,
    EV_BLOOM,
    EV_CRUNCH,
    EV_FREEZE,
    EV_FUSION,
    EV_RIP,
    EVENT,
    FISSION,
    GAMMA,
    JOIN,
    MODE_BLOOM,
    MODE_NORMAL,
    MODE_SETUP,
    MOON,
    NEW,
    PH_DEAL,
    PH_OVER,
    PH_PLAY,
    PH_SETUP,
    PHASES,
    PLANET,
    SETUP,
    SF_DIVINE,
    SF_FISSION,
    SF_GAMMA,
    SF_KINDS,
    SF_TRANSMUTE,
    SF_WORMHOLE,
    STAR,
    STARFIRE,
    STEAL,
    STOP,
    SUB_NONE,
    SUB_TRANSMUTE,
    SUB_WORMHOLE,
    SUBSTEPS,
    TRANSMUTE,
    WILD,
    WILD_EL,
    WORMHOLE,
)

if TYPE_CHECKING:
    from nightsky.games.star_fire.game import StarFireGame

HIDDEN_DRAW = LogSecret("card (hidden)")
"""How the log shows a drawn hand card (Star, Planet, Moon, Star Fire): hidden from everyone,
the drawer included, as the log always read (see ``StarFireState._log_secret``)."""


SCORE_PARTS = (
    "bodies", "system_bonus", "moon_bonus", "star_fire", "elements",
    "largest_system", "most_systems", "largest_nebula",
)
"""The parts of a seat's score (SF-18), the keys of ``score_breakdown``'s rows in order."""


class StarFireState(State):
    """One position of a Star Fire game."""

    def __init__(self, game: StarFireGame, *, blank: bool = False) -> None:
        """The state before the deal. ``blank`` (for ``_copy`` only) skips all set-up, the
        shared fields included: ``clone`` sets those and ``_copy`` the game's own."""
        self.g = game  # typed as this game (``State.game`` stays the base type)
        self.C = C = game.cards
        self.n = n = game.num_players
        if blank:
            return
        super().__init__(game)
        self.phase = PH_DEAL
        self.pool: list[list[int]] = [
            list(C.elements) + list(C.events),
            list(C.planets) + list(C.moons),
            list(C.starfire),
            list(C.stars),
        ]
        self.bottom: list[list[int]] = [[], [], [], []]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.nursery: list[list[int]] = [[] for _ in range(n)]
        self.systems: list[list[list[list[int]]]] = [[] for _ in range(n)]
        self.moons_on: dict[int, list[int]] = {}
        self.pile: list[list[int]] = [[] for _ in range(n)]
        self.spent: list[int] = []
        self.reshuffled = False
        self.events_used: list[int] = []
        self.wild = 0  # bitmask of transmuted element ids (SF-12)
        self.public = 0  # bitmask of hand cards everyone knows (drawn off a public bottom)
        self.free_star = [-1] * n
        self.eliminated = [False] * n
        self.fission = [0] * n
        self.fusion_left = 0
        self.fusion_now = False
        self.cur = 0
        self.setup_seat = 0
        self.actions_left = 0
        self.actions_taken = 0
        self.last_turn = False
        self.sub = SUB_NONE
        self.sub_units = 0
        self.sub_taken = [0] * n
        self.credit = [0, 0, 0, 0, 0]
        self.round = 1
        self.turns = 0
        self.queue: list[tuple[int, int, int]] = [(p, DECK_SETUP, MODE_SETUP) for p in range(n)]
        self._legal: list[Act] | None = None

    # ------------------------------------------------------------------ copying
    def _copy(self) -> StarFireState:
        s = StarFireState(self.g, blank=True)
        s.phase = self.phase
        # map(list.copy) and plain loops: no comprehension frames on this hot path
        s.pool = list(map(list.copy, self.pool))
        s.bottom = list(map(list.copy, self.bottom))
        s.hands = list(map(list.copy, self.hands))
        s.nursery = list(map(list.copy, self.nursery))
        systems: list[list[list[list[int]]]] = []
        for ss in self.systems:
            copied: list[list[list[int]]] = []
            for st, pl, lo in ss:
                copied.append([st[:], pl[:], lo[:]])
            systems.append(copied)
        s.systems = systems
        s.moons_on = {k: v[:] for k, v in self.moons_on.items()}
        s.pile = list(map(list.copy, self.pile))
        s.spent = self.spent[:]
        s.reshuffled = self.reshuffled
        s.events_used = self.events_used[:]
        s.wild = self.wild
        s.public = self.public
        s.free_star = self.free_star[:]
        s.eliminated = self.eliminated[:]
        s.fission = self.fission[:]
        s.fusion_left = self.fusion_left
        s.fusion_now = self.fusion_now
        s.cur = self.cur
        s.setup_seat = self.setup_seat
        s.actions_left = self.actions_left
        s.actions_taken = self.actions_taken
        s.last_turn = self.last_turn
        s.sub = self.sub
        s.sub_units = self.sub_units
        s.sub_taken = self.sub_taken[:]
        s.credit = self.credit[:]
        s.round = self.round
        s.turns = self.turns
        s.queue = self.queue[:]
        s._legal = None
        return s

    # ------------------------------------------------------------------ whose turn
    def current_players(self) -> tuple[int, ...]:
        if self.phase == PH_OVER:
            return ()
        if self.queue:
            return (CHANCE,)
        if self.phase == PH_SETUP:
            return (self.setup_seat,)
        return (self.cur,)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.queue:
            return []
        pool = self.pool[self.queue[0][1]]
        chance = self.g.chance_actions
        p = 1.0 / len(pool)
        return [(chance[c], p) for c in sorted(pool)]

    def sample_chance(self, rng: random.Random) -> Card:
        pool = self.pool[self.queue[0][1]]
        return self.g.chance_actions[pool[randrange(rng, len(pool))]]

    def is_legal_chance(self, outcome: Any) -> bool:
        return (
            isinstance(outcome, Card) and bool(self.queue)
            and outcome.card in self.pool[self.queue[0][1]]
        )

    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        """A drawn Element or Cosmic Event is seen by everyone (SF-4.1, SF-14.1); a drawn hand
        card (Star, Planet, Moon, Star Fire) is a secret. Cards drawn off a public bottom are no
        chance outcome (SF-4.3) and never get here.

        Only the drawer, ``self.queue[0][0]`` (the head of the pending draws, read before the
        draw is applied), may know the card, but the log has always hidden it from every seat,
        the drawer included. To show the drawer their own card, return
        ``LogSecret(HIDDEN_DRAW.public, seen_by=(self.queue[0][0],))`` instead of HIDDEN_DRAW.
        """
        if player != CHANCE or not isinstance(action, Card) or self.C.cat[action.card] < STAR:
            return None
        return HIDDEN_DRAW

    # ------------------------------------------------------------------ queries
    def drawable(self, d: int) -> int:
        """Cards a draw from deck ``d`` could still yield (SF-4.2, SF-15)."""
        k = len(self.pool[d]) + len(self.bottom[d])
        if d == DECK_E and not self.reshuffled:
            k += len(self.spent)
        return k

    def can_take_two(self, seat: int) -> bool:
        """SF-16.1 ruling: whether ``seat`` has a legal sequence of two actions now.

        Judged at the start of its turn, as if it had its two actions (Nuclear Fission's block
        does not count, SF-16.2; a Nuclear Fusion third action is not needed). Two cards left to
        draw are two actions; otherwise every legal first action is tried on a scratch copy with
        the engine's own rules (``_probe_rest``): a Divine Intervention on a Star or a Gamma Ray
        Burst on a Star is two actions by itself; after any other one, a second action must be
        legal (a Planet on the Star just built, a build paid with what a Worm Hole stole). A card
        drawn unseen brings nothing to count on. Discarding only recycles a card, so it keeps
        nobody in the game, unless the option ``discard_keeps_alive`` is set.
        """
        # Two draws: the shortcut of the search below (a draw is legal while drawable(d) > 0).
        if self.drawable(DECK_E) + self.drawable(DECK_B) + self.drawable(DECK_S) >= 2:
            return True
        probe = self._copy()
        probe.cur = seat
        probe.actions_left = 2
        probe.actions_taken = 0
        probe.credit = [0, 0, 0, 0, 0]
        probe.sub = SUB_NONE
        probe.queue = []
        # The first few legal actions (a draw, the first body that can be built) usually
        # settle it; the whole list (a payment per held body) is built only when they do not.
        early = probe._real_actions(seat, first_only=True)
        for a in early:
            if a.kind != DISCARD and a.kind != DISCARD_SF and probe._probe_first(seat, a):
                return True
        keep_alive = bool(self.g.options["discard_keeps_alive"])
        for a in probe._real_actions(seat):
            if a.kind == DISCARD or a.kind == DISCARD_SF:
                if keep_alive:
                    return True  # a discard is two actions (SF-13.1)
            elif a not in early and probe._probe_first(seat, a):
                return True
        return False

    def _probe_first(self, seat: int, action: Act) -> bool:
        """SF-16.1: whether ``action``, taken first on a scratch copy of this probe, leaves
        ``seat`` a second action."""
        scratch = self._copy()
        scratch._act(action, seat)
        return scratch._probe_rest(seat, -1)

    def _probe_rest(self, seat: int, last: int) -> bool:
        """On a scratch copy after ``seat``'s first action (SF-16.1): finish it, then say
        whether a second action is legal. Unseen draws are taken blind; Worm Hole steals and
        Transmutation choices are tried as sets (in card order, ``last`` the latest card)."""
        while self._settle_draws():
            d = self.queue.pop(0)[1]
            self.pool[d].pop()  # an unseen card leaves the deck; what it is stays unknown
        if self.sub != SUB_NONE:
            for a in self._compute_legal(seat):
                if a.kind != STOP and a.a <= last:
                    continue
                scratch = self._copy()
                scratch._act(a, seat)
                if scratch._probe_rest(seat, a.a):
                    return True
            return False
        if self.actions_left <= 0:
            return True  # the first action took both (SF-10.2, SF-11.1)
        return bool(self._real_actions(seat, first_only=True))

    def system_of(self, seat: int, star: int) -> list[list[int]] | None:
        for sys in self.systems[seat]:
            if sys[0][0] == star:
                return sys
        return None

    def planet_owner(self, planet: int) -> tuple[int, list[list[int]]] | None:
        for seat in range(self.n):
            for sys in self.systems[seat]:
                if planet in sys[1]:
                    return seat, sys
        return None

    def _has_kind(self, seat: int, kind: int) -> int:
        sk = self.C.sf_kind
        for c in self.hands[seat]:
            if sk[c] == kind:
                return c
        return -1

    # ------------------------------------------------------------------ payment (SF-5)
    def payment(
        self, seat: int, cost: tuple[int, int, int, int]
    ) -> tuple[list[int], list[int]] | None:
        """SF-5.5 ruling: the automatic payment. Returns (cards spent, credit after) or None.

        Credit left this turn by split double cards pays first (SF-5.3); then each element's own
        cards, fewest units wasted then fewest cards; wild cards only cover what is missing.
        """
        C = self.C
        credit = self.credit[:]
        wild_mask = self.wild
        own: list[list[int]] = [[], [], [], []]
        wilds: list[int] = []
        for c in self.nursery[seat]:
            if wild_mask >> c & 1:
                wilds.append(c)
            else:
                own[C.element[c]].append(c)
        spent: list[int] = []
        missing = 0
        for e in range(4):
            need = cost[e]
            if not need:
                continue
            take = min(need, credit[e])
            credit[e] -= take
            need -= take
            if not need:
                continue
            got, surplus, short = _pick(own[e], need, C.units)
            spent += got
            credit[e] += surplus
            missing += short
        if missing:
            take = min(missing, credit[WILD_EL])
            credit[WILD_EL] -= take
            missing -= take
            if missing:
                got, surplus, short = _pick(wilds, missing, C.units)
                if short:
                    return None
                spent += got
                credit[WILD_EL] += surplus
        return spent, credit

    def units_held(self, seat: int) -> tuple[list[int], int]:
        """The units of the seat's nursery: per element (wild cards apart), and wild."""
        C = self.C
        wild_mask = self.wild
        units = [0, 0, 0, 0]
        wild = 0
        for c in self.nursery[seat]:
            if wild_mask >> c & 1:
                wild += C.units[c]
            else:
                units[C.element[c]] += C.units[c]
        return units, wild

    def affordable(self, cost: tuple[int, int, int, int], units: list[int], wild: int) -> bool:
        """Whether ``payment`` would find a way to pay ``cost`` with these units (the same
        sums, without choosing the cards): what each element lacks after its credit and its
        own cards, covered by wild credit and then wild cards (SF-5.3, SF-5.5)."""
        credit = self.credit
        missing = 0
        for e in range(4):
            short = cost[e] - credit[e] - units[e]
            if short > 0:
                missing += short
        return missing - credit[WILD_EL] <= wild

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == PH_OVER or seat == CHANCE or self.queue:
            return []
        if self.phase == PH_SETUP:
            return list(self.g.setup_actions) if seat == self.setup_seat else []
        if seat != self.cur:
            return []
        if self._legal is None:
            self._legal = self._compute_legal(seat)
        return list(self._legal)

    def _compute_legal(self, seat: int) -> list[Act]:
        g = self.g
        out: list[Act] = []
        if self.sub == SUB_WORMHOLE:
            out += self._steal_targets(seat)
            out.append(g.act_stop)
            return out
        if self.sub == SUB_TRANSMUTE:
            out += [g.act_wild[c] for c in sorted(self.nursery[seat]) if not self.wild >> c & 1]
            out.append(g.act_stop)
            return out
        out += self._real_actions(seat)
        if not out:
            return out
        if g.join_any_time:
            out += self._joins(seat)
        if self.actions_taken >= 2 or (self.last_turn and self.actions_taken == 0):
            out.append(g.act_end)
        return out

    def _joins(self, seat: int) -> list[Act]:
        """SF-6.2 ruling: every pair of the seat's systems that may join (at most 3 Stars in
        all). Free, so never among ``_real_actions``: a join is no action of the turn's two and
        keeps nobody in the game (SF-16.1); it is offered only beside a real action."""
        systems = self.systems[seat]
        out: list[Act] = []
        if len(systems) < 2:
            return out
        join = self.g.act_join
        for i in range(len(systems)):
            for j in range(i + 1, len(systems)):
                if len(systems[i][0]) + len(systems[j][0]) <= 3:
                    x, y = systems[i][0][0], systems[j][0][0]
                    out.append(join[(x, y) if x < y else (y, x)])
        out.sort(key=lambda a: (a.a, a.b))
        return out

    def _real_actions(self, seat: int, first_only: bool = False) -> list[Act]:
        g, C = self.g, self.C
        left = self.actions_left
        out: list[Act] = []
        if left <= 0:
            return out
        for d in range(3):
            if self.drawable(d):
                out.append(g.act_draw[d])
                if first_only:
                    return out
        hand = self.hands[seat]
        has_divine = self._has_kind(seat, SF_DIVINE) >= 0
        units, wild = self.units_held(seat)
        for c in sorted(c for c in hand if c in g.body_set):
            targets = self._targets(seat, c)
            if not targets:
                continue
            if c == self.free_star[seat] or self.affordable(C.cost[c], units, wild):
                out += [g.act_build[(c, t)] for t in targets]
            if has_divine and (left >= 2 or C.cat[c] != STAR):
                out += [g.act_divine[(c, t)] for t in targets]
            if first_only and out:
                return out
        if self._has_kind(seat, SF_WORMHOLE) >= 0:
            out.append(g.act_wormhole)
        if self._has_kind(seat, SF_FISSION) >= 0:
            out += [g.act_fission[q] for q in range(self.n)
                    if q != seat and not self.eliminated[q]]
        if self._has_kind(seat, SF_GAMMA) >= 0:
            out += [g.act_gamma[b] for b, cost in self._gamma_targets() if cost <= left]
        if self._has_kind(seat, SF_TRANSMUTE) >= 0:
            out.append(g.act_transmute)
        if left >= 2:
            out += [g.act_discard[c] for c in sorted(hand) if c in g.body_set]
            kinds = sorted({C.sf_kind[c] for c in hand if C.cat[c] == STARFIRE})
            out += [g.act_discard_sf[k] for k in kinds]
            out += [g.act_discard[c] for c in sorted(self.nursery[seat])]
        return out

    def _targets(self, seat: int, c: int) -> list[int]:
        """Where body ``c`` may be built (SF-5.7, SF-6.2, SF-6.4, SF-6.5)."""
        C = self.C
        k = C.cat[c]
        systems = self.systems[seat]
        if k == STAR:
            return [NEW] + sorted(s[0][0] for s in systems if len(s[0]) < 3)
        if k == PLANET:
            return sorted(s[0][0] for s in systems)
        out = sorted(
            pl for s in systems for pl in s[1] if len(self.moons_on[pl]) < C.moon_limit[pl]
        )
        if not C.needs_host[c]:
            out += sorted(s[0][0] for s in systems)
        return out

    def _gamma_targets(self) -> list[tuple[int, int]]:
        """(body, action cost) for every lowest-value body of every system (SF-10)."""
        out: list[tuple[int, int]] = []
        for seat in range(self.n):
            for stars, planets, loose in self.systems[seat]:
                moons = loose + [m for pl in planets for m in self.moons_on[pl]]
                if moons:
                    out += [(m, 1) for m in moons]
                elif planets:
                    out += [(p, 1) for p in planets]
                else:
                    out += [(s, 2) for s in stars]
        out.sort()
        return out

    def _steal_targets(self, seat: int) -> list[Act]:
        C, g = self.C, self.g
        out: list[Act] = []
        for q in range(self.n):
            if q == seat:
                continue
            room = min(self.sub_units, 2 - self.sub_taken[q])
            for c in self.nursery[q]:
                if not self.wild >> c & 1 and C.units[c] <= room:
                    out.append(g.act_steal[c])
        out.sort(key=lambda a: a.a)
        return out

    def is_legal(self, action: Any, player: int) -> bool:
        if not isinstance(action, Act):
            return False
        return action in self.legal_actions(player)

    # ------------------------------------------------------------------ explanations
    def explain_illegal(self, action: Any, player: int) -> tuple[str, str | None]:
        if not isinstance(action, Act):
            return f"{action!s} is not a Star Fire action", None
        k = action.kind
        if self.phase == PH_SETUP:
            return "during set-up a player only places or keeps the dealt Star", "SF-2.3"
        if k == SETUP:
            return "placing the dealt Star is only possible before play starts", "SF-2.3"
        if self.sub == SUB_WORMHOLE and k not in (STEAL, STOP):
            return "finish the Worm Hole first: steal a card or stop", "SF-8.1"
        if self.sub == SUB_TRANSMUTE and k not in (WILD, STOP):
            return "finish the Transmutation first: choose a card or stop", "SF-12.1"
        if k in (STEAL, WILD, STOP, END):
            return self._explain_substep(action, player)
        if self.actions_left <= 0:
            return "no action is left this turn", "SF-3.2"
        if k == DRAW:
            return f"the {DECKS[action.a]} deck is empty", "SF-4.2"
        if k in (BUILD, DIVINE):
            return self._explain_build(action, player)
        if k in (WORMHOLE, FISSION, GAMMA, TRANSMUTE):
            return self._explain_star_fire(action, player)
        if k == JOIN:
            return self._explain_join(action, player)
        if k in (DISCARD, DISCARD_SF):
            if self.actions_left < 2:
                return "discarding costs 2 actions", "SF-13.1"
            return "you can only discard a card from your hand or nursery", "SF-13.1"
        return f"{action} is not legal now", None

    def _explain_substep(self, action: Act, player: int) -> tuple[str, str | None]:
        """Why a Worm Hole steal, a wild card, ``stop`` or ``end`` is refused."""
        k = action.kind
        if k == STEAL:
            if self.sub != SUB_WORMHOLE:
                return "stealing elements needs a Worm Hole in play", "SF-8.1"
            owner = next((q for q in range(self.n) if action.a in self.nursery[q]), -1)
            if owner < 0 or owner == player:
                return f"{action.text[6:]} is not in another player's Stellar Nursery", "SF-8.1"
            if self.wild >> action.a & 1:
                return "a transmuted element is immune to the Worm Hole", "SF-12.2"
            return "a Worm Hole takes at most 3 units, and at most 2 from one player", "SF-8.2"
        if k == WILD:
            if self.sub != SUB_TRANSMUTE:
                return "making a wild card needs a Transmutation in play", "SF-12.1"
            return "only an element in your own nursery that is not yet wild", "SF-12.1"
        if k == STOP:
            return "there is no Worm Hole or Transmutation to stop", "SF-8.1"
        return ("a turn is two actions; you may stop early only with a Nuclear Fusion "
                "extra action or before elimination", "SF-3.3")

    def _explain_build(self, action: Act, player: int) -> tuple[str, str | None]:
        """Why a build (paid or by Divine Intervention) is refused."""
        C = self.C
        c = action.a
        if c not in self.hands[player]:
            return f"{C.name[c]} is not in your hand", "SF-5.1"
        if action.kind == DIVINE:
            if self._has_kind(player, SF_DIVINE) < 0:
                return "you hold no Divine Intervention", "SF-11.1"
            if C.cat[c] == STAR and self.actions_left < 2:
                return "Divine Intervention on a Star costs 2 actions", "SF-11.1"
        if action.b not in self._targets(player, c):
            if C.cat[c] == STAR:
                return "a Star links only to your own system of fewer than 3 Stars", "SF-6.2"
            if C.cat[c] == PLANET:
                return "a Planet is built in one of your own systems (a Star first)", "SF-5.7"
            if action.b in C.planets:
                return "a Moon needs your own built Planet with room under its limit", "SF-6.4"
            return "this Moon needs a host Planet", "SF-6.5"
        return f"your nursery cannot pay for {C.name[c]}", "SF-5.1"

    def _explain_join(self, action: Act, player: int) -> tuple[str, str | None]:
        """Why joining two systems is refused (SF-6.2)."""
        nm = self.C.name
        if not self.g.join_any_time:
            return ("with join_any_time=false, Stars link only as a Star is built "
                    "(build <star> link <star>)", "SF-6.2")
        for star in (action.a, action.b):
            if self.system_of(player, star) is None:
                return f"{nm[star]} is not the first Star of one of your systems", "SF-6.2"
        return "a joined system may hold at most 3 Stars", "SF-6.2"

    def _explain_star_fire(self, action: Act, player: int) -> tuple[str, str | None]:
        """Why playing a Worm Hole, Nuclear Fission, Gamma Ray Burst or Transmutation is
        refused."""
        k = action.kind
        kind = {WORMHOLE: SF_WORMHOLE, FISSION: SF_FISSION, GAMMA: SF_GAMMA,
                TRANSMUTE: SF_TRANSMUTE}[k]
        rule = {WORMHOLE: "SF-8.1", FISSION: "SF-9.1", GAMMA: "SF-10.1",
                TRANSMUTE: "SF-12.1"}[k]
        if self._has_kind(player, kind) < 0:
            return f"you hold no {SF_KINDS[kind]} card", "SF-7.1"
        if k == FISSION:
            return "Nuclear Fission targets another player still in the game", rule
        if k == GAMMA:
            if any(b == action.a for b, _ in self._gamma_targets()):
                return "a Gamma Ray Burst on a Star costs 2 actions", "SF-10.2"
            return "a Gamma Ray Burst hits only the lowest-value body of a system", rule
        return f"{action} is not possible now", rule

    # ------------------------------------------------------------------ applying
    def _apply(self, action: Any, player: int) -> None:
        self._legal = None
        if player == CHANCE:
            self._resolve_draw(action.card)
        else:
            self._act(action, player)
        self._settle()

    def _act(self, action: Act, seat: int) -> None:
        """One player choice (SF-3): each kind of action does its part, then ``_settle``."""
        k = action.kind
        if k == DRAW:
            self._spend(1)
            self.queue.append((seat, action.a, MODE_NORMAL))
        elif k in (BUILD, DIVINE):
            self._build(seat, action.a, action.b, k == DIVINE)
        elif k == SETUP:
            self._setup_choice(seat, action.a)
        elif k == WORMHOLE:
            self._play_sf(seat, SF_WORMHOLE)
            self._spend(1)
            self.sub = SUB_WORMHOLE
            self.sub_units = 3
            self.sub_taken = [0] * self.n
            self._check_sub(seat)
        elif k == STEAL:
            self._steal(seat, action.a)
        elif k == STOP:
            self.sub = SUB_NONE
        elif k == FISSION:
            self._play_sf(seat, SF_FISSION)
            self._spend(1)
            self.fission[action.a] += 1  # SF-9.1, stacks (SF-7.2)
        elif k == GAMMA:
            self._play_sf(seat, SF_GAMMA)
            self._spend(2 if self.C.cat[action.a] == STAR else 1)
            self._destroy(action.a)
        elif k == TRANSMUTE:
            self._play_sf(seat, SF_TRANSMUTE)
            self._spend(1)
            self.sub = SUB_TRANSMUTE
            self.sub_units = 2
            self._check_sub(seat)
        elif k == WILD:
            self.wild |= 1 << action.a
            self.sub_units -= 1
            self._check_sub(seat)
        elif k == DISCARD:
            self._discard(seat, action.a)
        elif k == DISCARD_SF:
            c = self._has_kind(seat, action.a)
            self.hands[seat].remove(c)
            self.public &= ~(1 << c)
            self.bottom[DECK_S].append(c)
            self._spend(2)
        elif k == END:
            self.actions_left = 0
        elif k == JOIN:
            self._join(seat, action.a, action.b)

    def _setup_choice(self, seat: int, place: int) -> None:
        """SF-2.3: place the dealt Star before play (``place``), or keep it in hand."""
        star = self.hands[seat][0]
        if place:
            self.hands[seat].remove(star)
            self.free_star[seat] = -1
            self.public &= ~(1 << star)
            self.systems[seat].append([[star], [], []])
        self.setup_seat += 1
        if self.setup_seat >= self.n:
            self.phase = PH_PLAY
            self._start_turn(0)

    def _build(self, seat: int, c: int, t: int, divine: bool) -> None:
        """Build body ``c`` at target ``t``: free (the dealt Star), paid from the nursery, or
        with a Divine Intervention (SF-5, SF-11)."""
        C = self.C
        cost = 1
        if divine:
            dc = self._has_kind(seat, SF_DIVINE)
            self.hands[seat].remove(dc)
            self.pile[seat].append(dc)
            cost = 2 if C.cat[c] == STAR else 1  # SF-11.1
            if c == self.free_star[seat]:
                self.free_star[seat] = -1
        elif c == self.free_star[seat]:
            self.free_star[seat] = -1  # SF-2.3: the dealt Star is free once
        else:
            pay = self.payment(seat, C.cost[c])
            assert pay is not None
            spent, credit = pay
            self.credit = credit
            nur = self.nursery[seat]
            for e in spent:
                nur.remove(e)
                self.wild &= ~(1 << e)
            self.spent += spent  # SF-5.2 / SF-15.2 (after the reshuffle: out of play)
        self.hands[seat].remove(c)
        self.public &= ~(1 << c)
        self._place(seat, c, t)
        self._spend(cost)

    def _join(self, seat: int, a: int, b: int) -> None:
        """SF-6.2 ruling: the system led by Star ``b`` joins the one led by ``a``: its Stars,
        Planets and Moons stay as they were connected; no action is spent."""
        first = self.system_of(seat, a)
        second = self.system_of(seat, b)
        assert first is not None and second is not None
        for part in range(3):
            first[part] += second[part]
        self.systems[seat].remove(second)

    def _steal(self, seat: int, c: int) -> None:
        """SF-8.2: one element card taken by the Worm Hole."""
        units = self.C.units[c]
        q = next(q for q in range(self.n) if c in self.nursery[q])
        self.nursery[q].remove(c)
        self.nursery[seat].append(c)
        self.sub_units -= units
        self.sub_taken[q] += units
        self._check_sub(seat)

    def _discard(self, seat: int, c: int) -> None:
        """SF-13.1: an element or a body to the bottom of its deck, for 2 actions."""
        if self.C.cat[c] == ELEMENT:
            self.nursery[seat].remove(c)
            self.wild &= ~(1 << c)
            self.bottom[DECK_E].append(c)
        else:
            self.hands[seat].remove(c)
            self.public &= ~(1 << c)
            if c == self.free_star[seat]:
                self.free_star[seat] = -1
            self.bottom[DECK_B].append(c)
        self._spend(2)

    def _spend(self, k: int) -> None:
        self.actions_left -= k
        self.actions_taken += k

    def _play_sf(self, seat: int, kind: int) -> None:
        c = self._has_kind(seat, kind)
        self.hands[seat].remove(c)
        self.public &= ~(1 << c)
        self.pile[seat].append(c)  # SF-7.1: the personal Star Fire pile

    def _check_sub(self, seat: int) -> None:
        """End a Worm Hole / Transmutation sub-step when nothing more can be chosen."""
        if self.sub == SUB_WORMHOLE:
            if self.sub_units <= 0 or not self._steal_targets(seat):
                self.sub = SUB_NONE
        elif self.sub == SUB_TRANSMUTE and (
            self.sub_units <= 0
            or not any(not self.wild >> c & 1 for c in self.nursery[seat])
        ):
            self.sub = SUB_NONE

    def _place(self, seat: int, c: int, t: int) -> None:
        k = self.C.cat[c]
        if k == STAR:
            if t == NEW:
                self.systems[seat].append([[c], [], []])
            else:
                sys = self.system_of(seat, t)
                assert sys is not None
                sys[0].append(c)
        elif k == PLANET:
            sys = self.system_of(seat, t)
            assert sys is not None
            sys[1].append(c)
            self.moons_on[c] = []
        elif t in self.moons_on:
            self.moons_on[t].append(c)
        else:
            sys = self.system_of(seat, t)
            assert sys is not None
            sys[2].append(c)

    def _destroy(self, body: int) -> None:
        """SF-10.1: the body goes to the bottom of the Celestial Bodies deck."""
        for seat in range(self.n):
            systems = self.systems[seat]
            for sys in systems:
                stars, planets, loose = sys
                if body in stars:
                    stars.remove(body)
                    if not stars:
                        systems.remove(sys)  # SF-10.3: nothing else was left in it
                elif body in planets:
                    planets.remove(body)
                    del self.moons_on[body]
                elif body in loose:
                    loose.remove(body)
                else:
                    for pl in planets:
                        if body in self.moons_on[pl]:
                            self.moons_on[pl].remove(body)
                            break
                    else:
                        continue
                self.bottom[DECK_B].append(body)
                return
        raise AssertionError(f"body {body} is not built")

    # ------------------------------------------------------------------ draws and events
    def _resolve_draw(self, card: int) -> None:
        seat, d, mode = self.queue.pop(0)
        self.pool[d].remove(card)
        self._receive(seat, card, mode, public=False)

    def _receive(self, seat: int, card: int, mode: int, public: bool) -> None:
        C = self.C
        k = C.cat[card]
        if k == ELEMENT:
            self.nursery[seat].append(card)  # SF-4.1
        elif k == EVENT:
            self.events_used.append(card)  # SF-14.1: used once, never reshuffled
            if mode == MODE_BLOOM:
                self.queue.insert(0, (seat, DECK_E, MODE_BLOOM))  # SF-14.4: draw on
                return
            self._event(seat, C.event_kind[card])
            if self.g.options["event_redraw"]:
                self.queue.append((seat, DECK_E, MODE_NORMAL))  # SF-14.2 option
        else:
            self.hands[seat].append(card)
            if public:
                self.public |= 1 << card
            if mode == MODE_SETUP:
                self.free_star[seat] = card

    def _event(self, seat: int, ev: int) -> None:
        C = self.C
        if ev == EV_FUSION:  # SF-14.3
            active = sum(1 for e in self.eliminated if not e)
            if self.phase == PH_PLAY and seat == self.cur:
                self.actions_left += 1
                self.fusion_now = True
            self.fusion_left = active - 1
        elif ev == EV_BLOOM:  # SF-14.4: two elements each, from the drawer on
            order = [(seat + i) % self.n for i in range(self.n)]
            draws = [(q, DECK_E, MODE_BLOOM) for q in order if not self.eliminated[q]
                     for _ in range(2)]
            self.queue[0:0] = draws
        elif ev == EV_CRUNCH:  # SF-14.5 (wilds are immune, SF-12.2)
            back: list[int] = []
            for q in range(self.n):
                keep = [c for c in self.nursery[q] if self.wild >> c & 1]
                back += [c for c in self.nursery[q] if not self.wild >> c & 1]
                self.nursery[q] = keep
            self._shuffle_in(DECK_E, back)
        elif ev == EV_RIP:  # SF-14.6
            back = []
            for q in range(self.n):
                back += [c for c in self.hands[q] if C.cat[c] in (STAR, PLANET, MOON)]
                self.hands[q] = [c for c in self.hands[q] if C.cat[c] == STARFIRE]
                self.free_star[q] = -1
            self._shuffle_in(DECK_B, back)
        elif ev == EV_FREEZE:  # SF-14.7
            back = []
            for q in range(self.n):
                back += [c for c in self.hands[q] if C.cat[c] == STARFIRE]
                self.hands[q] = [c for c in self.hands[q] if C.cat[c] != STARFIRE]
            self._shuffle_in(DECK_S, back)

    def _shuffle_in(self, d: int, cards: list[int]) -> None:
        """SF-14.8 ruling: returned cards are shuffled into the deck (bottom included)."""
        for c in cards:
            self.public &= ~(1 << c)
        self.pool[d] += cards + self.bottom[d]
        self.bottom[d] = []

    # ------------------------------------------------------------------ turn flow
    def _settle(self) -> None:
        """Resolve what needs no decision: public draws, reshuffles, turn ends, eliminations."""
        while True:
            if self._settle_draws():
                return  # a chance node
            if self.phase == PH_DEAL:
                self.pool[DECK_B] += self.pool[DECK_SETUP]  # SF-2.2
                self.pool[DECK_SETUP] = []
                self.phase = PH_SETUP
                return
            if self.phase != PH_PLAY:
                return
            if self.sub != SUB_NONE:
                return
            if self.actions_left > 0 and self._real_actions(self.cur, first_only=True):
                return
            self._end_turn()
            if self.phase == PH_OVER:
                return

    def _settle_draws(self) -> bool:
        """Resolve pending draws that need no chance; True when the next one is a chance node
        (an unseen card comes off the pool)."""
        while self.queue:
            seat, d, mode = self.queue[0]
            if self.pool[d]:
                return True
            if self.bottom[d]:  # SF-4.3: the public bottom is drawn in order
                self.queue.pop(0)
                self._receive(seat, self.bottom[d].pop(0), mode, public=True)
                continue
            if d == DECK_E and not self.reshuffled and self.spent:
                self.reshuffled = True  # SF-15.1: once, events stay out
                self.pool[DECK_E] = self.spent
                self.spent = []
                continue
            self.queue.pop(0)  # nothing left to draw
        return False

    def _end_turn(self) -> None:
        cur = self.cur
        if self.last_turn:
            self.eliminated[cur] = True  # SF-16.3
        self.credit = [0, 0, 0, 0, 0]  # SF-5.4: surplus is lost
        self.sub = SUB_NONE
        active = [q for q in range(self.n) if not self.eliminated[q]]
        if not active:
            self.phase = PH_OVER  # SF-17.1
            return
        nxt = next((q for q in active if q > cur), active[0])
        if nxt <= cur:
            if self.round >= self.g.options["max_rounds"]:
                self.phase = PH_OVER  # SF-17.3
                return
            self.round += 1
        self._start_turn(nxt)

    def _start_turn(self, seat: int) -> None:
        self.cur = seat
        self.turns += 1
        self.actions_taken = 0
        self.credit = [0, 0, 0, 0, 0]
        base = 2
        self.fusion_now = False
        if self.fusion_left > 0:  # SF-14.3: the round of Nuclear Fusion
            self.fusion_left -= 1
            self.fusion_now = True
            base = 3
        blocked = self.fission[seat]
        self.fission[seat] = 0
        self.last_turn = not self.can_take_two(seat)  # SF-16.1 (Fission is not counted)
        left = max(0, base - blocked)  # SF-9.1
        if self.last_turn:
            left = min(left, 1)
        self.actions_left = left

    # ------------------------------------------------------------------ scoring (SF-18)
    def score_breakdown(self) -> list[dict[str, float]]:
        rows: list[dict[str, float]] = []
        for parts in self._score_parts():
            row = dict(zip(SCORE_PARTS, parts, strict=True))
            row["total"] = sum(parts)
            rows.append(row)
        return rows

    def scores(self) -> list[float]:
        # The totals of score_breakdown (the same sums, in the same order) without its dicts:
        # the observation reads them at every step.
        return [sum(parts) for parts in self._score_parts()]

    def _score_parts(self) -> list[list[float]]:
        """Per seat, the parts of the score in ``SCORE_PARTS`` order (SF-18)."""
        C = self.C
        ties = self.g.options["bonus_ties"]
        rows: list[list[float]] = []
        largest: list[int] = []
        count_sys: list[int] = []
        nebula: list[int] = []
        for seat in range(self.n):
            bodies = system_bonus = moon_bonus = 0
            big = 0
            full = 0
            for stars, planets, loose in self.systems[seat]:
                hosted = [m for pl in planets for m in self.moons_on[pl]]
                n_moons = len(loose) + len(hosted)
                bodies += 5 * len(stars) + 3 * len(planets) + n_moons
                for s in stars:  # SF-6.3: every star judges the whole linked system
                    rp, rm, pts = C.star_bonus[s]
                    if len(planets) >= rp and n_moons >= rm:
                        system_bonus += pts
                for pl in planets:
                    rm, pts = C.moon_bonus[pl]
                    if rm and len(self.moons_on[pl]) >= rm:
                        moon_bonus += pts
                big = max(big, len(stars) + len(planets) + n_moons)
                if stars and planets:
                    full += 1
            largest.append(big)
            count_sys.append(full)
            nebula.append(sum(C.units[c] for c in self.nursery[seat]))
            rows.append([
                float(bodies), float(system_bonus), float(moon_bonus),
                float(len(self.pile[seat])), float(len(self.nursery[seat])),
            ])
        for vals in (largest, count_sys, nebula):  # SF-18: the three majority bonuses
            best = max(vals)
            winners = [q for q in range(self.n) if vals[q] == best and best > 0]
            for q in range(self.n):
                share = 0.0
                if q in winners:
                    share = 3.0 if ties == "full" else 3.0 / len(winners)
                rows[q].append(share)
        return rows

    def built_count(self, seat: int) -> int:
        n = 0
        for stars, planets, loose in self.systems[seat]:
            n += len(stars) + len(planets) + len(loose)
            n += sum(len(self.moons_on[pl]) for pl in planets)
        return n

    def tiebreakers(self, seat: int) -> tuple[float, ...]:
        return (float(self.built_count(seat)),)  # SF-18.10

    # ------------------------------------------------------------------ views
    def _view(self, player: int | None) -> dict[str, Any]:
        nm = self.C.name
        return {
            "phase": PHASES[self.phase],
            "round": self.round,
            "turn": self.cur,
            "actions_left": self.actions_left,
            "actions_taken": self.actions_taken,
            "last_turn": self.last_turn,
            "fusion_turns_left": self.fusion_left,
            "substep": SUBSTEPS[self.sub],
            "substep_units": self.sub_units if self.sub else 0,
            "credit": self.credit[:],
            "pending_draws": [[s, d] for s, d, _ in self.queue],
            "decks": {
                DECKS[d]: {"count": len(self.pool[d]) + len(self.bottom[d]),
                           "bottom": [nm[c] for c in self.bottom[d]]}
                for d in range(3)
            },
            "setup_stars": len(self.pool[DECK_SETUP]),
            "spent": [nm[c] for c in self.spent],
            "reshuffled": self.reshuffled,
            "events_used": [nm[c] for c in self.events_used],
            "players": [self._seat_view(q, player) for q in range(self.n)],
        }

    def _seat_view(self, q: int, player: int | None) -> dict[str, Any]:
        """What ``player`` knows of seat ``q``: its cards' backs, its table; its hand if own."""
        C = self.C
        nm = C.name
        hand = self.hands[q]
        backs = {
            "stars": sum(1 for c in hand if C.cat[c] == STAR),
            "planets": sum(1 for c in hand if C.cat[c] == PLANET),
            "moons": sum(1 for c in hand if C.cat[c] == MOON),
            "star_fire": sum(1 for c in hand if C.cat[c] == STARFIRE),
        }
        entry: dict[str, Any] = {
            "hand_backs": backs,
            "known_hand": sorted(nm[c] for c in hand if self.public >> c & 1),
            "holds_dealt_star": self.free_star[q] >= 0,
            "nursery": [
                {"card": nm[c], "element": C.element[c], "units": C.units[c],
                 "wild": bool(self.wild >> c & 1)} for c in self.nursery[q]
            ],
            "systems": [
                {
                    "stars": [nm[s] for s in stars],
                    "planets": [
                        {"planet": nm[p], "moons": [nm[m] for m in self.moons_on[p]]}
                        for p in planets
                    ],
                    "loose_moons": [nm[m] for m in loose],
                }
                for stars, planets, loose in self.systems[q]
            ],
            "star_fire_pile": [nm[c] for c in self.pile[q]],
            "fission": self.fission[q],
            "eliminated": self.eliminated[q],
        }
        if q == player:
            entry["hand"] = [nm[c] for c in hand]
            entry["dealt_star"] = nm[self.free_star[q]] if self.free_star[q] >= 0 else None
        return entry

    def resample(self, player: int, rng: random.Random) -> StarFireState:
        """Redraw opponents' unknown hand cards and the unseen deck contents (SF-19.1).

        A hand card's back shows its category (Star, Planet, Moon, Star Fire), so each hidden
        slot keeps its category; cards everyone saw (drawn off a public bottom) stay put.
        """
        s = self.clone()
        C = self.C
        slots: dict[int, list[tuple[int, int]]] = {STAR: [], PLANET: [], MOON: [], STARFIRE: []}
        unknown: dict[int, list[int]] = {STAR: [], PLANET: [], MOON: [], STARFIRE: []}
        for q in range(self.n):
            if q == player:
                continue
            for i, c in enumerate(s.hands[q]):
                if not s.public >> c & 1:
                    slots[C.cat[c]].append((q, i))
                    unknown[C.cat[c]].append(c)
        pool_cats: dict[int, list[int]] = {}
        for d in (DECK_B, DECK_S, DECK_SETUP):
            for c in s.pool[d]:
                unknown[C.cat[c]].append(c)
            pool_cats[d] = [C.cat[c] for c in s.pool[d]]
        free_slot = {}
        for q in range(self.n):
            if q != player and s.free_star[q] >= 0 and not s.public >> s.free_star[q] & 1:
                free_slot[q] = s.hands[q].index(s.free_star[q])
        for cat, cards in unknown.items():
            shuffle(rng, cards)
            for q, i in slots[cat]:
                s.hands[q][i] = cards.pop()
        for d in (DECK_B, DECK_S, DECK_SETUP):
            s.pool[d] = sorted(unknown[cat].pop() for cat in pool_cats[d])
        for q, i in free_slot.items():
            s.free_star[q] = s.hands[q][i]
        return s

    def census(self) -> dict[str, list[str]]:
        nm = self.C.name
        out: dict[str, list[str]] = {}
        for d, label in ((DECK_E, "elements"), (DECK_B, "bodies"), (DECK_S, "starfire"),
                         (DECK_SETUP, "setup")):
            out[f"deck:{label}"] = [nm[c] for c in self.pool[d] + self.bottom[d]]
        for q in range(self.n):
            out[f"hand:{q}"] = [nm[c] for c in self.hands[q]]
            out[f"nursery:{q}"] = [nm[c] for c in self.nursery[q]]
            out[f"pile:{q}"] = [nm[c] for c in self.pile[q]]
            built: list[str] = []
            for stars, planets, loose in self.systems[q]:
                built += [nm[c] for c in stars + planets + loose]
                built += [nm[m] for pl in planets for m in self.moons_on[pl]]
            out[f"systems:{q}"] = built
        out["spent" if not self.reshuffled else "out_of_play"] = [nm[c] for c in self.spent]
        out["events_used"] = [nm[c] for c in self.events_used]
        return out


def _pick(cards: list[int], need: int, units: tuple[int, ...]) -> tuple[list[int], int, int]:
    """Choose cards of 1 or 2 units covering ``need``: least surplus, then fewest cards.

    Returns (cards, surplus units, units still missing).
    """
    ones = sorted(c for c in cards if units[c] == 1)
    twos = sorted(c for c in cards if units[c] == 2)
    total = len(ones) + 2 * len(twos)
    if total <= need:
        return ones + twos, 0, need - total
    t = min(len(twos), need // 2)
    o = need - 2 * t
    if o <= len(ones):
        return twos[:t] + ones[:o], 0, 0
    # Not enough singles to fill an odd need exactly: one more double, one unit of surplus.
    t += 1
    o = need - 2 * t
    return twos[:t] + ones[:max(0, o)], max(0, -o), 0
