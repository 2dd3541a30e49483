"""The errors of the live tables: what the API answers (``ServerError``, a stable code and an
HTTP status) and what a change meets on its way to the store."""

from __future__ import annotations

from typing import Any

from nightsky.core.errors import GameError, GameOverError


class ServerError(Exception):
    """An error the API reports with a stable ``code`` and an HTTP status."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


class Evicted(Exception):
    """The room was dropped from memory while a request held it: ask the manager again."""


class StorageFailure(ServerError):
    """The database refused a commit: the room in memory no longer matches what is stored."""

    def __init__(self) -> None:
        super().__init__(503, "storage_error", "the move could not be saved; try again")


class Conflict(StorageFailure):
    """Another server process committed a change on the same version first (the game in the
    database moved on): the same 409 as a stale version; the room is reloaded."""

    def __init__(self) -> None:
        ServerError.__init__(
            self,
            409,
            "stale_version",
            "the game has moved on (another change was saved first); look again and choose",
        )


def game_error(exc: GameError) -> ServerError:
    """Map a rules error to the API's error (422 for a refused action, 409 when over)."""
    status = 409 if isinstance(exc, GameOverError) else 422
    return ServerError(status, exc.code, str(exc), rule=exc.rule)

