"""Learning a game in the browser: live guided tutorials and a one-page "How to play".

``/games/{game}/learn/{name}`` is a rulebook example as a live table: the page
(``web/js/learn.js``) shows the board before each of the example's moves, makes the move glow,
says it in words and lets the learner make it; any other legal move is answered with a hint.
``/api/learn/{game}/{name}`` gives the lesson (its moves in words) and
``/api/learn/{game}/{name}/{step}`` the table before move ``step`` (or after the last one).

``/games/{game}/how-to-play`` is one page per game: the set-up, a turn, the end and the
scoring, in the game's own ``howto.md`` (beside ``rules.md``), each with a picture drawn by the
game's board renderer: the table once dealt, a rulebook example, a finished game and its score
table. Nothing here knows a game: everything goes through the registry and ``GameUI``.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from pydantic import BaseModel, Field

from nightsky.core.errors import GameError
from nightsky.core.game import CHANCE, Game, State
from nightsky.core.learn import Stop, lesson_names, walk
from nightsky.core.markup import plain_text
from nightsky.core.registry import game_class
from nightsky.core.ui import render_text
from nightsky.server.pages import NOT_FOUND, _game, _img, _missing, _page
from nightsky.server.rooms import ServerError

router = APIRouter()

HOWTO_SEED = 7  # the seeded game whose pictures the How to play page shows


# ---------------------------------------------------------------------------- models
class LearnChoice(BaseModel):
    notation: str
    label: str = Field(description="The choice in words.")
    targets: list[str] = Field(description="Board element ids a click on which takes it.")
    expected: bool = Field(description="The move the example makes.")


class LearnStep(BaseModel):
    seat: int = Field(description="Who makes it (0-based; -1: chance).")
    who: str = Field(description="Its seat's name.")
    notation: str
    label: str = Field(description="The move in words.")
    told: list[str] = Field(description="What it did on the table, as the log tells it.")


class LearnSeat(BaseModel):
    name: str
    color: str


class Lesson(BaseModel):
    game: str
    name: str
    title: str
    text: str = Field(description="What the example shows, in our own words.")
    seats: list[LearnSeat]
    steps: list[LearnStep] = Field(description="The moves the learner makes, in order.")
    others: list[dict[str, str]] = Field(description="The game's other lessons: name, title.")


class LearnTable(BaseModel):
    step: int = Field(description="The move about to be made (== len(steps): the end).")
    viewer: int | None = Field(description="Whose view the board shows.")
    svg: str | None
    text: str
    choices: list[LearnChoice] = Field(description="Every legal choice of the mover.")


# ---------------------------------------------------------------------------- data
@lru_cache(maxsize=64)
def _walk(game_id: str, name: str) -> tuple[Any, list[str], list[str], list[Stop]]:
    game = _game(game_id)
    try:
        tut = game.tutorial(name)
    except GameError as exc:
        raise ServerError(404, "unknown_tutorial", str(exc)) from None
    ui = tut.build().game.ui
    names, colors = lesson_names(tut), ui.seat_colors()
    return tut, names, colors, walk(tut, names)


def lesson(game_id: str, name: str) -> Lesson:
    tut, names, colors, stops = _walk(game_id, name)
    steps = [
        LearnStep(
            seat=s.step.seat,
            who="Chance" if s.step.seat == CHANCE else names[s.step.seat],
            notation=s.step.notation,
            label=s.step.label or s.step.notation,
            told=list(s.step.told),
        )
        for s in stops
        if s.step is not None
    ]
    game = _game(game_id)
    return Lesson(
        game=game_id, name=name, title=tut.title, text=tut.text,
        seats=[LearnSeat(name=n, color=c) for n, c in zip(names, colors, strict=False)],
        steps=steps,
        others=[{"name": t.name, "title": t.title} for t in game.tutorials() if t.name != name],
    )


def table(game_id: str, name: str, step: int) -> LearnTable:
    _, names, colors, stops = _walk(game_id, name)
    if not 0 <= step < len(stops):
        raise ServerError(404, "unknown_step", f"this lesson has steps 0 to {len(stops) - 1}")
    stop = stops[step]
    viewer = stop.step.seat if stop.step is not None and stop.step.seat >= 0 else None
    ui = stop.state.game.ui
    return LearnTable(
        step=step,
        viewer=viewer,
        svg=_board(stop.state, viewer, names, colors),
        text=plain_text(render_text(ui, stop.state, viewer, names)),
        choices=[LearnChoice(**c) for c in stop.choices],
    )


def _board(state: State, viewer: int | None, names: list[str], colors: list[str]) -> str | None:
    try:
        return state.game.ui.board_svg(state, viewer, names, colors)
    except Exception:  # the page falls back to the text drawing
        return None


# ---------------------------------------------------------------------------- JSON
@router.get("/api/learn/{game}/{name}", response_model=Lesson, tags=["games"],
            responses=NOT_FOUND)
def get_lesson(game: str, name: str) -> Lesson:
    """A rulebook example as a lesson: its text and the moves the learner makes, in words."""
    return lesson(game, name)


@router.get("/api/learn/{game}/{name}/{step}", response_model=LearnTable, tags=["games"],
            responses=NOT_FOUND)
def get_lesson_table(game: str, name: str, step: int) -> LearnTable:
    """The lesson's table before move `step` (the mover's view, every legal choice, the
    example's one marked), or after the last move."""
    return table(game, name, step)


