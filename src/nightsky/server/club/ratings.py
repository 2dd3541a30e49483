"""Ratings on the database: settled in the transaction that ends a rated game, read by the
leaderboards and the profiles.

Exactly once: ``Store`` calls ``settle`` inside the commit that carries a rated game's result
(``Store.on_result``). The game row was just updated under its version check, so a second
process committing the same end waits on that row and then fails the check; a later change of
the finished table (a player leaves) carries the result again and finds the game's
``rating_events`` row, keyed by the game id, already there. The players' rating rows are read
``FOR UPDATE`` (PostgreSQL; SQLite has one writer), so two games ending at once in two
processes both count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from nightsky.server.accounts.tables import AccountRow, SeatAccountRow
from nightsky.server.club import rating
from nightsky.server.club.tables import RatingEventRow, RatingRow
from nightsky.server.store import GameRow, Store, now


def _insert(s: Session) -> Any:
    """The dialect's INSERT (it has ``on_conflict_do_nothing``)."""
    return pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert


def settle(s: Session, game_id: str, places: list[int]) -> None:
    """Rate the game ``game_id`` that ends in this transaction (each seat's place in
    ``places``): once, however often its result is written."""
    if s.get(RatingEventRow, game_id) is not None:
        return
    game = s.get(GameRow, game_id)
    assert game is not None  # its row was updated in this very transaction
    fam = rating.family(len(places))
    owners = dict(
        s.execute(
            select(SeatAccountRow.seat, SeatAccountRow.account_id).where(
                SeatAccountRow.game_id == game_id
            )
        ).all()
    )
    why = _unrateable(len(places), owners)
    event = RatingEventRow(game_id=game_id, game=game.game, family=fam, at=now(), changes=[])
    if why:
        event.unrated = why
        s.add(event)
        return
    ids = [int(owners[i]) for i in range(len(places))]
    before = _lock_ratings(s, ids, game.game, fam)
    after = rating.update([before[a] for a in ids], places)
    names = [seat.get("name", "") for seat in game.seats]
    for seat, (a, new) in enumerate(zip(ids, after, strict=True)):
        row = s.get(RatingRow, (a, game.game, fam))
        assert row is not None
        row.mu, row.sigma, row.games = new.mu, new.sigma, new.games
        row.ordinal, row.updated_at = new.ordinal, now()
        event.changes.append(
            {
                "seat": seat, "account_id": a, "name": names[seat] if seat < len(names) else "",
                "place": places[seat], "before": before[a].shown, "after": new.shown,
                "mu": new.mu, "sigma": new.sigma,
            }
        )
    s.add(event)


def _unrateable(players: int, owners: dict[int, int]) -> str | None:
    """Why a rated table cannot count (None: it counts): every seat a distinct account."""
    missing = [i + 1 for i in range(players) if i not in owners]
    if missing:
        return f"not rated: seat {missing[0]} has no account"
    if len(set(owners.values())) < players:
        return "not rated: one account played two seats"
    return None


def _lock_ratings(s: Session, ids: list[int], game: str, fam: str) -> dict[int, rating.Skill]:
    """The accounts' ratings in ``game`` and ``fam``, their rows made if new and locked."""
    start = rating.Skill()
    rows = [
        {"account_id": a, "game": game, "family": fam, "mu": start.mu, "sigma": start.sigma,
         "games": 0, "ordinal": start.ordinal, "updated_at": now()}
        for a in sorted(set(ids))
    ]
    s.execute(_insert(s)(RatingRow).values(rows).on_conflict_do_nothing())
    q = (
        select(RatingRow)
        .where(RatingRow.account_id.in_(ids), RatingRow.game == game, RatingRow.family == fam)
        .order_by(RatingRow.account_id)
        .with_for_update()
    )
    return {r.account_id: rating.Skill(r.mu, r.sigma, r.games) for r in s.scalars(q)}


@dataclass(frozen=True)
class Board:
    """A game's leaderboard in one family."""

    game: str
    family: str
    min_games: int
    rows: list[dict[str, Any]]
    bots: list[dict[str, Any]]


class Ratings:
    """The reads: leaderboards and an account's ratings."""

    def __init__(self, store: Store, min_games: int) -> None:
        self.store, self.min_games = store, min_games

    def leaderboard(self, game: str, fam: str, limit: int = 100) -> Board:
        """The accounts with at least ``min_games`` rated games, best ordinal first, and the
        bot levels' reference ratings to read them by."""
        with Session(self.store.engine) as s:
            q = (
                select(AccountRow.name, AccountRow.display_name, RatingRow)
                .join(RatingRow, RatingRow.account_id == AccountRow.id)
                .where(
                    RatingRow.game == game, RatingRow.family == fam,
                    RatingRow.games >= self.min_games, AccountRow.suspended.is_(False),
                )
                .order_by(RatingRow.ordinal.desc(), AccountRow.name_key)
                .limit(limit)
            )
            rows = [
                {"rank": i + 1, "name": name, "display_name": shown_name,
                 **_skill(game, r)}
                for i, (name, shown_name, r) in enumerate(s.execute(q).all())
            ]
        bots = [
            {"level": level, "rating": rating.shown(v)}
            for level, v in sorted(rating.references(game).items(), key=lambda kv: -kv[1])
        ] if fam == "duel" else []
        return Board(game, fam, self.min_games, rows, bots)

    def of_account(self, account_id: int) -> list[dict[str, Any]]:
        """Every rating of an account (for its profile), most games first."""
        with Session(self.store.engine) as s:
            q = select(RatingRow).where(RatingRow.account_id == account_id)
            rows = sorted(s.scalars(q), key=lambda r: (-r.games, r.game, r.family))
            return [{"game": r.game, "family": r.family, **_skill(r.game, r)} for r in rows]

    def events_of(self, account_id: int, limit: int = 20) -> list[dict[str, Any]]:
        """The account's most recent rated games with its change in each."""
        with Session(self.store.engine) as s:
            games = select(SeatAccountRow.game_id).where(SeatAccountRow.account_id == account_id)
            q = (
                select(RatingEventRow)
                .where(RatingEventRow.game_id.in_(games), RatingEventRow.unrated.is_(None))
                .order_by(RatingEventRow.at.desc())
                .limit(limit)
            )
            out: list[dict[str, Any]] = []
            for ev in s.scalars(q):
                mine = [c for c in ev.changes if c.get("account_id") == account_id]
                if mine:
                    out.append({"game_id": ev.game_id, "game": ev.game, "family": ev.family,
                                "before": mine[0]["before"], "after": mine[0]["after"]})
            return out

    def count(self) -> int:
        with Session(self.store.engine) as s:
            return int(s.execute(select(func.count()).select_from(RatingEventRow)).scalar_one())


def _skill(game: str, r: RatingRow) -> dict[str, Any]:
    return {
        "rating": rating.shown(r.ordinal), "games": r.games, "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3), "like": rating.like_level(game, r.ordinal),
    }
