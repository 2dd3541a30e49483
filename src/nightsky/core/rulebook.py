"""A game's rule catalogue (the ``rules.md`` packaged beside it) as data and as safe HTML.

Every rule of a catalogue is a list item that opens with its id in bold
(``- **SS-4.2** paraphrase... Ruling: ...``). ``rulebook(game_id)`` reads the packaged file (a
wheel has no ``docs/`` folder), parses it with markdown-it (CommonMark, raw HTML off: any
``<tag>`` in the text is shown as text, and links to ``javascript:`` and the like are dropped)
and gives each rule's plain text and an HTML rendering in which every rule has an anchor
(``id="SS-4.2"``), every section heading one too, and every mention of a known rule id links to
that rule. Nothing here knows any game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from markdown_it import MarkdownIt
from markdown_it.token import Token

from nightsky.core.registry import game_class

RULE_ID = re.compile(r"\b[A-Z]{1,5}-\d+(?:\.\d+)+[a-z]?\b")
"""A rule id as the catalogues and the rules' error messages write it (``SS-4.2``,
``TSAR-10.3``, ``SF-16.1``)."""


MENTION = re.compile(r"\b[A-Z]{1,5}-\d+(?:\.\d+)*[a-z]?\b")
"""A rule id or a section's (``SS-7``) where the text mentions one."""


@dataclass(frozen=True)
class RuleBook:
    """One game's rule catalogue: ``rules`` maps each rule id, in the catalogue's order, to its
    paraphrase and rulings as plain text; ``html`` is the whole catalogue rendered (its first
    heading, the title, left out); ``sections`` lists the second-level headings as
    ``(anchor, text)``."""

    game: str
    title: str
    rules: dict[str, str]
    html: str
    sections: list[tuple[str, str]] = field(default_factory=list)


def rules_markdown(game_id: str) -> str | None:
    """The packaged ``rules.md`` of ``game_id`` (None when the game has none).

    Raises ``OptionError`` for an unknown game id."""
    cls = game_class(game_id)
    pkg = cls.__module__.rsplit(".", 1)[0]
    try:
        return resources.files(pkg).joinpath("rules.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError, ModuleNotFoundError, TypeError):
        return None


@lru_cache(maxsize=64)
def rulebook(game_id: str) -> RuleBook | None:
    """The parsed catalogue of ``game_id`` (None when it has none; cached)."""
    text = rules_markdown(game_id)
    return None if text is None else parse_rulebook(game_id, text)


def _markdown() -> MarkdownIt:
    # CommonMark with tables; "html": False escapes any raw HTML in the source.
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _plain(children: list[Token]) -> str:
    out: list[str] = []
    for t in children:
        if t.type in ("text", "code_inline"):
            out.append(t.content)
        elif t.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return "".join(out)


def _slug(text: str) -> str:
    return "sec-" + (re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x")


def parse_rulebook(game_id: str, text: str) -> RuleBook:
    """Parse a catalogue's markdown ``text`` (see the module's docstring)."""
    md = _markdown()
    tokens = md.parse(text)
    rules: dict[str, str] = {}
    sections: list[tuple[str, str]] = []
    title = game_id
    used: set[str] = set()
    # First pass: the rule items (their ids, anchors and text) and the headings.
    drop: tuple[int, int] | None = None
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i + 1 < len(tokens):
            words = _plain(tokens[i + 1].children or [])
            if tok.tag == "h1" and drop is None:
                title = words
                drop = (i, i + 3)
                continue
            found = RULE_ID.match(words) or re.match(r"[A-Z]{1,5}-\d+\b", words)
            anchor = found.group(0) if found and found.group(0) not in used else _slug(words)
            while anchor in used:
                anchor += "-x"
            used.add(anchor)
            tok.attrSet("id", anchor)
            if tok.tag == "h2":
                sections.append((anchor, words))
        elif tok.type == "list_item_open":
            rid = _rule_item(tokens, i)
            if rid is None or rid in rules:
                continue
            tok.attrSet("id", rid)
            tok.attrSet("class", "rule")
            used.add(rid)
            rules[rid] = _item_text(tokens, i)
    # Second pass: link the mentions of known rule ids and sections (``SS-7``), not the ids
    # that open a rule.
    known = set(rules) | {a for a in used if MENTION.fullmatch(a)}
    for tok in tokens:
        if tok.type == "inline" and tok.children:
            tok.children = _link_mentions(tok.children, known)
    if drop is not None:
        del tokens[drop[0] : drop[1]]
    html = md.renderer.render(tokens, md.options, {})
    return RuleBook(game_id, title, rules, html, sections)


def _rule_item(tokens: list[Token], i: int) -> str | None:
    """The rule id a list item at ``tokens[i]`` opens with (``**ID**``), else None; the bold id
    becomes a link to the item itself."""
    for j in range(i + 1, min(i + 4, len(tokens))):
        if tokens[j].type != "inline":
            continue
        kids = [k for k in tokens[j].children or [] if k.type != "text" or k.content]
        if (
            len(kids) >= 3
            and kids[0].type == "strong_open"
            and kids[1].type == "text"
            and kids[2].type == "strong_close"
            and RULE_ID.fullmatch(kids[1].content)
        ):
            rid = kids[1].content
            link = Token("link_open", "a", 1, attrs={"href": f"#{rid}", "class": "rule-id"})
            kids[1].meta = {"rule_id": True}
            tokens[j].children = [link, *kids[:3], Token("link_close", "a", -1), *kids[3:]]
            return rid
        return None
    return None


def _item_text(tokens: list[Token], i: int) -> str:
    """The plain text of the list item opened at ``tokens[i]``, without its leading id."""
    depth = 0
    parts: list[str] = []
    for tok in tokens[i:]:
        if tok.type == "list_item_open":
            depth += 1
        elif tok.type == "list_item_close":
            depth -= 1
            if depth == 0:
                break
        elif tok.type == "inline":
            kids = [k for k in tok.children or [] if not k.meta.get("rule_id")]
            parts.append(_plain(kids))
    return re.sub(r"\s+", " ", " ".join(parts)).strip()


def _link_mentions(children: list[Token], known: set[str]) -> list[Token]:
    out: list[Token] = []
    in_link = 0
    for t in children:
        if t.type == "link_open":
            in_link += 1
        elif t.type == "link_close":
            in_link -= 1
        if t.type != "text" or in_link or t.meta.get("rule_id") or not MENTION.search(t.content):
            out.append(t)
            continue
        pos = 0
        for m in MENTION.finditer(t.content):
            if m.group(0) not in known:
                continue
            if m.start() > pos:
                out.append(_text(t.content[pos : m.start()]))
            out.append(Token("link_open", "a", 1, attrs={"href": f"#{m.group(0)}"}))
            out.append(_text(m.group(0)))
            out.append(Token("link_close", "a", -1))
            pos = m.end()
        if pos < len(t.content):
            out.append(_text(t.content[pos:]))
    return out


def _text(content: str) -> Token:
    tok = Token("text", "", 0)
    tok.content = content
    return tok


def rule_ids_in(text: str) -> list[str]:
    """The rule ids a message names (``"... [SL-2.1]"``), in order."""
    return RULE_ID.findall(text)
