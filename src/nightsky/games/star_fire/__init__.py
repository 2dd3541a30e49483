"""Star Fire: Galactic Architects (``star-fire``), 2-6 players."""

from nightsky.games.star_fire.game import StarFireGame as GAME

__all__ = ["GAME"]
