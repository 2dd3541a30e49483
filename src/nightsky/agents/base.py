"""Agents: ``choose(state, player, rng) -> Action`` built from spec strings.

A spec is ``name`` or ``name:key=value,key=value`` (``mcts:iterations=800``). Agents see the
state only through ``view``/``resample`` unless their spec says ``cheat=true``.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any, Protocol

from nightsky.core.errors import OptionError
from nightsky.core.game import Action, State


class Agent(Protocol):
    name: str

    def choose(self, state: State, player: int, rng: random.Random) -> Action: ...


_FACTORIES: dict[str, Callable[..., Agent]] = {}


def register_agent(name: str) -> Callable[[Callable[..., Agent]], Callable[..., Agent]]:
    """Decorator: make ``name`` usable in spec strings."""

    def deco(factory: Callable[..., Agent]) -> Callable[..., Agent]:
        _FACTORIES[name] = factory
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


def agent_names() -> list[str]:
    _load_builtin()
    return sorted(_FACTORIES)


def make_agent(spec: str) -> Agent:
    """Build an agent from a spec string such as ``random`` or ``greedy``."""
    _load_builtin()
    name, kwargs = parse_spec(spec)
    factory = _FACTORIES.get(name)
    if factory is None:
        raise OptionError(f"unknown agent {name!r}; known agents: {', '.join(sorted(_FACTORIES))}")
    try:
        agent = factory(**kwargs)
    except TypeError as exc:
        raise OptionError(f"agent spec {spec!r}: {exc}") from None
    agent.name = spec
    return agent


def _load_builtin() -> None:
    # Importing registers; kept lazy so `nightsky.agents.base` has no import cycle.
    import nightsky.agents.simple  # noqa: F401

    with contextlib.suppress(ImportError):  # search agents are optional
        import nightsky.agents.search  # noqa: F401
