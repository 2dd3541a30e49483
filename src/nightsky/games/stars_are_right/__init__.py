"""The Stars Are Right (2-4 players): rearrange the sky to summon the Great Old Ones."""

from . import bench, planner  # noqa: F401  (planner registers the ``tsar-planner`` agent)
from .game import StarsAreRightGame as GAME

bench.register()

__all__ = ["GAME"]
