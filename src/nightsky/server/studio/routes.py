"""The studio's page and API (mounted only on a server started with ``--studio``):

- ``GET /studio``: the page;
- ``GET /api/studio/games``: the games, their player counts and lab agents;
- ``GET /api/studio/shipped/{game}``: the shipped components file, to edit;
- ``POST /api/studio/uploads``: check a components file's text and keep it by its hash;
- ``POST /api/studio/jobs``: start a balance, compare or sweep; ``GET`` lists yours;
- ``GET /api/studio/jobs/{id}``, ``POST .../cancel``, ``GET .../report`` (the report's JSON)
  and ``GET .../files/{name}`` (the report's page and plots, only the job's own files).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, PlainTextResponse

from nightsky.core.errors import GameError
from nightsky.core.registry import game_class, game_ids
from nightsky.server.guards import client_of
from nightsky.server.rooms import ServerError
from nightsky.server.routes.deps import ERRORS, Limits, on_app
from nightsky.server.routes.pages import WEB_DIR
from nightsky.server.studio.checks import check_size
from nightsky.server.studio.jobs import Job, JobRequest, UploadRequest
from nightsky.server.studio.runner import Studio

router = APIRouter(tags=["studio"], responses={k: ERRORS[k] for k in (404, 413, 422, 429)})
StudioDep = Annotated[Studio, Depends(on_app("studio"))]

REPORT_JSON = {"balance.html": "balance.json", "compare.html": "compare.json",
               "sweep.html": "sweep.json"}


def _client(request: Request, settings: Limits) -> str:
    return client_of(request.scope, settings, hashed=True)


Client = Annotated[str, Depends(_client)]


def _game(game: str) -> str:
    try:
        return game_class(game).info.id
    except GameError as exc:
        raise ServerError(422, "unknown_game", f"game: {exc}", field="game") from None


def _job(studio: Studio, job_id: str) -> Job:
    job = studio.store.jobs.get(job_id)
    if job is None:
        raise ServerError(404, "job_not_found", f"no studio job {job_id[:40]!r}")
    return job


@router.get("/studio", include_in_schema=False)
def studio_page() -> FileResponse:
    return FileResponse(WEB_DIR / "studio.html")


@router.get("/api/studio/games")
def studio_games() -> dict[str, Any]:
    """Every game with its player counts and the agent the lab seats by default."""
    games = []
    for gid in game_ids():
        cls = game_class(gid)
        info = cls.info
        games.append({"id": gid, "title": info.title, "min_players": info.min_players,
                      "max_players": info.max_players,
                      "default_players": info.default_players or info.min_players,
                      "lab_agent": cls.lab_agent})
    return {"games": games}


@router.get("/api/studio/shipped/{game}", response_class=PlainTextResponse)
def shipped_components(game: str) -> PlainTextResponse:
    """The shipped components of ``game`` as one file (what ``components --export`` writes)."""
    from nightsky.sim.design import shipped_text

    gid = _game(game)
    try:
        return PlainTextResponse(shipped_text(gid), media_type="application/toml")
    except GameError as exc:
        raise ServerError(404, "no_components", str(exc)) from None


@router.post("/api/studio/uploads", status_code=201)
def upload_components(body: UploadRequest, studio: StudioDep, settings: Limits
                      ) -> dict[str, Any]:
    """Check a components file (its text, never a path) and keep it: 201 with its sha256, or
    413 (too large) / 422 with every error (``errors``: line, column, location, message)."""
    data = check_size(body.text, "text", settings.studio_max_bytes)
    return studio.uploads.add(_game(body.game), data)


@router.post("/api/studio/jobs", status_code=202)
def start_job(body: JobRequest, studio: StudioDep, client: Client) -> dict[str, Any]:
    """Start a balance, compare or sweep in the background (429 over the limits)."""
    return studio.submit(client, body).public()


@router.get("/api/studio/jobs")
def list_jobs(studio: StudioDep, client: Client) -> dict[str, Any]:
    """Your jobs, newest first, with their settings, status, progress and provenance."""
    return {"jobs": [j.public() for j in studio.jobs_of(client)]}


@router.get("/api/studio/jobs/{job_id}")
def get_job(job_id: str, studio: StudioDep) -> dict[str, Any]:
    """One job."""
    return _job(studio, job_id).public()


@router.post("/api/studio/jobs/{job_id}/cancel")
def cancel_job(job_id: str, studio: StudioDep) -> dict[str, Any]:
    """Stop a job at its next chunk of games."""
    job = _job(studio, job_id)
    studio.cancel(job)
    return job.public()


@router.get("/api/studio/jobs/{job_id}/report")
def job_report(job_id: str, studio: StudioDep) -> Any:
    """The report's figures (what the CLI writes as JSON); 404 until the job is done."""
    job = _job(studio, job_id)
    name = REPORT_JSON.get(job.report or "")
    if job.status != "done" or name is None:
        raise ServerError(404, "no_report", f"job {job.id} has no report ({job.status})")
    path = studio.store.folder(job) / "report" / name
    return json.loads(path.read_text(encoding="utf-8"))


@router.get("/api/studio/jobs/{job_id}/files/{name}", include_in_schema=False)
def job_file(job_id: str, name: str, studio: StudioDep) -> FileResponse:
    """A file of the job's report: only the names the job wrote, nothing else."""
    job = _job(studio, job_id)
    if name not in job.files:
        raise ServerError(404, "no_file", f"job {job.id} wrote no file {name[:80]!r}")
    return FileResponse(studio.store.folder(job) / "report" / name)
