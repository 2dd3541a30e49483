"""Light updates: what changed in a viewer's view from one version to the next, so a socket
that asked for them (``"patches": true`` in its hello) is sent that instead of the whole view.

A patch names the version it applies to (``base``) and the one it makes (``version``):
``set`` holds the top-level sections that are new (or cheaper whole), ``drop`` the sections
gone, ``diff`` an edit per changed section (``DIFF``), and ``log`` the lines added
(``{"from": n, "add": [...]}``: the first ``n`` lines stay) when the old log is a prefix of the
new one (else the log is edited like any section). ``apply_patch`` is the client's rule
(``web/js/patch.js``), written here once more for the tests. Nothing here knows a game: views
are compared as JSON values, so a sixth game's view is patched without a change here.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Sequence
from typing import Any

import orjson

DIFF = """An edit turns an old JSON value into a new one; it is one of
``{"v": new}`` (the new value whole), ``{"o": {key: edit}, "x": [keys dropped]}`` (an object
edited key by key; a new key's edit is ``{"v": ...}``), ``{"i": [[index, edit], ...]}`` (a
list of the same length edited item by item), ``{"m": [pieces]}`` (a list of another length
rebuilt from pieces of the old one: ``_list_pieces``) or ``{"s": [[kept, cut, text], ...]}``
(a string edited hunk by hunk: after ``kept`` old characters from the end of the hunk before,
``cut`` old characters are replaced by ``text``; ``text`` may be a list of pieces, strings and
``[s, e]`` for the old characters ``s``..``e - 1``: ``str_hunks``)."""

TOKEN = re.compile(r"<[^<\n]*\n?|[^<\n]+\n?|\n")
"""A string token: a tag, or the text up to the next tag or line end (a board's tags and a
text board's lines then line up). Offsets sent are in characters of the old string."""
FINE = re.compile(r"-?\d+(?:\.\d+)?|[^\d-]+|-")
"""A finer token for long changed stretches: a number, or the text between numbers."""
RESYNC = 40
"""How far (in tokens, both strings together) the nearest agreement is looked for before an
index of the old string's token pairs is asked."""
SMALL = 48
"""A string or list this short (in JSON bytes) is sent whole rather than edited."""
COPY = 120
"""A run of new text at least this long (in characters) that stands in the old string is sent
as a reference to it."""
EARLIER = 4
"""How many views before the last one a patch may edit a section from (the client keeps as
many: ``web/js/patch.js``)."""
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")  # JavaScript counts these as two characters


def tokens(text: str) -> list[str]:
    """The string's tokens; joined, they are the string again."""
    return TOKEN.findall(text)


def _token_hunks(a: list[str], b: list[str]) -> list[tuple[int, int, int, int]]:
    """The changed stretches ``(i0, i1, j0, j1)``: old tokens ``i0..i1-1`` become new tokens
    ``j0..j1-1``. A greedy walk: where the two part, the nearest place where two tokens in a
    row agree again ends the stretch (linear time in practice)."""
    out: list[tuple[int, int, int, int]] = []
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
        out.append((i, i + di, j, j + dj))
        i, j = i + di, j + dj
    if i < len(a) or j < len(b):
        out.append((i, len(a), j, len(b)))
    return out


def _resync(a: list[str], b: list[str], i: int, j: int) -> tuple[int, int] | None:
    """The fewest tokens to skip (old, new) after which the two agree for two tokens (or to
    the end of either); None beyond ``RESYNC``."""
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
    """Past a far change: the first place of the new string from ``j`` on whose two tokens in
    a row stand in the old one at ``i`` or after (the nearest such); None when none does."""
    for y in range(j, len(b) - 1):
        where = pairs.get((b[y], b[y + 1]))
        if where:
            k = bisect.bisect_left(where, i)
            if k < len(where):
                return where[k] - i, y - j
    return None


def str_hunks(old: str, new: str) -> list[list[Any]]:
    """The edit of a string: ``[start, end, text]`` replaces the old characters
    ``start``..``end - 1`` with ``text``; each stretch found over tokens is trimmed to the
    characters that differ (a changed attribute costs its value, not its whole tag). Where a
    long run of the new text stands elsewhere in the old (a group drawn in another place), the
    text is a list of pieces: strings, and ``[s, e]`` for the old characters ``s``..``e - 1``."""
    a, b = tokens(old), tokens(new)
    at_a = [0]
    for t in a:
        at_a.append(at_a[-1] + len(t))
    at_b = [0]
    for t in b:
        at_b.append(at_b[-1] + len(t))
    where: dict[tuple[str, str], list[int]] | None = None
    out: list[list[Any]] = []
    for i0, i1, j0, j1 in _token_hunks(a, b):
        if at_b[j1] - at_b[j0] > COPY:
            if where is None:
                where = {}
                for x in range(len(a) - 1):
                    where.setdefault((a[x], a[x + 1]), []).append(x)
            pieces = _copies(a, b, at_a, j0, j1, where)
            if any(isinstance(p, list) for p in pieces):
                out.append([at_a[i0], at_a[i1], pieces])
                continue
        if i1 - i0 == j1 - j0:  # token for token (a group redrawn elsewhere): each trimmed
            out += [_trimmed(old, new, at_a[i0 + k], at_a[i0 + k + 1], at_b[j0 + k],
                             at_b[j0 + k + 1]) for k in range(i1 - i0) if a[i0 + k] != b[j0 + k]]
        else:
            out += _finer(old, new, at_a[i0], at_a[i1], at_b[j0], at_b[j1])
    return out


def _finer(old: str, new: str, s: int, e: int, t0: int, t1: int) -> list[list[Any]]:
    """The hunks that turn ``old[s:e]`` into ``new[t0:t1]``: one trimmed stretch, or where it
    is long, the stretches found over numbers and the text between them (shapes redrawn at
    another size keep their tags: only the numbers change), whichever is shorter."""
    one = [_trimmed(old, new, s, e, t0, t1)]
    if len(one[0][2]) < COPY:
        return one
    a, b = FINE.findall(old[s:e]), FINE.findall(new[t0:t1])
    at_a, at_b = [s], [t0]
    for t in a:
        at_a.append(at_a[-1] + len(t))
    for t in b:
        at_b.append(at_b[-1] + len(t))
    many = [_trimmed(old, new, at_a[i0], at_a[i1], at_b[j0], at_b[j1])
            for i0, i1, j0, j1 in _token_hunks(a, b)]
    return many if len(orjson.dumps(many)) < len(orjson.dumps(one)) else one


def _trimmed(old: str, new: str, s: int, e: int, t0: int, t1: int) -> list[Any]:
    """The hunk that turns ``old[s:e]`` into ``new[t0:t1]``, less the characters they share at
    either end."""
    while s < e and t0 < t1 and old[s] == new[t0]:
        s, t0 = s + 1, t0 + 1
    while s < e and t0 < t1 and old[e - 1] == new[t1 - 1]:
        e, t1 = e - 1, t1 - 1
    return [s, e, new[t0:t1]]


def _copies(
    a: list[str], b: list[str], at_a: list[int], j0: int, j1: int,
    where: dict[tuple[str, str], list[int]],
) -> list[Any]:
    """New tokens ``j0``..``j1 - 1`` as pieces: literal text, or ``[s, e]`` where a run of them
    at least ``COPY`` characters long stands in the old string (the longest of a few places)."""
    pieces: list[Any] = []
    text: list[str] = []
    y = j0
    while y < j1:
        best, at = 0, 0
        for x in where.get((b[y], b[y + 1]), [])[:8] if y + 1 < j1 else []:
            k = 0
            while y + k < j1 and x + k < len(a) and a[x + k] == b[y + k]:
                k += 1
            if k > best:
                best, at = k, x
        if best >= 2 and at_a[at + best] - at_a[at] >= COPY:
            if text:
                pieces.append("".join(text))
                text = []
            pieces.append([at_a[at], at_a[at + best]])
            y += best
        else:
            text.append(b[y])
            y += 1
    if text:
        pieces.append("".join(text))
    return pieces


def _relative(hunks: list[list[Any]]) -> list[list[Any]]:
    """Hunks ``[start, end, text]`` as sent: ``[kept, cut, text]``, the old characters kept
    since the last hunk and the number replaced (shorter numbers than offsets on a long board)."""
    out, at = [], 0
    for start, end, text in hunks:
        out.append([start - at, end - start, text])
        at = end
    return out


def edit(old: Any, new: Any) -> dict[str, Any]:
    """The edit (``DIFF``) that turns ``old`` into ``new``; the whole value where that is
    no longer."""
    whole = {"v": new}
    op: dict[str, Any] | None = None
    if isinstance(old, dict) and isinstance(new, dict):
        op = {"o": {k: edit(old[k], v) if k in old else {"v": v}
                    for k, v in new.items() if k not in old or old[k] != v}}
        gone = [k for k in old if k not in new]
        if gone:
            op["x"] = gone
    elif isinstance(old, list) and isinstance(new, list):
        if len(orjson.dumps(new)) <= SMALL:
            return whole
        if len(old) == len(new):
            op = {"i": [[n, edit(x, y)] for n, (x, y) in enumerate(zip(old, new, strict=True))
                        if x != y]}
        else:
            op = {"m": _list_pieces(old, new)}
    elif isinstance(old, str) and isinstance(new, str):
        if len(new) <= SMALL or _ASTRAL.search(old) or _ASTRAL.search(new):
            return whole
        op = {"s": _relative(str_hunks(old, new))}
    if op is None or len(orjson.dumps(op)) >= len(orjson.dumps(whole)):
        return whole
    return op


def _list_pieces(old: list[Any], new: list[Any]) -> list[Any]:
    """A list's edit when its length changed: the new list as pieces, ``[s, e]`` for the old
    items ``s``..``e - 1``, ``{"e": [n, edit]}`` for old item ``n`` edited, ``{"a": items}``
    for new items; items are matched by their JSON (``difflib``), a changed stretch of the
    same length item by item."""
    keys_a = [orjson.dumps(x) for x in old]
    keys_b = [orjson.dumps(x) for x in new]
    out: list[Any] = []
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for tag, i0, i1, j0, j1 in matcher.get_opcodes():
        if tag == "equal":
            out.append([i0, i1])
            continue
        pair = min(i1 - i0, j1 - j0)
        out += [{"e": [i0 + k, edit(old[i0 + k], new[j0 + k])]} for k in range(pair)]
        if j1 - j0 > pair:
            out.append({"a": new[j0 + pair : j1]})
    return out


def apply_edit(old: Any, op: dict[str, Any]) -> Any:
    """``old`` with the edit ``op`` made (a copy; ``old`` is left as it was)."""
    if "v" in op:
        return op["v"]
    if "o" in op:
        out = {k: v for k, v in old.items() if k not in op.get("x", ())}
        for k, sub in op["o"].items():
            out[k] = apply_edit(old.get(k), sub)
        return out
    if "i" in op:
        items = list(old)
        for n, sub in op["i"]:
            items[n] = apply_edit(items[n], sub)
        return items
    if "m" in op:
        items = []
        for p in op["m"]:
            if isinstance(p, list):
                items += old[p[0] : p[1]]
            elif "e" in p:
                items.append(apply_edit(old[p["e"][0]], p["e"][1]))
            else:
                items += p["a"]
        return items
    parts: list[str] = []
    at = 0
    for kept, cut, text in op["s"]:
        start, end = at + kept, at + kept + cut
        parts.append(old[at:start])
        if isinstance(text, str):
            parts.append(text)
        else:  # pieces: text, or [s, e] for a stretch of the old string
            parts += [p if isinstance(p, str) else old[p[0] : p[1]] for p in text]
        at = end
    return "".join([*parts, old[at:]])


def view_patch(
    old: dict[str, Any], new: dict[str, Any], earlier: Sequence[dict[str, Any]] = ()
) -> dict[str, Any]:
    """The patch that turns the viewer's view ``old`` into ``new``. ``earlier``: views of this
    viewer before ``old`` (oldest first) that the client was pushed too; a section sent whole
    (your choices coming back after another player's turn, say) is edited from the newest of
    them where that is shorter, as ``back[key] = [version, edit]`` (a client that lacks that
    version asks for the whole view)."""
    patch: dict[str, Any] = {"base": old["version"], "version": new["version"], "set": {},
                             "diff": {}}
    before, after = old.get("log") or [], new.get("log") or []
    appended = isinstance(before, list) and isinstance(after, list) \
        and after[: len(before)] == before
    if appended and len(after) > len(before):
        patch["log"] = {"from": len(before), "add": after[len(before) :]}
    back: dict[str, Any] = {}
    for key, value in new.items():
        if key == "version" or (key == "log" and appended) or old.get(key) == value:
            continue
        op = edit(old[key], value) if key in old else {"v": value}
        if "v" not in op:
            patch["diff"][key] = op
            continue
        size, seen = len(orjson.dumps(value)), {old["version"]}
        for view in reversed(earlier):
            # The client holds the newest view of each version only (a seat taken keeps it).
            if view["version"] in seen:
                continue
            seen.add(view["version"])
            if view.get(key):
                op = edit(view[key], value)
                if "v" not in op and len(orjson.dumps(op)) < size:
                    back[key] = [view["version"], op]
                break
        if key not in back:
            patch["set"][key] = value
    if back:
        patch["back"] = back
    patch["drop"] = [k for k in old if k not in new]
    patch["set"]["version"] = new["version"]
    return patch


def apply_patch(
    old: dict[str, Any], patch: dict[str, Any], earlier: dict[int, dict[str, Any]] | None = None
) -> dict[str, Any] | None:
    """``old`` with ``patch`` applied (None when the patch is for another version, or edits a
    section from an ``earlier`` view, by version, that is not at hand): what the web client
    does with a ``patch`` message."""
    if old.get("version") != patch["base"]:
        return None
    out = {k: v for k, v in old.items() if k not in patch["drop"]}
    out.update(patch["set"])
    for key, op in patch.get("diff", {}).items():
        out[key] = apply_edit(old[key], op)
    for key, (version, op) in patch.get("back", {}).items():
        if earlier is None or version not in earlier:
            return None
        out[key] = apply_edit(earlier[version][key], op)
    if "log" in patch:
        out["log"] = list(old.get("log") or [])[: patch["log"]["from"]] + patch["log"]["add"]
    return out
