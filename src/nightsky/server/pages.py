"""Pages about each game, served by the site: what it is, its rule catalogue, its tutorials.

``/games`` lists the games; ``/games/{game}`` tells about one (players, options, levels,
tutorials, links); ``/games/{game}/rules`` is its rule catalogue with an anchor per rule id
(``#SS-4.2``); ``/games/{game}/tutorials/{name}`` one rulebook example (its text, the board it
starts from, the moves it plays). ``/api/catalog/{game}/rules`` and ``.../tutorials`` give the
same as JSON (the game page shows a refused choice's rule from there).

Everything comes from the game registry and the packaged data (``rules.md`` beside each game,
``Game.tutorials()``): nothing here knows a game. The pages are built on the server (no script,
so the CSP holds), every value HTML-escaped; the catalogue's markdown is rendered by
``nightsky.core.rulebook`` with raw HTML off.
"""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from nightsky.core.errors import GameError
from nightsky.core.game import Game, Tutorial
from nightsky.core.info import GameInfo
from nightsky.core.registry import game_class, game_ids, load_game
from nightsky.core.rulebook import RuleBook, rulebook
from nightsky.server.models import ErrorBody
from nightsky.server.rooms import ServerError

log = logging.getLogger("nightsky.server")

router = APIRouter()

ICON = (
    "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>"
    "<text y='14' font-size='14'>✦</text></svg>"
)

NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {
        "model": ErrorBody,
        "description": "No such game (`unknown_game`), or it has no catalogue (`no_rules`).",
    }
}


class TutorialStep(BaseModel):
    seat: int = Field(description="The seat that plays it (0-based).")
    notation: str = Field(description="The action's notation.")
    label: str | None = Field(None, description="The action in words (None: not worked out).")


class TutorialInfo(BaseModel):
    name: str
    title: str
    text: str = Field(description="What to look at, in our own words.")
    steps: list[TutorialStep]
    page: str = Field(description="The tutorial's page on this site.")


# ---------------------------------------------------------------------------- data
def _game(game_id: str) -> Game:
    """The game with its default parameters, or a 404 ``unknown_game``."""
    try:
        game_class(game_id)
        return load_game(game_id)
    except GameError as exc:
        raise ServerError(404, "unknown_game", str(exc)) from None


def _rules(game_id: str) -> RuleBook:
    _game(game_id)
    book = rulebook(game_id)
    if book is None:
        raise ServerError(404, "no_rules", f"{game_id} has no rule catalogue")
    return book


@dataclass(frozen=True)
class Lesson:
    """A tutorial worked out for its page: the steps with their labels, the boards."""

    tutorial: Tutorial
    steps: list[TutorialStep]
    seats: list[tuple[str, str]]  # (name, colour) per seat of the example
    before: str | None  # the starting position, as SVG
    after: str | None  # the position once every step is played (None: not reached)


def _tutorials(game_id: str) -> list[Tutorial]:
    game = _game(game_id)
    try:
        return list(game.tutorials())
    except GameError:  # pragma: no cover - a game whose default parameters have none
        return []


@lru_cache(maxsize=128)
def _lesson(game_id: str, name: str) -> Lesson:
    game = _game(game_id)
    try:
        tut = game.tutorial(name)
    except GameError as exc:
        raise ServerError(404, "unknown_tutorial", str(exc)) from None
    state = tut.build()
    ui = state.game.ui
    seats = list(zip(ui.seat_names(), ui.seat_colors(), strict=False))
    before = _svg(state)
    steps: list[TutorialStep] = []
    playing = True
    for seat, notation in tut.steps:
        label = None
        if playing:
            try:
                action = state.game.parse_action(notation)
                # A chance outcome is told by its notation (the rules' words are the seats').
                label = ui.describe_action(state, action, seat) if seat >= 0 else None
                state.apply(action, seat)
            except Exception:  # a step the position alone cannot play (chance, a later turn)
                playing = False
        steps.append(TutorialStep(seat=seat, notation=notation, label=label))
    return Lesson(tut, steps, seats, before, _svg(state) if playing and tut.steps else None)


def _svg(state: Any) -> str | None:
    ui = state.game.ui
    try:
        # The seats named and coloured as the page's list of moves names them.
        return ui.board_svg(  # type: ignore[no-any-return]
            state, None, names=ui.seat_names(), colors=ui.seat_colors()
        )
    except Exception:  # the page still shows the text and the steps
        log.exception("tutorial board failed")
        return None


