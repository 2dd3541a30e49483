"""The design studio's API (``nightsky serve --studio``): uploads checked like the CLI's
``components --check``, background jobs bounded by the server's limits with progress and
cancel, reports served from the job, the same numbers as the CLI, jobs kept across a restart.

Starlight with ``random`` in both seats plays hundreds of games a second: the game counts stay
tiny."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from nightsky.cli import _load_commands, app
from nightsky.server import create_app
from nightsky.server.settings import Settings
from nightsky.sim.design import components_hash, dumps, raw_components, set_field, shipped_text

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

_load_commands()
AQUILA_1 = "constellations.aquila.slots.1.np"


def studio_settings(tmp_path: Path, **extra: Any) -> Settings:
    return Settings(studio=True, studio_dir=str(tmp_path / "studio"), studio_workers=1,
                    **extra)


@pytest.fixture
def studio(db_url: str, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, settings=studio_settings(tmp_path))) as c:
        yield c


def strong_text(np: int = 30) -> str:
    """Starlight's shipped set with Aquila 1 worth ``np`` night points."""
    data = raw_components("starlight")
    set_field(data, AQUILA_1, np)
    return dumps(data)


def upload(client: TestClient, text: str, game: str = "starlight") -> str:
    r = client.post("/api/studio/uploads", json={"game": game, "text": text})
    assert r.status_code == 201, r.text
    return str(r.json()["sha256"])


def wait_done(client: TestClient, job_id: str, seconds: float = 120) -> dict[str, Any]:
    """Poll the job until it leaves queued/running; every progress seen only grows."""
    deadline = time.monotonic() + seconds
    seen = [0]
    while time.monotonic() < deadline:
        job = client.get(f"/api/studio/jobs/{job_id}").json()
        assert job["progress"]["done"] >= seen[-1]
        seen.append(job["progress"]["done"])
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still running after {seconds} s")


def test_the_studio_is_off_by_default(client: TestClient) -> None:
    assert Settings().studio is False
    assert client.get("/studio").status_code == 404
    r = client.post("/api/studio/jobs", json={"kind": "balance", "game": "starlight"})
    assert r.status_code == 404
    assert client.get("/api/studio/games").status_code == 404


def test_balance_job_reports_what_the_cli_reports(studio: TestClient, tmp_path: Path) -> None:
    text = strong_text()
    sha = upload(studio, text)
    assert studio.get("/studio").status_code == 200
    schema = studio.get("/openapi.json").json()
    assert {"/api/studio/uploads", "/api/studio/jobs"} <= set(schema["paths"])
    r = studio.post("/api/studio/jobs", json={
        "kind": "balance", "game": "starlight", "design": sha, "players": 2,
        "agents": "random", "games": 24, "seed": 4242})
    assert r.status_code == 202, r.text
    job = wait_done(studio, r.json()["id"])
    assert job["status"] == "done", job
    assert job["progress"] == {"done": 24, "total": 24, "share": 1.0}
    assert job["settings"]["seed"] == 4242 and job["settings"]["agents"] == "random"
    assert job["provenance"]["seed"] == 4242
    assert job["provenance"]["components"] == {"file": "design.toml", "sha256": sha}
    report = studio.get(f"/api/studio/jobs/{job['id']}/report").json()
    assert report["provenance"]["seed"] == 4242
    assert report["provenance"]["components"]["sha256"] == sha
    # The same settings on the command line: the very same numbers.
    path = tmp_path / "design.toml"
    path.write_text(text, encoding="utf-8")
    assert components_hash("starlight", path) == sha
    res = CliRunner().invoke(app, [
        "balance", "starlight", "--agents", "random", "--games", "24", "--players", "2",
        "--option", f"components={path}", "--seed", "4242", "--json"])
    assert res.exit_code == 0, res.output
    cli = json.loads(res.stdout)
    assert report["rows"] == cli["rows"] and report["counts"] == cli["counts"]
    assert report["provenance"]["command"] == cli["provenance"]["command"].replace(
        str(path), "design.toml")
    assert str(tmp_path) not in json.dumps(report)  # no server path in the report
    # The report's page and plot come from the job; nothing else does.
    assert {"balance.html", "balance.png", "balance.json"} <= set(job["files"])
    png = studio.get(f"/api/studio/jobs/{job['id']}/files/balance.png")
    assert png.status_code == 200 and png.content[:4] == b"\x89PNG"
    page = studio.get(f"/api/studio/jobs/{job['id']}/files/balance.html").text
    assert "balance.png" in page
    for name in ("job.json", "..%2Fjob.json", "design.toml"):
        assert studio.get(f"/api/studio/jobs/{job['id']}/files/{name}").status_code == 404
    listed = studio.get("/api/studio/jobs").json()["jobs"]
    assert [j["id"] for j in listed] == [job["id"]]


