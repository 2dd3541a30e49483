"""Star Fire's presentation (``StarFireUI``, the game's ``GameUI``): the plain-text drawing of a
position, a sentence per action (the label of every choice) and the click targets of each choice
on the SVG board, which ``svg.py`` draws."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from nightsky.core.ui import GameUI, ScorePart, UIParts, seat_label
from nightsky.games.star_fire.actions import Act
from nightsky.games.star_fire.constants import (
    BUILD,
    DECKS,
    DISCARD,
    DISCARD_SF,
    DIVINE,
    DRAW,
    ELEMENT_SHORT,
    END,
    FISSION,
    GAMMA,
    JOIN,
    NEW,
    PH_PLAY,
    SETUP,
    SF_KINDS,
    STAR,
    STEAL,
    STOP,
    SUB_TRANSMUTE,
    SUB_WORMHOLE,
    TRANSMUTE,
    WILD,
    WORMHOLE,
)
from nightsky.games.star_fire.narrate import describe_entry
from nightsky.games.star_fire.svg import board_svg
from nightsky.games.star_fire.words import card_words

if TYPE_CHECKING:
    from nightsky.core.game import Action, State
    from nightsky.games.star_fire.state import StarFireState


def _el(s: StarFireState, c: int) -> str:
    C = s.C
    tag = "*" if s.wild >> c & 1 else ""
    return f"{C.name[c]}({C.units[c]}{ELEMENT_SHORT[C.element[c]]}{tag})"


class StarFireUI(GameUI):
    """Star Fire's presentation: text, the SVG board (``svg.py``), and each choice's label
    (``describe_action``, also used by the terminal's menu) and click targets."""

    parts = UIParts(board_svg=board_svg, describe_log_entry=describe_entry)

    def render(
        self, state: State, viewer: int | None = None, names: Sequence[str] | None = None
    ) -> str:
        """Decks, then per seat: hand (own cards or backs), nursery, systems, pile, score."""
        s = cast("StarFireState", state)
        names = names or self.seat_names()
        C = s.C
        nm = C.name
        v = s.view(viewer)
        lines = [f"Star Fire - round {s.round}, phase {v['phase']}"]
        decks = ", ".join(f"{d}: {v['decks'][d]['count']}" for d in DECKS)
        lines.append(f"Decks  {decks}; spent {len(s.spent)}"
                     + (" (out of play)" if s.reshuffled else "")
                     + f"; events used: {', '.join(v['events_used']) or '-'}")
        scores = s.scores()
        for q in range(s.n):
            mark = ">" if q == s.cur and s.phase == PH_PLAY and not s.queue else " "
            status = " ELIMINATED" if s.eliminated[q] else ""
            lines.append(f"{mark}{seat_label(names, q)}{status}  score {scores[q]:g}")
            if q == viewer:
                hand = " ".join(
                    f"{nm[c]}[{C.title[c]}]" + ("!" if c == s.free_star[q] else "")
                    for c in s.hands[q]
                )
            else:
                b = v["players"][q]["hand_backs"]
                hand = (f"{b['stars']} star, {b['planets']} planet, {b['moons']} moon, "
                        f"{b['star_fire']} star fire")
            lines.append(f"   hand     {hand or '-'}")
            lines.append(f"   nursery  {' '.join(_el(s, c) for c in s.nursery[q]) or '-'}")
            for stars, planets, loose in s.systems[q]:
                parts = ["+".join(f"<{nm[x]} {C.title[x]}>" for x in stars)]
                for p in planets:
                    moons = s.moons_on[p]
                    lim = C.moon_limit[p]
                    hosted = (" " + " ".join(nm[m] for m in moons)) if moons else ""
                    parts.append(f"({nm[p]} {C.title[p]} {len(moons)}/{lim}{hosted})")
                if loose:
                    parts.append("free moons " + " ".join(nm[m] for m in loose))
                lines.append("   system   " + " - ".join(parts))
            if s.pile[q]:
                lines.append(f"   pile     {len(s.pile[q])} star fire")
            if s.fission[q]:
                lines.append(f"   fission  loses {s.fission[q]} action(s) next turn")
        if s.phase == PH_PLAY and not s.queue:
            extra = {SUB_WORMHOLE: " (Worm Hole: steal or stop)",
                     SUB_TRANSMUTE: " (Transmutation: wild or stop)"}
            lines.append(f"{seat_label(names, s.cur)} to act: {s.actions_left} action(s) left"
                         + extra.get(s.sub, ""))
        return "\n".join(lines)

    def score_parts(self, state: State) -> list[ScorePart]:
        """The score's sources in words (SF-6)."""
        return [
            ScorePart("bodies", "Stars, planets and moons built (5 / 3 / 1 each)"),
            ScorePart("system_bonus", "Star bonuses"),
            ScorePart("moon_bonus", "Moon bonuses of planets"),
            ScorePart("star_fire", "Star Fire cards played (1 each)"),
            ScorePart("elements", "Elements left in the nursery (1 each)"),
            ScorePart("largest_system", "Largest system (3)"),
            ScorePart("most_systems", "Most complete systems (3)"),
            ScorePart("largest_nebula", "Largest nebula (3)"),
        ]

    def describe_action(
        self, state: State, action: Action, player: int, names: Sequence[str] | None = None
    ) -> str:
        s = cast("StarFireState", state)
        a = action
        C = s.C
        nm, tt = C.name, C.title
        if not isinstance(a, Act):
            return str(a)
        k = a.kind
        if k == SETUP:
            return "place your dealt Star now" if a.a else "keep your dealt Star in hand"
        if k == DRAW:
            return f"draw a card from the {DECKS[a.a]} deck"
        if k in (BUILD, DIVINE):
            how = "with Divine Intervention" if k == DIVINE else "paying elements"
            if C.cat[a.a] == STAR and a.b == NEW:
                where = "as a new system"
            elif C.cat[a.a] == STAR:
                where = f"linked to {tt[a.b]}"
            elif a.b in C.planets:
                where = f"orbiting {tt[a.b]}"
            else:
                where = f"in the system of {tt[a.b]}"
            return f"build {tt[a.a]} ({nm[a.a]}) {where}, {how}"
        if k == WORMHOLE:
            return "play Worm Hole: steal up to 3 element units"
        if k == STEAL:
            return f"steal {card_words(C, a.a)}"
        if k in (STOP, END):
            return "stop here" if k == STOP else "end the turn"
        if k == FISSION:
            return f"play Nuclear Fission on {seat_label(names or [], a.a)}"
        if k == GAMMA:
            return f"play Gamma Ray Burst on {tt[a.a]} ({nm[a.a]})"
        if k == TRANSMUTE:
            return "play Transmutation: make up to 2 elements wild"
        if k == WILD:
            return f"make {card_words(C, a.a)} wild"
        if k == DISCARD:
            return f"discard {card_words(C, a.a)} to the bottom of its deck (2 actions)"
        if k == DISCARD_SF:
            return f"discard a {SF_KINDS[a.a]} card (2 actions)"
        if k == JOIN:  # SF-6.2: free, so the label says so
            first, second = s.system_of(player, a.a), s.system_of(player, a.b)
            stars = len(first[0]) + len(second[0]) if first and second else 0
            kind = {2: "binary ", 3: "tertiary "}.get(stars, "")
            return (f"make one {kind}system of your systems of {tt[a.a]} ({nm[a.a]}) and "
                    f"{tt[a.b]} ({nm[a.b]}), free (no action)")
        return str(a)

    def action_targets(self, state: State, action: Action, player: int) -> list[str]:
        """Targets: ``deck:<name>``, ``card:<code>``, ``system:<seat>:<star>``, ``systems:<seat>``
        (a new system), ``seat:<n>``, ``hand:<seat>:<Star Fire kind>``; ``button:<notation>`` for
        the choices the client lists as buttons (stop, end, keep). ``svg.py`` draws them all."""
        s = cast("StarFireState", state)
        a = action
        nm = s.C.name
        targets: list[str] = []
        if isinstance(a, Act):
            k = a.kind
            if k == DRAW:
                targets = [f"deck:{DECKS[a.a]}"]
            elif k in (BUILD, DIVINE):
                targets = [f"card:{nm[a.a]}"]
                if k == DIVINE:  # the Star Fire card played tells it apart from paying
                    targets.append(f"hand:{player}:divine")
                if a.b == NEW:
                    targets.append(f"systems:{player}")
                elif a.b in s.C.planets:
                    targets.append(f"card:{nm[a.b]}")
                else:
                    targets.append(f"system:{player}:{nm[a.b]}")
            elif k in (STEAL, WILD, GAMMA, DISCARD):
                targets = [f"card:{nm[a.a]}"]
            elif k == FISSION:
                targets = [f"seat:{a.a}"]
            elif k == DISCARD_SF:
                targets = [f"hand:{player}:{SF_KINDS[a.a]}"]
            elif k in (WORMHOLE, TRANSMUTE):
                targets = [f"hand:{player}:{'wormhole' if k == WORMHOLE else 'transmute'}"]
            elif k == SETUP and a.a and s.free_star[player] >= 0:
                # placing the dealt Star founds a new system with it (SF-2.3)
                targets = [f"card:{nm[s.free_star[player]]}", f"systems:{player}"]
            elif k == JOIN:  # the two systems, each by its first Star (SF-6.2)
                targets = [f"system:{player}:{nm[a.a]}", f"system:{player}:{nm[a.b]}"]
            elif k in (STOP, END, SETUP):
                targets = ["button:" + str(a)]
        return targets
