"""Agents built from spec strings: ``make_agent("random")``, ``make_agent("mcts:iterations=9")``."""

from nightsky.agents.base import Agent, agent_names, make_agent, parse_spec, register_agent

__all__ = ["Agent", "agent_names", "make_agent", "parse_spec", "register_agent"]