def test_compare_and_sweep_jobs(studio: TestClient) -> None:
    sha = upload(studio, strong_text())
    r = studio.post("/api/studio/jobs", json={
        "kind": "compare", "game": "starlight", "design": sha, "players": 2,
        "agents": "random", "games": 150, "seed": 2711})
    assert r.status_code == 202, r.text
    r2 = studio.post("/api/studio/jobs", json={
        "kind": "sweep", "game": "starlight", "set": f"{AQUILA_1}=4..12:8", "players": 2,
        "agents": "random", "games": 10, "seed": 3})
    assert r2.status_code == 202, r2.text
    cmp_job = wait_done(studio, r.json()["id"])
    assert cmp_job["status"] == "done" and cmp_job["progress"]["total"] == 300
    assert cmp_job["provenance"]["design"]["components"]["sha256"] == sha
    assert cmp_job["provenance"]["baseline"]["components"]["file"] == "shipped"
    data = studio.get(f"/api/studio/jobs/{cmp_job['id']}/report").json()
    assert data["components"][0]["component"] == "Aquila 1" and data["components"][0]["outlier"]
    assert "compare.png" in cmp_job["files"]
    # Against a second upload: the same file on both sides plays the very same games.
    same = studio.post("/api/studio/jobs", json={
        "kind": "compare", "game": "starlight", "design": sha, "against": sha, "players": 2,
        "agents": "random", "games": 10, "seed": 2711})
    assert same.status_code == 202, same.text
    same_job = wait_done(studio, same.json()["id"])
    assert same_job["provenance"]["baseline"]["components"] == {"file": "against.toml",
                                                                "sha256": sha}
    twin = studio.get(f"/api/studio/jobs/{same_job['id']}/report").json()
    assert twin["headlines"][0].startswith("No component")
    assert all(s["win_share"]["diff"] == 0 for s in twin["seats"])
    sw = wait_done(studio, r2.json()["id"])
    assert sw["status"] == "done", sw
    sweep = studio.get(f"/api/studio/jobs/{sw['id']}/report").json()
    assert sweep["values"] == [4, 12] and sweep["seed"] == 3
    assert set(sweep["plots"].values()) <= set(sw["files"])
    assert sw["provenance"]["components"]["file"] == "shipped"
    assert len(sw["provenance"]["variants"]) == 2


def test_a_file_over_the_limit_is_refused_naming_the_field(db_url: str, tmp_path: Path) -> None:
    settings = studio_settings(tmp_path, studio_max_bytes=1000)
    with TestClient(create_app(db_url, settings=settings)) as c:
        r = c.post("/api/studio/uploads", json={"game": "starlight", "text": "x" * 1001})
        assert r.status_code == 413
        err = r.json()["error"]
        assert err["field"] == "text" and "1,001 bytes" in err["message"]
    # Over the server's 64 KiB body cap: refused before any handler reads it.
    with TestClient(create_app(db_url, settings=studio_settings(tmp_path))) as c:
        big = c.post("/api/studio/uploads", json={"game": "starlight", "text": "#" * 70_000})
        assert big.status_code == 413


def test_broken_toml_names_line_and_column(studio: TestClient) -> None:
    text = shipped_text("starlight").replace("np = 4", "np = = 4", 1)
    line = text[: text.index("np = = 4")].count("\n") + 1
    r = studio.post("/api/studio/uploads", json={"game": "starlight", "text": text})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "bad_component" and err["field"] == "text"
    assert err["errors"][0]["line"] == line and err["errors"][0]["column"] == 6
    assert f"line {line}, column 6" in err["message"]
    assert "/" not in json.dumps(err["errors"])  # no server path


def test_every_field_error_at_once_each_located(studio: TestClient) -> None:
    data = raw_components("starlight")
    set_field(data, AQUILA_1, -5)
    set_field(data, "constellations.aquila.slots.2.np", "many")
    r = studio.post("/api/studio/uploads", json={"game": "starlight", "text": dumps(data)})
    assert r.status_code == 422
    errors = r.json()["error"]["errors"]
    assert len(errors) >= 2
    assert all(e["location"] and e["message"] for e in errors)
    # Each field error is also placed in the text, at the field itself.
    lines = dumps(data).splitlines()
    for e, value in ((errors[0], "-5"), (errors[1], '"many"')):
        assert e["location"].startswith("constellations[0] ('aquila').slots.")
        assert lines[e["line"] - 1][e["column"] - 1:].startswith(f"np = {value}")


def test_bad_jobs_are_refused_naming_the_field(studio: TestClient) -> None:
    base = {"kind": "balance", "game": "starlight", "players": 2, "agents": "random"}
    cases = [
        ({"game": "nosuch"}, "game"),
        ({"agents": "nosuchbot"}, "agents"),
        ({"agents": "ismcts:seconds=600"}, "agents"),  # over the server's thinking cap
        ({"games": 100_000}, "games"),
        ({"design": "0" * 64}, "design"),
        ({"kind": "sweep", "set": "board.nosuch=1..3"}, "set"),
        ({"kind": "compare"}, "design"),
    ]
    for change, field in cases:
        r = studio.post("/api/studio/jobs", json={**base, **change})
        assert r.status_code == 422, (change, r.text)
        assert r.json()["error"]["field"] == field, (change, r.json())
    assert studio.get("/api/studio/jobs").json()["jobs"] == []