# ---------------------------------------------------------------------------- JSON
@router.get(
    "/api/catalog/{game}/rules", response_model=dict[str, str], tags=["games"],
    responses=NOT_FOUND,
)
def get_rules(game: str) -> dict[str, str]:
    """The game's rule catalogue: every rule id (`SS-4.2`) with its paraphrase and rulings as
    plain text, in the catalogue's order. Its page: `/games/{game}/rules#SS-4.2`."""
    return _rules(game).rules


@router.get(
    "/api/catalog/{game}/tutorials", response_model=list[TutorialInfo], tags=["games"],
    responses=NOT_FOUND,
)
def get_tutorials(game: str) -> list[TutorialInfo]:
    """The game's rulebook examples: their text and the moves they play."""
    return [
        TutorialInfo(
            name=t.name, title=t.title, text=t.text, steps=_lesson(game, t.name).steps,
            page=f"/games/{game}/tutorials/{t.name}",
        )
        for t in _tutorials(game)
    ]


# ---------------------------------------------------------------------------- HTML
def _page(
    title: str, crumbs: list[tuple[str | None, str]], body: str, status: int = 200,
    assets: tuple[str, ...] = (),
) -> HTMLResponse:
    trail = " <span aria-hidden=\"true\">›</span> ".join(
        f'<a href="{escape(href)}">{escape(text)}</a>' if href else
        f'<span aria-current="page">{escape(text)}</span>'
        for href, text in crumbs
    )
    html = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} · nightsky</title>
  <link rel="icon" href="{ICON}">
  <link rel="stylesheet" href="/static/css/app.css">{_assets(assets)}
</head>
<body class="doc">
  <a class="skip" href="#content">Skip to the content</a>
  <header class="topbar">
    <a class="brand" href="/"><span class="star" aria-hidden="true">✦</span> nightsky</a>
    <nav class="crumb" aria-label="Breadcrumb">{trail}</nav>
    <span class="spacer"></span>
    <a class="crumb" href="/">Lobby</a>
  </header>
  <main id="content">
{body}
  </main>
</body>
</html>
"""
    return HTMLResponse(html, status_code=status)


def _assets(paths: tuple[str, ...]) -> str:
    """A page's own stylesheets and script modules (``.css``/``.js`` paths)."""
    return "".join(
        f'\n  <link rel="stylesheet" href="{escape(u)}">' if u.endswith(".css") else
        f'\n  <script type="module" src="{escape(u)}"></script>'
        for u in paths
    )


def _missing(exc: ServerError) -> HTMLResponse:
    body = (
        f'<section class="panel doc-panel"><h1>Not found</h1><p>{escape(exc.message)}</p>'
        '<p><a href="/games">All games</a></p></section>'
    )
    return _page("Not found", [("/games", "Games"), (None, "Not found")], body, exc.status)


def _img(svg: str | None, alt: str) -> str:
    if not svg:
        return ""
    # As an image: whatever the SVG holds runs nothing, and the page's CSP allows data: images.
    data = base64.b64encode(svg.encode()).decode()
    return f'<img class="doc-board" src="data:image/svg+xml;base64,{data}" alt="{escape(alt)}">'


def _default(value: Any) -> str:
    return "—" if value in (None, "") else f"<code>{escape(str(value))}</code>"


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


@router.get("/games", include_in_schema=False)
def games_page() -> HTMLResponse:
    items = []
    for gid in game_ids():
        info = game_class(gid).info
        rules = rulebook(gid)
        links = [f'<a href="/games/{escape(gid)}">About</a>']
        if rules:
            links.append(f'<a href="/games/{escape(gid)}/rules">Rules</a>')
        items.append(
            f'<li class="doc-game"><h2><a href="/games/{escape(gid)}">{escape(info.title)}</a></h2>'
            f'<p class="muted small">{info.min_players}–{info.max_players} players</p>'
            f"<p>{escape(info.description)}</p>"
            f'<p class="row">{" · ".join(links)}</p></li>'
        )
    body = (
        '<section class="doc-panel"><h1>The games</h1>'
        f'<ul class="doc-games">{"".join(items)}</ul></section>'
    )
    return _page("Games", [(None, "Games")], body)


