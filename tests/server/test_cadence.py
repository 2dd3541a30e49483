"""Issue 52: in a game with hidden information a bot's move is pushed on a fixed cadence
(setting ``bot_cadence``), so the time it took to think, which grows with the choices it has
and the others cannot see, tells nothing; a game without hidden information is not held back."""

from __future__ import annotations

import threading
import time
import warnings
from typing import Any

import pytest

from nightsky.agents.base import register_agent
from nightsky.agents.simple import RandomAgent
from nightsky.server import create_app
from nightsky.server.rooms import Subscriber
from nightsky.server.rooms.bots import cadence_wait
from nightsky.server.settings import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

CADENCE = 0.3


@register_agent("test-slow-random", "A random agent that thinks 0.4 s per legal action.")
class SlowRandom(RandomAgent):
    """Thinking time proportional to the legal-action count: what the cadence must hide."""

    def choose(self, state: Any, player: int, rng: Any) -> Any:
        time.sleep(min(0.4 * len(state.legal_actions(player)), 0.8))
        return super().choose(state, player, rng)


def test_cadence_wait_pads_to_the_next_whole_step() -> None:
    assert cadence_wait(0.0, 0.5) == pytest.approx(0.5)  # never sooner than one step
    assert cadence_wait(0.1, 0.5) == pytest.approx(0.4)
    assert cadence_wait(0.5, 0.5) == pytest.approx(0.0)
    assert cadence_wait(0.7, 0.5) == pytest.approx(0.3)
    assert cadence_wait(2.26, 0.25) == pytest.approx(0.24)


def push_times(
    db: str, game: str, seats: list[str], pushes: int, cadence: float
) -> list[float]:
    """Monotonic times of the first ``pushes`` views pushed by an all-bot table of ``game``."""
    settings = Settings(bot_processes=0, bot_cadence=cadence, inline_agents=(
        "random", "test-slow-random"))
    times: list[float] = []
    enough = threading.Event()

    def push(_: dict[str, Any]) -> None:
        times.append(time.monotonic())
        if len(times) > pushes:
            enough.set()

    with TestClient(create_app(db, settings=settings)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        r = client.post("/api/games", json={"game": game, "players": 2, "seats": seats})
        assert r.status_code == 201, r.text
        room = manager.get(r.json()["id"])
        with room.lock:  # the first bot move is pending: it is timed from the last change
            manager.subscribe(room, Subscriber(seat=None, push=push))
            times.append(room.changed_at)
        assert enough.wait(30), times
    return times[: pushes + 1]


def off_grid(times: list[float], cadence: float) -> list[float]:
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    return [g for g in gaps if g < cadence - 0.02 or abs(g / cadence - round(g / cadence)) > 0.2]


def test_bot_moves_of_a_hidden_information_game_are_pushed_on_the_cadence(db_url) -> None:
    times = push_times(db_url, "star-fire", ["test-slow-random", "random"], 6, CADENCE)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert not off_grid(times, CADENCE), gaps
    # The slow seat's moves took two or three steps, the random seat's one: thinking time
    # shows only as whole steps, never as its own length.
    assert {round(g / CADENCE) for g in gaps} > {1}, gaps


def test_a_game_without_hidden_information_is_not_held_back(db_url) -> None:
    times = push_times(db_url, "mihi-anguli", ["random", "random"], 6, 2.0)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert max(gaps) < 1.0, gaps  # a 2 s cadence would show in every gap