# ---------------------------------------------------------------------------- HTML
@router.get("/games/{game}/learn/{name}", include_in_schema=False)
def learn_page(game: str, name: str) -> HTMLResponse:
    try:
        les = lesson(game, name)
    except ServerError as exc:
        return _missing(exc)
    info = game_class(game).info
    gid, nm = escape(game), escape(name)
    body = f"""<div class="learn" id="learn" data-game="{gid}" data-name="{nm}">
  <section class="panel learn-board-panel">
    <div class="board-head"><div class="turn-banner" id="learn-banner" aria-live="polite">
      Loading the example…</div></div>
    <div class="board-tools" id="learn-board-tools" hidden></div>
    <div class="board-wrap">
      <div class="board" id="learn-board" role="region" aria-label="The example's table"></div>
      <div class="board-detail" id="learn-board-detail" hidden aria-live="polite"></div>
    </div>
  </section>
  <aside class="learn-side">
    <section class="panel">
      <h1 class="learn-title">{escape(les.title)}</h1>
      <p class="learn-text">{escape(les.text)}</p>
      <ol class="learn-steps" id="learn-steps" aria-label="The example's moves"></ol>
    </section>
    <section class="panel" aria-labelledby="learn-now-title">
      <h2 id="learn-now-title">Your move</h2>
      <p class="learn-now" id="learn-now" aria-live="polite"></p>
      <p class="learn-hint" id="learn-hint" role="alert" hidden></p>
      <div class="learn-told" id="learn-told" aria-live="polite"></div>
      <div class="actions learn-choices" id="learn-choices" role="group"
           aria-labelledby="learn-now-title"></div>
      <p class="row learn-nav">
        <button type="button" class="btn" id="learn-restart">↺ Start again</button>
        <a class="btn" href="/games/{gid}/how-to-play">How to play</a>
        <a class="btn" href="/games/{gid}/rules" target="_blank" rel="noopener">Rules</a>
      </p>
    </section>
  </aside>
</div>"""
    crumbs = [("/games", "Games"), (f"/games/{game}", info.title), (None, les.title)]
    return _page(f"{les.title} · {info.title}", crumbs, body, assets=LEARN_ASSETS)


LEARN_ASSETS = ("/static/js/learn.js", "/static/css/learn.css")


