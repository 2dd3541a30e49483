"""Text drawing of every sheet, and the labels and click targets of actions for clients
(``ui.MihiAnguliUI`` serves them; the SVG board is ``svg.py``).

Star map legend: ``o`` empty major, ``O`` filled major, ``.`` empty minor, ``+`` filled minor,
``*`` empty star, ``#`` filled star; ``%`` between four points marks a filled square.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from nightsky.core.ui import seat_label
from nightsky.games.mihi_anguli import board as B
from nightsky.games.mihi_anguli.actions import Move
from nightsky.games.mihi_anguli.constants import PHASE_NAMES, S_STUDY, SUB_NAMES, XP, rank_name
from nightsky.games.mihi_anguli.words import item_words

if TYPE_CHECKING:
    from nightsky.games.mihi_anguli.state import MihiAnguliState, Seat


def _map_lines(st: MihiAnguliState, s: Seat) -> list[str]:
    star = st.c.star_mask
    head = "     " + "".join(
        (str((i + 1) // 2) if i % 2 == 1 else " ") + " " for i in range(B.N)
    )
    lines = [head.rstrip()]
    for r in range(B.N):
        label = f"{(r + 1) // 2:>3}  " if r % 2 == 1 else "     "
        row = []
        for col in range(B.N):
            q = B.pidx(col, r)
            filled = s.pts >> q & 1
            if B.is_major(q):
                ch = "O" if filled else "o"
            elif star >> q & 1:
                ch = "#" if filled else "*"
            else:
                ch = "+" if filled else "."
            if q == s.pos:
                ch = "@"
            row.append(ch)
            if col < B.N - 1:
                row.append(" ")
        lines.append(label + "".join(row))
        if r < B.N - 1:
            between = []
            for col in range(B.N):
                between.append(" ")
                if col < B.N - 1:
                    between.append("%" if s.sq >> (r * 12 + col) & 1 else " ")
            lines.append("     " + "".join(between).rstrip())
    lines.append("     o/O major  ./+ minor  */# star  (empty/filled)  % square  @ positioned")
    return lines


def _items_lines(st: MihiAnguliState, s: Seat) -> list[str]:
    c = st.c
    out = []
    for g in range(B.NGROUPS):
        cells = []
        for i in B.bits(c.group_mask[g]):
            it = c.items[i]
            code = it.kind + (str(it.value) if it.kind != "S" else "")
            mark = "x" if s.items >> i & 1 else " "
            cells.append(f"[{mark}]{code}")
        name = c.group_names[g]
        extra = ""
        if g < 5:
            w = g + 1
            extra = f"  => {c.article_points[g]} pts | 1 point"
            if s.claimed >> g & 1:
                extra += "  (points claimed)"
            elif w < s.week:
                extra += "  (closed)"
            if w == s.week:
                extra += "  < this week"
        elif g < B.G_AB0:
            if g - B.G_DAY0 == s.day or (s.day < 0 and g - B.G_DAY0 == 6):
                extra = "  < today"
        elif g >= B.G_AB0 and s.acq >> g & 1:
            extra = "  ACQUIRED"
        if g in (0, B.G_DAY0, B.G_AB0, B.G_SUP0):
            out.append(["Articles", "Schedule wheel", "Abilities", "Supporters"][
                (0, B.G_DAY0, B.G_AB0, B.G_SUP0).index(g)] + ":")
        label = c.group_short[g] if g < B.G_AB0 else f"{c.group_short[g]:<10} {name:<15}"
        out.append(f"  {label:<10} {' '.join(cells)}{extra}")
    return out


def render(
    st: MihiAnguliState, viewer: int | None = None, names: Sequence[str] | None = None
) -> str:
    """Every sheet as text, the viewer's first; ``names``: each seat's name."""
    parts = []
    scores = st.scores()
    order = list(range(len(st.seats)))
    if viewer is not None and 0 <= viewer < len(order):
        order.remove(viewer)
        order.insert(0, viewer)
    for i in order:
        s = st.seats[i]
        day = "Saturday (MENTOR)" if s.day < 0 else B.DAY_SHORT[s.day]
        score = scores[i]
        rank = f" ({rank_name(score)})" if len(st.seats) == 1 else ""
        parts.append(f"== {seat_label(names or [], i)}: score {score:g}{rank} ==")
        head = (f"   week {min(s.week, 6)}, {day}, dice {' '.join(map(str, s.dice)) or '-'}, "
                f"{PHASE_NAMES[s.phase]}")
        if s.sub:
            head += f" / {SUB_NAMES[s.sub]}"
        if s.phase == XP or s.sub == S_STUDY:
            head += f" ({s.xp} to spend)"
        if s.pstar:
            head += f", stars to spend {s.pstar}"
        if s.psq:
            head += f", squares to spend {s.psq}"
        parts.append(head)
        parts += _map_lines(st, s)
        parts += _items_lines(st, s)
    return "\n".join(parts)


def describe(st: MihiAnguliState, action: Any, player: int) -> str:
    """The label of an action in menus and on the board (its notation, spelled out where the
    notation is terse: items, points, PLOTTING I's layouts)."""
    if not isinstance(action, Move):
        return str(action)
    k = action.kind
    if k == "fill":
        it = st.c.items[action.a]
        return f"fill {item_words(st.c.group_names[it.group], it)}"
    if k == "at":
        return f"choose point {B.point_name(action.a)}"
    if k == "plot1":
        for kk, ring, centre in B.LAYOUTS[action.a]:
            if kk == action.b:
                grid = [["o" if centre else "."] * 1]
                cells = ["."] * 8
                for i in ring:
                    cells[i] = "o"
                grid = [cells[0:3], [cells[7], "o" if centre else ".", cells[3]],
                        [cells[6], cells[5], cells[4]]]
                pic = "/".join("".join(r) for r in grid)
                return f"use PLOTTING I with die {action.a}, layout {pic}"
    a, b = action.a, action.b
    words = {
        "pos1": f"use POSITIONING I: dice {a} and {b} pick the major point {a},{b}",
        "pos2": f"use POSITIONING II: die {a} picks the major point {a},{a}",
        "pos3": f"use POSITIONING III: die {a} picks a major point with a coordinate {a}",
        "pos4": f"use POSITIONING IV: dice {a} and {b} pick any major point",
        "plot2": f"use PLOTTING II with die {a}: both layouts of its pips",
        "plot3": f"use PLOTTING III with die {a}: {a} points around the major point",
        "plot4": f"use PLOTTING IV with dice {a} and {b}: the major point and the eight around it",
        "plot5": f"use PLOTTING V with dice {a} and {b}: any one empty point",
        "rec": f"use RECORDING with die {a}: the next box of the Week {b} article",
        "opt": f"use OPTIMIZING with die {a}: one star or squares item",
        "study": f"use STUDYING with die {a}: spend {a} experience",
        "go": "advance on the schedule",
        "mentor": "MENTOR: move the schedule die back one day first",
        "promote": f"PROMOTER: fill the leftmost box of the Week {a} article",
        "claim": "circle the article's reward: its points"
        if a == 0
        else "circle the article's reward: fill a point of the map",
        "done": "stop spending experience",
        "end": "end the turn",
    }
    return words.get(k, str(action))


def action_targets(st: MihiAnguliState, action: Any, player: int) -> list[str]:
    """The ids of ``svg.board_svg`` a click on which chooses ``action``: ``p{seat}-pt-x,y``
    (map points), ``p{seat}-item-LABEL``, ``p{seat}-ab-NAME``, ``p{seat}-die-V`` (an ability
    die), ``p{seat}-end``."""
    if not isinstance(action, Move):
        return []
    pre = f"p{player}-"
    k = action.kind
    t: list[str]
    if k == "fill":
        t = [pre + "item-" + st.c.items[action.a].label]
    elif k == "at":
        t = [pre + "pt-" + B.point_name(action.a)]
    elif k == "pos1":
        t = [pre + "pt-" + B.point_name(B.major(action.a, action.b)), pre + "ab-POS1"]
    elif k in ("go", "done", "end", "claim", "mentor"):
        t = [pre + k + (str(action.a) if k == "claim" else "")]
    elif k == "promote":
        t = [pre + f"item-W{action.a}"]
    else:
        name = {"pos2": "POS2", "pos3": "POS3", "pos4": "POS4", "plot1": "PLOT1",
                "plot2": "PLOT2", "plot3": "PLOT3", "plot4": "PLOT4", "plot5": "PLOT5",
                "rec": "REC", "opt": "OPT", "study": "STUDY"}[k]
        t = [pre + "ab-" + name, pre + f"die-{action.a}"]
    return t
