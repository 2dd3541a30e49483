"""The HTTP API and pages by resource, each an ``APIRouter`` (``create_app`` includes them all):

- ``tables``: create a table, the lobby, a seat's view, join, leave, resign, record, replay;
- ``invites``: claim an invite, renew one;
- ``moves``: act, undo, away (and ``take_action``, shared with the socket);
- ``push``: the table's WebSocket;
- ``social``: your games, chat, rematch;
- ``pages``: the catalog, the lobby and table pages, the pages about each game;
- ``ops``: health, readiness, metrics;
- ``accounts``: sign up, in and out, password, the account's games and seats;
- ``passkeys``: add a passkey, sign in with one;
- ``profiles``: a member's profile, its JSON and its page;
- ``admin``: moderation (hide a chat line, suspend an account, the log);
- ``club``: leaderboards and ratings, friends, seat invitations by name;
- ``tournaments``: tournaments, their entrants, rounds and standings.

What they share (the seat's token, the table manager, the limits) are the dependencies of
``deps``.
"""

from fastapi import APIRouter

from nightsky.server.routes import (
    accounts,
    admin,
    club,
    invites,
    moves,
    ops,
    pages,
    passkeys,
    profiles,
    push,
    social,
    tables,
    tournaments,
)

ROUTERS: tuple[APIRouter, ...] = (
    pages.router,
    ops.router,
    tables.router,
    moves.router,
    invites.router,
    push.router,
    social.router,
    accounts.router,
    passkeys.router,
    profiles.router,
    admin.router,
    club.router,
    tournaments.router,
)
"""Every router of the application, in the order ``create_app`` includes them."""
