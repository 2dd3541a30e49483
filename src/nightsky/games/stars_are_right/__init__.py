"""The Stars Are Right (2-4 players): rearrange the sky to summon the Great Old Ones."""

from .game import StarsAreRightGame as GAME

__all__ = ["GAME"]
