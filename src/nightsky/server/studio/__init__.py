"""The design studio in the browser (``nightsky serve --studio``): upload or edit a components
file, run a balance, compare or sweep as a background job, read its report.

``mount(app, settings)`` includes the studio's router and makes its ``Studio`` (kept as
``app.state.studio``) only when ``settings.studio`` is on: otherwise none of its paths exist.
"""

from __future__ import annotations

from fastapi import FastAPI

from nightsky.server.settings import Settings
from nightsky.server.studio.runner import Studio

__all__ = ["Studio", "mount"]


def mount(app: FastAPI, settings: Settings) -> Studio | None:
    """Serve the studio on ``app`` when the settings ask for it; its ``Studio`` or None."""
    if not settings.studio:
        return None
    from nightsky.server.studio.routes import router

    studio = Studio(settings)
    app.state.studio = studio
    app.include_router(router)
    return studio