def _about_head(game: str, info: GameInfo, book: RuleBook | None) -> str:
    """The about page's first panel: title, lead, the facts and the page's buttons."""
    gid = escape(game)
    facts = [
        ("Players", f"{info.min_players}–{info.max_players}"
         + (f" (usually {info.default_players})" if info.default_players else "")),
        ("Chance", _yes(info.chance)),
        ("Hidden information", _yes(info.hidden_information)),
        ("Simultaneous turns", _yes(info.simultaneous)),
    ]
    if book:
        facts.append(("Rules", f"{len(book.rules)} rules in {len(book.sections)} sections"))
    dl = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts)
    return "\n".join([
        f'<section class="panel doc-panel"><h1>{escape(info.title)}</h1>',
        f'<p class="doc-lead">{escape(info.description)}</p>',
        f'<dl class="doc-facts">{dl}</dl>',
        '<p class="row">',
        f'<a class="btn primary" href="/?game={gid}">Start a table</a>',
        f'<a class="btn" href="/games/{gid}/how-to-play">How to play</a>',
        f'<a class="btn" href="/games/{gid}/rules">Read the rules</a>' if book else "",
        "</p></section>",
    ])


def _about_tables(info: GameInfo) -> list[str]:
    """The about page's bot levels and options, each a table where the game has any."""
    levels = "".join(
        f"<tr><th scope=\"row\">{escape(lvl.name)}</th><td>{escape(lvl.strength)}</td>"
        f"<td><code>{escape(lvl.spec)}</code></td></tr>"
        for lvl in info.levels
    )
    options = "".join(
        f"<tr><th scope=\"row\"><code>{escape(o.name)}</code></th>"
        f"<td>{_default(o.default)}</td><td>{escape(o.help)}</td></tr>"
        for o in info.options
    )
    parts = []
    if levels:
        parts.append(
            '<section class="panel doc-panel"><h2 id="levels">Bot levels</h2>'
            '<table class="doc-table"><thead><tr><th scope="col">Level</th>'
            '<th scope="col">How strong</th><th scope="col">Agent</th></tr></thead>'
            f"<tbody>{levels}</tbody></table></section>"
        )
    if options:
        parts.append(
            '<section class="panel doc-panel"><h2 id="options">Options</h2>'
            '<table class="doc-table"><thead><tr><th scope="col">Option</th>'
            '<th scope="col">Default</th><th scope="col">What it does</th></tr></thead>'
            f"<tbody>{options}</tbody></table></section>"
        )
    return parts


def _about_links(game: str, book: RuleBook | None) -> tuple[str, str]:
    """The about page's tutorials panel and the rules' table of contents ("" where none)."""
    gid = escape(game)
    tuts = "".join(
        f'<li><a href="/games/{gid}/learn/{escape(t.name)}">{escape(t.title)}</a> '
        f'<a class="muted small" href="/games/{gid}/tutorials/{escape(t.name)}">(before and '
        "after)</a></li>"
        for t in _tutorials(game)
    )
    if tuts:
        tuts = (
            '<section class="panel doc-panel"><h2 id="tutorials">Tutorials</h2>'
            "<p class=\"muted\">The rulebook's worked examples, each a live table: make "
            "each move yourself.</p>"
            f'<ul class="doc-list">{tuts}</ul></section>'
        )
    toc = ""
    if book and book.sections:
        items = "".join(
            f'<li><a href="/games/{gid}/rules#{escape(a)}">{escape(t)}</a></li>'
            for a, t in book.sections
        )
        toc = (
            '<section class="panel doc-panel"><h2 id="contents">Rules: contents</h2>'
            f'<ol class="doc-toc">{items}</ol></section>'
        )
    return tuts, toc


@router.get("/games/{game}", include_in_schema=False)
def game_about(game: str) -> HTMLResponse:
    try:
        g = _game(game)
    except ServerError as exc:
        return _missing(exc)
    info = g.info
    book = rulebook(game)
    tuts, toc = _about_links(game, book)
    parts = [_about_head(game, info, book), tuts, *_about_tables(info), toc]
    body = '<div class="doc-stack">' + "\n".join(p for p in parts if p) + "</div>"
    return _page(info.title, [("/games", "Games"), (None, info.title)], body)


