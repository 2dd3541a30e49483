"""Mihi Anguli: the star-mapping roll-and-write, solo and simultaneous multiplayer."""

from nightsky.games.mihi_anguli.game import MihiAnguliGame as GAME

__all__ = ["GAME"]
