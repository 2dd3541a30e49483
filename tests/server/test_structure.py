"""The server reads as its resources (issue 51): no function longer than 60 lines and no file
longer than 800 lines under ``server/``, routes in ``APIRouter`` modules, typed seat kinds."""

from __future__ import annotations

import ast
from pathlib import Path

import nightsky.server

SERVER = Path(nightsky.server.__file__).parent
MAX_FUNCTION_LINES = 60
MAX_FILE_LINES = 800


def _sources() -> list[Path]:
    return sorted(SERVER.rglob("*.py"))


def _functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_no_server_file_is_over_800_lines():
    sources = _sources()
    assert len(sources) > 20  # the whole package, its sub-packages included
    long = {
        str(p.relative_to(SERVER)): n
        for p in sources
        if (n := len(p.read_text().splitlines())) > MAX_FILE_LINES
    }
    assert long == {}


def test_no_server_function_is_over_60_lines():
    long = {}
    for path in _sources():
        tree = ast.parse(path.read_text(), filename=str(path))
        for fn in _functions(tree):
            # From the def line (decorators aside) to the last line of the body.
            lines = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                long[(str(path.relative_to(SERVER)), fn.name)] = lines
    assert long == {}


def test_the_size_checks_measure_what_they_say():
    """The measures above on a made-up source: a 61-line function is caught."""
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    tree = ast.parse(f"def long():\n{body}\n\ndef short():\n    pass\n")
    sizes = {fn.name: (fn.end_lineno or 0) - fn.lineno + 1 for fn in _functions(tree)}
    assert sizes == {"long": 61, "short": 2}


def test_routes_live_in_routers_by_resource():
    """``create_app`` defines no route itself: every route comes from a router module."""
    from nightsky.server.routes import ROUTERS

    app_source = (SERVER / "app.py").read_text()
    assert "@app." not in app_source
    names = {getattr(route, "name", None) for router in ROUTERS for route in router.routes}
    assert {"act", "create_game", "claim_seat", "post_chat", "healthz", "get_catalog"} <= names


def test_seat_kinds_are_typed():
    from nightsky.server.rooms import Seat, SeatKind

    seat = Seat.from_row({"kind": "bot", "name": "greedy bot 1", "spec": "greedy"})
    assert seat.kind is SeatKind.BOT and not seat.human
    assert seat.row()["kind"] == "bot"  # stored as before


def test_a_bot_spec_is_read_once_into_a_typed_value(client, monkeypatch):
    """The spec is read at the edge (table creation) into an ``AgentSpec``: the thinking cap
    is an option of that value, not text appended, and the bot runner plays the plan made
    then without reading the spec again."""
    from nightsky.agents.base import AgentSpec
    from nightsky.server.bounds import plan_bot
    from nightsky.server.rooms import bots
    from nightsky.server.settings import Settings
    from tests.server.conftest import create, settle

    plan = plan_bot("mcts:iterations=100", Settings(think_seconds=3))
    assert isinstance(plan.bot, AgentSpec) and plan.bot.name == "mcts"
    assert plan.bot.kwargs == {"iterations": 100, "seconds": 3}
    assert plan.spec == "mcts:iterations=100,seconds=3"

    def read_again(*args, **kwargs):
        raise AssertionError("a bot spec was read again")

    monkeypatch.setattr(bots, "plan_bot", read_again)
    made = create(client, "shooting-star", ["random", "greedy"])
    settle(client, made["id"])
    room = client.app.state.manager.get(made["id"])
    assert len(room.state.history) > 10  # both bots played
    cap = client.app.state.settings.think_seconds  # greedy is an anytime agent: it gets the cap
    assert {i: p.bot for i, p in room.agents.items()} == {
        0: AgentSpec("random"), 1: AgentSpec("greedy").with_options(seconds=cap)
    }
