"""The rule catalogue parser: ids and plain text, anchors, linked mentions, escaping."""

from __future__ import annotations

from nightsky.core.rulebook import parse_rulebook, rule_ids_in, rulebook

SOURCE = """# Toy — rule catalogue

Intro with <b>raw html</b> and [a link](javascript:alert(1)).

## TY-1 Set-up

- **TY-1.1** Two players; see TY-1.2 and TY-9.9.
- **TY-1.2** The board is `5x5`.
  **Ruling:** a second line <script>alert(1)</script>.
- Not a rule item.

## 2. More

- **TY-2.1** Last (see TY-1).
"""


def test_rule_ids_map_to_their_plain_text_in_order() -> None:
    book = parse_rulebook("toy", SOURCE)
    assert book.title == "Toy — rule catalogue"
    assert book.rules == {
        "TY-1.1": "Two players; see TY-1.2 and TY-9.9.",
        "TY-1.2": "The board is 5x5. Ruling: a second line <script>alert(1)</script>.",
        "TY-2.1": "Last (see TY-1).",
    }
    assert book.sections == [("TY-1", "TY-1 Set-up"), ("sec-2-more", "2. More")]


def test_html_anchors_each_rule_and_links_known_mentions_only() -> None:
    html = parse_rulebook("toy", SOURCE).html
    assert '<li id="TY-1.2" class="rule"><a href="#TY-1.2" class="rule-id">' in html
    assert 'see <a href="#TY-1.2">TY-1.2</a> and TY-9.9.' in html  # TY-9.9 is no rule
    assert '<h2 id="TY-1">' in html and '<h2 id="sec-2-more">' in html
    assert '(see <a href="#TY-1">TY-1</a>)' in html  # a section's mention links it too
    assert "<h1" not in html  # the title is the page's


def test_raw_html_is_escaped_and_script_links_are_dropped() -> None:
    html = parse_rulebook("toy", SOURCE).html
    assert "<script" not in html and "&lt;script&gt;" in html
    assert "<b>" not in html and "javascript:" not in html.split("href=")[-1]
    assert 'href="javascript' not in html


def test_rule_ids_in_messages() -> None:
    assert rule_ids_in("on your first turn place your marker [SL-2.1]") == ["SL-2.1"]
    assert rule_ids_in("9,9 is outside the 4x3 Star Sector (SS-2.3)") == ["SS-2.3"]
    assert rule_ids_in("no rule here, 4x3") == []


def test_packaged_catalogues_parse() -> None:
    book = rulebook("shooting-star")
    assert book is not None and "SS-4.2" in book.rules and book.rules["SS-4.2"]
    assert rulebook("toy-secret-sum") is None
