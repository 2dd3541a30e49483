"""The rules of Starlight (rule ids SL-x.y refer to ``rules.md``).

State is kept in small lists of ints so ``clone`` is cheap. Decks are kept as unordered sets of
card numbers and every draw is a chance node, so there is no hidden deck order to track; the
only secrets are the Laurels (and the God cards dealt) of other players.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from nightsky.core.game import CHANCE, Action, LogSecret, State
from nightsky.core.rng import randrange, shuffle

from .actions import Act, Draw
from .components import PRIVILEGES, SIZES, Tables
from .constants import (
    ATTACH,
    BETWEEN,
    BOON,
    BOT,
    BUILD,
    BUY,
    BUYING,
    CHOOSE_STAR,
    CORE,
    D_CORE,
    D_FLARE,
    D_GOD,
    D_LAUREL,
    D_LONG,
    D_SB,
    D_SHORT,
    DONE,
    END,
    FINAL,
    FLARE,
    FLUSH,
    FREE,
    FREE_CORE,
    FREE_RAY,
    GOD,
    KEEP,
    LAUNCH,
    MAIN,
    OVER,
    P_ALPHA,
    P_AP,
    P_BUY,
    P_CORE_RAY,
    P_LAUREL,
    P_REFILL,
    PHASE_NAMES,
    PLACE,
    SETUP,
    SIZE_NAMES,
    SKIP,
    SLOT,
    SLOTLESS,
    STAR,
    STEP,
    TAKE,
    USE,
)
from .views import make_census, make_view

if TYPE_CHECKING:
    from .game import StarlightGame


def popcount(x: int) -> int:
    return bin(x).count("1")


_DEAL_SECRET = LogSecret("deal (hidden)")
"""How a Laurel or God deal reads in the log, to every viewer (the cards stay secret)."""


# Action kinds by the part of ``_apply_act`` that carries them out.
_GAIN_KINDS = frozenset((CORE, TAKE, FLARE, FLUSH))
_LAUNCH_KINDS = frozenset((LAUNCH, FINAL, STAR, ATTACH, USE, SLOT, SLOTLESS, BUY, DONE))
_BOON_KINDS = frozenset((FREE, SKIP, BOON))


class StarlightState(State):
    """One position of Starlight.

    ``g`` is the game, typed as a Starlight game (``State.game`` stays the general ``Game``).
    """

    def __init__(self, game: StarlightGame, setup: bool = True) -> None:
        """The position before set-up's draws.

        ``setup=False`` is ``_copy``'s way in: it sets no field at all, not even those of
        ``State`` (``clone`` sets those), because ``_copy`` assigns every one of them.
        """
        if not setup:
            return
        super().__init__(game)
        self.g = game
        self._set_up()

    def _set_up(self) -> None:
        self.phase = SETUP
        self._init_turn()
        self._init_holdings()
        self._init_supply()
        self._init_launch()
        self._deal()
        self.phase = BETWEEN
        self._settle()

    def _init_turn(self) -> None:
        n = self.g.num_seats
        self.turn = -1
        self.round = 0
        self.daybreak_round = 0
        self.safeguard = False  # daybreak came from the SL-12.6 safeguard, not 65 points
        self.pos = [-1] * n
        self.np = [0] * n
        self.saved = [0] * n
        self.ap = 0
        self.first = False  # this is the seat's first turn
        self.last = False  # this is the seat's last turn
        self.moved = False
        self.opened = False  # the action of the current space has begun
        self.launched_here = False
        self.cores_taken = 0
        self.apollo_used = False
        self.free_step = False
        self.final_done = False

    def _init_holdings(self) -> None:
        """Holdings (live seats; Starbot entries stay empty) and the Sky Board."""
        t = self.t
        n = self.g.num_seats
        nc = len(t.colors)
        self.cores: list[list[int]] = [[] for _ in range(n)]
        self.rays: list[list[int]] = [[0] * (2 * nc) for _ in range(n)]
        self.flares: list[list[int]] = [[] for _ in range(n)]
        self.used: list[list[int]] = [[] for _ in range(n)]
        self.laurels: list[list[int]] = [[] for _ in range(n)]
        self.god = [-1] * n
        self.god_hand: list[list[int]] = [[] for _ in range(n)]
        self.god_discard: list[int] = []
        self.privs = [0] * n
        self.mags = [0] * n
        self.aspects = [0] * n
        self.board = [-1] * len(t.slots)
        self.accolade = [-1] * 5  # owner by index-1
        self.marks = [0] * (5 * n)  # Starbot markers on Accolades: [index-1 + 5 * seat]

    def _init_supply(self) -> None:
        """Pools, decks and bags."""
        t = self.t
        nc = len(t.colors)
        self.core_pool: list[int] = []
        self.long_pool: list[int] = []
        self.short_pool: list[int] = []
        self.flare_pool = [-1] * t.data.board.flare_pool
        self.core_deck = list(range(t.num_deck_cores))
        self.core_discard: list[int] = []
        self.long_bag = [t.data.rays.long_per_color] * nc
        self.short_bag = [t.data.rays.short_per_color] * nc
        self.limbo = [0] * (2 * nc)  # flushed rays held out until the refill is done
        self.flare_deck = list(range(len(t.flare_ids)))
        self.flare_bottom: list[int] = []
        self.laurel_deck = list(range(len(t.laurel_ids)))
        self.god_deck = list(range(len(t.god_ids)))
        self.sb_deck = list(range(len(t.starbot_ids)))
        self.sb_discard: list[int] = []
        self.starters_out: list[int] = []  # Starter Cores launched (they leave the game)

    def _init_launch(self) -> None:
        """The star being built: core (-1 none), rays by type, flare (-1), allowed
        constellations; the free takes of a boon; the draws waiting to be made."""
        self.star_core = -1
        self.star_rays = [0] * (2 * len(self.t.colors))
        self.star_flare = -1
        self.launch_mask = 0
        self.launch_final = False
        self.launch_privs = 0
        self.free_left = 0
        self.free_return = MAIN
        self.pending: list[tuple[int, int]] = []

    def _deal(self) -> None:
        """Set-up (SL-1.5): starter Cores, then the draws of the pools, Laurels and Gods."""
        g = self.g
        t = self.t
        b = t.data.board
        for p in range(g.num_players):
            self.cores[p].append(t.num_deck_cores + p)
        if g.options["turn_order_compensation"]:
            # Ruling SL-1.5: later live seats may start with saved action points, night points
            # and privileges (day points are added at the end, game.head_start).
            live = g.num_players
            bots = g.num_seats - live
            comp = t.data.turn_order
            saved = comp.row("saved_ap", live, bots)
            night = comp.row("night_points", live, bots)
            for p in range(len(saved)):
                self.saved[p] = saved[p]
            for p in range(len(night)):
                self.np[p] = night[p]
            for p, names in enumerate(comp.row("privileges", live, bots)):
                for name in names:
                    self.privs[p] |= 1 << PRIVILEGES.index(name)
        self.pending.extend([(D_CORE, 0)] * b.core_pool)
        self.pending.extend([(D_LONG, 0)] * b.long_pool)
        self.pending.extend([(D_SHORT, 0)] * b.short_pool)
        self.pending.extend([(D_FLARE, i) for i in range(b.flare_pool)])
        for p in range(g.num_players):
            self.pending.extend([(D_LAUREL, p)] * b.laurels_dealt)
        if g.options["gods"]:
            for p in range(g.num_players):
                self.pending.extend([(D_GOD, p)] * b.gods_dealt)

    # ================================================================== copying
    def _copy(self) -> StarlightState:
        # Field by field: the fastest copy once compiled (no __dict__ there); lists copied,
        # ints and bools shared.
        c = StarlightState(self.g, False)
        c.g = self.g
        c.accolade = self.accolade.copy()
        c.ap = self.ap
        c.apollo_used = self.apollo_used
        c.aspects = self.aspects.copy()
        c.board = self.board.copy()
        c.core_deck = self.core_deck.copy()
        c.core_discard = self.core_discard.copy()
        c.core_pool = self.core_pool.copy()
        c.cores = [x.copy() for x in self.cores]
        c.cores_taken = self.cores_taken
        c.daybreak_round = self.daybreak_round
        c.final_done = self.final_done
        c.first = self.first
        c.flare_bottom = self.flare_bottom.copy()
        c.flare_deck = self.flare_deck.copy()
        c.flare_pool = self.flare_pool.copy()
        c.flares = [x.copy() for x in self.flares]
        c.free_left = self.free_left
        c.free_return = self.free_return
        c.free_step = self.free_step
        c.god = self.god.copy()
        c.god_deck = self.god_deck.copy()
        c.god_discard = self.god_discard.copy()
        c.god_hand = [x.copy() for x in self.god_hand]
        c.last = self.last
        c.launch_final = self.launch_final
        c.launch_mask = self.launch_mask
        c.launch_privs = self.launch_privs
        c.launched_here = self.launched_here
        c.laurel_deck = self.laurel_deck.copy()
        c.laurels = [x.copy() for x in self.laurels]
        c.limbo = self.limbo.copy()
        c.long_bag = self.long_bag.copy()
        c.long_pool = self.long_pool.copy()
        c.mags = self.mags.copy()
        c.marks = self.marks.copy()
        c.moved = self.moved
        c.np = self.np.copy()
        c.opened = self.opened
        c.pending = self.pending.copy()
        c.phase = self.phase
        c.pos = self.pos.copy()
        c.privs = self.privs.copy()
        c.rays = [x.copy() for x in self.rays]
        c.round = self.round
        c.safeguard = self.safeguard
        c.saved = self.saved.copy()
        c.sb_deck = self.sb_deck.copy()
        c.sb_discard = self.sb_discard.copy()
        c.short_bag = self.short_bag.copy()
        c.short_pool = self.short_pool.copy()
        c.star_core = self.star_core
        c.star_flare = self.star_flare
        c.star_rays = self.star_rays.copy()
        c.starters_out = self.starters_out.copy()
        c.turn = self.turn
        c.used = [x.copy() for x in self.used]
        return c

    # ================================================================== helpers
    @property
    def t(self) -> Tables:
        return self.g.tables

    def is_bot(self, seat: int) -> bool:
        return seat >= self.g.num_players

    def power(self, p: int) -> str:
        g = self.god[p]
        return self.t.data.gods[g].power if g >= 0 else ""

    def _pool(self, size: int) -> list[int]:
        return self.long_pool if size == 0 else self.short_pool

    def _bag(self, size: int) -> list[int]:
        return self.long_bag if size == 0 else self.short_bag

    def space(self, p: int) -> str:
        return self.t.rondel[self.pos[p]] if self.pos[p] >= 0 else ""

    def core_limit(self, p: int) -> int:
        return self.t.data.board.core_limit + (1 if self.power(p) == "five_cores" else 0)

    def cores_per_action(self, p: int) -> int:
        b = self.t.data.board.cores_per_action
        return b + (1 if self.power(p) == "three_cores" else 0)

    def save_limit(self, p: int) -> int:
        pw = self.power(p)
        if pw == "war":
            return 0
        return 7 if pw == "save7" else self.t.data.board.save_limit

    def flare_cost(self, p: int, pos: int) -> int:
        cost = pos + 1
        if self.power(p) == "cheap_flares":
            cost = max(1, cost - 1)
        return cost

    def occupied_by_other(self, p: int) -> bool:
        here = self.pos[p]
        return any(q != p and self.pos[q] == here for q in range(len(self.pos)))

    def surcharge_due(self, p: int) -> int:
        """AP of the occupation surcharge still to pay for the current action (SL-2.6)."""
        if self.opened or self.first or self.power(p) == "no_surcharge":
            return 0
        return 1 if self.occupied_by_other(p) else 0

    def stars_of(self, p: int) -> int:
        return sum(1 for o in self.board if o == p)

    def constellations_of(self, p: int) -> int:
        t = self.t
        return sum(1 for sl in t.slots_of if any(self.board[i] == p for i in sl))

    def alpha_of(self, p: int) -> int:
        board = self.board
        n = 0
        for i in self.t.alpha_slots:
            if board[i] == p:
                n += 1
        return n

    def eligible_slots(self, mask: int) -> list[int]:
        """Empty slots a star may go to in the constellations of ``mask`` (SL-7.4 to SL-7.6)."""
        out: list[int] = []
        board = self.board
        t = self.t
        target = t.slot_target
        links = t.slot_links
        ci = -1
        for sl in t.slots_of:
            ci += 1
            if not mask >> ci & 1:
                continue
            empty = True
            for i in sl:
                if board[i] >= 0:
                    empty = False
                    break
            if empty:  # a constellation's first star goes to one of its target slots
                for i in sl:
                    if target[i]:
                        out.append(i)
                continue
            for i in sl:  # later stars go next to a star already there
                if board[i] < 0:
                    for j in links[i]:
                        if board[j] >= 0:
                            out.append(i)
                            break
        return out

    def slot_sizes(self, mask: int) -> int:
        """Bit z set when an eligible empty slot of size z is in the constellations of
        ``mask`` (whoever places the star: the board alone decides)."""
        sizes = 0
        size = self.t.slot_size
        for i in self.eligible_slots(mask):
            sizes |= 1 << size[i]
        return sizes

    def _mag_mask(self, p: int, mask: int, final: bool, sizes: int = -1) -> int:
        """Bit m set when a star of magnitude m has somewhere to go (a slot, or slotless).
        ``sizes``: ``slot_sizes(mask)`` when the caller has it (-1: worked out here)."""
        alpha = bool(self.privs[p] & P_ALPHA)
        if final:
            sizes = 0b011 | (0b100 if alpha else 0)  # every size, slot or slotless (SL-12.3)
        else:
            if sizes < 0:
                sizes = self.slot_sizes(mask)
            if not alpha:
                sizes &= 0b011  # an alpha slot (size 2) needs the Alpha privilege
        m = 0
        if sizes & 1:
            m |= 0b1100
        if sizes & 2:
            m |= 0b110000
        if sizes & 4:
            m |= 0b11000000
        return m

    def _fits(self, core: int, l0: int, s0: int, avail_l: int, avail_s: int, mags: int) -> bool:
        """Whether a complete star can be reached from (l0, s0) adding up to the avail rays."""
        starter = core >= self.t.num_deck_cores
        bonus = 1 if starter else 0
        pat = self.t.core_pattern[core]
        for ln in range(l0, min(l0 + avail_l, 7) + 1):
            for sn in range(s0, min(s0 + avail_s, 7) + 1):
                m = ln + sn + bonus
                if m > 7:
                    break
                if m < 2 or not mags >> m & 1:
                    continue
                if pat == 1 and sn:
                    continue
                if pat == 2 and ln:
                    continue
                if pat == 3 and abs(ln - sn) > 1:
                    continue
                return True
        return False

    def _avail(self, p: int, core: int) -> tuple[int, int]:
        colors = self.t.core_colors[core]
        nc = len(self.t.colors)
        r = self.rays[p]
        al = sum(r[c] for c in range(nc) if colors >> c & 1)
        as_ = sum(r[nc + c] for c in range(nc) if colors >> c & 1)
        return al, as_

    def core_can_launch(
        self, p: int, core: int, mask: int, final: bool, sizes: int = -1
    ) -> bool:
        mags = self._mag_mask(p, mask, final, sizes)
        if not mags:
            return False
        al, as_ = self._avail(p, core)
        return self._fits(core, 0, 0, al, as_, mags)

    def can_launch(self, p: int, mask: int, final: bool) -> bool:
        return any(self.core_can_launch(p, c, mask, final) for c in self.cores[p])

    def all_mask(self) -> int:
        return (1 << len(self.t.constellations)) - 1

    def launch_mask_here(self, p: int) -> int:
        if self.power(p) == "any_constellation":
            return self.all_mask()  # Zeus (SL-15.2)
        m = 0
        for ci in self.t.launch_shows[self.space(p)]:
            m |= 1 << ci
        return m

    def star_counts(self) -> tuple[int, int]:
        nc = len(self.t.colors)
        r = self.star_rays
        return sum(r[:nc]), sum(r[nc:])

    def star_magnitude(self) -> int:
        ln, sn = self.star_counts()
        return ln + sn + (1 if self.star_core >= self.t.num_deck_cores else 0)

    def star_complete(self) -> bool:
        ln, sn = self.star_counts()
        m = self.star_magnitude()
        if not 2 <= m <= 7:
            return False
        pat = self.t.core_pattern[self.star_core]
        if pat == 1 and sn or pat == 2 and ln:
            return False
        return not (pat == 3 and abs(ln - sn) > 1)

    def in_last_round(self) -> bool:
        return bool(self.daybreak_round) and self.round == self.daybreak_round + 1

    # ================================================================== whose turn
    def current_players(self) -> tuple[int, ...]:
        if self.pending:
            return (CHANCE,)
        ph = self.phase
        if ph == OVER:
            return ()
        if ph == BOT:
            return (CHANCE,)
        return (self.turn,)

    def is_terminal(self) -> bool:
        return self.phase == OVER and not self.pending

    # ================================================================== legal actions
    def _legal_actions(self, seat: int) -> list[Action]:
        cp = self.current_players()
        if not cp or cp[0] == CHANCE or seat != self.turn:
            return []
        p = seat
        idx = self.g.act_index
        ph = self.phase
        if ph == GOD:
            return [idx[(KEEP, gi, 0)] for gi in self.god_hand[p]]
        if ph == MAIN:
            return self._main_actions(p, True)
        return self._sub_actions(p)

    def _main_actions(self, p: int, launches: bool) -> list[Action]:
        """Main-phase actions; ``launches=False`` skips the (costly) launch checks."""
        idx = self.g.act_index
        out: list[Action] = []
        ap = self.ap
        if self.pos[p] < 0:
            return [idx[(PLACE, i, 0)] for i in range(7)]
        if not self.first and (ap >= 1 or self.free_step):
            out.append(idx[(STEP, 0, 0)])
        if self.moved:
            sp = self.space(p)
            due = self.surcharge_due(p)
            if sp == "cores":
                if (
                    self.cores_taken < self.cores_per_action(p)
                    and len(self.cores[p]) < self.core_limit(p)
                    and ap >= 1 + due
                ):
                    out.extend(idx[(CORE, c, 0)] for c in sorted(set(self.core_pool)))
                if ap >= 1 + due and (self.core_pool or self.core_deck or self.core_discard):
                    out.append(idx[(FLUSH, 0, 0)])
            elif sp in ("long", "short"):
                size = 0 if sp == "long" else 1
                pool = self._pool(size)
                free = self.power(p) == "free_ray" and not self.apollo_used
                if ap >= (0 if free else 1) + due:
                    out.extend(idx[(TAKE, size, c)] for c in sorted(set(pool)))
                if ap >= 1 + due and (pool or sum(self._bag(size))):
                    out.append(idx[(FLUSH, 0, 0)])
            elif sp == "flares":
                for i, f in enumerate(self.flare_pool):
                    if f >= 0 and ap >= self.flare_cost(p, i) + due:
                        out.append(idx[(FLARE, i, 0)])
                if ap >= 1 + due and (
                    any(f >= 0 for f in self.flare_pool) or self.flare_deck or self.flare_bottom
                ):
                    out.append(idx[(FLUSH, 0, 0)])
            elif (
                launches
                and not self.launched_here
                and ap >= 1 + due
                and self.can_launch(p, self.launch_mask_here(p), False)
            ):
                out.append(idx[(LAUNCH, 0, 0)])
        if (
            launches
            and self.last
            and not self.final_done
            and ap >= 1
            and self.can_launch(p, self.all_mask(), True)
        ):
            out.append(idx[(FINAL, 0, 0)])
        for f in self.flares[p]:
            if self._boon_usable(p, f):
                out.append(idx[(BOON, f, 0)])
        out.append(idx[(END, 0, 0)])
        return out

    def _sub_actions(self, p: int) -> list[Action]:
        """Actions inside a launch, a free take or a purchase of night points."""
        idx = self.g.act_index
        t = self.t
        out: list[Action] = []
        ph = self.phase
        nc = len(t.colors)
        if ph == CHOOSE_STAR:
            return [
                idx[(STAR, c, 0)]
                for c in sorted(self.cores[p])
                if self.core_can_launch(p, c, self.launch_mask, self.launch_final)
            ]
        if ph == BUILD:
            mags = self._mag_mask(p, self.launch_mask, self.launch_final)
            ln, sn = self.star_counts()
            core = self.star_core
            colors = t.core_colors[core]
            al, as_ = self._avail(p, core)
            r = self.rays[p]
            for size in (0, 1):
                for c in range(nc):
                    if not colors >> c & 1 or not r[size * nc + c]:
                        continue
                    if size == 0:
                        ok = self._fits(core, ln + 1, sn, al - 1, as_, mags)
                    else:
                        ok = self._fits(core, ln, sn + 1, al, as_ - 1, mags)
                    if ok:
                        out.append(idx[(ATTACH, size, c)])
            if self.star_flare < 0:
                out.extend(idx[(USE, f, 0)] for f in self.flares[p])
            if self.star_complete():
                out.extend(idx[(SLOT, i, 0)] for i in self._slots_for_star(p))
                if self._slotless_ok(p):
                    out.append(idx[(SLOTLESS, 0, 0)])
            return out
        if ph == BUYING:
            if self.ap >= 2:
                out.append(idx[(BUY, 0, 0)])
            out.append(idx[(DONE, 0, 0)])
            return out
        if ph == FREE_CORE:
            return [idx[(CORE, c, 0)] for c in sorted(set(self.core_pool))]
        if ph == FREE_RAY:
            for size in (0, 1):
                out.extend(idx[(FREE, size, c)] for c in sorted(set(self._pool(size))))
            out.append(idx[(SKIP, 0, 0)])
            return out
        return out

    def _slots_for_star(self, p: int) -> list[int]:
        m = self.star_magnitude()
        size = 0 if m <= 3 else 1 if m <= 5 else 2
        if size == 2 and not self.privs[p] & P_ALPHA:
            return []
        sizes = self.t.slot_size
        return [i for i in self.eligible_slots(self.launch_mask) if sizes[i] == size]

    def _slotless_ok(self, p: int) -> bool:
        """Slotless final launch: only when no slot anywhere fits the star (SL-12.3)."""
        if not self.launch_final:
            return False
        m = self.star_magnitude()
        size = 0 if m <= 3 else 1 if m <= 5 else 2
        if size == 2 and not self.privs[p] & P_ALPHA:
            return False
        return not self._slots_for_star(p)

    def _boon_usable(self, p: int, f: int) -> bool:
        kind = self.t.data.flares[f].boon
        if kind == "ap":
            return True
        if kind == "ray":
            return bool(self.long_pool or self.short_pool)
        return bool(self.core_pool) and len(self.cores[p]) < self.core_limit(p)

    def is_legal(self, action: Any, player: int) -> bool:
        if type(action) is not Act:
            return False
        if self.phase == MAIN and action.kind not in (LAUNCH, FINAL):
            # Fast path: the launch checks cannot affect any other main-phase action.
            if self.pending or player != self.turn:
                return False
            return action in self._main_actions(player, False)
        return action in self.legal_actions(player)

    # ================================================================== explanations
    def explain_illegal(self, action: Any, player: int) -> tuple[str, str | None]:
        if type(action) is not Act:
            return f"{action!s} is not a Starlight action", None
        k = action.kind
        ph = self.phase
        if ph == GOD:
            return "choose one of the two God cards you were dealt", "SL-1.3"
        if ph == CHOOSE_STAR:
            if k == STAR:
                return (
                    f"{action}: that Core cannot make a complete star that fits an open slot",
                    "SL-6.1",
                )
            return "choose the Core of the star to launch first (star ...)", "SL-7.2"
        if ph == BUILD:
            return self._explain_build(action, player)
        if ph == BUYING:
            if k == BUY:
                return "buying a night point costs 2 action points", "SL-7.10"
            return "buy night points (buy) or finish (done)", "SL-7.10"
        if ph == FREE_CORE:
            return "take the Flare's free Core from the pool (core ...)", "SL-9.4"
        if ph == FREE_RAY:
            return "take a free ray from a pool (free ...) or skip", "SL-3.6"
        if ph == MAIN:
            why = self._explain_main(action, player)
            if why is not None:
                return why
            return f"{action} is not possible in the {PHASE_NAMES[ph]} phase", None
        return f"no action is possible in the {PHASE_NAMES[ph]} phase", None

    def _explain_build(self, action: Act, p: int) -> tuple[str, str | None]:
        """Why ``action`` cannot be taken while the star is being built."""
        k = action.kind
        if k == ATTACH:
            return (
                f"{action}: the ray must match the Core's colours and sizes and leave a "
                "complete star of 2-7 rays that fits a slot",
                "SL-6.3",
            )
        if k == USE:
            return "only one Flare may be attached to a star, and only one you hold", "SL-7.9"
        if k not in (SLOT, SLOTLESS):
            return "finish the star: attach rays, a Flare, or choose its slot", "SL-7.2"
        if not self.star_complete():
            return "the star is not complete (2-7 rays matching its plan)", "SL-6.1"
        if k == SLOTLESS:
            return "a slotless launch is only for a final launch with no fitting slot", (
                "SL-12.3"
            )
        s = self.t.slots[action.a]
        if s.size == 2 and not self.privs[p] & P_ALPHA:
            return "launching to an alpha slot needs the Launch Alpha Star privilege", (
                "SL-7.7"
            )
        if not self.launch_mask >> s.constellation & 1:
            return "launch only to a constellation shown on this Launch space", "SL-7.1"
        if self.board[action.a] >= 0:
            return "the destination slot must be empty", "SL-7.4"
        m = self.star_magnitude()
        if s.size != (0 if m <= 3 else 1 if m <= 5 else 2):
            return f"a magnitude {m} star does not fit a {SIZES[s.size]} slot", "SL-7.3"
        con = self.t.slots_of[s.constellation]
        if all(self.board[i] < 0 for i in con):
            return "the first star of a constellation goes on a target slot", "SL-7.5"
        return "the slot must be connected to a filled slot", "SL-7.6"

    def _explain_main(self, action: Act, p: int) -> tuple[str, str | None] | None:
        """Why ``action`` cannot be taken in the main phase (None: no particular reason)."""
        k = action.kind
        if self.pos[p] < 0:
            return "on your first turn place your marker on any action space", "SL-2.1"
        if k == PLACE:
            return "your marker is already on the rondel; move it with step", "SL-2.2"
        if k == STEP:
            if self.first:
                return "on your first turn you may take only the action you placed on", "SL-2.1"
            return "each step costs 1 action point", "SL-2.3"
        if k == KEEP:
            return "God cards are chosen during set-up", "SL-1.3"
        if k == FINAL:
            if not self.last:
                return "the special final launch is only for your last turn", "SL-12.2"
            if self.final_done:
                return "you have already made your final launch", "SL-12.2"
            if self.ap < 1:
                return "the final launch costs 1 action point", "SL-12.2"
            return "you have no Core that makes a complete star", "SL-12.5"
        if k == BOON:
            if action.a not in self.flares[p]:
                return "you may use only a face-up Flare you hold, once", "SL-9.2"
            return "that boon has nothing to give now", "SL-9.4"
        if k in (CORE, TAKE, FLARE, FLUSH, LAUNCH):
            return self._explain_space_action(action, p)
        return None

    def _explain_space_action(self, action: Act, p: int) -> tuple[str, str | None] | None:
        """Why the action of a rondel space cannot be taken (None: no particular reason)."""
        k = action.kind
        if not self.moved:
            return "you must move on the rondel before taking an action", "SL-2.2"
        sp = self.space(p)
        want = {CORE: "cores", FLARE: "flares"}.get(k)
        if k == TAKE:
            want = SIZE_NAMES[action.a]
        if k == LAUNCH and not sp.startswith("launch"):
            return "launch only from a Launch space", "SL-7.1"
        if want is not None and sp != want:
            # Spaces as the board prints them (presentation is not imported here).
            printed = {"cores": "Gain Cores", "long": "Long Rays", "short": "Short Rays",
                       "flares": "Gain Flares"}
            return (f"that is the action of {printed[want]}; you are on "
                    f"{printed.get(sp, 'a Launch space')}", "SL-2.4")
        due = self.surcharge_due(p)
        if k == CORE:
            if len(self.cores[p]) >= self.core_limit(p):
                return f"you may keep at most {self.core_limit(p)} Cores", "SL-3.7"
            if self.cores_taken >= self.cores_per_action(p):
                n = self.cores_per_action(p)
                return f"take at most {n} Cores in one Gain Cores action", "SL-3.1"
            if action.a not in self.core_pool:
                return "that Core is not in the pool", "SL-3.1"
            if self.ap < 1 + due:
                return "a Core costs 1 action point (plus any occupation surcharge)", "SL-2.6"
            return None
        if k == TAKE:
            if action.b not in self._pool(action.a):
                return "no ray of that colour is in the pool", "SL-4.1"
            return "a ray costs 1 action point (plus any occupation surcharge)", "SL-2.6"
        if k == FLARE:
            if self.flare_pool[action.a] < 0:
                return "that Flare position is empty", "SL-5.1"
            return "a Flare costs its position's action points", "SL-5.1"
        if k == FLUSH:
            return "flushing a pool costs 1 action point during its own action", "SL-16.2"
        if self.launched_here:
            return "you may launch only once per Launch action", "SL-7.2"
        if self.ap < 1 + due:
            return "launching costs 1 action point (plus any surcharge)", "SL-7.2"
        return "you have no Core that can make a complete star for these slots", "SL-6.1"

    # ================================================================== applying
    def _apply(self, action: Any, player: int) -> None:
        if player == CHANCE:
            self._apply_draw(action)
        else:
            self._apply_act(action, player)
        self._settle()

    def _pay(self, p: int, cost: int) -> None:
        """Pay an action's cost, opening the action (and paying its surcharge) if new."""
        self.ap -= cost + self.surcharge_due(p)
        self.opened = True

    def _apply_act(self, a: Act, p: int) -> None:
        k = a.kind
        if k in _GAIN_KINDS:
            self._apply_gain(a, p)
        elif k in _LAUNCH_KINDS:
            self._apply_launch(a, p)
        elif k in _BOON_KINDS:
            self._apply_boon(a, p)
        elif k == PLACE:
            self.pos[p] = a.a
            self.moved = True
        elif k == STEP:
            self._step(p)
        elif k == END:
            self._end_turn(p)
        elif k == KEEP:
            self._keep_god(p, a.a)
        else:
            raise AssertionError(f"unhandled action {a}")

    def _step(self, p: int) -> None:
        """One step clockwise on the rondel (SL-2.3): a new action space, a new action."""
        if self.free_step:
            self.free_step = False
        else:
            self.ap -= 1
        self.pos[p] = (self.pos[p] + 1) % 7
        self.moved = True
        self.opened = False
        self.launched_here = False
        self.cores_taken = 0
        self.apollo_used = False

    def _apply_gain(self, a: Act, p: int) -> None:
        """The actions of the Gain spaces: a Core, a ray, a Flare, or a flush of the pool."""
        k = a.kind
        if k == CORE and self.phase == FREE_CORE:
            # A Flare's free Core (SL-9.4): no cost, not part of a Gain Cores action.
            self.core_pool.remove(a.a)
            self.cores[p].append(a.a)
            self.phase = MAIN
        elif k == CORE:
            self._pay(p, 1)
            self.core_pool.remove(a.a)
            self.cores[p].append(a.a)
            self.cores_taken += 1
            if self.privs[p] & P_CORE_RAY and (self.long_pool or self.short_pool):
                self.free_left = 1
                self.free_return = MAIN
                self.phase = FREE_RAY
        elif k == TAKE:
            if self.power(p) == "free_ray" and not self.apollo_used:
                self._pay(p, 0)
                self.apollo_used = True
            else:
                self._pay(p, 1)
            self._take_ray(p, a.a, a.b)
        elif k == FLARE:
            self._pay(p, self.flare_cost(p, a.a))
            f = self.flare_pool[a.a]
            self.flare_pool[a.a] = -1
            self.flares[p].append(f)
        else:  # FLUSH
            self._pay(p, 1)
            self._flush(self.space(p))

    def _apply_launch(self, a: Act, p: int) -> None:
        """A launch, step by step: begin it, choose the Core, attach rays and a Flare, choose
        the slot, then buy night points."""
        k = a.kind
        if k == LAUNCH:
            self._pay(p, 1)
            self.launched_here = True
            self._begin_launch(p, self.launch_mask_here(p), False)
        elif k == FINAL:
            self.ap -= 1
            self.final_done = True
            self._begin_launch(p, self.all_mask(), True)
        elif k == STAR:
            self.star_core = a.a
            self.phase = BUILD
        elif k == ATTACH:
            i = a.a * len(self.t.colors) + a.b
            self.rays[p][i] -= 1
            self.star_rays[i] += 1
        elif k == USE:
            self.flares[p].remove(a.a)
            self.star_flare = a.a
        elif k == SLOT:
            self._score_launch(p, a.a)
        elif k == SLOTLESS:
            self._score_launch(p, -1)
        elif k == BUY:
            self.ap -= 2
            self.np[p] += 1
            self._check_daybreak()
        else:  # DONE
            self._finish_launch(p)

    def _apply_boon(self, a: Act, p: int) -> None:
        """A Flare's boon, and the free rays of a boon or a privilege."""
        k = a.kind
        if k == FREE:
            self._take_ray(p, a.a, a.b)
            self.free_left -= 1
            refilling = any(k in (D_LONG, D_SHORT) for k, _ in self.pending)
            if self.free_left <= 0 or not (self.long_pool or self.short_pool or refilling):
                self.phase = self.free_return
        elif k == SKIP:
            self.free_left = 0
            self.phase = self.free_return
        else:  # BOON
            self.flares[p].remove(a.a)
            self.used[p].append(a.a)
            card = self.t.data.flares[a.a]
            self._claim_accolades(p)  # a used Flare may meet a goal (SL-11.2)
            if card.boon == "ap":
                self.ap += card.boon_value
            elif card.boon == "ray":
                self.free_left = card.boon_value
                self.free_return = MAIN
                self.phase = FREE_RAY
            else:
                self.phase = FREE_CORE

    def _keep_god(self, p: int, god: int) -> None:
        """The God card a seat keeps (SL-1.3); the other is discarded."""
        self.god[p] = god
        for g in self.god_hand[p]:
            if g != god:
                self.god_discard.append(g)
        self.god_hand[p] = []
        self._next_god_chooser()

    def _take_ray(self, p: int, size: int, color: int) -> None:
        nc = len(self.t.colors)
        self._pool(size).remove(color)
        self.rays[p][size * nc + color] += 1
        if self.privs[p] & P_REFILL:
            # Refill Rays (SL-8.3): draw at once to refill the pool just taken from.
            self.pending.append((D_LONG if size == 0 else D_SHORT, 0))

    def _flush(self, sp: str) -> None:
        b = self.t.data.board
        nc = len(self.t.colors)
        if sp == "cores":
            self.core_discard.extend(self.core_pool)
            self.core_pool = []
            self._core_deck_check()
            self.pending.extend([(D_CORE, 0)] * b.core_pool)
        elif sp in ("long", "short"):
            size = 0 if sp == "long" else 1
            pool = self._pool(size)
            for c in pool:
                self.limbo[size * nc + c] += 1
            pool.clear()
            n = b.long_pool if size == 0 else b.short_pool
            self.pending.extend([(D_LONG if size == 0 else D_SHORT, 0)] * n)
        elif sp == "flares":
            for i, f in enumerate(self.flare_pool):
                if f >= 0:
                    self.flare_bottom.append(f)
                    self.flare_pool[i] = -1
            self.pending.extend([(D_FLARE, i) for i in range(b.flare_pool)])

    def _core_deck_check(self) -> None:
        if not self.core_deck and self.core_discard:
            self.core_deck = sorted(self.core_discard)
            self.core_discard = []

    def _begin_launch(self, p: int, mask: int, final: bool) -> None:
        self.launch_mask = mask
        self.launch_final = final
        self.launch_privs = self.privs[p]
        self.star_core = -1
        self.star_flare = -1
        self.phase = CHOOSE_STAR

    def _flare_points(self, p: int, f: int, slot: int, mag: int) -> int:
        card = self.t.data.flares[f]
        v = card.np_value
        k = card.np
        if k == "flat":
            return v
        if k == "per_star":
            return v * (self.stars_of(p) + (1 if slot < 0 else 0))
        if k == "per_constellation":
            return v * self.constellations_of(p)  # a slotless star is in none
        if k == "per_privilege":
            return v * popcount(self.privs[p])
        if k == "per_aspect":
            return v * popcount(self.aspects[p])
        if k == "per_magnitude":
            return v * popcount(self.mags[p] | (1 << (mag - 2)))
        if k == "magnitude":
            return v * mag
        return v * (len(self.used[p]) + 1)  # per_flare: this one included

    def _score_launch(self, p: int, slot: int) -> None:
        t = self.t
        mag = self.star_magnitude()
        if slot >= 0:
            s = t.slots[slot]
            pts = s.np
            self.board[slot] = p
            # Records (SL-7.11 to SL-7.13) are made now so Flares count this star (SL-9.3).
            if s.privilege >= 0:
                self.privs[p] |= 1 << s.privilege
            self.mags[p] |= 1 << (mag - 2)
            asp = t.core_aspect[self.star_core]
            if asp >= 0:
                self.aspects[p] |= 1 << asp
        else:
            size = 0 if mag <= 3 else 1 if mag <= 5 else 2
            sl = t.data.slotless
            pts = (sl.small, sl.medium, sl.large)[size]
        if self.star_flare >= 0:
            pts += self._flare_points(p, self.star_flare, slot, mag)
        if self.power(p) == "war":
            pts += 2
        self.np[p] += pts
        self._check_daybreak()
        if self.launch_privs & P_BUY and self.ap >= 2:
            self.phase = BUYING
        else:
            self._finish_launch(p)

    def _finish_launch(self, p: int) -> None:
        t = self.t
        nc = len(t.colors)
        core = self.star_core
        self.cores[p].remove(core)
        if core < t.num_deck_cores:
            self.core_discard.append(core)
            self._core_deck_check()
        else:
            self.starters_out.append(core)
        for i in range(2 * nc):
            n = self.star_rays[i]
            if n:
                (self.long_bag if i < nc else self.short_bag)[i % nc] += n
                self.star_rays[i] = 0
        if self.star_flare >= 0:
            self.used[p].append(self.star_flare)
        self.star_core = -1
        self.star_flare = -1
        self.phase = MAIN
        self._claim_accolades(p)
        if self.launch_final:
            self.launch_final = False
            self._end_turn(p)

    # ------------------------------------------------------------------ goals
    def goal_met(self, p: int, goal: Any, accolade: bool = False) -> bool:
        k = goal.kind
        v = goal.value
        if k == "constellations":
            if accolade or not goal.constellations:
                return self.constellations_of(p) >= v
            t = self.t
            for name in goal.constellations:
                ci = t.constellations.index(name)
                if not any(self.board[i] == p for i in t.slots_of[ci]):
                    return False
            return True
        if k == "magnitudes":
            return popcount(self.mags[p]) >= v
        if k == "aspects":
            return popcount(self.aspects[p]) >= v
        if k == "privileges":
            return popcount(self.privs[p]) >= v
        if k == "stars_in_one":
            return any(sum(1 for i in sl if self.board[i] == p) >= v for sl in self.t.slots_of)
        if k == "stars":
            return self.stars_of(p) >= v
        if k == "alpha":
            return self.alpha_of(p) >= v
        return len(self.used[p]) >= v  # flares_used

    def _claim_accolades(self, p: int) -> None:
        for acc in self.t.data.accolades:
            i = acc.index - 1
            if self.accolade[i] < 0 and self.goal_met(p, acc, accolade=True):
                self.accolade[i] = p

    # ------------------------------------------------------------------ turns
    def _check_daybreak(self) -> None:
        if not self.daybreak_round and max(self.np) >= self.t.data.board.daybreak:
            self.daybreak_round = self.round

    def _end_turn(self, p: int) -> None:
        if not self.is_bot(p):
            self.saved[p] = min(self.ap, self.save_limit(p))
            self.ap = 0
        self._refill_all()
        self.phase = BETWEEN

    def _refill_all(self) -> None:
        """End-of-turn refill of every pool (SL-2.9); the Flare pool slides left first."""
        b = self.t.data.board
        self.pending.extend([(D_CORE, 0)] * (b.core_pool - len(self.core_pool)))
        self.pending.extend([(D_LONG, 0)] * (b.long_pool - len(self.long_pool)))
        self.pending.extend([(D_SHORT, 0)] * (b.short_pool - len(self.short_pool)))
        left = [f for f in self.flare_pool if f >= 0]
        self.flare_pool = left + [-1] * (b.flare_pool - len(left))
        self.pending.extend([(D_FLARE, i) for i in range(len(left), b.flare_pool)])

    def _settle(self) -> None:
        """Resolve what needs no choice: impossible or forced draws, then turn changes."""
        while True:
            while self.pending:
                kind, arg = self.pending[0]
                if kind == D_CORE:
                    self._core_deck_check()
                    if self.core_deck and len(self.core_pool) < self.t.data.board.core_pool:
                        return
                elif kind in (D_LONG, D_SHORT):
                    size = 0 if kind == D_LONG else 1
                    bd = self.t.data.board
                    full = bd.long_pool if size == 0 else bd.short_pool
                    if sum(self._bag(size)) and len(self._pool(size)) < full:
                        return
                elif kind == D_FLARE:
                    if self.flare_pool[arg] < 0:
                        if self.flare_deck:
                            return
                        if self.flare_bottom:
                            # The bottom cards come back in the order they went under (SL-16.3).
                            self.flare_pool[arg] = self.flare_bottom.pop(0)
                elif kind == D_LAUREL:
                    if self.laurel_deck:
                        return
                elif kind == D_GOD and self.god_deck:
                    return
                self.pending.pop(0)
            if any(self.limbo):
                nc = len(self.t.colors)
                for i in range(2 * nc):
                    if self.limbo[i]:
                        (self.long_bag if i < nc else self.short_bag)[i % nc] += self.limbo[i]
                        self.limbo[i] = 0
                continue
            if self.phase != BETWEEN:
                return
            self._next_turn()
            if self.phase == BETWEEN:
                continue
            return

    def _next_god_chooser(self) -> None:
        for q in range(self.turn + 1, self.g.num_players):
            if self.god_hand[q]:
                self.turn = q
                self.phase = GOD
                return
        self.turn = -1
        self.round = 0
        self.phase = BETWEEN

    def _next_turn(self) -> None:
        g = self.g
        n = g.num_seats
        if self.round == 0:
            if g.options["gods"] and any(self.god_hand[q] for q in range(g.num_players)):
                self.turn = -1
                self._next_god_chooser()
                return
            self.round = 1
            self.turn = 0
        else:
            self.turn += 1
            if self.turn >= n:
                if self.daybreak_round and self.round >= self.daybreak_round + 1:
                    self.phase = OVER
                    self.turn = -1
                    return
                if not self.daybreak_round and (
                    self.round >= g.options["max_rounds"] or all(o >= 0 for o in self.board)
                ):
                    # Safeguard (SL-12.6): the night cannot last for ever.
                    self.daybreak_round = self.round
                    self.safeguard = True
                self.round += 1
                self.turn = 0
        p = self.turn
        if self.is_bot(p):
            self.phase = BOT
            return
        self._start_live_turn(p)

    def _start_live_turn(self, p: int) -> None:
        b = self.t.data.board
        self.first = self.pos[p] < 0
        self.last = self.in_last_round()
        self.moved = False
        self.opened = False
        self.launched_here = False
        self.cores_taken = 0
        self.apollo_used = False
        self.final_done = False
        self.free_step = self.power(p) == "free_step" and not self.first
        if self.first:
            self.ap = b.first_turn_ap + self.saved[p]
        else:
            self.ap = b.base_ap + (1 if self.privs[p] & P_AP else 0) + self.saved[p]
        self.saved[p] = 0
        self.phase = MAIN
        if self.last and not self.can_launch(p, self.all_mask(), True):
            # No complete star can be made: the last turn is forfeit (SL-12.5).
            self.ap = 0
            self.phase = BETWEEN
            self._refill_all()

    # ================================================================== chance
    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        draws = self.g.draws
        if self.pending:
            kind, _ = self.pending[0]
            if kind == D_CORE:
                items = self.core_deck
            elif kind in (D_LONG, D_SHORT):
                bag = self._bag(0 if kind == D_LONG else 1)
                tot = sum(bag)
                return [(draws[(kind, c)], n / tot) for c, n in enumerate(bag) if n]
            elif kind == D_FLARE:
                items = self.flare_deck
            elif kind == D_LAUREL:
                items = self.laurel_deck
            else:
                items = self.god_deck
            pr = 1.0 / len(items)
            return [(draws[(kind, i)], pr) for i in items]
        if self.phase == BOT:
            items = self.sb_deck or self.sb_discard
            pr = 1.0 / len(items)
            return [(draws[(D_SB, i)], pr) for i in sorted(items)]
        return []

    def sample_chance(self, rng: random.Random) -> Draw:
        draws = self.g.draws
        if self.pending:
            kind, _ = self.pending[0]
            if kind in (D_LONG, D_SHORT):
                bag = self._bag(0 if kind == D_LONG else 1)
                r = randrange(rng, sum(bag))
                for c, n in enumerate(bag):
                    if r < n:
                        return draws[(kind, c)]
                    r -= n
            items = {
                D_CORE: self.core_deck,
                D_FLARE: self.flare_deck,
                D_LAUREL: self.laurel_deck,
                D_GOD: self.god_deck,
            }[kind]
            return draws[(kind, items[randrange(rng, len(items))])]
        items = self.sb_deck or sorted(self.sb_discard)
        return draws[(D_SB, items[randrange(rng, len(items))])]

    def is_legal_chance(self, outcome: Any) -> bool:
        if type(outcome) is not Draw:
            return False
        if self.pending:
            kind, _ = self.pending[0]
            if outcome.kind != kind:
                return False
            if kind == D_LONG:
                return self.long_bag[outcome.value] > 0
            if kind == D_SHORT:
                return self.short_bag[outcome.value] > 0
            items = {
                D_CORE: self.core_deck,
                D_FLARE: self.flare_deck,
                D_LAUREL: self.laurel_deck,
                D_GOD: self.god_deck,
            }[kind]
            return outcome.value in items
        if self.phase == BOT:
            return outcome.kind == D_SB and outcome.value in (self.sb_deck or self.sb_discard)
        return False

    def _apply_draw(self, d: Draw) -> None:
        if d.kind == D_SB:
            self._starbot_turn(d.value)
            return
        kind, arg = self.pending.pop(0)
        if kind == D_CORE:
            self.core_deck.remove(d.value)
            self.core_pool.append(d.value)
            self._core_deck_check()
        elif kind == D_LONG:
            self.long_bag[d.value] -= 1
            self.long_pool.append(d.value)
        elif kind == D_SHORT:
            self.short_bag[d.value] -= 1
            self.short_pool.append(d.value)
        elif kind == D_FLARE:
            self.flare_deck.remove(d.value)
            self.flare_pool[arg] = d.value
        elif kind == D_LAUREL:
            self.laurel_deck.remove(d.value)
            self.laurels[arg].append(d.value)
        else:
            self.god_deck.remove(d.value)
            self.god_hand[arg].append(d.value)

    # ================================================================== Starbots
    def _starbot_turn(self, card_i: int) -> None:
        """One Starbot turn (SL-14.2): the card's action, its night points, an Accolade marker."""
        p = self.turn
        if not self.sb_deck:
            # Deck used up without the Refresh card: shuffle the discards back (SL-14.10).
            self.sb_deck = sorted(self.sb_discard)
            self.sb_discard = []
        self.sb_deck.remove(card_i)
        card = self.t.data.starbots[card_i]
        if card.action == "refresh":
            # Refresh (SL-14.7): every pool is flushed, the deck is made whole again.
            for sp in ("cores", "long", "short", "flares"):
                self._flush(sp)
            self.sb_deck = sorted([*self.sb_deck, *self.sb_discard, card_i])
            self.sb_discard = []
        else:
            self.sb_discard.append(card_i)
            if card.action == "launch":
                self._starbot_launch(p, card.space, SIZES.index(card.size))
            else:
                self._starbot_take(p, card.action, card.count)
            self.np[p] += card.np
            i = card.accolade - 1
            if self.accolade[i] < 0:
                self.marks[i + 5 * p] += 1
                if self.marks[i + 5 * p] >= 5:
                    self.accolade[i] = p  # five markers win the Accolade (SL-14.6)
            self._check_daybreak()
        self._refill_all()
        self.phase = BETWEEN

    def _starbot_launch(self, p: int, space: str, size: int) -> None:
        """A Starbot's launch: a star on the first eligible slot of the card's size, in the first
        constellation of the Launch space that has one."""
        t = self.t
        self.pos[p] = t.rondel.index(space)
        for ci in t.launch_shows[space]:
            cands = [i for i in self.eligible_slots(1 << ci) if t.slots[i].size == size]
            if cands:
                self.board[min(cands)] = p
                break

    def _starbot_take(self, p: int, space: str, n: int) -> None:
        """A Starbot's gain: it takes the first ``n`` items of that space's pool away (Cores to
        the discard, rays back to their bag once the refill is done, Flares under their deck)."""
        self.pos[p] = self.t.rondel.index(space)
        if space == "cores":
            take = self.core_pool[:n]
            del self.core_pool[:n]
            self.core_discard.extend(take)
            self._core_deck_check()
        elif space in ("long", "short"):
            size = 0 if space == "long" else 1
            nc = len(self.t.colors)
            pool = self._pool(size)
            for c in pool[:n]:
                self.limbo[size * nc + c] += 1
            del pool[:n]
        else:
            taken = 0
            for i, f in enumerate(self.flare_pool):
                if f >= 0 and taken < n:
                    self.flare_bottom.append(f)
                    self.flare_pool[i] = -1
                    taken += 1

    # ================================================================== scoring
    def score_breakdown(self) -> list[dict[str, float]]:
        t = self.t
        b = t.data.board
        out: list[dict[str, float]] = []
        per_star = self.g.per_star_points
        acc_dp = t.accolade_dp  # day points of Accolade i + 1
        heads = any(self.g.head_start)
        for p in range(self.g.num_seats):
            acc = sum(acc_dp[i] for i in range(len(acc_dp)) if self.accolade[i] == p)
            d: dict[str, float]  # the parts are whole numbers (ints): views show them so
            if self.is_bot(p):
                stars = per_star * self.stars_of(p)
                d = {"night": self.np[p], "stars": stars, "accolades": acc}
                d["total"] = self.np[p] + stars + acc
            else:
                alpha = b.alpha_day_points * self.alpha_of(p)
                lau = 0
                bonus = (b.laurel_privilege_points if self.privs[p] & P_LAUREL else 0) + (
                    2 if self.power(p) == "laurel_bonus" else 0
                )
                for li in self.laurels[p]:
                    lr = t.data.laurels[li]
                    if self.goal_met(p, lr):
                        lau += lr.dp + bonus
                d = {"night": self.np[p], "alpha": alpha, "laurels": lau, "accolades": acc}
                if heads:
                    # Ruling SL-1.5: a later seat's head start, day points scored at the end.
                    d["head_start"] = self.g.head_start[p]
                d["total"] = self.np[p] + alpha + lau + acc + self.g.head_start[p]
            out.append(d)
        return out

    def scores(self) -> list[float]:
        if self.phase != OVER:
            return [float(x) for x in self.np]
        return [float(b["total"]) for b in self.score_breakdown()]

    def tiebreakers(self, seat: int) -> tuple[float, ...]:
        return (float(self.stars_of(seat)), float(self.constellations_of(seat)))

    # ================================================================== what a seat knows
    def _view(self, player: int | None) -> dict[str, Any]:
        return make_view(self, player)

    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        # Only the Laurel and God deals are secret, to every reader of the log (their cards
        # show in the views of those who may see them); other draws are seen by everyone.
        if player != CHANCE or type(action) is not Draw:
            return None
        kind = action.kind
        return _DEAL_SECRET if kind in (D_LAUREL, D_GOD) else None

    def resample(self, player: int, rng: random.Random) -> StarlightState:
        """Redraw the Laurels and unchosen God cards ``player`` has not seen."""
        c = self.clone()
        if self.phase == OVER:
            return c  # every Laurel is revealed at the end
        n = self.g.num_players
        others = [q for q in range(n) if q != player]
        pool = list(c.laurel_deck)
        for q in others:
            pool.extend(c.laurels[q])
        shuffle(rng, pool)
        for q in others:
            k = len(c.laurels[q])
            c.laurels[q] = sorted(pool[:k])
            pool = pool[k:]
        c.laurel_deck = sorted(pool)
        # God cards: other hands, other seats' discards and the deck are unseen. Seats
        # choose in order and each discards one, so discard i is seat i's.
        own = c.god_discard[player] if player < len(c.god_discard) else -1
        hidden_discards = [i for i in range(len(c.god_discard)) if i != player]
        gpool = list(c.god_deck) + [c.god_discard[i] for i in hidden_discards]
        for q in others:
            gpool.extend(c.god_hand[q])
        shuffle(rng, gpool)
        for q in others:
            k = len(c.god_hand[q])
            c.god_hand[q] = sorted(gpool[:k])
            gpool = gpool[k:]
        for i in hidden_discards:
            c.god_discard[i] = gpool.pop()
        if own >= 0:
            c.god_discard[player] = own
        c.god_deck = sorted(gpool)
        c._rewrite_deals(player)
        return c

    def _rewrite_deals(self, player: int) -> None:
        """Make the recorded deals agree with the (resampled) hands, so the history replays.

        Deals go out seat by seat (SL-1.5, SL-1.3): the k-th Laurel deal went to seat
        k // laurels_dealt, the k-th God deal to seat k // gods_dealt.
        """
        b = self.t.data.board
        draws = self.g.draws
        lk = gk = 0
        hist = self.history
        for i, (seat, a) in enumerate(hist):
            if seat != CHANCE or type(a) is not Draw:
                continue
            if a.kind == D_LAUREL:
                q, j = divmod(lk, b.laurels_dealt)
                lk += 1
                if q != player:
                    hist[i] = (seat, draws[(D_LAUREL, self.laurels[q][j])])
            elif a.kind == D_GOD:
                q, j = divmod(gk, b.gods_dealt)
                gk += 1
                if q == player:
                    continue
                pair = [self.god[q], self.god_discard[q]] if self.god[q] >= 0 else self.god_hand[q]
                hist[i] = (seat, draws[(D_GOD, pair[j])])

    def census(self) -> dict[str, list[str]]:
        return make_census(self)


__all__ = ["PHASE_NAMES", "StarlightState"]
