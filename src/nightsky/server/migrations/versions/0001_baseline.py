"""Baseline: the tables as nightsky made them before Alembic (``games``, ``moves``, ``chat``,
``rematches``).

A database from before Alembic already has them (maybe without the newer nullable columns):
what is missing is added, nothing else is touched. A new database gets them whole.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_baseline"
down_revision = None
branch_labels = None
depends_on = None

# The nullable columns added to ``games`` over the releases (the old ad-hoc upgrade).
LATER_COLUMNS: tuple[tuple[str, sa.types.TypeEngine], ...] = (
    ("undo", sa.JSON()),
    ("seed_source", sa.String(16)),
    ("client", sa.String(64)),
    ("notices", sa.JSON()),
    ("listed", sa.Boolean()),
    ("clock", sa.JSON()),
    ("deadline", sa.DateTime(timezone=True)),
)
INDEXED = ("client", "listed", "deadline")


def upgrade() -> None:
    have = set(sa.inspect(op.get_bind()).get_table_names())
    if "games" not in have:
        _create_games()
    else:
        _add_later_columns()
    if "moves" not in have:
        op.create_table(
            "moves",
            sa.Column(
                "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("idx", sa.Integer(), primary_key=True),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("notation", sa.String(200), nullable=False),
        )
    if "chat" not in have:
        _create_chat()
    if "rematches" not in have:
        _create_rematches()


def _create_chat() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("color", sa.String(32), nullable=False),
        sa.Column("text", sa.String(1200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_game_id", "chat", ["game_id"])


def _create_rematches() -> None:
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("by", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("accepted", sa.JSON(), nullable=False),
        sa.Column("declined_by", sa.Integer(), nullable=True),
        sa.Column("new_id", sa.String(32), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rematches_new_id", "rematches", ["new_id"])


def _create_games() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        *[sa.Column(name, kind, nullable=True) for name, kind in LATER_COLUMNS],
    )
    op.create_index("ix_games_status", "games", ["status"])
    for name in INDEXED:
        op.create_index(f"ix_games_{name}", "games", [name])


def _add_later_columns() -> None:
    inspector = sa.inspect(op.get_bind())
    columns = {c["name"] for c in inspector.get_columns("games")}
    indexes = {i["name"] for i in inspector.get_indexes("games")}
    for name, kind in LATER_COLUMNS:
        if name not in columns:
            op.add_column("games", sa.Column(name, kind, nullable=True))
    for name in ("status", *INDEXED):
        if f"ix_games_{name}" not in indexes:
            op.create_index(f"ix_games_{name}", "games", [name])


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_table("chat")
    op.drop_table("moves")
    op.drop_table("games")
