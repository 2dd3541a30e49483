"""The studio's job runner: jobs bounded by the server's limits, played on one pool of worker
processes (or on Ray when ``studio_ray_address`` is set), each job on its own thread.

Games travel to the pool in chunks (``nightsky.sim.runner.batches``), so a job's progress
moves chunk by chunk and a cancel stops it at the next chunk; the results, sorted by game
index, go through the same ``nightsky.sim.lab`` functions as the CLI, and the same writers
make the report (``balance.html``/``compare.html``/``sweep.html``, their plots and JSON).
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import shutil
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from nightsky.core.errors import GameError, OptionError
from nightsky.server.rooms import ServerError
from nightsky.server.settings import Settings
from nightsky.server.studio.checks import Uploads
from nightsky.server.studio.jobs import Cancelled, Job, JobRequest, JobStore
from nightsky.server.studio.plan import Plan, make_plan, refuse
from nightsky.sim import lab
from nightsky.sim.runner import GameResult, MatchSpec, _play_chunk, batches

log = logging.getLogger("nightsky.server")

REPORTS = {"balance": "balance.html", "compare": "compare.html", "sweep": "sweep.html"}


def scrub(value: Any, folder: str) -> Any:
    """``value`` with the job folder's path removed from every string (a report names its
    files as the job keeps them, never by a server path)."""
    if isinstance(value, str):
        return value.replace(folder + "/", "").replace(folder, ".")
    if isinstance(value, dict):
        return {k: scrub(v, folder) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, folder) for v in value]
    return value


class Studio:
    """The studio of one server: uploads, jobs and the processes that play them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        root = Path(settings.studio_dir)
        self.uploads = Uploads(root / "uploads")
        self.store = JobStore(root / "jobs")
        self.lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._ray = False
        self._threads: dict[str, threading.Thread] = {}
        self._closing = False

    # ------------------------------------------------------------------ submitting
    def submit(self, client: str, req: JobRequest) -> Job:
        """Check ``req`` against the limits and the rules of its command, then start it."""
        s = self.settings
        with self.lock:
            if self.store.active(client) >= s.studio_jobs_per_client:
                raise ServerError(429, "studio_jobs_per_client",
                                  f"you have {s.studio_jobs_per_client} unfinished studio "
                                  "job(s); wait for one or cancel it", retry_after=5)
            if self.store.active() >= s.studio_max_jobs:
                raise ServerError(429, "studio_busy", f"the studio runs {s.studio_max_jobs} "
                                  "jobs already; try again soon", retry_after=10)
            job = Job.new(client, req, 0)
            folder = self.store.folder(job)
            folder.mkdir(parents=True)
            try:
                plan = make_plan(req, lambda name, value: self._copy(req, folder, name, value), s)
                if plan.total > s.studio_max_games:
                    raise refuse("games", f"this job would play {plan.total:,} games; the "
                                          f"studio plays at most {s.studio_max_games:,} a job")
            except ServerError:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            job.total = plan.total
            self.store.jobs[job.id] = job
            self.store.save(job)
        thread = threading.Thread(target=self._run, args=(job, plan), daemon=True,
                                  name=f"studio-{job.id}")
        self._threads[job.id] = thread
        thread.start()
        return job

    def _copy(self, req: JobRequest, folder: Path, name: str, value: str) -> Path | None:
        if value == "shipped":
            return None
        path = folder / f"{name}.toml"
        shutil.copyfile(self.uploads.path(req.game, value, name), path)
        return path

    def cancel(self, job: Job) -> None:
        """Ask a job to stop (it stops at its next chunk of games)."""
        job.cancel.set()
        with self.lock:
            if job.status == "queued":
                job.status = "cancelled"
                self.store.save(job)

    def jobs_of(self, client: str) -> list[Job]:
        """The client's jobs, newest first."""
        return sorted((j for j in self.store.jobs.values() if j.client == client),
                      key=lambda j: -j.created)

    # ------------------------------------------------------------------ running
    def _set(self, job: Job, **changes: Any) -> None:
        with self.lock:
            for k, v in changes.items():
                setattr(job, k, v)
            self.store.save(job)

    def _run(self, job: Job, plan: Plan) -> None:
        self._set(job, status="running", started=time.time())
        folder = str(self.store.folder(job))
        try:
            data = self._execute(job, plan)
            self._write(job, plan, scrub(data, folder))
            self._set(job, status="done", finished=time.time(),
                      provenance=scrub(_provenance(data, plan), folder))
        except Cancelled:
            # A server that stops leaves its jobs interrupted, as a restart reads them.
            self._set(job, status="interrupted" if self._closing else "cancelled",
                      finished=time.time())
        except (GameError, OptionError) as exc:
            self._set(job, status="failed", finished=time.time(),
                      error=scrub(str(exc), folder))
        except Exception:
            if self._closing:  # the pool went down under it (a stop), not a failure of the job
                self._set(job, status="interrupted", finished=time.time(),
                          error="the server stopped while it ran")
                return
            log.exception("studio job %s failed", job.id)
            self._set(job, status="failed", finished=time.time(),
                      error="the job failed on the server; try again")
        finally:
            self._threads.pop(job.id, None)

    def _execute(self, job: Job, plan: Plan) -> dict[str, Any]:
        req = JobRequest(**job.request)
        play = self._player(job)
        if plan.kind == "balance":
            return lab.run_balance(plan.loaded, plan.specs, games=req.games, seed=req.seed,
                                   command=plan.command, options=plan.options, play=play,
                                   notes=plan.notes, correct_counts=req.correct_counts)
        if plan.kind == "compare":
            return lab.run_compare(plan.loaded[0], plan.loaded[1], plan.specs,
                                   games=req.games, seed=req.seed, command=plan.command,
                                   play=play)
        from nightsky.core.registry import load_game

        return lab.run_sweep(
            plan.game_id, plan.sweep_field, plan.sweep_values, spec_text=plan.specs[0],
            games=req.games, seed=req.seed, command=plan.command,
            folder=self.store.folder(job) / "report" / "variants",
            load=lambda path: load_game(plan.game_id, players=plan.players, components=path),
            play=play, base=plan.design,
        )

    def _write(self, job: Job, plan: Plan, data: dict[str, Any]) -> None:
        import shlex

        out = self.store.folder(job) / "report"
        if plan.kind == "balance":
            from nightsky.sim.balance import write_balance

            write_balance(out, data, title=plan.title, command=shlex.join(plan.command))
        elif plan.kind == "compare":
            from nightsky.sim.compare_report import write_compare

            write_compare(out, data, title=plan.title)
        else:
            from nightsky.sim.sweep import write_sweep

            data["plots"] = write_sweep(out, data, title=plan.title)
        files = sorted(p.name for p in out.iterdir() if p.is_file())
        self._set(job, files=files, report=REPORTS[plan.kind])

    # ------------------------------------------------------------------ playing
    def _player(self, job: Job) -> lab.Play:
        def play(match: MatchSpec, games: int, label: str) -> list[GameResult]:
            results: list[GameResult] = []
            for chunk in self._chunks(match, games, job):
                results.extend(chunk)
                job.done += len(chunk)
            return sorted(results, key=lambda r: r.index)

        return play

    def _chunks(self, match: MatchSpec, games: int, job: Job) -> Iterator[list[GameResult]]:
        if job.cancel.is_set():
            raise Cancelled
        if self.settings.studio_ray_address:
            yield from self._ray_chunks(match, games, job)
            return
        pool = self._executor()
        workers = self.settings.studio_workers
        # Chunks of at most 10 games: the progress bar moves and a cancel is felt soon.
        size = max(1, min(10, games // (workers * 8)))
        pending: set[Future[list[GameResult]]] = {
            pool.submit(_play_chunk, match, b) for b in batches(games, workers, size)
        }
        try:
            while pending:
                done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                if job.cancel.is_set():
                    raise Cancelled
                for fut in done:
                    yield fut.result()
        except BrokenProcessPool:
            with self.lock:  # a worker died (killed, out of memory): the next job gets a new pool
                if self._pool is pool:
                    self._pool = None
            raise
        finally:
            for fut in pending:
                fut.cancel()

    def _ray_chunks(self, match: MatchSpec, games: int, job: Job
                    ) -> Iterator[list[GameResult]]:
        from nightsky.sim.engines import run_games

        self._start_ray()
        results = run_games(match, games, engine="ray", workers=self.settings.studio_workers)
        try:
            for r in results:
                if job.cancel.is_set():
                    raise Cancelled
                yield [r]
        finally:
            close = getattr(results, "close", None)  # a generator: stop its Ray tasks' loop
            if close is not None:
                close()

    def _executor(self) -> ProcessPoolExecutor:
        with self.lock:
            if self._pool is None:
                # forkserver: the server's threads are not copied into the workers.
                self._pool = ProcessPoolExecutor(self.settings.studio_workers,
                                                 mp_context=mp.get_context("forkserver"))
            return self._pool

    def _start_ray(self) -> None:
        with self.lock:
            if self._ray:
                return
            import ray

            address = self.settings.studio_ray_address
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "logging_level": "ERROR"}
            if address == "local":
                ray.init(num_cpus=self.settings.studio_workers, **kwargs)
            else:
                ray.init(address=address, **kwargs)
            self._ray = True

    def close(self) -> None:
        """Stop every job (read back as interrupted next time) and the worker processes."""
        self._closing = True
        for job in list(self.store.jobs.values()):
            job.cancel.set()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self._ray:
            import ray

            ray.shutdown()


def _provenance(data: dict[str, Any], plan: Plan) -> dict[str, Any]:
    """The provenance a job lists: the run's command, seed and components hash (both designs
    for a comparison; for a sweep, the file it varies and each value's file)."""
    from nightsky.sim.design import components_hash

    if plan.kind == "compare":
        return {k: {"seed": v["seed"], "components": v["components"], "command": v["command"]}
                for k, v in data["provenance"].items()}
    if plan.kind == "balance":
        p = data["provenance"]
        return {"seed": p["seed"], "components": p["components"], "command": p["command"]}
    return {
        "seed": data["seed"], "command": data["command"],
        "components": {"file": "design.toml" if plan.design else "shipped",
                       "sha256": components_hash(plan.game_id, plan.design)},
        "variants": {str(p["value"]): p["provenance"]["components"]["sha256"]
                     for p in data["points"]},
    }
