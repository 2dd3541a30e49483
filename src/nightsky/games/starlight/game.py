"""The ``starlight`` game: options, action codec, tutorials and conformance configurations."""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property
from typing import Any

from nightsky.core.errors import OptionError
from nightsky.core.game import Game, GameInfo, Option, Tutorial

from .actions import Act, Draw, build_actions, build_draws
from .components import Tables, load_tables

LEVELS = ("easy", "medium", "hard", "expert")
"""Starbot difficulty settings, easiest first; the value is day points per launched star."""
LEVEL_POINTS = {"easy": 0, "medium": 2, "hard": 4, "expert": 6}


class StarlightGame(Game):
    """Starlight for 1-5 live players plus Starbots (at most five seats in all)."""

    info = GameInfo(
        id="starlight",
        title="Starlight",
        min_players=1,
        max_players=5,
        chance=True,
        hidden_information=True,
        simultaneous=False,
        # The turn is a long run of small steps that evaluate() rates well one by one: random
        # playouts mislead the search, a tight UCB on evaluated leaves does not (docs/agents.md).
        search_defaults="rollout=none,c=0.2",
        description=(
            "Move on a rondel of seven action spaces, gather Cores and Rays, forge stars and "
            "launch them into the constellations. Starbots are automated seats driven by their "
            "own deck; Gods are an optional variant."
        ),
        options=(
            Option("starbots", int, 0, "Starbot seats added after the live players", None, 0, 4),
            Option(
                "starbot_level",
                str,
                "medium",
                "Starbot difficulty (day points per launched Starbot star: 0/2/4/6)",
                LEVELS,
            ),
            Option("gods", bool, False, "deal two God cards to each live player, keep one"),
            Option(
                "max_rounds",
                int,
                40,
                "safeguard: daybreak comes at the end of this round at the latest (SL-12.6)",
                None,
                2,
                200,
            ),
            Option("components", str, "", "path of a TOML file replacing shipped tables"),
        ),
        default_players=2,
    )

    def validate_options(self) -> None:
        if self.num_players + self.options["starbots"] > 5:
            raise OptionError(
                "Starlight seats at most five players in all, live and Starbot (SL-1.1): "
                f"{self.num_players} live + {self.options['starbots']} Starbots is too many"
            )
        self.tables  # noqa: B018 - load the components now so a bad file fails at once
        if self.num_players == 1:
            # Alone, the live player sees every secret there is (only their own Laurels and
            # God cards are dealt); Starbots hold no cards. This game has no hidden information.
            self.__dict__["info"] = replace(type(self).info, hidden_information=False)

    @property
    def num_seats(self) -> int:
        return self.num_players + self.options["starbots"]

    def seat_name(self, seat: int) -> str:
        return f"Starbot {seat + 1} ({self.options['starbot_level']})"

    @cached_property
    def tables(self) -> Tables:
        return load_tables(self.options["components"])

    @property
    def per_star_points(self) -> int:
        return LEVEL_POINTS[self.options["starbot_level"]]

    @cached_property
    def _built(self) -> tuple[list[Act], dict]:
        return build_actions(self.tables)

    @cached_property
    def act_index(self) -> dict:
        return self._built[1]

    @cached_property
    def _draws(self) -> tuple[dict, dict[str, Draw]]:
        return build_draws(self.tables)

    @property
    def draws(self) -> dict:
        return self._draws[0]

    def all_actions(self) -> list[Act]:
        return self._built[0]

    def parse_chance(self, text: str) -> Draw | None:
        return self._draws[1].get(text)

    def new_initial_state(self) -> Any:
        from .state import StarlightState

        return StarlightState(self)

    def redact_action(self, seat: int, action: Any, viewer: int | None) -> str:
        # Only the Laurel and God deals are secret; other draws are seen by everyone.
        text = str(action)
        if text.startswith("deal "):
            return "deal (hidden)"
        return text

    @property
    def observation_size(self) -> int:
        from .views import observation_size

        return observation_size(self)

    def tutorials(self) -> list[Tutorial]:
        from .tutorial import example_of_play

        return [example_of_play()]

    @classmethod
    def conformance_configs(cls) -> list[dict[str, Any]]:
        """Every mix of 1-5 live players and 0-4 Starbots (at most five seats), and Gods once.

        Random live players seldom launch, so without Starbots a random game only ends by the
        round-limit safeguard (SL-12.6); those configurations set it to 20 rounds, about the
        length of a real game, to keep the suite quick. Real games reaching daybreak by points
        is checked in ``tests/games/starlight/test_starlight_balance.py``.
        """
        out: list[dict[str, Any]] = []
        for live in range(1, 6):
            for bots in range(0, 6 - live):
                cfg: dict[str, Any] = {"players": live, "starbots": bots}
                if not bots:
                    cfg["max_rounds"] = 20
                out.append(cfg)
        out.append({"players": 2, "starbots": 1, "gods": True})
        return out
