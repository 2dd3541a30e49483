"""What a bot seat may ask of this server: checked at creation and again before every move.

A spec is refused (``OptionError``, answered 422 naming the seat) when it is too long, holds a
number that is not finite (``nan``, ``inf``), asks for more thinking time (``seconds=``) than
the server's cap, or when the agent itself refuses its parameters (the agents bound them). A
search agent (one with a ``seconds`` budget) that names none gets the cap, so however many
iterations it asks for it plays its best move so far when the cap is reached. Nothing here
knows an agent or a game: only the spec's keys and values, and whether the agent has a time
budget. A difficulty level (``hard``) is first replaced by the spec its game names for it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from nightsky.agents.base import Agent, AgentSpec, level_spec, make_agent
from nightsky.core.errors import GameError, OptionError
from nightsky.server.settings import Settings


@dataclass(frozen=True)
class BotPlan:
    """How a bot seat is played: the spec that runs (read once, a typed value), and where."""

    bot: AgentSpec  # the seat's spec, with the thinking cap added to a search agent's
    agent: Agent
    pooled: bool  # in a worker process (search seats) rather than the server's threads
    cheat: bool

    @property
    def spec(self) -> str:
        """The spec that runs, as text (for logs)."""
        return str(self.bot)


def plan_bot(spec: str, settings: Settings, game: Any = None) -> BotPlan:
    """Read ``spec`` once and check it against the server's bounds; OptionError names the
    parameter. With ``game`` (a game, its info or id) a difficulty level becomes that game's
    spec for it."""
    if len(spec) > settings.spec_max_chars:
        raise OptionError(f"agent spec longer than {settings.spec_max_chars} characters")
    bot = AgentSpec.parse(level_spec(spec, game) if game is not None else spec)
    for key, value in bot.options:
        if isinstance(value, float) and not math.isfinite(value):
            raise OptionError(f"{key} must be a finite number, got {value}")
    cap = settings.think_seconds
    seconds = bot.kwargs.get("seconds")
    if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > cap:
        raise OptionError(
            f"seconds={seconds:g} is above this server's thinking cap of {cap:g} s a move"
        )
    agent = _build(bot)
    if getattr(agent, "seconds", False) is None:  # a search agent without a time budget
        bot = bot.with_options(seconds=cap)
        agent = _build(bot)
    pooled = settings.bot_processes > 0 and bot.name not in settings.inline_agents
    return BotPlan(bot, agent, pooled, bool(bot.kwargs.get("cheat")))


def _build(bot: AgentSpec) -> Agent:
    try:
        return make_agent(bot)
    except GameError:
        raise
    except (ValueError, TypeError, OverflowError, ArithmeticError) as exc:
        # An agent that does not check a value itself: refuse it, never answer 500.
        raise OptionError(f"agent spec {str(bot)!r}: {type(exc).__name__}: {exc}") from None
