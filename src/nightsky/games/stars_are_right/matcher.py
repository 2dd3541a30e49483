"""Constellation matching on the 5x5 sky with bitboards.

The sky is seen as one bitmask per face (bit ``r*5+c`` set when the tile at row r, column c
shows that face). A constellation in one orientation is a ``Shape``: its star cells as
``(offset, face)`` with ``offset = dr*5+dc`` from the anchor (top-left corner of its box), plus
the mask of anchors where the whole box fits. The anchors where the shape matches are then
``valid & (mask[f1] >> o1) & (mask[f2] >> o2) & ...``: one shift-and per star, every anchor at
once. A creature needs all its constellations on disjoint tiles (TSAR-6.2): a small backtracking
over the placements of each constellation, the one with the fewest placements first.

Orientations are the rotations by 0/90/180/270 degrees (TSAR-6.3), and the mirror images when the
``mirror`` option is on. Dark cells are wild and are not part of the shape (TSAR-6.4), but the
box of the printed card (dark cells included) must fit in the sky.
"""

from __future__ import annotations

from collections.abc import Sequence

FULL = (1 << 25) - 1

Cells = tuple[tuple[int, int, int], ...]  # (row, col, face)


class Shape:
    """One orientation of one constellation."""

    __slots__ = ("stars", "valid", "bits", "cells", "offs", "faces")

    def __init__(self, h: int, w: int, cells: Cells) -> None:
        self.cells = cells
        self.stars = tuple((r * 5 + c, f) for r, c, f in cells)
        # The stars again as two flat int lists: what ``anchors`` reads in its loop.
        self.offs: list[int] = [off for off, _ in self.stars]
        self.faces: list[int] = [f for _, f in self.stars]
        self.bits = 0
        for off, _ in self.stars:
            self.bits |= 1 << off
        valid = 0
        for r in range(6 - h):
            for c in range(6 - w):
                valid |= 1 << (r * 5 + c)
        self.valid = valid

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled with the game (the server's thinking processes), compiled or not.
        return (_shape, (self.cells, self.valid))

    def anchors(self, masks: list[int]) -> int:
        """Bitmask of anchors where this shape shows in the sky (``masks``: per face, the
        positions showing it)."""
        a = self.valid
        offs = self.offs
        faces = self.faces
        for i in range(len(offs)):
            a &= masks[faces[i]] >> offs[i]
            if not a:
                return 0
        return a


def _shape(cells: Cells, valid: int) -> Shape:
    shape = Shape(1, 1, cells)
    shape.valid = valid
    return shape


def orientations(h: int, w: int, cells: Cells, mirror: bool) -> list[Shape]:
    """The distinct shapes of a constellation under rotation (and mirroring when allowed)."""
    out: list[Shape] = []
    seen: set[tuple[int, int, frozenset[tuple[int, int, int]]]] = set()
    variants = [(h, w, cells)]
    if mirror:
        variants.append((h, w, tuple((r, w - 1 - c, f) for r, c, f in cells)))
    for vh, vw, vc in variants:
        ch, cw, cc = vh, vw, vc
        for _ in range(4):
            key = (ch, cw, frozenset(cc))
            if key not in seen:
                seen.add(key)
                out.append(Shape(ch, cw, tuple(sorted(cc))))
            # Rotate by 90 degrees clockwise: (r, c) -> (c, h-1-r).
            cc = tuple((c, ch - 1 - r, f) for r, c, f in cc)
            ch, cw = cw, ch
    return out


def placements(shapes: list[Shape], masks: list[int]) -> list[int]:
    """Distinct tile masks (the star cells only) where one of ``shapes`` shows."""
    out: list[int] = []
    for s in shapes:
        a = s.anchors(masks)
        while a:
            low = a & -a
            pm = s.bits * low  # shift the shape's star bits to this anchor
            if pm not in out:
                out.append(pm)
            a ^= low
    return out


def find(cons: list[list[Shape]], masks: list[int], used: int = 0) -> list[int] | None:
    """Disjoint placements of every constellation (in the given order), or None.

    The first solution of a fixed search order is returned, so the answer is deterministic.
    """
    if len(cons) == 1:  # the first placement clear of ``used``, without listing the others
        for s in cons[0]:
            a = s.anchors(masks)
            while a:
                low = a & -a
                pm = s.bits * low
                if not pm & used:
                    return [pm]
                a ^= low
        return None
    for shapes in cons:  # most skies miss some constellation: say so before listing any
        for s in shapes:
            if s.anchors(masks):
                break
        else:
            return None
    lists = []
    for shapes in cons:
        pl = [p for p in placements(shapes, masks) if not p & used]
        if not pl:
            return None
        lists.append(pl)
    if len(lists) == 1:
        return [lists[0][0]]
    order = sorted(range(len(lists)), key=lambda i: len(lists[i]))
    chosen = [0] * len(lists)
    return chosen if _choose(lists, order, chosen, 0, used) else None


def _choose(lists: list[list[int]], order: list[int], chosen: list[int], k: int,
            taken: int) -> bool:
    """``find``'s backtracking: a placement for the ``k``-th constellation of ``order`` and
    the rest clear of ``taken``, written into ``chosen``. A module function, not a closure:
    a recursive closure is a reference cycle (function and its environment), left for the
    cyclic collector at every call."""
    if k == len(order):
        return True
    i = order[k]
    for p in lists[i]:
        if not p & taken:
            chosen[i] = p
            if _choose(lists, order, chosen, k + 1, taken | p):
                return True
    return False


def face_masks(faces: Sequence[int], nfaces: int = 14) -> list[int]:
    """Per face, the bitmask of sky positions showing it."""
    masks = [0] * nfaces
    for pos, f in enumerate(faces):
        masks[f] |= 1 << pos
    return masks


def cells_of(mask: int) -> list[int]:
    """Positions (0..24) of the set bits."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
