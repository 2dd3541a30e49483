"""The club's tables: accounts, their sessions and passkeys, WebAuthn challenges, sign-in
failures, which account plays which seat, the moderation log and hidden chat lines."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_accounts"
down_revision = "0001_baseline"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def _account_fk(ondelete: str = "CASCADE") -> sa.ForeignKey:
    return sa.ForeignKey("accounts.id", ondelete=ondelete)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False, unique=True),
        sa.Column("display_name", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("is_admin", sa.Boolean(), nullable=False),
        sa.Column("suspended", sa.Boolean(), nullable=False),
        sa.Column("user_handle", sa.LargeBinary(64), nullable=False),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), _account_fk(), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("last_seen", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_index("ix_account_sessions_expires_at", "account_sessions", ["expires_at"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.LargeBinary(1024), primary_key=True),
        sa.Column("account_id", sa.Integer(), _account_fk(), nullable=False),
        sa.Column("public_key", sa.LargeBinary(2048), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.LargeBinary(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.Integer(), _account_fk(), nullable=True),
        sa.Column("expires_at", TZ, nullable=False),
    )
    op.create_table(
        "sign_in_failures",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("locked_until", TZ, nullable=True),
        sa.Column("updated_at", TZ, nullable=False),
    )
    _seats_and_log()


def _seats_and_log() -> None:
    op.create_table(
        "seat_accounts",
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), _account_fk(), nullable=False),
        sa.Column("since", TZ, nullable=False),
        sa.Column("won", sa.Boolean(), nullable=True),
    )
    op.create_index("ix_seat_accounts_account", "seat_accounts", ["account_id", "game_id"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", TZ, nullable=False),
        sa.Column("admin_id", sa.Integer(), _account_fk("SET NULL"), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(128), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])
    op.create_table(
        "hidden_chat",
        sa.Column("line_id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("at", TZ, nullable=False),
        sa.Column("admin_id", sa.Integer(), _account_fk("SET NULL"), nullable=True),
    )


def downgrade() -> None:
    for table in (
        "hidden_chat", "moderation_log", "seat_accounts", "sign_in_failures", "webauthn_challenges",
        "passkeys", "account_sessions", "accounts",
    ):
        op.drop_table(table)
