"""``Club``: what ``create_app`` makes once for the club's routes (ratings, friends,
tournaments) and the hook that settles a game's result in its last transaction."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from nightsky.server.accounts import Accounts
from nightsky.server.club.friends import Friends
from nightsky.server.club.ratings import Ratings, settle
from nightsky.server.club.tournaments import Tournaments, record
from nightsky.server.rooms import Manager
from nightsky.server.settings import Settings
from nightsky.server.store import GameRow


class Club:
    """The club's services on the table manager's database."""

    def __init__(self, manager: Manager, accounts: Accounts, settings: Settings) -> None:
        self.manager, self.accounts = manager, accounts
        self.ratings = Ratings(manager.store, settings.leaderboard_min_games)
        self.friends = Friends(manager.store, settings.friend_invites_per_hour)
        self.tournaments = Tournaments(
            manager, accounts, settings.tournament_max_players,
            poll=settings.tournament_poll_seconds,
        )
        manager.store.on_result = self.on_result

    def on_result(self, s: Session, game_id: str, places: list[int]) -> None:
        """Inside the commit that ends ``game_id``: its rating, its tournament table's result."""
        game = s.get(GameRow, game_id)
        if game is None:
            return
        if game.rated:
            settle(s, game_id, places)
        if game.tournament is not None and record(s, game_id, places) is not None:
            self.tournaments.wake.set()  # the round may be complete: look now

    def for_account(self, account_id: int) -> list[dict[str, Any]]:
        """An account's ratings (the profile's ``ratings``)."""
        return self.ratings.of_account(account_id)

    def start(self) -> None:
        self.tournaments.start()

    def close(self) -> None:
        self.tournaments.stop()
