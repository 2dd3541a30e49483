"""Studio jobs: what a job asks, where it is kept, and its state.

Each job lives in ``<studio_dir>/jobs/<id>/``: ``job.json`` (its settings, status, progress
and provenance, rewritten atomically at every change of status), the components files it plays
(``design.toml``, ``against.toml``) and ``report/`` (what the CLI writes with ``--out``). A job
that was queued or running when the server stopped is read back as ``interrupted``.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

KINDS = ("balance", "compare", "sweep")
ACTIVE = ("queued", "running")
"""Statuses of an unfinished job (counted against the limits)."""


class JobRequest(BaseModel):
    """A studio job: ``kind`` on ``game`` with the settings of the matching CLI command."""

    kind: Literal["balance", "compare", "sweep"]
    game: str = Field(max_length=64)
    design: str = Field(
        "shipped", max_length=64,
        description="The components file: 'shipped' or the sha256 of a checked upload.")
    against: str = Field(
        "shipped", max_length=64,
        description="compare: the baseline, 'shipped' or the sha256 of a checked upload.")
    players: int | None = Field(
        None, ge=1, le=16, description="Player count (balance: default every count).")
    agents: str | None = Field(
        None, max_length=200,
        description="One agent spec in every seat, two (comma list) for a skill trace; "
                    "default: the game's lab agent.")
    games: int = Field(20, ge=2, description="Games per player count, design or value.")
    seed: int = Field(0, ge=0, le=2**63 - 1)
    set: str | None = Field(
        None, max_length=300, description="sweep: FIELD=VALUES, e.g. board.daybreak=50..80:10")
    correct_counts: bool = False


class UploadRequest(BaseModel):
    """A components file's text, to check and keep."""

    game: str = Field(max_length=64)
    text: str


class Cancelled(Exception):
    """The job was cancelled while it played."""


@dataclass
class Job:
    """One studio job and its state (``public()``: what the API shows)."""

    id: str
    client: str
    request: dict[str, Any]
    total: int
    status: str = "queued"
    done: int = 0
    created: float = field(default_factory=time.time)
    started: float | None = None
    finished: float | None = None
    error: str | None = None
    provenance: dict[str, Any] | None = None
    files: list[str] = field(default_factory=list)
    report: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event, repr=False)

    STORED = ("id", "client", "request", "total", "status", "done", "created", "started",
              "finished", "error", "provenance", "files", "report")

    @classmethod
    def new(cls, client: str, request: JobRequest, total: int) -> Job:
        return cls(secrets.token_urlsafe(12), client, request.model_dump(), total)

    def row(self) -> dict[str, Any]:
        """What ``job.json`` holds."""
        return {k: getattr(self, k) for k in self.STORED}

    def public(self) -> dict[str, Any]:
        """The job as the API shows it (the client's hash left out)."""
        out = self.row()
        del out["client"]
        out["settings"] = out.pop("request")
        out["progress"] = {"done": self.done, "total": self.total,
                           "share": round(self.done / self.total, 4) if self.total else 0.0}
        return out


class JobStore:
    """The jobs of ``root`` (``<root>/<id>/job.json``), read once at start."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.jobs: dict[str, Job] = {}
        for path in sorted(root.glob("*/job.json")):
            try:
                row = json.loads(path.read_text(encoding="utf-8"))
                job = Job(**{k: row[k] for k in Job.STORED})
            except (OSError, ValueError, KeyError, TypeError):
                continue  # a half-written or foreign file: not a job
            if job.status in ACTIVE:
                job.status, job.error = "interrupted", "the server stopped while it ran"
                job.finished = job.finished or time.time()
                self.save(job)
            self.jobs[job.id] = job

    def folder(self, job: Job) -> Path:
        """The job's own folder."""
        return self.root / job.id

    def save(self, job: Job) -> None:
        """Write ``job.json`` atomically."""
        folder = self.folder(job)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".job.{secrets.token_hex(4)}.json"
        tmp.write_text(json.dumps(job.row(), indent=1), encoding="utf-8")
        os.replace(tmp, folder / "job.json")

    def active(self, client: str | None = None) -> int:
        """Unfinished jobs in all, or of ``client``."""
        return sum(1 for j in self.jobs.values()
                   if j.status in ACTIVE and (client is None or j.client == client))
