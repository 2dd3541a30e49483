"""Make ``release-0.1.0.sqlite3`` and ``release-0.1.0.json``: a database written by nightsky
as released before accounts and Alembic (main at 888a458), and what its games looked like.

Run with THAT release's source first on the path, never this one's::

    git archive 888a458 src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src NIGHTSKY_PURE=1 python tests/server/data/make_release_db.py

``tests/server/test_migrations.py`` opens a copy with today's server and finds every game as
the JSON says (moves, versions, each seat's view through its token, records, chat).
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from pathlib import Path
from typing import Any

warnings.simplefilter("ignore")
from fastapi.testclient import TestClient  # noqa: E402

import nightsky  # noqa: E402
from nightsky.server import create_app  # noqa: E402
from nightsky.server.settings import Settings  # noqa: E402

HERE = Path(__file__).parent
DB = HERE / "release-0.1.0.sqlite3"


KEPT = ("version", "seat", "status", "terminal", "scores", "winners", "current_players", "view")
"""What of a seat's view the migration test compares (the rest, an SVG and prose, is made
from these by code that may change between releases)."""


def kept(view: dict[str, Any]) -> dict[str, Any]:
    out = {k: view.get(k) for k in KEPT}
    out["legal"] = sorted(x["action"] for x in view.get("legal") or [])
    out["log"] = [[x.get("seat"), x.get("notation")] for x in view.get("log") or []]
    return out


def play(c: TestClient, gid: str, tokens: dict[int, str], rng: random.Random, n: int) -> None:
    """Up to ``n`` random legal actions by whichever human seat may act."""
    for _ in range(n):
        c.app.state.manager.wait_idle(c.app.state.manager.get(gid))
        moved = False
        for tok in tokens.values():
            v = c.get(f"/api/games/{gid}/view", headers={"authorization": f"Bearer {tok}"}).json()
            if v.get("terminal") or not v.get("legal"):
                continue
            act = rng.choice(v["legal"])["action"]
            r = c.post(f"/api/games/{gid}/actions", headers={"authorization": f"Bearer {tok}"},
                       json={"action": act, "version": v["version"]})
            assert r.status_code == 200, r.text
            moved = True
            break
        if not moved:
            return


def main() -> None:
    assert "accounts" not in nightsky.__file__
    if DB.exists():
        DB.unlink()
    rng = random.Random(53)
    out: dict[str, Any] = {"games": []}
    settings = Settings(bot_processes=0, secret="release-fixture")
    with TestClient(create_app(f"sqlite:///{DB}", settings=settings)) as c:
        tables = [
            ("shooting-star", ["human", "human"], 14, {}),
            ("stars-are-right", ["human", "random", "human"], 10, {}),
            ("star-fire", ["human", "human"], 200, {}),  # played to its end
            ("mihi-anguli", ["human", "random"], 6, {"listed": True}),
            ("starlight", ["human", "human"], 0, {}),  # invite never claimed
        ]
        for game, seats, moves, extra in tables:
            made = c.post("/api/games", json={"game": game, "players": len(seats),
                                              "seats": seats, **extra}).json()
            gid = made["id"]
            tokens = {t["seat"]: t["token"] for t in made["tokens"]}
            invites = {}
            for inv in made["invites"]:
                if moves:
                    r = c.post(f"/api/games/{gid}/claim", json={"invite": inv["code"]}).json()
                    tokens[r["seat"]] = r["token"]
                else:
                    invites[inv["seat"]] = inv["code"]
            play(c, gid, tokens, rng, moves)
            c.app.state.manager.wait_idle(c.app.state.manager.get(gid))
            first = min(tokens)
            r = c.post(f"/api/games/{gid}/chat", json={"text": f"gg {game}"},
                       headers={"authorization": f"Bearer {tokens[first]}"})
            views = {
                str(s): kept(c.get(f"/api/games/{gid}/view",
                                   headers={"authorization": f"Bearer {t}"}).json())
                for s, t in tokens.items()
            }
            out["games"].append({
                "id": gid, "game": game, "tokens": {str(k): v for k, v in tokens.items()},
                "invites": {str(k): v for k, v in invites.items()}, "views": views,
                "spectator": kept(c.get(f"/api/games/{gid}/view").json()),
                "chat": [x["text"] for x in c.get(f"/api/games/{gid}/chat").json()["lines"]],
                "chat_answer": r.status_code,
                "record": c.get(f"/api/games/{gid}/record").json(),
            })
    (HERE / "release-0.1.0.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {DB} with {len(out['games'])} games", file=sys.stderr)


if __name__ == "__main__":
    main()
