"""A seat of a table: who plays it (``SeatKind``), its secret token and one-time invites.

Only hashes of tokens and invite codes are kept; they are compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class SeatKind(StrEnum):
    """Who plays a seat: a person with a token, a bot of a spec, or the rules themselves (a
    seat the game adds, such as Starlight's Starbots: never stored, only shown)."""

    HUMAN = "human"
    BOT = "bot"
    GAME = "game"


def hash_token(token: str) -> str:
    """The SHA-256 of a token or invite code, as stored."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class Seat:
    """One seat of a game: a human (with the hash of its secret token) or a bot (a spec)."""

    kind: SeatKind
    name: str
    spec: str | None = None
    token_hash: str | None = None
    joined: bool = False
    # One-time invite: the hash of the live code, and those of codes already spent or renewed.
    invite_hash: str | None = None
    spent: list[str] = field(default_factory=list)
    left: bool = False  # its player gave the seat up (the creator may invite someone else)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Seat:
        return cls(
            kind=SeatKind(row["kind"]),
            name=row["name"],
            spec=row.get("spec"),
            token_hash=row.get("token_hash"),
            joined=bool(row.get("joined")),
            invite_hash=row.get("invite_hash"),
            spent=list(row.get("spent") or []),
            left=bool(row.get("left")),
        )

    def row(self) -> dict[str, Any]:
        """The JSON stored in the ``games.seats`` column."""
        out: dict[str, Any] = {
            "kind": self.kind.value,
            "spec": self.spec,
            "name": self.name,
            "token_hash": self.token_hash,
            "joined": self.joined,
        }
        if self.human:
            out.update(invite_hash=self.invite_hash, spent=self.spent, left=self.left)
        return out

    @property
    def human(self) -> bool:
        """Whether a person plays the seat (with a token)."""
        return self.kind is SeatKind.HUMAN

    def public(self, index: int, color: str) -> dict[str, Any]:
        """What anyone may know of the seat (``color``: its one colour, board and page)."""
        return {
            "seat": index,
            "kind": self.kind.value,
            "name": self.name,
            "spec": self.spec,
            "joined": self.joined or not self.human,
            "color": color,
        }

    def owns(self, token_hash: str) -> bool:
        return bool(self.token_hash) and hmac.compare_digest(self.token_hash or "", token_hash)

    def new_token(self) -> str:
        """Give the seat a fresh secret (the old one stops working); returns it."""
        token = secrets.token_urlsafe(18)
        self.token_hash = hash_token(token)
        return token

    def new_invite(self) -> str:
        """A fresh one-time invite code for the seat (a previous one is spent)."""
        self.spend_invite()
        code = secrets.token_urlsafe(12)
        self.invite_hash = hash_token(code)
        return code

    def spend_invite(self) -> None:
        if self.invite_hash:
            self.spent = [*self.spent, self.invite_hash][-16:]
        self.invite_hash = None

    def invite_state(self, code_hash: str) -> str | None:
        """"live" or "spent" when ``code_hash`` is this seat's invite, else None."""
        if self.invite_hash and hmac.compare_digest(self.invite_hash, code_hash):
            return "live"
        if any(hmac.compare_digest(h, code_hash) for h in self.spent):
            return "spent"
        return None

def unique_name(name: str, others: list[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... when another seat already goes by it: one
    name per seat, so the log and the board never mix two players up."""
    taken = {o.casefold() for o in others}
    if name.casefold() not in taken:
        return name
    k = 2
    while f"{name} ({k})".casefold() in taken:
        k += 1
    return f"{name} ({k})"

