"""Light updates: what changed in a viewer's view from one version to the next, so a socket
that asked for them (``"patches": true`` in its hello) is sent that instead of the whole view.

A patch names the version it applies to (``base``) and the one it makes (``version``):
``set`` holds every top-level section that changed but the board and the log, ``drop`` the
sections gone; ``log`` the lines added (``{"from": n, "add": [...]}``: the first ``n`` lines
stay) when the old log is a prefix of the new one (else the whole log is in ``set``); ``svg``
the board's changed stretches as ``[start, end, text]`` over the old board's tokens (a token is
a tag or the text between tags: ``TOKEN``), replacing tokens ``start``..``end - 1`` with
``text``. ``apply_patch`` is the client's rule, written here once more for the tests.
Nothing here knows a game: views are compared as JSON values.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

TOKEN = re.compile(r"<[^<]*|[^<]+")
"""A board token: a tag with the text after it up to the next tag, or text before the first
(the client splits with the same pattern: ``web/js/patch.js``)."""
RESYNC = 40
"""How far (in tokens, both boards together) the nearest agreement is looked for before an
index of the old board's token pairs is asked."""


def tokens(svg: str) -> list[str]:
    """The board's tokens; joined, they are the board again."""
    return TOKEN.findall(svg)


def svg_hunks(old: str, new: str) -> list[list[Any]]:
    """The changed stretches of the board: ``[start, end, text]`` replaces old tokens
    ``start``..``end - 1`` with ``text``. A greedy walk: where the boards part, the nearest
    place where two tokens in a row agree again ends the stretch (linear time in practice)."""
    a, b = tokens(old), tokens(new)
    out: list[list[Any]] = []
    pairs: dict[tuple[str, str], list[int]] | None = None  # built on the first far change
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            i, j = i + 1, j + 1
            continue
        step = _resync(a, b, i, j)
        if step is None:
            if pairs is None:
                pairs = {}
                for x in range(len(a) - 1):
                    pairs.setdefault((a[x], a[x + 1]), []).append(x)
            step = _anchor(pairs, b, i, j)
        if step is None:
            break
        di, dj = step
        out.append([i, i + di, "".join(b[j : j + dj])])
        i, j = i + di, j + dj
    if i < len(a) or j < len(b):
        out.append([i, len(a), "".join(b[j:])])
    return out


def _resync(a: list[str], b: list[str], i: int, j: int) -> tuple[int, int] | None:
    """The fewest tokens to skip (old, new) after which the boards agree for two tokens (or
    to the end of either); None beyond ``RESYNC``."""
    for k in range(1, RESYNC):
        for di in range(k + 1):
            x, y = i + di, j + k - di
            if not (x < len(a) and y < len(b) and a[x] == b[y]):
                continue
            if x + 1 >= len(a) or y + 1 >= len(b) or a[x + 1] == b[y + 1]:
                return di, k - di
    return None


def _anchor(
    pairs: dict[tuple[str, str], list[int]], b: list[str], i: int, j: int
) -> tuple[int, int] | None:
    """Past a far change: the first place of the new board from ``j`` on whose two tokens in a
    row stand in the old board at ``i`` or after (the nearest such); None when none does."""
    for y in range(j, len(b) - 1):
        where = pairs.get((b[y], b[y + 1]))
        if where:
            k = bisect.bisect_left(where, i)
            if k < len(where):
                return where[k] - i, y - j
    return None


def view_patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The patch that turns the viewer's view ``old`` into ``new``."""
    patch: dict[str, Any] = {"base": old["version"], "version": new["version"], "set": {}}
    for key, value in new.items():
        if key in ("svg", "log") or old.get(key) == value:
            continue
        patch["set"][key] = value
    patch["drop"] = [k for k in old if k not in new]
    before, after = old.get("log") or [], new.get("log") or []
    if after[: len(before)] == before:
        if len(after) > len(before):
            patch["log"] = {"from": len(before), "add": after[len(before) :]}
    else:
        patch["set"]["log"] = after
    if old.get("svg") != new.get("svg"):
        if isinstance(old.get("svg"), str) and isinstance(new.get("svg"), str):
            patch["svg"] = svg_hunks(old["svg"], new["svg"])
        else:
            patch["set"]["svg"] = new.get("svg")
    return patch


def apply_patch(old: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any] | None:
    """``old`` with ``patch`` applied (None when the patch is for another version): what the
    web client does with a ``patch`` message."""
    if old.get("version") != patch["base"]:
        return None
    out = {k: v for k, v in old.items() if k not in patch["drop"]}
    out.update(patch["set"])
    if "log" in patch:
        out["log"] = list(old.get("log") or [])[: patch["log"]["from"]] + patch["log"]["add"]
    if "svg" in patch:
        a = tokens(old["svg"])
        parts: list[str] = []
        at = 0
        for start, end, text in patch["svg"]:
            parts += [*a[at:start], text]
            at = end
        out["svg"] = "".join([*parts, *a[at:]])
    return out
