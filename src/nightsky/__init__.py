"""nightsky: five star-themed tabletop games played exactly by their rulebooks."""

# First: decides compiled vs pure before any engine module is imported.
from nightsky import _native  # noqa: F401  isort: skip
from nightsky._version import __version__
from nightsky.core import CHANCE, Game, GameError, State, game_ids, load_game
from nightsky.core.registry import declare_game_package

# The composition root: the shipped games are the subpackages of ``nightsky.games`` (the
# registry in ``core`` never names a higher layer; other distributions use entry points).
declare_game_package("nightsky.games")

__all__ = ["CHANCE", "Game", "GameError", "State", "__version__", "game_ids", "load_game"]
