"""Starlight's log in words (``StarlightUI.describe_log_entry``): the pools' refills told once
per refill, not draw by draw; Laurels and Gods dealt face down; each Starbot card turned over
with what it does (SL-14); the end of the game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from nightsky.core.game import CHANCE
from nightsky.core.ui import seat_label

from .actions import Draw
from .constants import D_CORE, D_FLARE, D_GOD, D_LAUREL, D_LONG, D_SB, D_SHORT
from .labels import space_words

if TYPE_CHECKING:
    from .state import StarlightState


def describe_entry(
    before: StarlightState,
    after: StarlightState,
    index: int,
    viewer: int | None,
    names: Sequence[str],
    move: Callable[[], list[str]],
) -> list[str]:
    """Entry ``index`` for ``viewer``; ``move`` tells a player's move (the default wording)."""
    seat, action = after.history[index]
    out: list[str] = []
    if seat != CHANCE:
        out = move()
    elif type(action) is Draw and action.kind == D_SB:
        out = [_starbot(after, before.turn, action.value, names)]
    elif type(action) is Draw and not after.pending:  # the last draw of a refill or deal
        out.extend(_refills(after, index))
    if after.is_terminal() and not before.is_terminal():
        out.append("The game is over: every Laurel is revealed and the points are counted.")
    return out


_POOL_WORDS = {"cores": ("Core", "Cores"), "long": ("long ray", "long rays"),
               "short": ("short ray", "short rays"), "flares": ("Flare", "Flares")}


def _starbot(after: StarlightState, seat: int, card_i: int, names: Sequence[str]) -> str:
    t = after.t
    card = t.data.starbots[card_i]
    who = seat_label(names, seat)
    # The Starbot cards print no number: the card is told by what it does.
    head = f"{who} turns over a Starbot card"
    if card.action == "refresh":
        return f"{head}: Refresh! Every pool is flushed and the Starbot deck is made whole."
    if card.action == "launch":
        what = f"launches a {card.size} star from {space_words(t, card.space)}"
    else:
        one, many = _POOL_WORDS.get(card.action, (card.action, card.action))
        what = f"takes the first {one if card.count == 1 else f'{card.count} {many}'}"
    return f"{head}: it {what} and scores {card.np} night points."


def _refills(after: StarlightState, index: int) -> list[str]:
    """The run of draws that ends at ``index``, told in one or two lines."""
    t = after.t
    cores: list[str] = []
    rays: list[str] = []
    flares: list[str] = []
    dealt = {D_LAUREL: 0, D_GOD: 0}
    i = index
    while i >= 0 and after.history[i][0] == CHANCE:
        d = after.history[i][1]
        if type(d) is not Draw or d.kind == D_SB:
            break
        if d.kind == D_CORE:
            cores.append(t.core_ids[d.value])
        elif d.kind in (D_LONG, D_SHORT):
            rays.append(f"{'long' if d.kind == D_LONG else 'short'} {t.colors[d.value]}")
        elif d.kind == D_FLARE:
            flares.append(t.flare_ids[d.value])
        else:
            dealt[d.kind] += 1
        i -= 1
    out = []
    parts = []
    if cores:
        parts.append("Cores " + ", ".join(reversed(cores)))
    if rays:
        parts.append("rays " + ", ".join(reversed(rays)))
    if flares:
        parts.append("Flares " + ", ".join(reversed(flares)))
    if parts:
        out.append("The pools are refilled: " + "; ".join(parts) + ".")
    if dealt[D_LAUREL]:
        out.append(f"{dealt[D_LAUREL]} Laurel cards are dealt face down.")
    if dealt[D_GOD]:
        out.append(f"{dealt[D_GOD]} God cards are dealt face down.")
    return out
