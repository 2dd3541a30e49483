"""The style tags a ``render()`` may use, told apart from its own square brackets.

``State.render`` returns plain text with optional rich console style tags (``[bold]..[/bold]``,
``[red]..[/]``). A render's own brackets (Mihi Anguli's ``[x]`` boxes, a list ``[]``) are text:
``plain_text`` drops the style tags only (for the web client), ``console_text`` escapes every
other bracket so a rich console prints it instead of reading it as a tag.
"""

from __future__ import annotations

import re

_STYLE = (
    r"(?:bold|dim|italic|underline|reverse|strike|blink|not|on|default|red|green|yellow|blue|"
    r"magenta|cyan|white|black|bright_[a-z]+|gr[ae]y\d*|orange\d*|purple|#[0-9a-fA-F]{6})"
)
_MARKUP = re.compile(rf"\[/?{_STYLE}(?: {_STYLE})*\]|\[/\]")
_BRACKET = re.compile(rf"{_MARKUP.pattern}|(\[)")


def plain_text(text: str) -> str:
    """``text`` without its style tags; its own brackets stay."""
    return _MARKUP.sub("", text) if "[" in text else text


def console_text(text: str) -> str:
    """``text`` for ``rich.Console.print``: style tags kept, any other ``[`` escaped."""
    if "[" not in text:
        return text
    return _BRACKET.sub(lambda m: "\\[" if m.group(1) else m.group(0), text)