@router.get("/games/{game}/rules", include_in_schema=False)
def rules_page(game: str) -> HTMLResponse:
    try:
        book = _rules(game)
    except ServerError as exc:
        return _missing(exc)
    info = game_class(game).info
    gid = escape(game)
    toc = "".join(f'<li><a href="#{escape(a)}">{escape(t)}</a></li>' for a, t in book.sections)
    body = f"""<div class="doc-rules">
  <nav class="panel doc-nav" aria-label="Sections of the rules">
    <h2>Sections</h2>
    <ol class="doc-toc">{toc}</ol>
    <p class="small"><a href="/games/{gid}">About {escape(info.title)}</a></p>
  </nav>
  <article class="panel doc-panel rulebook" aria-labelledby="rules-title">
    <h1 id="rules-title">{escape(info.title)}: the rules</h1>
    <p class="muted small">{len(book.rules)} rules, each with its id; a link on an id points
    at that rule (the server's refusals name these ids).</p>
    {book.html}
  </article>
</div>"""
    crumbs = [("/games", "Games"), (f"/games/{game}", info.title), (None, "Rules")]
    return _page(f"{info.title} rules", crumbs, body)


def _who(lesson: Lesson, seat: int) -> str:
    """A step's player: the seat's number beside its colour and name (colour is never the only
    sign), or Chance."""
    if seat < 0:
        return (
            '<span class="who-tag"><span class="sym" aria-hidden="true">✦</span>'
            "Chance</span>"
        )
    nm, colour = lesson.seats[seat] if seat < len(lesson.seats) else (f"Seat {seat + 1}", "")
    style = f' style="--c:{escape(colour)}"' if colour else ""
    return (
        f'<span class="who-tag"{style}><span class="sym" aria-hidden="true">{seat + 1}'
        f"</span>{escape(nm)}</span>"
    )


def _more_tutorials(game: str, tut: Tutorial) -> str:
    """The panel linking the game's other tutorials ("" where it has no other)."""
    gid = escape(game)
    more = "".join(
        f'<li><a href="/games/{gid}/tutorials/{escape(t.name)}">{escape(t.title)}</a></li>'
        for t in _tutorials(game) if t.name != tut.name
    )
    if not more:
        return ""
    return (
        '<section class="panel doc-panel"><h2>More tutorials</h2>'
        f'<ul class="doc-list">{more}</ul></section>'
    )


@router.get("/games/{game}/tutorials/{name}", include_in_schema=False)
def tutorial_page(game: str, name: str) -> HTMLResponse:
    try:
        lesson = _lesson(game, name)
    except ServerError as exc:
        return _missing(exc)
    info = game_class(game).info
    tut = lesson.tutorial
    gid = escape(game)
    steps = "".join(
        f"<li>{_who(lesson, s.seat)} {escape(s.label) if s.label else ''}"
        f' <code title="notation">{escape(s.notation)}</code></li>'
        for s in lesson.steps
    )
    before = _img(lesson.before, f"The board at the start of {tut.title}")
    before = before or '<p class="muted">No drawing.</p>'
    after = _img(lesson.after, f"The board after {tut.title}")
    after = '<h2 id="after">After the moves</h2>' + after if after else ""
    more = _more_tutorials(game, tut)
    body = f"""<div class="doc-stack">
  <section class="panel doc-panel">
    <h1>{escape(tut.title)}</h1>
    <p class="doc-lead">{escape(tut.text)}</p>
    <h2 id="steps">The moves it plays</h2>
    <ol class="doc-steps">{steps or '<li>None: look at the position.</li>'}</ol>
    <p class="row"><a class="btn primary" href="/games/{gid}/learn/{escape(tut.name)}">Play it
    here, step by step</a> <a class="btn" href="/games/{gid}/how-to-play">How to play</a></p>
    <p class="muted small">In the terminal:
    <code>nightsky play {gid} --tutorial {escape(tut.name)}</code>.
    <a href="/games/{gid}/rules">The rules</a> explain every move.</p>
  </section>
  <section class="panel doc-panel">
    <h2 id="position">The position it starts from</h2>
    {before}
    {after}
  </section>
  {more}
</div>"""
    crumbs = [("/games", "Games"), (f"/games/{game}", info.title), (None, tut.title)]
    return _page(f"{tut.title} · {info.title}", crumbs, body)
