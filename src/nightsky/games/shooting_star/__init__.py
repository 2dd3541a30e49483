"""Shooting Star (2-5 players): face-down Destruction cards, priority resolution, isolation."""

from nightsky.games.shooting_star.game import ShootingStarGame as GAME

__all__ = ["GAME"]
