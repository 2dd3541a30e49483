"""The server's limits and policies, each with a default a public server can run on.

``create_app(db, settings=Settings(...))`` sets them; ``nightsky serve`` has one option per
field (``--think-seconds``), each also read from an environment variable named after the field
(``NIGHTSKY_THINK_SECONDS``). The threat model in ``docs/server.md`` says what each one protects.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Settings:
    # ---- bots
    bot_workers: int = 4
    """Threads that drive bot turns (a search thinks in ``bot_processes``; these wait on it)."""
    bot_delay: float = 0.0
    """Seconds a bot waits before it moves, so people can follow its play."""
    think_seconds: float = 5.0
    """Per-move thinking cap of a bot. A spec asking for more (``seconds=``) is refused (422);
    a search agent without a time budget gets this one, so it plays its best move so far."""
    think_grace: float = 2.0
    """Wall-clock guard: a worker still thinking this long after its move's budget is killed
    and the seat plays a one-ply ``greedy`` move instead (logged)."""
    think_budget: float = 30.0
    """Thinking seconds a minute the bots of one client's tables may use together (stand-ins
    for its away players included); over it, its bots wait. 0: no budget. Bot moves are
    served by deficit round robin across clients whatever the budget."""
    bot_processes: int = 2
    """Worker processes for bot seats (every agent not in ``inline_agents``); 0 runs them
    in the server's threads (no hard guard: for tests and tiny deployments)."""
    inline_agents: tuple[str, ...] = ("random",)
    """Agents too cheap to need a worker process, played in the bot runner's threads
    (``greedy`` thinks in the workers: with ``samples`` it can take seconds)."""
    bot_memory_mb: int = 2048
    """Address-space limit of a search worker process (a runaway tree fails, not the host)."""
    spec_max_chars: int = 200
    bot_cadence: float = 0.0
    """In games with hidden information, a bot's move is pushed only on this grid: a whole
    number of these seconds (at least one) after the table's previous change, so how long
    it thought tells nothing of its hidden choices. 0: pushed as soon as chosen."""

    # ---- fair play
    allow_client_seed: bool = False
    """Accept a client's ``seed`` on tables with two or more human seats too (tests only:
    the creator could then replay every chance stream offline)."""
    secret: str = field(default_factory=lambda: os.environ.get("NIGHTSKY_SECRET", ""))
    """Server secret keying the chance of shared tables (env ``NIGHTSKY_SECRET``; empty: a
    fresh random secret per process, which is enough since every draw is stored)."""

    # ---- limits per client (by IP address) and in all
    rate_requests: str = "3000/minute;100/second"
    """Every API request and WebSocket connection of one client."""
    rate_create: str = "20/minute;200/day"
    """``POST /api/games`` of one client."""
    rate_claim: str = "30/minute"
    """``claim``/``join`` of one client (guessing invite codes is pointless; this keeps it so)."""
    rate_chat: str = "5/10second;40/minute"
    """Chat lines of one seat of one table (``POST /api/games/{id}/chat``)."""
    rate_chat_client: str = "20/minute;300/hour"
    """Chat lines of one client over all its seats and tables."""
    rate_chat_chars: str = "3000/minute;30000/hour"
    """Chat characters of one client over all its seats and tables (what it may store)."""
    chat_keep_lines: int = 200
    """Chat lines kept per table: a new line prunes the oldest beyond these."""
    chat_keep_days: float = 30.0
    """Chat lines older than this are pruned (0: kept as long as the table)."""
    max_open_tables_per_client: int = 20
    max_open_tables: int = 5000
    idle_seconds: float = 600.0
    """Unfinished tables nobody touched this long leave memory (reloaded on the next request)."""
    keep_finished: int = 64
    """How many finished games nobody watches stay in memory; beyond that the least recently
    fetched leave it (reloaded on the next request)."""
    max_sockets_per_table: int = 64
    """Spectator sockets of one table (a seated player's sockets never count against it)."""
    max_spectators_per_client: int = 8
    """Spectator sockets one client keeps open at one table."""
    max_sockets_per_seat: int = 8
    """Sockets of one seat of one table (a player's tabs and devices); kept for the seat."""
    max_sockets_per_client: int = 32
    """Every open socket of one client, from its opening (before its hello too)."""
    ws_auth_seconds: float = 10.0
    """A WebSocket must send its ``{"token": ...}`` (or ``{}``) this soon after opening."""
    allowed_origins: tuple[str, ...] = ()
    """Browser origins allowed on the WebSocket besides the server's own."""
    trust_proxy: bool = False
    """Take the client's address from ``X-Forwarded-For`` (only behind your own proxy)."""

    # ---- accounts
    session_days: float = 30.0
    """A signed-in session ends this many days after sign-in (sign out ends it sooner)."""
    sign_in_tries: int = 10
    """Wrong passwords for one name (or from one client) before sign-in is refused (429)."""
    sign_in_lock_seconds: float = 60.0
    """The first refusal lasts this long; each further wrong password doubles it (<= a day)."""

    # ---- the club (ratings, friends, tournaments)
    leaderboard_min_games: int = 3
    """Rated games an account needs before it appears on a game's leaderboard."""
    friend_invites_per_hour: int = 30
    """Friend requests and seat invitations one account may send in any hour (429 beyond):
    invitations cannot be used to flood another player's games page."""
    tournament_max_players: int = 64
    """Entrants one tournament takes."""
    tournament_poll_seconds: float = 2.0
    """How often each process looks for a tournament round that is complete (a result
    also wakes it at once)."""

    # ---- responses
    gzip_min_bytes: int = 1024
    """HTTP responses at least this large are gzip-compressed for clients that accept it."""

    # ---- the design studio (``nightsky serve --studio``; docs/simulate.md, Studio)
    studio: bool = False
    """Serve the design studio (``/studio`` and ``/api/studio/...``); off: those paths 404."""
    studio_dir: str = "nightsky-studio"
    """Folder of the studio's jobs and uploads (kept across restarts)."""
    studio_max_bytes: int = 48 * 1024
    """Largest components file the studio accepts (bytes of UTF-8 text; the request body
    itself is capped at 64 KiB)."""
    studio_max_games: int = 2000
    """Games one studio job may play in all (games x player counts x designs or values x
    agents)."""
    studio_jobs_per_client: int = 2
    """Unfinished studio jobs one client may hold."""
    studio_max_jobs: int = 4
    """Unfinished studio jobs in all; they share the studio's worker processes."""
    studio_workers: int = 2
    """Worker processes that play the studio's games (one pool for all jobs)."""
    studio_ray_address: str = ""
    """Play the studio's games on Ray instead: ``auto`` (the running cluster), ``ray://...``,
    or ``local`` (a Ray instance of ``studio_workers`` CPUs started with the server)."""
