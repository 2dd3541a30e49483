"""Operations: liveness and readiness probes, and the server's work per move."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, Response

from nightsky.server import models as m
from nightsky.server.routes.deps import Tables

log = logging.getLogger("nightsky.server")

router = APIRouter()


@router.get("/healthz", response_model=m.Health, tags=["ops"])
async def healthz() -> dict[str, Any]:
    """Liveness: the process answers (200). It checks nothing else."""
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=m.Ready,
    tags=["ops"],
    responses={503: {"model": m.Ready, "description": "The database cannot be reached."}},
)
def readyz(response: Response, manager: Tables) -> dict[str, Any]:
    """Readiness: the database answers a read (200), else 503."""
    try:
        manager.store.ping()
    except Exception as exc:  # any driver's error: the answer is the same
        # The error's class only: a driver's message may hold the URL with its password.
        log.warning("readiness: the database cannot be reached (%s)", type(exc).__name__)
        response.status_code = 503
        return {"status": "unavailable", "database": "unreachable"}
    return {"status": "ready", "database": "ok"}


@router.get("/api/metrics", response_model=m.Metrics, tags=["ops"])
def get_metrics(manager: Tables) -> dict[str, Any]:
    """Server-side work per move (apply + chance + commit + push), bots' thinking excluded."""
    from nightsky.sim.stats import percentile

    out: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    for kind, values in manager.timings.items():
        xs = sorted(values)
        counts[kind] = len(xs)
        out[kind] = {f"p{q}": round(percentile(xs, q / 100), 3) for q in (50, 95, 99)} | {
            "max": xs[-1] if xs else 0.0
        }
    return {"moves": counts, "latency_ms": out, "games_in_memory": len(manager.rooms)}
