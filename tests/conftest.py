"""Shared fixtures. The toy game is registered for every test so the shared machinery is
tested on its own, independent of the real games."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from nightsky.core.registry import register
from tests.support.toygame import ToyGame

register(ToyGame)

settings.register_profile(
    "nightsky",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=int(os.environ.get("NIGHTSKY_HYPOTHESIS_EXAMPLES", "8")),
)
settings.load_profile("nightsky")
