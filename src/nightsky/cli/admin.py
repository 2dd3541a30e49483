"""``nightsky admin``: the club's administrators, from the server's own machine.

``nightsky admin create NAME`` makes NAME a club admin: an existing account is promoted;
otherwise an account is made with the password asked for (or ``NIGHTSKY_ADMIN_PASSWORD``).
``nightsky admin log`` prints the moderation log. Each act is written to ``moderation_log``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from nightsky.cli.app import app, console, fail

admin = typer.Typer(help="Club administration: make admins, read the moderation log.",
                    no_args_is_help=True)
app.add_typer(admin, name="admin")

DbOption = Annotated[
    str,
    typer.Option(envvar="NIGHTSKY_DB", help="The server's SQLAlchemy URL (as `serve --db`)."),
]


@admin.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The account's user name.", show_default=False)],
    db: DbOption = "sqlite:///nightsky.sqlite3",
    password: Annotated[
        str | None,
        typer.Option(envvar="NIGHTSKY_ADMIN_PASSWORD", show_default=False,
                     help="Password of a new account (asked for when not given)."),
    ] = None,
) -> None:
    """Make NAME a club admin (a new account with a password when NAME has none)."""
    from nightsky.server.accounts import Accounts
    from nightsky.server.rooms import ServerError
    from nightsky.server.settings import Settings
    from nightsky.server.store import Store

    store = Store(db)
    try:
        accounts = Accounts(store, Settings())
        account = accounts.by_name(name)
        if account is None:
            if password is None:
                password = typer.prompt("Password", hide_input=True, confirmation_prompt=True)
            try:
                account = accounts.sign_up(name, password)
            except ServerError as exc:
                fail(exc.message)
            made = "made"
        else:
            made = "promoted"
        accounts.set_flags(account.id, is_admin=True)
        accounts.log(None, "make_admin", f"account:{account.id}",
                     {"name": account.name, "by": "cli"})
        console.print(f"{account.name} is a club admin ({made}).", highlight=False)
    finally:
        store.close()


@admin.command("log")
def log(db: DbOption = "sqlite:///nightsky.sqlite3",
        limit: Annotated[int, typer.Option(min=1, help="Newest entries shown.")] = 50) -> None:
    """Print the moderation log, newest first."""
    from nightsky.server.accounts import Accounts
    from nightsky.server.settings import Settings
    from nightsky.server.store import Store

    store = Store(db)
    try:
        for e in Accounts(store, Settings()).moderation_log(limit):
            console.print(f"{e['at']}  admin={e['admin_id']}  {e['action']}  {e['target']}  "
                          f"{e['detail'] or ''}", highlight=False, markup=False)
    finally:
        store.close()
