"""Agents: ``choose(state, player, rng) -> Action`` built from spec strings.

A spec is ``name`` or ``name:key=value,key=value`` (``mcts:iterations=800``). Agents see the
state only through ``view``/``resample`` unless their spec says ``cheat=true``.

Names come from ``register_agent`` (the built-in agents, game-specific bots) and from the
entry-point group ``nightsky.agents`` of installed distributions: the entry point's name is the
agent's name and its object a factory taking the spec's keyword arguments::

    [project.entry-points."nightsky.agents"]
    cautious = "my_package.bots:CautiousAgent"

A plug-in is imported only when its agent is built; a built-in name is never replaced.

The difficulty levels ``easy``, ``medium``, ``hard`` and ``expert`` are agent specs too: each
game names, in ``GameInfo.levels``, the spec that plays each level there (``level_spec``).
``make_agent("hard", game)`` builds that game's spec at once (an ``OptionError`` naming the
game when it has no such level); without a game the level is resolved on the first move, from
the state's game. Keys given with a level (``expert:seconds=1``) override the level's own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from nightsky.agents.kit import Agent, Bounds, check_flag, determinize
from nightsky.core.errors import OptionError
from nightsky.core.game import Action, State
from nightsky.core.info import LEVEL_NAMES, GameInfo
from nightsky.core.registry import game_class, game_classes, load_object

__all__ = [
    "Agent", "Bounds", "LevelAgent", "agent_catalog", "agent_names", "check_flag",
    "determinize", "level_spec", "make_agent", "parse_spec", "register_agent", "spec_seconds",
]

BUILTIN: dict[str, tuple[str, str]] = {
    "random": ("nightsky.agents.simple:RandomAgent", "Picks uniformly among the legal actions."),
    "greedy": (
        "nightsky.agents.simple:GreedyAgent",
        "One-ply lookahead: takes the action whose resulting position evaluates best.",
    ),
    "ismcts": (
        "nightsky.agents.search:ISMCTSAgent",
        "Information-set MCTS: a fresh determinization (state.resample) every iteration.",
    ),
    "mcts": (
        "nightsky.agents.search:MCTSAgent",
        "UCT on the perfect-information view: one determinization per decision, chance "
        "sampled.",
    ),
}
"""The built-in agents, declared here as a plug-in declares its own: name -> (``module:attribute``
of the factory, one line for ``nightsky agents``). Each is imported when first needed, so the
registry imports no agent module and an agent (the search builds its rollout policies by spec)
may use the registry. A game declares its bots in ``Game.agents``; an installed distribution in
the entry-point group ``nightsky.agents``."""

class _Factories(dict[str, Callable[..., Agent]]):
    """Agent name -> factory. A name not found yet (``get``) is looked for among the bots the
    registered games declare (``Game.agents``) before it is refused: building ``random`` or
    ``ismcts`` (a server's bot worker does it first thing) never imports every game."""

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        if name not in self:
            _load_game_agents()
        return super().get(name, default)


_FACTORIES: _Factories = _Factories()
_ABOUT: dict[str, str] = {name: about for name, (_, about) in BUILTIN.items()}
"""One-line descriptions (else the factory's docstring is used)."""


def register_agent(
    name: str, about: str | None = None
) -> Callable[[Callable[..., Agent]], Callable[..., Agent]]:
    """Decorator: make ``name`` usable in spec strings at run time (tests, notebooks, scripts);
    shipped agents are declared instead (``BUILTIN``, ``Game.agents``, entry points). ``about``
    (one line for ``nightsky agents``) defaults to the first paragraph of the factory's
    docstring."""

    def deco(factory: Callable[..., Agent]) -> Callable[..., Agent]:
        _FACTORIES[name] = factory
        if about is not None:
            _ABOUT[name] = about
        return factory

    return deco


def _coerce(value: str) -> Any:
    low = value.lower()
    if low in {"true", "yes", "on"}:
        return True
    if low in {"false", "no", "off"}:
        return False
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value,...`` into its name and keyword arguments."""
    spec = spec.strip()
    if not spec:
        raise OptionError("empty agent spec")
    name, _, rest = spec.partition(":")
    kwargs: dict[str, Any] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise OptionError(f"agent spec {spec!r}: expected key=value, got {part!r}")
            kwargs[key.strip()] = _coerce(value.strip())
    return name.strip(), kwargs


@dataclass(frozen=True)
class AgentSpec:
    """A spec read once into its parts: the agent's name and its options in the order given.

    ``str(spec)`` writes it back as ``name:key=value,...``; ``make_agent`` takes this value
    as it takes the text, without reading it again (the server passes this value around)."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, spec: str) -> AgentSpec:
        """Read ``name:key=value,...`` (``OptionError`` names what cannot be read)."""
        name, kwargs = parse_spec(spec)
        return cls(name, tuple(kwargs.items()))

    @property
    def kwargs(self) -> dict[str, Any]:
        """The options as keyword arguments of the agent's factory."""
        return dict(self.options)

    def with_options(self, **extra: Any) -> AgentSpec:
        """This spec with ``extra`` options added (a given key keeps its place)."""
        return AgentSpec(self.name, tuple({**self.kwargs, **extra}.items()))

    def __str__(self) -> str:
        return _spec_text(self.name, self.kwargs)


def agent_names() -> list[str]:
    """The names spec strings may use (difficulty levels aside), sorted."""
    _load_builtin()
    _load_game_agents()
    return sorted(_FACTORIES)


def agent_catalog() -> list[dict[str, str]]:
    """Each agent name with the first paragraph of its factory's docstring (a plug-in is not
    imported for it)."""
    _load_builtin()
    _load_game_agents()
    rows = []
    for name in sorted(_FACTORIES):
        doc = _ABOUT.get(name) or (_FACTORIES[name].__doc__ or "").strip().split("\n\n")[0]
        rows.append({"name": name, "about": " ".join(doc.replace("``", "").split())})
    return rows


def game_info(game: Any) -> GameInfo:
    """The ``GameInfo`` of ``game``: a ``GameInfo``, anything with an ``info`` (a game, its
    class) or a registered game id."""
    if isinstance(game, GameInfo):
        return game
    if isinstance(game, str):
        return game_class(game).info
    info = getattr(game, "info", None)
    if isinstance(info, GameInfo):
        return info
    raise OptionError(f"not a game: {game!r}")


def _spec_text(name: str, kwargs: dict[str, Any]) -> str:
    if not kwargs:
        return name
    parts = (f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in kwargs.items())
    return f"{name}:{','.join(parts)}"


def level_spec(spec: str, game: Any) -> str:
    """``spec`` with a difficulty level (``hard``, ``expert:seconds=1``) replaced by the spec
    that plays it in ``game`` (``GameInfo.levels``), the spec's own keys winning over the
    level's; any other spec unchanged. ``OptionError`` names the game when it lacks the level."""
    name, kwargs = parse_spec(spec)
    if name not in LEVEL_NAMES:
        return spec
    info = game_info(game)
    level = info.level(name)
    if level is None:
        known = ", ".join(lvl.name for lvl in info.levels) or "none"
        raise OptionError(
            f"game {info.id!r} has no difficulty level {name!r}; its levels: {known}"
        )
    base, base_kwargs = parse_spec(level.spec)
    if base in LEVEL_NAMES:
        raise OptionError(f"game {info.id!r}: level {name!r} is defined as another level")
    return _spec_text(base, {**base_kwargs, **kwargs})


class LevelAgent:
    """A difficulty level built without its game: the game's spec for the level is looked up
    on the first move (from ``state.game``) and kept per game."""

    def __init__(self, spec: str) -> None:
        self.name = spec
        self._agents: dict[str, Agent] = {}

    def resolved(self, game: Any) -> Agent:
        """The agent that plays this level in ``game`` (built once per game)."""
        info = game_info(game)
        agent = self._agents.get(info.id)
        if agent is None:
            agent = self._agents[info.id] = make_agent(level_spec(self.name, info))
        return agent

    def choose(self, state: State, player: int, rng: random.Random) -> Action:
        return self.resolved(state.game).choose(state, player, rng)


def make_agent(spec: str | AgentSpec, game: Any = None) -> Agent:
    """Build an agent from a spec such as ``random``, ``greedy`` or ``ismcts:seconds=1``:
    its text, or an ``AgentSpec`` already read (not read again).

    A difficulty level (``easy``, ``medium``, ``hard``, ``expert``) becomes the spec ``game``
    names for it (a game, its ``GameInfo`` or its id); without ``game`` it is resolved on the
    first move. The agent's ``name`` is ``spec`` as given (an ``AgentSpec`` as its text)."""
    _load_builtin()
    parsed = spec if isinstance(spec, AgentSpec) else AgentSpec.parse(spec)
    label = str(spec)
    if parsed.name in LEVEL_NAMES:
        level: Agent = LevelAgent(label) if game is None else make_agent(level_spec(label, game))
        level.name = label
        return level
    factory = _FACTORIES.get(parsed.name)
    if factory is None:
        raise OptionError(
            f"unknown agent {parsed.name!r}; known agents: {', '.join(sorted(_FACTORIES))}"
        )
    try:
        agent = factory(**parsed.kwargs)
    except TypeError as exc:
        raise OptionError(f"agent spec {label!r}: {exc}") from None
    agent.name = label
    return agent


def spec_seconds(spec: str, game: Any = None) -> float | None:
    """The wall-clock seconds an agent built from ``spec`` may think per decision when the spec
    bounds it with ``seconds`` (at most 60; a search may overrun by one iteration), else None.
    A difficulty level is read as ``game``'s spec for it (None without a game). Raises
    ``OptionError`` for a bad spec."""
    if game is not None:
        spec = level_spec(spec, game)
    make_agent(spec)  # checks every key
    seconds = parse_spec(spec)[1].get("seconds")
    return None if seconds is None else float(seconds)


ENTRY_POINTS = "nightsky.agents"
"""The entry-point group through which installed distributions add agents."""


def _plugin_factory(ep: EntryPoint) -> Callable[..., Agent]:
    """A factory that imports the plug-in when the agent is first built."""

    def build(**kwargs: Any) -> Agent:
        try:
            factory = ep.load()
        except Exception as exc:  # noqa: BLE001 - say which plug-in, whatever broke
            raise OptionError(
                f"agent plug-in {ep.name!r} ({ep.value}) failed to load: {exc}"
            ) from exc
        agent: Agent = factory(**kwargs)
        return agent

    build.__doc__ = f"Agent plug-in {ep.name} ({ep.value})."
    return build


@cache
def _load_plugins() -> None:
    for ep in entry_points(group=ENTRY_POINTS):
        _FACTORIES.setdefault(ep.name, _plugin_factory(ep))


@cache
def _load_declared() -> None:
    """The built-in agents (``BUILTIN``), imported once; the search agents are optional."""
    for name, (where, _) in BUILTIN.items():
        try:
            _FACTORIES.setdefault(name, load_object(where))
        except ImportError:  # pragma: no cover - only where the search module cannot load
            continue


def _load_game_agents() -> None:
    """The bots the registered games declare (``Game.agents``), imported now."""
    for cls in game_classes():
        for name, where in cls.agents.items():
            if name not in _FACTORIES:
                _FACTORIES[name] = load_object(where)


def _load_builtin() -> None:
    """The built-in agents, then the plug-ins' (a name taken first is never replaced); the
    games' own are loaded when a name is not found (``_Factories.get``) or all are listed."""
    _load_declared()
    _load_plugins()
