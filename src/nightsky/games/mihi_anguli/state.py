"""The rules of Mihi Anguli (rule ids MA-x.y refer to rules.md beside this file).

Every seat has its own sheet and dice; the one chance node of a turn rolls all of them, then
every seat still playing acts at once (simultaneous seats) until it ends its turn.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

from nightsky.core.errors import IllegalActionError
from nightsky.core.game import CHANCE, Action, LogSecret, State
from nightsky.core.rng import randbelow
from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.actions import Move, MoveTable, Roll
from nightsky.games.mihi_anguli.constants import (
    ABIL,
    FINISHED,
    MENTOR_USED,
    PHASE_NAMES,
    PROMOTER_USED,
    REWARD,
    S_NONE,
    S_OPT,
    S_PLOT3,
    S_POINT,
    S_POS3,
    S_POS4,
    S_STUDY,
    START,
    SUB_NAMES,
    WAIT,
    XP,
)

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.game import MihiAnguliGame

_PARTS = ("region", "stars", "articles", "publisher", "headhunter", "unique")
_ARTICLES = (1 << 5) - 1
_DAYS = ((1 << 7) - 1) << B.G_DAY0
_UNIQUE = _ARTICLES | (((1 << B.NGROUPS) - 1) & ~((1 << B.G_AB0) - 1))  # MA-10.4's groups
# The ability a move uses (each at most once a turn, MA-5.3), by the move's kind.
_ABILITY_OF = {"pos1": B.POS1, "pos2": B.POS2, "pos3": B.POS3, "pos4": B.POS4,
               "plot1": B.PLOT1, "plot2": B.PLOT2, "plot3": B.PLOT3, "plot4": B.PLOT4,
               "plot5": B.PLOT5, "rec": B.REC, "opt": B.OPT, "study": B.STUDY}
# Kinds of moves that spend two ability dice (the others spend one).
_TWO_DICE = ("pos1", "pos4", "plot4", "plot5")
# Every ordered throw of three dice (index 36 * (first - 1) + 6 * (second - 1) + third - 1),
# sorted as a roll shows them.
# Seats acting at once, by bit mask (1-4 seats): tuples made once, not at every call.
_ACTING = [tuple(i for i in range(4) if m >> i & 1) for m in range(16)]
_CHANCE_ONLY = (CHANCE,)


def _throws() -> list[tuple[int, int, int]]:
    out = []
    for a in range(1, 7):
        for b in range(1, 7):
            for c in range(1, 7):
                x, y, z = sorted((a, b, c))
                out.append((x, y, z))
    return out


_THROWS = _throws()
# PLOTTING I-III: each needs one die (MA-7.1's "a plotting ability and die remain").
_PLOT123 = (1 << B.PLOT1) | (1 << B.PLOT2) | (1 << B.PLOT3)


class Seat:
    """One player's sheet and turn progress (small ints and bit masks, cheap to copy)."""

    __slots__ = (
        "pts", "sq", "items", "turn_items", "acq", "week", "day", "dice", "low", "used",
        "phase", "sub", "aux", "pos", "xp", "pstar", "psq", "claimed", "res_new",
    )

    def __init__(self, blank: bool = False) -> None:
        if blank:  # ``copy`` assigns every field itself
            return
        self.pts = 0  # filled points
        self.sq = 0  # filled squares
        self.items = 0  # filled items
        self.turn_items = 0  # items filled this turn (their day effect waits, MA-4.3)
        self.acq = 0  # acquired groups (abilities, supporters)
        self.week = 1
        self.day = 0  # 0 Sunday .. 6 Saturday; -1 = Saturday reached backwards by MENTOR
        self.dice: tuple[int, ...] = ()
        self.low = 0
        self.used = 0  # abilities used this turn (+ MENTOR/PROMOTER flags)
        self.phase = WAIT
        self.sub = S_NONE
        self.aux = 0
        self.pos = -1  # positioned major point, -1 none
        self.xp = 0
        self.pstar = 0
        self.psq = 0
        self.claimed = 0  # weeks whose points reward was circled (bit w-1)
        self.res_new = False  # RESEARCHER acquired this turn

    def copy(self) -> Seat:
        s = Seat(True)
        # Spelled out: this runs for every seat of every clone in a search.
        s.pts, s.sq, s.items, s.turn_items, s.acq = (
            self.pts, self.sq, self.items, self.turn_items, self.acq)
        s.week, s.day, s.dice, s.low, s.used = (
            self.week, self.day, self.dice, self.low, self.used)
        s.phase, s.sub, s.aux, s.pos, s.xp = self.phase, self.sub, self.aux, self.pos, self.xp
        s.pstar, s.psq, s.claimed, s.res_new = self.pstar, self.psq, self.claimed, self.res_new
        return s

    def key(self) -> tuple:
        """Every field, in ``__slots__`` order (spelled out: caches call this constantly)."""
        return (self.pts, self.sq, self.items, self.turn_items, self.acq, self.week, self.day,
                self.dice, self.low, self.used, self.phase, self.sub, self.aux, self.pos,
                self.xp, self.pstar, self.psq, self.claimed, self.res_new)


