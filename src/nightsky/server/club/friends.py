"""Friends: befriending by name (a request, then its acceptance), inviting a friend to a seat
by name, and what friends are playing.

Spam is bounded in the database, so across every server process: an account sends at most
``Settings.friend_invites_per_hour`` friend requests and seat invitations together in any
hour (429 ``too_many_invites`` beyond), one open invitation per seat, and only to friends: a
stranger can send one friend request, never a seat invitation.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from nightsky.server.accounts import Account
from nightsky.server.accounts.tables import AccountRow, SeatAccountRow
from nightsky.server.club.tables import FriendRow, SeatInviteRow
from nightsky.server.rooms.errors import ServerError
from nightsky.server.store import GameRow, Store, now

FRIENDS, REQUESTED = "friends", "requested"


class Friends:
    """Friendships and seat invitations on ``store``'s database."""

    def __init__(self, store: Store, per_hour: int) -> None:
        self.store, self.per_hour = store, per_hour

    # ------------------------------------------------------------ friendships
    def _other(self, s: Session, me: Account, name: str) -> AccountRow:
        row = s.scalars(select(AccountRow).where(AccountRow.name_key == name.casefold())).first()
        if row is None or row.suspended:
            raise ServerError(404, "no_such_player", f"no player is called {name!r}", field="name")
        if row.id == me.id:
            raise ServerError(422, "is_you", "name: that is you", field="name")
        return row

    def request(self, me: Account, name: str) -> str:
        """Ask ``name`` to be friends (they accept); if they had asked first, you are friends
        now. Returns the new state: "requested" or "friends"."""
        with Session(self.store.engine) as s, s.begin():
            other = self._other(s, me, name)
            mine = s.get(FriendRow, (me.id, other.id))
            if mine is not None:
                return mine.state
            theirs = s.get(FriendRow, (other.id, me.id))
            if theirs is not None:  # they asked first: asking back accepts
                theirs.state = FRIENDS
                s.add(FriendRow(account_id=me.id, friend_id=other.id, state=FRIENDS, at=now()))
                return FRIENDS
            self._check_rate(s, me)
            s.add(FriendRow(account_id=me.id, friend_id=other.id, state=REQUESTED, at=now()))
            return REQUESTED

    def accept(self, me: Account, name: str) -> None:
        """Accept ``name``'s friend request (404 ``no_request`` when there is none)."""
        with Session(self.store.engine) as s, s.begin():
            other = self._other(s, me, name)
            theirs = s.get(FriendRow, (other.id, me.id))
            if theirs is None:
                raise ServerError(404, "no_request", f"{name} did not ask you", field="name")
            theirs.state = FRIENDS
            if s.get(FriendRow, (me.id, other.id)) is None:
                s.add(FriendRow(account_id=me.id, friend_id=other.id, state=FRIENDS, at=now()))

    def remove(self, me: Account, name: str) -> None:
        """End a friendship, withdraw a request or decline one (both directions go)."""
        with Session(self.store.engine) as s, s.begin():
            other = self._other(s, me, name)
            for a, b in ((me.id, other.id), (other.id, me.id)):
                s.execute(delete(FriendRow).where(FriendRow.account_id == a,
                                                  FriendRow.friend_id == b))

    def are_friends(self, s: Session, a: int, b: int) -> bool:
        row = s.get(FriendRow, (a, b))
        return row is not None and row.state == FRIENDS

    def listing(self, me: Account) -> dict[str, list[dict[str, Any]]]:
        """Your friends, the requests you were sent and those you sent."""
        with Session(self.store.engine) as s:
            out: dict[str, list[dict[str, Any]]] = {"friends": [], "incoming": [], "outgoing": []}
            mine = select(FriendRow.friend_id, FriendRow.state).where(FriendRow.account_id == me.id)
            states = dict(s.execute(mine).all())
            q = select(FriendRow.account_id).where(
                FriendRow.friend_id == me.id, FriendRow.state == REQUESTED
            )
            incoming = {int(a) for (a,) in s.execute(q).all()}
            ids = set(states) | incoming
            names = {
                r.id: {"name": r.name, "display_name": r.display_name}
                for r in s.scalars(select(AccountRow).where(AccountRow.id.in_(ids)))
            }
            for fid, state in states.items():
                out["friends" if state == FRIENDS else "outgoing"].append(names[fid])
            out["incoming"] = [names[i] for i in sorted(incoming) if i in names]
            for v in out.values():
                v.sort(key=lambda x: x["name"].casefold())
            return out

    def friend_ids(self, me: Account) -> list[int]:
        with Session(self.store.engine) as s:
            q = select(FriendRow.friend_id).where(
                FriendRow.account_id == me.id, FriendRow.state == FRIENDS
            )
            return [int(x) for (x,) in s.execute(q).all()]

    # ------------------------------------------------------------ seat invitations
    def _check_rate(self, s: Session, me: Account) -> None:
        """429 once the account sent ``per_hour`` requests and invitations this hour."""
        since = now() - timedelta(hours=1)
        sent = s.execute(
            select(func.count()).select_from(SeatInviteRow)
            .where(SeatInviteRow.from_id == me.id, SeatInviteRow.at >= since)
        ).scalar_one() + s.execute(
            select(func.count()).select_from(FriendRow)
            .where(FriendRow.account_id == me.id, FriendRow.state == REQUESTED,
                   FriendRow.at >= since)
        ).scalar_one()
        if sent >= self.per_hour:
            raise ServerError(
                429, "too_many_invites",
                f"you sent {self.per_hour} friend requests and invitations this hour; "
                "wait a while", retry_after=600,
            )

    def invite(self, me: Account, game_id: str, seat: int, name: str) -> int:
        """Invite the friend ``name`` to ``seat`` of ``game_id`` (the caller checked that you
        created the table and that the seat is free). The invitation's id."""
        with Session(self.store.engine) as s, s.begin():
            other = self._other(s, me, name)
            if not self.are_friends(s, me.id, other.id):
                raise ServerError(
                    403, "not_friends", f"{name} is not your friend: befriend them first",
                    field="name",
                )
            self._check_rate(s, me)
            # a new invitation for the seat replaces an open one
            s.execute(
                update(SeatInviteRow)
                .where(SeatInviteRow.game_id == game_id, SeatInviteRow.seat == seat,
                       SeatInviteRow.state == "open")
                .values(state="gone")
            )
            row = SeatInviteRow(game_id=game_id, seat=seat, from_id=me.id, to_id=other.id,
                                state="open", at=now())
            s.add(row)
            s.flush()
            return int(row.id)

    def invitations(self, me: Account) -> list[dict[str, Any]]:
        """The open invitations to you, newest first, with their tables."""
        with Session(self.store.engine) as s:
            q = (
                select(SeatInviteRow, AccountRow.name, GameRow.game, GameRow.rated)
                .join(AccountRow, AccountRow.id == SeatInviteRow.from_id)
                .join(GameRow, GameRow.id == SeatInviteRow.game_id)
                .where(SeatInviteRow.to_id == me.id, SeatInviteRow.state == "open",
                       GameRow.status == "playing")
                .order_by(SeatInviteRow.at.desc())
                .limit(50)
            )
            return [
                {"id": inv.id, "game_id": inv.game_id, "seat": inv.seat, "from": name,
                 "game": game, "rated": bool(rated), "at": inv.at.isoformat()}
                for inv, name, game, rated in s.execute(q).all()
            ]

    def open_invitation(self, me: Account, invite_id: int) -> tuple[str, int]:
        """(game id, seat) of your open invitation ``invite_id`` (404 otherwise)."""
        with Session(self.store.engine) as s:
            inv = s.get(SeatInviteRow, invite_id)
            if inv is None or inv.to_id != me.id or inv.state != "open":
                raise ServerError(404, "no_invitation", "no such open invitation for you")
            return inv.game_id, inv.seat

    def close_invitation(self, invite_id: int, state: str) -> None:
        with Session(self.store.engine) as s, s.begin():
            s.execute(update(SeatInviteRow).where(SeatInviteRow.id == invite_id)
                      .values(state=state))

    def friends_games(self, me: Account) -> list[tuple[str, str]]:
        """(game id, friend's name) of the unfinished games your friends sit at."""
        with Session(self.store.engine) as s:
            friends = select(FriendRow.friend_id).where(
                FriendRow.account_id == me.id, FriendRow.state == FRIENDS
            )
            q = (
                select(SeatAccountRow.game_id, AccountRow.name)
                .join(AccountRow, AccountRow.id == SeatAccountRow.account_id)
                .join(GameRow, GameRow.id == SeatAccountRow.game_id)
                .where(SeatAccountRow.account_id.in_(friends), GameRow.status == "playing")
                .order_by(GameRow.updated_at.desc())
                .limit(100)
            )
            return [(str(g), str(n)) for g, n in s.execute(q).all()]
