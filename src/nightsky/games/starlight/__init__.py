"""Starlight: forge stars from Cores and Rays and launch them into the constellations."""

from .game import StarlightGame as GAME

__all__ = ["GAME"]
