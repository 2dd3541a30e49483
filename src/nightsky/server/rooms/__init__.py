"""Live tables on the server, one file per part:

- ``seat``: a seat (``SeatKind``: human, bot, or the rules' own), its token and invites;
- ``table``: a table in memory (``Room``): act, undo, join, claim, renew, leave, away,
  time-outs, what each viewer is sent;
- ``bots``: the bot runner (``BotRunner``) that plays bot seats and stand-ins;
- ``creation``: what a new table is made of, checked (``NewGame``, seats, clocks, caps);
- ``manager``: the table manager (``Manager``): load, create, evict, ``hold`` for a change,
  ``drive`` and ``tick`` (clocks and bots);
- ``errors``, ``timings``: the API's errors, the work per move.

The clocks themselves (``TableClock``, ``ClockDriver``) are ``nightsky.server.clocks``.
Nothing here is game-specific: everything goes through the game contract.
"""

from nightsky.server.rooms.bots import BotRunner
from nightsky.server.rooms.creation import NewGame
from nightsky.server.rooms.errors import (
    Conflict,
    Evicted,
    ServerError,
    StorageFailure,
    game_error,
)
from nightsky.server.rooms.manager import Created, Manager, _plausible_id
from nightsky.server.rooms.seat import Seat, SeatKind, hash_token, unique_name
from nightsky.server.rooms.table import Room, Subscriber
from nightsky.server.rooms.timings import Timings
from nightsky.server.views import encode

__all__ = [
    "BotRunner",
    "Conflict",
    "Created",
    "Evicted",
    "Manager",
    "NewGame",
    "Room",
    "Seat",
    "SeatKind",
    "ServerError",
    "StorageFailure",
    "Subscriber",
    "Timings",
    "_plausible_id",
    "encode",
    "game_error",
    "hash_token",
    "unique_name",
]