def test_limits_answer_429_and_cancel_frees_a_slot(db_url: str, tmp_path: Path) -> None:
    settings = studio_settings(tmp_path, studio_jobs_per_client=1, studio_max_games=1_000_000)
    long = {"kind": "balance", "game": "starlight", "players": 2, "agents": "greedy",
            "games": 5000}
    with TestClient(create_app(db_url, settings=settings)) as c:
        first = c.post("/api/studio/jobs", json=long)
        assert first.status_code == 202
        again = c.post("/api/studio/jobs", json=long)
        assert again.status_code == 429 and again.headers["retry-after"]
        assert again.json()["error"]["code"] == "studio_jobs_per_client"
        job = c.post(f"/api/studio/jobs/{first.json()['id']}/cancel").json()
        assert wait_done(c, job["id"])["status"] == "cancelled"
        assert c.post("/api/studio/jobs", json={**long, "games": 4}).status_code == 202
    settings = studio_settings(tmp_path, studio_max_jobs=1, studio_max_games=1_000_000)
    with TestClient(create_app(db_url, settings=settings)) as c:
        assert c.post("/api/studio/jobs", json=long).status_code == 202
        busy = c.post("/api/studio/jobs", json=long)
        assert busy.status_code == 429 and busy.json()["error"]["code"] == "studio_busy"


def test_jobs_survive_a_restart_as_interrupted(db_url: str, tmp_path: Path) -> None:
    settings = studio_settings(tmp_path, studio_max_games=1_000_000)
    with TestClient(create_app(db_url, settings=settings)) as c:
        done = c.post("/api/studio/jobs", json={
            "kind": "balance", "game": "starlight", "players": 2, "agents": "random",
            "games": 4})
        assert wait_done(c, done.json()["id"])["status"] == "done"
        running = c.post("/api/studio/jobs", json={
            "kind": "balance", "game": "starlight", "players": 2, "agents": "greedy",
            "games": 5000}).json()
    with TestClient(create_app(db_url, settings=settings)) as c:
        jobs = {j["id"]: j for j in c.get("/api/studio/jobs").json()["jobs"]}
        assert jobs[running["id"]]["status"] == "interrupted"
        assert jobs[done.json()["id"]]["status"] == "done"
        assert c.get(f"/api/studio/jobs/{done.json()['id']}/report").status_code == 200


def test_a_ray_address_plays_on_sims_ray_engine(db_url: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With ``studio_ray_address`` the games go through ``nightsky.sim.engines.run_games`` with
    ``engine="ray"`` (the CLI's ``--engine ray`` path); Ray itself is stood in for by the local
    engine here, which plays the same games (tests/sim/test_engines.py checks that)."""
    import nightsky.sim.engines as engines
    from nightsky.server.studio.runner import Studio

    asked: list[str] = []
    real = engines.run_games

    def fake_run_games(spec, games, *, engine="local", **kw):  # type: ignore[no-untyped-def]
        asked.append(engine)
        kw.pop("address", None)
        return real(spec, games, engine="local", **kw)

    monkeypatch.setattr(engines, "run_games", fake_run_games)
    monkeypatch.setattr(Studio, "_start_ray", lambda self: None)
    settings = studio_settings(tmp_path, studio_ray_address="local")
    body = {"kind": "balance", "game": "starlight", "players": 2, "agents": "random",
            "games": 6, "seed": 9}
    with TestClient(create_app(db_url, settings=settings)) as c:
        job = wait_done(c, c.post("/api/studio/jobs", json=body).json()["id"])
        on_ray = c.get(f"/api/studio/jobs/{job['id']}/report").json()
    assert job["status"] == "done" and asked == ["ray"]
    with TestClient(create_app(db_url, settings=studio_settings(tmp_path / "b"))) as c:
        job = wait_done(c, c.post("/api/studio/jobs", json=body).json()["id"])
        on_pool = c.get(f"/api/studio/jobs/{job['id']}/report").json()
    assert on_ray["rows"] == on_pool["rows"] and on_ray["counts"] == on_pool["counts"]


def test_serve_studio_flag_mounts_it_and_keeps_one_process(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda target, **kw: seen.update(app=target))
    db = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    res = CliRunner().invoke(app, ["serve", "--studio", "--studio-dir", str(tmp_path / "s"),
                                   "--db", db])
    assert res.exit_code == 0, res.output
    served = seen["app"]
    try:
        assert served.state.settings.studio and served.state.studio is not None
        assert TestClient(served).get("/studio").status_code == 200
    finally:
        served.state.manager.close()
        served.state.manager.store.close()
    res = CliRunner().invoke(app, ["serve", "--studio", "--workers", "2", "--db",
                                   "postgresql+psycopg://u@h/d"])
    assert res.exit_code == 2 and "--workers 1" in res.output
