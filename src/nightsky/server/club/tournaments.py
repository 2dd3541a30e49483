"""Tournaments on the database: an organiser opens one, players enter, rounds are paired
(``pairing``) and their tables made through the ordinary table creation.

Restarts and several processes: everything a tournament is lives in its rows. A table's result
is written in the transaction that ends its game (``record``, through ``Store.on_result``).
Advancing a round (``advance``) reads the tournament row ``FOR UPDATE`` and does nothing unless
every table of the round has its result, so it happens once whoever runs it; each process's
driver thread tries every few seconds (and at once after a result), so a round left half-made
by a killed process is finished by the next try anywhere. A round's tables have fixed ids
(``table_id``): making one that exists finds it instead, and the seats are bound to their
accounts again, harmlessly.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from nightsky.server.accounts import Account, Accounts
from nightsky.server.accounts.tables import AccountRow, SeatAccountRow
from nightsky.server.club import pairing
from nightsky.server.club.ratings import _insert
from nightsky.server.club.tables import EntrantRow, TournamentRow, TournamentTableRow
from nightsky.server.rooms import Manager, NewGame, ServerError
from nightsky.server.rooms.creation import new_clock, new_game, new_seats
from nightsky.server.store import now

log = logging.getLogger("nightsky.server.club")
OPEN, PLAYING, FINISHED, CLOSED = "open", "playing", "finished", "closed"


@dataclass
class TournamentSpec:
    """What an organiser asks for (the API's ``NewTournament``)."""

    name: str
    kind: str
    game: str
    players: int
    clock: dict[str, Any]
    rounds: int = 3
    rated: bool = False
    options: dict[str, Any] = field(default_factory=dict)


def table_id(tid: int, round_no: int, board: int) -> str:
    """The fixed id of a tournament table (16 hex digits: never one of the 12 of a random
    table)."""
    return hashlib.sha256(f"nightsky-tournament:{tid}:{round_no}:{board}".encode()).hexdigest()[:16]


def record(s: Session, game_id: str, places: list[int]) -> int | None:
    """In the transaction ending ``game_id``: its places, if it is a tournament's table (its
    tournament's id, else None). Written once: a later write finds them there."""
    row = s.scalars(
        select(TournamentTableRow).where(TournamentTableRow.game_id == game_id)
    ).first()
    if row is None:
        return None
    if row.places is None:
        row.places = list(places)
    return row.tournament_id


class Tournaments:
    """Tournaments of the club; ``start`` runs the driver that advances their rounds."""

    def __init__(
        self, manager: Manager, accounts: Accounts, max_entrants: int, poll: float = 2.0
    ) -> None:
        self.manager, self.accounts, self.store = manager, accounts, manager.store
        self.max_entrants, self.poll = max_entrants, poll
        self.wake = threading.Event()
        self._stepping = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ organiser and players
    def create(self, organiser: Account, spec: TournamentSpec) -> int:
        """A new tournament taking entrants; 422 names the field it refuses."""
        if spec.kind not in pairing.KINDS:
            raise ServerError(422, "bad_tournament", f"kind: one of {', '.join(pairing.KINDS)}",
                              field="kind")
        if spec.kind == "round-robin" and spec.players != 2:
            raise ServerError(422, "bad_tournament",
                              "players: a round robin here is played at two-player tables",
                              field="players")
        game = new_game(spec.game, spec.players, spec.options)
        rows = new_seats(["human"] * game.num_players, None, self.manager.settings, game).rows
        clock, _ = new_clock(spec.clock, rows, game, self.manager.settings)
        if not clock.config.timed:
            raise ServerError(422, "bad_tournament", "clock: a tournament needs a clock (its "
                              "stand-in plays for a player who does not come)", field="clock")
        at = now()
        with Session(self.store.engine) as s, s.begin():
            row = TournamentRow(
                name=spec.name.strip()[:80] or "Tournament", organiser_id=organiser.id,
                kind=spec.kind, game=spec.game, players=game.num_players,
                options=dict(spec.options), clock=dict(spec.clock), rated=spec.rated,
                rounds=spec.rounds, state=OPEN, round=0, created_at=at, updated_at=at,
            )
            s.add(row)
            s.flush()
            return int(row.id)

    def _locked(self, s: Session, tid: int) -> TournamentRow:
        row = s.scalars(
            select(TournamentRow).where(TournamentRow.id == tid).with_for_update()
        ).first()
        if row is None:
            raise ServerError(404, "no_tournament", f"no tournament {tid}")
        return row

    def enter(self, account: Account, tid: int) -> None:
        """Enter an open tournament (idempotent)."""
        with Session(self.store.engine) as s, s.begin():
            t = self._locked(s, tid)
            if t.state != OPEN:
                raise ServerError(409, "tournament_started", "entries are closed")
            if s.get(EntrantRow, (tid, account.id)) is not None:
                return
            entrants = s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == tid)).all()
            if len(entrants) >= self.max_entrants:
                raise ServerError(409, "tournament_full", f"{self.max_entrants} players entered")
            entry = max((e.entry for e in entrants), default=-1) + 1
            s.add(EntrantRow(tournament_id=tid, account_id=account.id, entry=entry, at=now()))

    def withdraw(self, account: Account, tid: int) -> None:
        """Leave an open tournament (once it runs, a player who stops coming is played by
        the clock's stand-in)."""
        with Session(self.store.engine) as s, s.begin():
            t = self._locked(s, tid)
            if t.state != OPEN:
                raise ServerError(409, "tournament_started", "it started: resign its games")
            row = s.get(EntrantRow, (tid, account.id))
            if row is not None:
                s.delete(row)

    def begin(self, account: Account, tid: int) -> None:
        """The organiser starts the tournament: entries close, round 1 is paired."""
        with Session(self.store.engine) as s, s.begin():
            t = self._locked(s, tid)
            if t.organiser_id != account.id:
                raise ServerError(403, "not_organiser", "only its organiser starts it")
            if t.state != OPEN:
                raise ServerError(409, "tournament_started", "it already started")
            n = len(s.scalars(select(EntrantRow).where(EntrantRow.tournament_id == tid)).all())
            if n < max(2, t.players):
                raise ServerError(409, "too_few_players",
                                  f"it needs at least {max(2, t.players)} players, has {n}")
            if t.kind == "round-robin":
                t.rounds = pairing.rounds_needed(t.kind, n)
            t.state, t.updated_at = PLAYING, now()
        self.step(tid)

    def close(self, admin: Account, tid: int) -> None:
        """An admin closes the tournament (no further rounds; its games play on); logged."""
        with Session(self.store.engine) as s, s.begin():
            t = self._locked(s, tid)
            before = t.state
            t.state, t.updated_at = CLOSED, now()
        self.accounts.log(admin, "close_tournament", f"tournament:{tid}", {"was": before})

    # ------------------------------------------------------------ rounds
    def advance(self, tid: int) -> bool:
        """Pair the next round once every table of this one has its result, or finish the
        tournament after its last round. Whether anything changed. Under the row lock."""
        with Session(self.store.engine) as s, s.begin():
            t = self._locked(s, tid)
            if t.state != PLAYING:
                return False
            tables = s.scalars(
                select(TournamentTableRow).where(TournamentTableRow.tournament_id == tid)
            ).all()
            if any(r.places is None for r in tables if r.round == t.round):
                return False
            t.updated_at = now()
            if t.round >= t.rounds:
                t.state = FINISHED
                return True
            players = self._players(s, tid)
            nxt = t.round + 1
            if t.kind == "round-robin":
                made = pairing.pair_round_robin(players, nxt)
            else:
                made = pairing.pair_swiss(players, _results(tables), t.players)
            for board, seats in enumerate(made.tables):
                s.add(TournamentTableRow(tournament_id=tid, round=nxt, board=board,
                                         players=list(seats)))
            for k, bye in enumerate(made.byes):
                s.add(TournamentTableRow(tournament_id=tid, round=nxt,
                                         board=len(made.tables) + k, players=[bye], places=[1]))
            t.round = nxt
            return True

    def _players(self, s: Session, tid: int) -> list[int]:
        q = select(EntrantRow.account_id).where(EntrantRow.tournament_id == tid)
        return [int(a) for (a,) in s.execute(q.order_by(EntrantRow.entry)).all()]

    def make_tables(self, tid: int) -> int:
        """Make the games of the current round's tables that have none yet (how many)."""
        with Session(self.store.engine) as s:
            t = s.get(TournamentRow, tid)
            if t is None or t.state != PLAYING:
                return 0
            todo = s.scalars(
                select(TournamentTableRow).where(
                    TournamentTableRow.tournament_id == tid, TournamentTableRow.round == t.round,
                    TournamentTableRow.game_id.is_(None),
                )
            ).all()
            names = dict(s.execute(select(AccountRow.id, AccountRow.display_name)).all())
            spec = (t.game, t.players, dict(t.options), dict(t.clock), bool(t.rated))
            jobs = [(r.round, r.board, list(r.players)) for r in todo if len(r.players) > 1]
        for round_no, board, seats in jobs:
            self._make_table(tid, round_no, board, seats, spec, names)
        return len(jobs)

    def _make_table(self, tid: int, round_no: int, board: int, seats: list[int],
                    spec: tuple[str, int, dict[str, Any], dict[str, Any], bool],
                    names: dict[int, str]) -> None:
        game, players, options, clock, rated = spec
        gid = table_id(tid, round_no, board)
        if self.store.versions([gid]) == {}:
            with contextlib.suppress(IntegrityError):  # another process made it first
                self.manager.create(NewGame(
                    game, ["human"] * players, players, options,
                    [names.get(a, f"Player {i + 1}")[:32] for i, a in enumerate(seats)],
                    clock=clock, rated=rated, tournament=tid, game_id=gid,
                ))
        with Session(self.store.engine) as s, s.begin():
            # the seats are the players' (ON CONFLICT: another process bound them already)
            rows = [{"game_id": gid, "seat": i, "account_id": a, "since": now()}
                    for i, a in enumerate(seats)]
            s.execute(_insert(s)(SeatAccountRow).values(rows).on_conflict_do_nothing())
            s.execute(
                update(TournamentTableRow)
                .where(TournamentTableRow.tournament_id == tid,
                       TournamentTableRow.round == round_no, TournamentTableRow.board == board)
                .values(game_id=gid)
            )

    def step(self, tid: int) -> None:
        """Advance ``tid`` as far as it goes now and make its tables (one step at a time in
        this process; other processes are kept apart by the row lock and the fixed ids)."""
        with self._stepping:
            while self.advance(tid):
                pass
            self.make_tables(tid)

    def running(self) -> list[int]:
        with Session(self.store.engine) as s:
            q = select(TournamentRow.id).where(TournamentRow.state == PLAYING)
            return [int(x) for (x,) in s.execute(q).all()]

    # ------------------------------------------------------------ reads
    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """The most recent tournaments, open ones first."""
        with Session(self.store.engine) as s:
            q = select(TournamentRow).order_by(TournamentRow.updated_at.desc()).limit(limit)
            rows = sorted(s.scalars(q), key=lambda t: t.state != OPEN)
            return [_summary(t) for t in rows]

    def view(self, tid: int) -> dict[str, Any]:
        """A tournament: its settings, entrants, every round's tables with their results, and
        the standings with their tie-breaks (points, Buchholz, Sonneborn-Berger)."""
        with Session(self.store.engine) as s:
            t = s.get(TournamentRow, tid)
            if t is None:
                raise ServerError(404, "no_tournament", f"no tournament {tid}")
            players = self._players(s, tid)
            names = dict(s.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(players))
            ).all())
            tables = s.scalars(
                select(TournamentTableRow).where(TournamentTableRow.tournament_id == tid)
                .order_by(TournamentTableRow.round, TournamentTableRow.board)
            ).all()
            organiser = s.get(AccountRow, t.organiser_id)
            rounds: dict[int, list[dict[str, Any]]] = {}
            for r in tables:
                rounds.setdefault(r.round, []).append({
                    "board": r.board, "game_id": r.game_id, "bye": len(r.players) == 1,
                    "players": [names.get(a, "?") for a in r.players], "places": r.places,
                })
            table = pairing.standings(players, _results(tables))
            return {
                **_summary(t), "organiser": organiser.name if organiser else None,
                "entrants": [names.get(a, "?") for a in players],
                "schedule": [{"round": k, "tables": v} for k, v in sorted(rounds.items())],
                "standings": [
                    {"rank": i + 1, "name": names.get(x.player, "?"), "points": x.points,
                     "buchholz": x.buchholz, "sonneborn_berger": x.sonneborn_berger,
                     "games": x.games, "byes": x.byes}
                    for i, x in enumerate(table)
                ],
            }

    # ------------------------------------------------------------ the driver
    def start(self) -> None:
        """Start the driver thread (advances every running tournament every ``poll``
        seconds, and at once when a result was recorded)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._drive, name="tournaments", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _drive(self) -> None:
        while not self._stop.is_set():
            self.wake.wait(self.poll)
            self.wake.clear()
            if self._stop.is_set():
                return
            self.tick()

    def tick(self) -> None:
        """One pass over the running tournaments; a failure (a race lost on SQLite, the
        database away) is logged and tried again on the next pass."""
        try:
            ids = self.running()
        except Exception:  # noqa: BLE001 - the driver must outlive a database hiccup
            log.warning("tournaments: cannot read the running ones", exc_info=True)
            return
        for tid in ids:
            try:
                self.step(tid)
            except (IntegrityError, OperationalError):
                log.info("tournament %d: lost a race, trying again", tid, exc_info=True)
            except Exception:  # noqa: BLE001
                log.exception("tournament %d: advancing failed", tid)


def _summary(t: TournamentRow) -> dict[str, Any]:
    return {
        "id": t.id, "name": t.name, "kind": t.kind, "game": t.game, "players": t.players,
        "clock": t.clock, "rated": t.rated, "rounds": t.rounds, "round": t.round,
        "state": t.state, "updated_at": t.updated_at.isoformat(),
    }


def _results(tables: Any) -> list[pairing.Result]:
    return [
        pairing.Result(r.round, tuple(r.players), tuple(r.places), bye=len(r.players) == 1)
        for r in tables
        if r.places is not None
    ]
