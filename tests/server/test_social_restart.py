"""Chat and the your-games answers survive a killed server: the kill-and-restart machinery of
scripts/load_test.py (a real ``nightsky serve`` process, SIGKILLed, restarted on its file)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "load_test.py"


def _load_test():
    spec = importlib.util.spec_from_file_location("load_test", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_test"] = module
    spec.loader.exec_module(module)
    return module


def test_chat_and_your_games_survive_a_killed_server(tmp_path):
    lt = _load_test()
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    port = lt.free_port()
    base = f"http://127.0.0.1:{port}"
    proc = lt.start_server(port, db, 0.0)
    try:
        made = httpx.post(f"{base}/api/games", json={
            "game": "shooting-star", "players": 2, "seats": ["human", "human"],
            "names": ["Ann", "Bob"]}).json()
        gid = made["id"]
        t0 = made["tokens"][0]["token"]
        t1 = httpx.post(f"{base}/api/games/{gid}/claim",
                        json={"invite": made["invites"][0]["code"]}).json()["token"]
        for tok, text in ((t0, "hello <Bob>"), (t1, "hi Ann")):
            r = httpx.post(f"{base}/api/games/{gid}/chat", json={"text": text},
                           headers={"authorization": f"Bearer {tok}"})
            assert r.status_code == 200, r.text
        before = httpx.get(f"{base}/api/games/{gid}/chat").json()
        mine = httpx.post(f"{base}/api/mine", json={"games": [{"id": gid, "token": t0}]}).json()
    finally:
        proc.kill()  # SIGKILL: nothing gets to flush
        proc.wait(timeout=10)
    proc = lt.start_server(port, db, 0.0)
    try:
        after = httpx.get(f"{base}/api/games/{gid}/chat").json()
        assert after == before and [x["text"] for x in after["lines"]] == ["hello <Bob>", "hi Ann"]
        again = httpx.post(f"{base}/api/mine", json={"games": [{"id": gid, "token": t0}]}).json()
        assert again == mine and again["games"][0]["known"]
        r = httpx.post(f"{base}/api/games/{gid}/chat", json={"text": "still here"},
                       headers={"authorization": f"Bearer {t1}"})
        assert r.status_code == 200 and r.json()["id"] > after["lines"][-1]["id"]
    finally:
        proc.kill()
        proc.wait(timeout=10)