class MihiAnguliState(State):
    """A position: every seat's sheet plus whose turn it is."""

    g: MihiAnguliGame
    """The game, typed as this game (``State.game`` stays a ``Game``)."""
    mv: MoveTable
    """The game's moves by kind and arguments (``g.moves``)."""

    def __init__(self, game: MihiAnguliGame, blank: bool = False) -> None:
        if blank:  # ``_copy``'s way in: it assigns every field (``clone`` the shared ones)
            return
        super().__init__(game)
        self.g = game
        self.c = game.compiled
        self.mv = game.moves
        self.seats = [Seat() for _ in range(game.num_players)]
        self.turn = 0

    # ------------------------------------------------------------------ whose turn
    def current_players(self) -> tuple[int, ...]:
        acting = 0
        waiting = False
        for i, s in enumerate(self.seats):
            if WAIT < s.phase < FINISHED:
                acting |= 1 << i
            elif s.phase == WAIT:
                waiting = True
        if acting:
            return _ACTING[acting]
        return _CHANCE_ONLY if waiting else ()

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]] | None:
        live = [s.phase == WAIT for s in self.seats]
        if sum(live) != 1:
            return None  # 56^n joint outcomes: sampled instead
        out: list[tuple[Action, float]] = []
        for combo in combinations_with_replacement(range(1, 7), 3):
            perms = 6 if len(set(combo)) == 3 else (3 if len(set(combo)) == 2 else 1)
            dice = tuple(combo if lv else None for lv in live)
            out.append((self.g.roll(dice), perms / 216))
        return out

    def sample_chance(self, rng: random.Random) -> Action:
        # Three dice per seat still playing, thrown in seat order (``randint(1, 6)`` each, the
        # same draws as ``random.Random.randint``); the throws together are the roll's code.
        code = 0
        for s in self.seats:
            code *= 217
            if s.phase == WAIT:
                a = randbelow(rng, 6)
                b = randbelow(rng, 6)
                code += 1 + a * 36 + b * 6 + randbelow(rng, 6)
        rolls = self.g.roll_codes
        roll = rolls.get(code)
        if roll is None:
            dice: list[tuple[int, int, int] | None] = []
            rest = code
            for _ in self.seats:
                rest, pick = divmod(rest, 217)
                dice.append(_THROWS[pick - 1] if pick else None)
            roll = rolls[code] = self.g.roll(tuple(reversed(dice)))
        return roll

    def is_legal_chance(self, outcome: Action) -> bool:
        if not isinstance(outcome, Roll) or len(outcome.dice) != len(self.seats):
            return False
        if self.current_players() != (CHANCE,):
            return False
        return all(
            (d is None) == (s.phase != WAIT) for d, s in zip(outcome.dice, self.seats, strict=True)
        )

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> list[Action]:
        if seat == CHANCE:
            outs = self.chance_outcomes()
            return [o for o, _ in outs] if outs else []
        if not 0 <= seat < len(self.seats):
            return []
        s = self.seats[seat]
        if not WAIT < s.phase < FINISHED:
            return []
        # Built afresh each time: since the list is cheap to build (compiled, see ``_legal``),
        # a cache keyed by the seat's sheet cost more than it saved (random playouts rarely
        # meet a sheet twice; a search's hits saved ~0.2 µs each).
        return self._legal(s)

    def _open(self, s: Seat) -> int:
        """Unfilled items that may still be filled (articles close after their week, MA-6.2)."""
        return self.c.all_mask & ~s.items & ~self.c.closed_before[s.week]

    def _e_upto(self, s: Seat, xp: int) -> int:
        """Open experience items worth at most ``xp``."""
        return self.c.e_upto[min(max(xp, 0), 9)] & self._open(s)

    def _q_upto(self, s: Seat, n: int) -> int:
        """Open square items worth at most ``n``."""
        return self.c.q_upto[min(max(n, 0), 9)] & self._open(s)

    def _owns(self, s: Seat, code: int) -> bool:
        g = B.ABILITY_GROUP[code]
        return g < 0 or bool(s.acq >> g & 1)

    def _free(self, s: Seat, code: int) -> bool:
        return not s.used >> code & 1 and self._owns(s, code)

    def _free_mask(self, s: Seat) -> int:
        """Bit ``code`` set for every ability the seat owns and has not used this turn."""
        acq = s.acq
        owned = 0
        for code, g in enumerate(B.ABILITY_GROUP):
            if g < 0 or acq >> g & 1:
                owned |= 1 << code
        return owned & ~s.used

    def _has(self, s: Seat, g: int) -> bool:
        return bool(s.acq >> g & 1)

    def _coord_centre(self, s: Seat) -> bool:
        return self._has(s, B.G_COORD)

    def _plot1_mask(self, s: Seat, d: int, k: int) -> int:
        for kk, ring, centre in B.PLOT1_LAYOUTS[s.pos][d]:
            if kk == k:
                return ring | ((1 << s.pos) if centre or self._coord_centre(s) else 0)
        return 0

    def _plot2_mask(self, s: Seat, d: int) -> int:
        return B.PLOT2_MASK[s.pos][d] | ((1 << s.pos) if self._coord_centre(s) else 0)

    def _empty_nonstar(self, s: Seat) -> int:
        return ((1 << B.NPTS) - 1) & ~s.pts & ~self.c.star_mask

    # The legal lists below are built for speed (random playouts and searches ask for them at
    # every step): abilities as one bit mask, dice facts from ``B.DICE_INFO``, moves from the
    # game's ``MoveTable``, and ``~pts`` computed once. Their order is the rules' stable order.
    def _legal(self, s: Seat) -> list[Action]:
        T = self.mv
        c = self.c
        if s.sub:
            return self._legal_sub(s)
        if s.pstar:
            return [T.fill[i] for i in B.bits(c.s_mask & self._open(s))]
        if s.psq:
            return [T.fill[i] for i in B.bits(self._q_upto(s, s.psq))]
        ph = s.phase
        if ph == START:
            out: list[Action] = [T.go]
            if self._can_mentor(s):
                out.append(T.mentor)
            if self._can_promote(s):
                out += [T.promote[w] for w in self._open_articles(s)]
            return out
        if ph == REWARD:
            out = [T.claim[0]]
            if self._empty_nonstar(s):
                out.append(T.claim[1])
            return out
        if ph == XP:
            out = [T.fill[i] for i in B.bits(self._e_upto(s, s.xp))]
            out.append(T.done)
            return out
        return self._legal_abilities(s)

    def _open_articles(self, s: Seat) -> list[int]:
        op = self._open(s)
        gm = self.c.group_mask
        return [w for w in range(max(1, s.week), 6) if op & gm[w - 1]]

    def _can_mentor(self, s: Seat) -> bool:
        return self._has(s, B.G_MENTOR) and not s.used & MENTOR_USED and s.low >= 3

    def _can_promote(self, s: Seat) -> bool:
        return (
            self._has(s, B.G_PROMOTER) and not s.used & PROMOTER_USED and s.low == 1
            and bool(self._open_articles(s))
        )

    def _legal_sub(self, s: Seat) -> list[Action]:
        T = self.mv
        sub = s.sub
        out: list[Action]
        if sub == S_POS3:
            return [T.at[m] for m in self._pos3_targets(s, s.aux)]
        if sub == S_POS4:
            free = ~s.pts
            return [T.at[m] for m in B.MAJORS if B.BLOCK_OF[m] & free]
        if sub == S_POINT:
            return [T.at[q] for q in B.bits(self._empty_nonstar(s))]
        if sub == S_PLOT3:
            pts = s.pts
            return [T.at[q] for q in B.RING_POINTS[s.pos] if not pts >> q & 1]
        if sub == S_OPT:
            m = (self.c.s_mask | self.c.q_by_value[1]) & self._open(s)
            return [T.fill[i] for i in B.bits(m)]
        # S_STUDY
        out = [T.fill[i] for i in B.bits(self._e_upto(s, s.xp))]
        out.append(T.done)
        return out

    def _pos3_targets(self, s: Seat, d: int) -> list[int]:
        free = ~s.pts
        return [m for m in B.POS3_MAJORS[d] if B.BLOCK_OF[m] & free]

    def _legal_abilities(self, s: Seat) -> list[Action]:
        """The abilities phase: position (no point positioned yet) or plot (one is), the
        abilities that need no position, and ``end turn``."""
        T = self.mv
        c = self.c
        free = self._free_mask(s)
        info = B.DICE_INFO[s.dice]
        unpts = ~s.pts
        if s.pos < 0:
            out = self._legal_positioning(s, free, info, unpts)
        else:
            out = self._legal_plotting(s, free, info, unpts)
        if free >> B.PLOT5 & 1 and self._empty_nonstar(s):
            out += [T.plot5[pc] for pc in info.pair_codes]
        if free >> B.REC & 1:
            arts = self._open_articles(s)
            out += [T.rec[d * 8 + w] for d in info.uniq for w in arts]
        if free >> B.OPT & 1 and (c.s_mask | c.q_by_value[1]) & self._open(s):
            out += [T.opt[d] for d in info.uniq]
        if free >> B.STUDY & 1:
            op = self._open(s)
            out += [T.study[d] for d in info.uniq if c.e_upto[d] & op]
        out.append(T.end)
        return out

    def _legal_positioning(self, s: Seat, free: int, info: B.DiceInfo,
                           unpts: int) -> list[Action]:
        """POSITIONING I-IV (MA-7.0/7.1): only where a plotting ability and die remain and
        the major point has an empty point around it (``unpts``: the unfilled points)."""
        T = self.mv
        out: list[Action] = []
        # A plotting ability and die remain after spending one die / two dice (MA-7.1).
        plot1 = bool(free & _PLOT123)
        plot2 = bool(free >> B.PLOT4 & 1)
        after1 = (info.n >= 2 and plot1) or (info.n >= 3 and plot2)
        after2 = info.n >= 3 and plot1
        if after2 and free >> B.POS1 & 1:
            for tries in info.pos1:
                for m, xy in tries:
                    if B.BLOCK_OF[m] & unpts:
                        out.append(T.pos1[xy])
        if after1 and free >> B.POS2 & 1:
            out += [T.pos2[d] for d in info.uniq if B.BLOCK_OF[B.major(d, d)] & unpts]
        if after1 and free >> B.POS3 & 1:
            for d in info.uniq:
                for m in B.POS3_MAJORS[d]:
                    if B.BLOCK_OF[m] & unpts:
                        out.append(T.pos3[d])
                        break
        if (after2 and free >> B.POS4 & 1 and info.pairs
                and any(B.BLOCK_OF[m] & unpts for m in B.MAJORS)):
            out += [T.pos4[pc] for pc in info.pair_codes]
        return out

    def _legal_plotting(self, s: Seat, free: int, info: B.DiceInfo,
                        unpts: int) -> list[Action]:
        """PLOTTING I-IV around the positioned major point, where they fill a point."""
        T = self.mv
        out: list[Action] = []
        pos = s.pos
        coord = self._coord_centre(s)
        centre = 1 << pos
        if free >> B.PLOT1 & 1:
            math = self._has(s, B.G_MATH)
            layouts = B.PLOT1_LAYOUTS[pos]
            for d in info.uniq:
                for k, ring, pip in layouts[d]:
                    if k % 2 and not math:
                        continue
                    if (ring | (centre if pip or coord else 0)) & unpts:
                        out.append(T.plot1[d * 8 + k])
        if free >> B.PLOT2 & 1:
            masks = B.PLOT2_MASK[pos]
            extra = centre if coord else 0
            out += [T.plot2[d] for d in info.uniq if (masks[d] | extra) & unpts]
        block_open = B.BLOCK_OF[pos] & unpts
        if (free >> B.PLOT3 & 1 and block_open
                and (B.RING_OF[pos] | (centre if coord else 0)) & unpts):
            out += [T.plot3[d] for d in info.uniq]
        if free >> B.PLOT4 & 1 and block_open:
            out += [T.plot4[pc] for pc in info.pair_codes]
        return out

    # ------------------------------------------------------------------ validation
    def is_legal(self, action: Action, player: int) -> bool:
        if not isinstance(action, Move) or not 0 <= player < len(self.seats):
            return False
        s = self.seats[player]
        if not WAIT < s.phase < FINISHED:
            return False
        return action in self._legal(s)

    def explain_illegal(self, action: Action, player: int) -> tuple[str, str | None]:
        if not isinstance(action, Move):
            return f"{action!s} is not a Mihi Anguli action", None
        s = self.seats[player]
        k = action.kind
        if s.phase in (WAIT, FINISHED):
            return f"seat {player} has ended its turn and waits for the others", "MA-10.2"
        if s.sub:
            return (f"{action} is not a choice now: first finish the {SUB_NAMES[s.sub]}",
                    "MA-7.1" if s.sub in (S_POS3, S_POS4, S_PLOT3) else "MA-5.2")
        if s.pstar:
            return f"{action} is not allowed: a filled star must be spent on a star item first", \
                "MA-6.4"
        if s.psq:
            return (f"{action} is not allowed: the completed squares must be spent on square "
                    f"items worth at most {s.psq} first", "MA-6.5")
        if s.phase == START:
            return (f"{action} is not allowed before the schedule advances "
                    "(only PROMOTER, MENTOR or advance)", "MA-3.1")
        if s.phase == REWARD:
            return f"{action} is not allowed: choose the week's reward first", "MA-3.4"
        if s.phase == XP:
            if k == "fill":
                return (f"{action}: only an open experience item worth at most {s.xp} may be "
                        "filled now", "MA-4.4")
            return (f"{action} is not allowed while spending experience (stop spending first)",
                    "MA-2.1")
        return self._explain_ability(s, action)

    def _explain_ability(self, s: Seat, action: Move) -> tuple[str, str | None]:
        """Why an action of the abilities phase is not legal (MA-5.x, MA-6.7, MA-7.x)."""
        k = action.kind
        code = _ABILITY_OF.get(k)
        if code is None:
            return f"{action} is not an ability use; use abilities or end the turn", "MA-5.1"
        if not self._owns(s, code):
            return f"{action}: that ability has not been acquired", "MA-6.7"
        if s.used >> code & 1:
            return f"{action}: each ability is used at most once a turn", "MA-5.3"
        need = [action.a, action.b] if k in _TWO_DICE else [action.a]
        rest = list(s.dice)
        for d in need:
            if d not in rest:
                return f"{action}: no unused ability die shows {d}", "MA-5.2"
            rest.remove(d)
        if k.startswith("pos") and s.pos >= 0:
            return f"{action}: a positioned point is waiting for its plotting ability", "MA-7.1"
        if k in ("plot1", "plot2", "plot3", "plot4") and s.pos < 0:
            return f"{action}: plotting needs a positioning ability first", "MA-7.1"
        if k == "plot1" and action.b % 2 and not self._has(s, B.G_MATH):
            return f"{action}: 45-degree turns of the die need MATHEMATICIAN", "MA-8.4"
        if k.startswith("pos"):
            return (f"{action}: the point must have an empty point around it and a plotting "
                    "ability and die must remain", "MA-7.0")
        if k.startswith("plot"):
            return f"{action}: that plot would fill no empty point", "MA-7.0"
        if k == "rec":
            return f"{action}: article W{action.b} is closed or already complete", "MA-7.11"
        if k == "opt":
            return f"{action}: no open star item or 1-squares item is left", "MA-7.12"
        return f"{action}: no open experience item is affordable with {action.a}", "MA-7.13"

    # ------------------------------------------------------------------ applying
    def _apply(self, action: Action, player: int) -> None:
        if player == CHANCE:
            assert isinstance(action, Roll)
            self._roll(action)
            return
        assert isinstance(action, Move)
        s = self.seats[player]
        k = action.kind
        if s.sub:
            self._apply_sub(s, action)
        elif k == "fill":
            self._fill_item(s, action.a)
            if s.pstar:
                s.pstar -= 1
            elif s.psq:
                s.psq -= self.c.items[action.a].value
            else:  # experience (MA-4.4)
                s.xp -= self.c.items[action.a].value
        elif k == "go":
            self._advance(s)
        elif k == "mentor":  # MA-8.2
            s.used |= MENTOR_USED
            s.day -= 1
        elif k == "promote":  # MA-8.1
            s.used |= PROMOTER_USED
            self._record(s, action.a)
        elif k == "claim":  # MA-3.4
            w = s.aux
            s.aux = 0
            self._enter_xp(s)
            if action.a == 0:
                s.claimed |= 1 << (w - 1)
            else:
                s.sub = S_POINT
        elif k == "done":
            s.phase = ABIL
            s.xp = 0
        elif k == "end":
            s.pos = -1
            s.phase = FINISHED if s.week >= 6 else WAIT  # MA-9.1
        else:
            self._use_ability(s, action)
        self._settle(s)

    def _roll(self, roll: Roll) -> None:
        self.turn += 1
        for s, d in zip(self.seats, roll.dice, strict=True):
            if d is None:
                continue
            s.dice = d
            s.low = d[0]
            s.used = 0
            s.turn_items = 0
            s.res_new = False
            s.pos = -1
            s.phase = START
            self._settle(s)

    def _advance(self, s: Seat) -> None:
        """MA-3.2/3.3: move the schedule die by the lowest die; a week ends on or past Sunday."""
        d = s.day + s.low
        if d >= 7:
            w = s.week
            s.day = d - 7
            s.week += 1
            if not self._open_before_close(s, w):
                s.phase = REWARD
                s.aux = w
                return
        else:
            s.day = d
        self._enter_xp(s)

    def _open_before_close(self, s: Seat, w: int) -> int:
        """Unfilled items of article ``w``: zero means the article is complete."""
        return self.c.group_mask[w - 1] & ~s.items

    def _enter_xp(self, s: Seat) -> None:
        """MA-4.1..4.3: lowest die + day items filled before this turn (+ RESEARCHER)."""
        gm = self.c.group_mask[B.G_DAY0 + s.day]
        xp = s.low + (gm & s.items & ~s.turn_items).bit_count()
        if self._has(s, B.G_RESEARCHER) and not s.res_new:
            xp += 1
        s.phase = XP
        s.xp = xp

    def _fill_item(self, s: Seat, i: int) -> None:
        bit = 1 << i
        s.items |= bit
        s.turn_items |= bit
        g = self.c.items[i].group
        if g >= B.G_AB0 and self.c.group_mask[g] & ~s.items == 0:
            s.acq |= 1 << g  # MA-6.7
            if g == B.G_RESEARCHER:
                s.res_new = True  # MA-8.3

    def _record(self, s: Seat, w: int) -> None:
        """Fill the leftmost unfilled item of article ``w`` (RECORDING, PROMOTER)."""
        for i in self.c.first_article_item[w - 1]:
            if not s.items >> i & 1:
                self._fill_item(s, i)
                return

    def _fill_points(self, s: Seat, mask: int) -> None:
        """Fill points; count stars to spend (MA-6.4) and completed squares (MA-6.5)."""
        new = mask & ~s.pts
        if not new:
            return
        s.pts |= new
        s.pstar += (new & self.c.star_mask).bit_count()
        pts = s.pts
        for q in B.bits(new):
            for sq in B.SQ_OF_POINT[q]:
                if not s.sq >> sq & 1 and B.SQ_CORNERS[sq] & ~pts == 0:
                    s.sq |= 1 << sq
                    s.psq += 1

    def _apply_sub(self, s: Seat, a: Move) -> None:
        sub = s.sub
        if sub in (S_POS3, S_POS4):
            s.pos = a.a
            s.sub = S_NONE
        elif sub == S_POINT:
            s.sub = S_NONE
            self._fill_points(s, 1 << a.a)
        elif sub == S_PLOT3:
            s.aux -= 1
            self._fill_points(s, 1 << a.a)
            if s.aux <= 0:
                s.sub = S_NONE
                s.pos = -1
        elif sub == S_OPT:
            self._fill_item(s, a.a)
            s.sub = S_NONE
        else:  # S_STUDY
            if a.kind == "done":
                s.sub = S_NONE
                s.xp = 0
            else:
                s.xp -= self.c.items[a.a].value
                self._fill_item(s, a.a)

    def _use_ability(self, s: Seat, a: Move) -> None:
        k = a.kind
        dice = list(s.dice)
        s.used |= 1 << _ABILITY_OF[k]
        if k in _TWO_DICE:
            dice.remove(a.a)
            dice.remove(a.b)
        else:
            dice.remove(a.a)
        s.dice = tuple(dice)
        if k == "pos1":
            s.pos = B.major(a.a, a.b)
        elif k == "pos2":
            s.pos = B.major(a.a, a.a)
        elif k == "pos3":
            s.sub, s.aux = S_POS3, a.a
        elif k == "pos4":
            s.sub = S_POS4
        elif k == "plot1":
            m = self._plot1_mask(s, a.a, a.b)
            s.pos = -1
            self._fill_points(s, m)
        elif k == "plot2":
            m = self._plot2_mask(s, a.a)
            s.pos = -1
            self._fill_points(s, m)
        elif k == "plot3":  # MA-7.8: die-value points of the ring, one at a time
            centre = (1 << s.pos) if self._coord_centre(s) else 0
            self._fill_points(s, centre)
            empty = (B.RINGMASK[s.pos] & ~s.pts).bit_count()
            s.aux = min(a.a, empty)
            if s.aux > 0:
                s.sub = S_PLOT3
            else:
                s.pos = -1
        elif k == "plot4":
            m = B.BLOCK[s.pos]
            s.pos = -1
            self._fill_points(s, m)
        elif k == "plot5":
            s.sub = S_POINT
        elif k == "rec":
            self._record(s, a.b)
        elif k == "opt":
            s.sub = S_OPT
        else:  # study
            s.sub = S_STUDY
            s.xp = a.a

    def _settle(self, s: Seat) -> None:
        """Drop what cannot be paid, end steps that have nothing left, auto-advance."""
        while True:
            if s.sub == S_STUDY and not self._e_upto(s, s.xp):
                s.sub = S_NONE
                s.xp = 0
            if s.sub:
                return
            if s.pstar and not self.c.s_mask & self._open(s):
                s.pstar = 0  # MA-6.4 ruling: no star item left, the spend is lost
            if s.pstar:
                return
            if s.psq and not self._q_upto(s, s.psq):
                s.psq = 0  # MA-6.5 ruling: what cannot be paid is lost
            if s.psq:
                return
            if s.phase == START and not self._can_mentor(s) and not self._can_promote(s):
                self._advance(s)
                continue
            if s.phase == XP and not self._e_upto(s, s.xp):
                s.phase = ABIL
                s.xp = 0
            return

    # ------------------------------------------------------------------ scores
    def _completed(self, s: Seat, g: int) -> bool:
        return self.c.group_mask[g] & ~s.items == 0

    def _done_groups(self, s: Seat) -> int:
        """Bit g set for every group whose items are all filled."""
        items = s.items
        cache = self.c.done_cache
        done = cache.get(items)
        if done is None:
            done = 0
            for g, m in enumerate(self.c.group_mask):
                if m & ~items == 0:
                    done |= 1 << g
            B.remember(cache, items, done)
        return done

    def _parts(self, i: int) -> tuple[int, int, int, int, int, int]:
        """Seat ``i``'s score parts: region, stars, articles, publisher, headhunter, unique."""
        s = self.seats[i]
        c = self.c
        region = B.largest_region(s.sq)
        stars = (s.pts & c.star_mask).bit_count()
        arts = sum(c.article_points[w] for w in range(5) if s.claimed >> w & 1)
        done = self._done_groups(s)
        pub = 0
        if s.acq >> B.G_PUBLISHER & 1:  # MA-8.6
            pub = (done & _ARTICLES).bit_count() + 3 * (done & _DAYS).bit_count()
        head = 0
        if s.acq >> B.G_HEADHUNTER & 1:  # MA-8.7
            head = (s.acq >> B.G_AB0).bit_count()
        unique = 0
        if len(self.seats) > 1:  # MA-10.4: done by this seat and no other
            others = 0
            for j, t in enumerate(self.seats):
                if j != i:
                    others |= self._done_groups(t)
            unique = (done & ~others & _UNIQUE).bit_count()
        return region, stars, arts, pub, head, unique

    def _total(self, i: int) -> int:
        s = self.seats[i]
        # Everything _parts reads; the heuristic asks for totals far more often than they change.
        key = (i, s.sq, s.pts, s.claimed, s.acq, tuple(t.items for t in self.seats))
        cache = self.c.total_cache
        total = cache.get(key)
        if total is None:
            total = B.remember(cache, key, sum(self._parts(i)))
        return total

    def _breakdown(self, i: int) -> dict[str, float]:
        parts = self._parts(i)
        out: dict[str, float] = dict(zip(_PARTS, parts, strict=True))
        out["total"] = sum(parts)
        return out

    def score_breakdown(self) -> list[dict[str, float]]:
        return [self._breakdown(i) for i in range(len(self.seats))]

    def tiebreakers(self, seat: int) -> tuple[float, ...]:
        return ((self.seats[seat].pts & self.c.star_mask).bit_count(),)  # MA-10.5

    # ------------------------------------------------------------------ copying
    def _copy(self) -> MihiAnguliState:
        st = MihiAnguliState(self.g, True)
        # Spelled out: a search copies states constantly (``clone`` adds game and history).
        st.g = self.g
        st.c = self.c
        st.mv = self.mv
        st.seats = [s.copy() for s in self.seats]
        st.turn = self.turn
        return st

    def scratch(self) -> MihiAnguliState:
        """A copy without the move history, for the heuristic's look-ahead (nothing in the
        rules reads the history; copying hundreds of moves per trial step was the cost)."""
        return self.clone(history=False)

    # ------------------------------------------------------------------ what a seat knows
    def _log_secret(self, action: Action, player: int) -> LogSecret | None:
        # Every sheet is public (MA-10.3) and so are the dice: everyone reads every move.
        return None

    def seat_view(self, i: int) -> dict[str, Any]:
        s = self.seats[i]
        c = self.c
        return {
            "points": [B.point_name(q) for q in B.bits(s.pts)],
            "squares": B.bits(s.sq),
            "items": [c.items[j].label for j in B.bits(s.items)],
            "items_this_turn": [c.items[j].label for j in B.bits(s.turn_items)],
            "acquired": [c.group_names[g] for g in B.bits(s.acq)],
            "week": s.week,
            "day": "Saturday*" if s.day < 0 else B.DAY_SHORT[s.day],
            "dice": list(s.dice),
            "lowest": s.low,
            "used": s.used,
            "phase": PHASE_NAMES[s.phase],
            "choice": SUB_NAMES[s.sub],
            "aux": s.aux,
            "position": B.point_name(s.pos) if s.pos >= 0 else None,
            "experience": s.xp,
            "stars_to_spend": s.pstar,
            "squares_to_spend": s.psq,
            "claimed_points": [w + 1 for w in range(5) if s.claimed >> w & 1],
            "researcher_new": s.res_new,
        }

    def _view(self, player: int | None) -> dict[str, Any]:
        # Everything on the sheets is public (MA-10.3); only future dice are unknown.
        return {
            "turn": self.turn,
            "sheets": [self.seat_view(i) for i in range(len(self.seats))],
        }

    def check(self, action: Action, player: int) -> None:
        """Raise IllegalActionError (naming the rule) unless ``action`` is legal for ``player``."""
        if not self.is_legal(action, player):
            reason, rule = self.explain_illegal(action, player)
            raise IllegalActionError(reason, rule=rule)