def howto_markdown(game_id: str) -> str | None:
    """The packaged ``howto.md`` of ``game_id`` (None when the game has none)."""
    pkg = game_class(game_id).__module__.rsplit(".", 1)[0]
    try:
        return resources.files(pkg).joinpath("howto.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError, ModuleNotFoundError, TypeError):
        return None


def _sections(text: str) -> list[tuple[str, str]]:
    """``## Title`` sections of a how-to page: (title, markdown), in order."""
    parts = re.split(r"^## +(.+)$", text, flags=re.M)
    return [(parts[i].strip(), parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)]


def _dealt(game: Game) -> State:
    """A table once every set-up draw is made (a seeded deal)."""
    rng = random.Random(HOWTO_SEED)
    state = game.new_initial_state()
    while state.current_players() == (CHANCE,):
        state.apply(state.sample_chance(rng), CHANCE)
    return state


@lru_cache(maxsize=16)
def _finished(game_id: str) -> State:
    """A seeded game of random moves played to its end (its board and score table)."""
    game = _game(game_id)
    rng = random.Random(HOWTO_SEED)
    state = game.new_initial_state()
    for _ in range(20_000):
        if state.is_terminal():
            break
        seats = state.current_players()
        if seats == (CHANCE,):
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            seat = seats[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def _score_table(state: State, names: list[str]) -> str:
    ui = state.game.ui
    parts = ui.score_parts(state)
    head = "".join(f'<th scope="col">{escape(p.label)}</th>' for p in parts)
    rows = []
    winners = set(state.winners())
    for q, row in enumerate(state.score_breakdown()):
        cells = "".join(f"<td>{row.get(p.key, 0):g}</td>" for p in parts)
        star = " ✦" if q in winners else ""
        rows.append(f'<tr><th scope="row">{escape(names[q])}{star}</th>{cells}'
                    f"<td><strong>{row['total']:g}</strong></td></tr>")
    return ('<table class="doc-table howto-scores"><thead><tr><th scope="col">Player</th>'
            f'{head}<th scope="col">Total</th></tr></thead><tbody>{"".join(rows)}</tbody>'
            "</table>")


@lru_cache(maxsize=16)
def _howto_html(game_id: str) -> str:
    game = _game(game_id)
    info = game.info
    text = howto_markdown(game_id)
    if text is None:
        raise ServerError(404, "no_howto", f"{game_id} has no How to play page")
    md = MarkdownIt("commonmark", {"html": False})
    ui = game.ui
    names, colors = ui.seat_names(), ui.seat_colors()
    tutorials = list(game.tutorials())
    gid = escape(game_id)
    parts = []
    for title, section in _sections(text):
        key = title.lower()
        figure = ""
        if key.startswith("set"):
            state = _dealt(game)
            figure = _img(_board(state, None, names, colors), f"{info.title}: a table once dealt")
            caption = "A table once dealt (a random deal), as a spectator sees it."
        elif key.startswith("a turn") and tutorials:
            tut = tutorials[0]
            tui = tut.build().game.ui
            figure = _img(_board(tut.build(), None, lesson_names(tut), tui.seat_colors()),
                          tut.title)
            caption = (f'{escape(tut.title)}: <a href="/games/{gid}/learn/{escape(tut.name)}">'
                       "play it here, step by step</a>.")
        elif key.startswith("the end") or key.startswith("scoring"):
            state = _finished(game_id)
            if key.startswith("the end"):
                figure = _img(_board(state, None, names, colors), f"{info.title}: a game over")
                caption = "A finished game (random moves, a fixed seed)."
            else:
                figure = _score_table(state, names)
                caption = "That game's score table."
        else:
            caption = ""
        pic = (f'<figure class="howto-figure">{figure}<figcaption class="muted small">'
               f"{caption}</figcaption></figure>") if figure else ""
        parts.append(f'<section class="panel doc-panel howto-section"><h2>{escape(title)}</h2>'
                     f"{md.render(section)}{pic}</section>")
    lessons = "".join(
        f'<li><a href="/games/{gid}/learn/{escape(t.name)}">{escape(t.title)}</a></li>'
        for t in tutorials
    )
    if lessons:
        parts.append('<section class="panel doc-panel"><h2 id="learn">Learn by playing</h2>'
                     "<p>The rulebook's worked examples as live tables: make each move "
                     f'yourself.</p><ul class="doc-list">{lessons}</ul></section>')
    head = (f'<section class="panel doc-panel"><h1>How to play {escape(info.title)}</h1>'
            f'<p class="doc-lead">{escape(info.description)}</p><p class="row">'
            f'<a class="btn primary" href="/?game={gid}">Start a table</a>'
            f'<a class="btn" href="/games/{gid}/rules">Every rule</a></p></section>')
    return '<div class="doc-stack howto">' + head + "\n".join(parts) + "</div>"


@router.get("/games/{game}/how-to-play", include_in_schema=False)
def howto_page(game: str) -> HTMLResponse:
    try:
        body = _howto_html(game)
    except ServerError as exc:
        return _missing(exc)
    info = game_class(game).info
    crumbs = [("/games", "Games"), (f"/games/{game}", info.title), (None, "How to play")]
    return _page(f"How to play {info.title}", crumbs, body, assets=("/static/css/learn.css",))
