"""Rating maths of the club, free of the database: who finished where, the openskill update,
the number a player reads, and the bots' fixed reference ratings.

One rating per game and player-count *family* (``duel``: two players; ``multi``: three or
more), since being good at a duel says little about a five-player table. Ratings are
openskill's Plackett-Luce (mu, sigma); the number shown is the ordinal ``mu - 3 sigma`` (the
rating the player is very likely above) on a familiar scale: ``1500 + 20 * ordinal``, so a
newcomer reads 1500 and the number rises as the server grows sure of them. The bots' reference
ratings come from the game's ladder (``docs/agents.md``: openskill ordinals of 200 games a
pairing), stored as ``games/<package>/data/ladder.json`` and put on the same scale.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from openskill.models import PlackettLuce

from nightsky.core.errors import GameError
from nightsky.core.registry import game_class

DISPLAY_BASE = 1500
DISPLAY_SCALE = 20
START_MU = 25.0
START_SIGMA = 25.0 / 3.0
MODEL = PlackettLuce(mu=START_MU, sigma=START_SIGMA)
LEVELS = ("random", "easy", "medium", "hard", "expert")
"""The bot levels a reference rating may name, weakest first."""


@dataclass(frozen=True)
class Skill:
    """One player's rating in one game and family: openskill's mean and uncertainty."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma

    @property
    def shown(self) -> int:
        """The number a player reads (``1500 + 20 * ordinal``)."""
        return shown(self.ordinal)


def shown(ordinal: float) -> int:
    """An openskill ordinal on the displayed scale."""
    return int(round(DISPLAY_BASE + DISPLAY_SCALE * ordinal))


def family(players: int) -> str:
    """The player-count family a table's rating belongs to: ``duel`` (2) or ``multi`` (3+)."""
    if players < 2:
        raise ValueError(f"players: a rated table needs at least 2 players, not {players}")
    return "duel" if players == 2 else "multi"


def ranks(
    players: int, winners: list[int], scores: list[float] | None, resigned: list[int]
) -> list[int]:
    """Each seat's place (1 = best, ties share a place) at the end of a game: the winners
    first, then the others by score (when the game has scores), and every seat that resigned
    or abandoned last, whatever its score: giving up is a loss."""
    out, won = set(resigned), set(winners)

    def key(i: int) -> tuple[int, int, float]:
        score = float(scores[i]) if scores is not None and i < len(scores) else 0.0
        return (1 if i in out else 0, 0 if i in won else 1, -score)

    keys = [key(i) for i in range(players)]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def update(before: list[Skill], places: list[int]) -> list[Skill]:
    """The seats' ratings after one game where seat ``i`` finished at ``places[i]``."""
    if len(before) != len(places) or len(before) < 2:
        raise ValueError("update: one place per rated seat, at least two seats")
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [
        Skill(mu=float(t[0].mu), sigma=float(t[0].sigma), games=s.games + 1)
        for s, t in zip(before, after, strict=True)
    ]


@cache
def references(game_id: str) -> dict[str, float]:
    """The bot levels' fixed reference ordinals of ``game_id`` from its ladder (empty when
    the game ships none): ``{"random": -7.2, "easy": 14.0, ...}``."""
    try:
        package = game_class(game_id).__module__.rsplit(".", 1)[0]
        raw = resources.files(package).joinpath("data", "ladder.json").read_text()
    except (GameError, FileNotFoundError, ModuleNotFoundError, KeyError, ValueError):
        return {}
    data: dict[str, Any] = json.loads(raw)
    return {k: float(v) for k, v in data["ratings"].items() if k in LEVELS}


def like_level(game_id: str, ordinal: float) -> str | None:
    """The bot level whose reference rating is nearest ``ordinal`` ("about as strong as
    hard"); None when the game has no ladder."""
    refs = references(game_id)
    if not refs:
        return None
    return min(refs, key=lambda level: (abs(refs[level] - ordinal), LEVELS.index(level)))

