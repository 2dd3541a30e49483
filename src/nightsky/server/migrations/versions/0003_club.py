"""The club's tables: ratings and their events, friends, seat invitations, tournaments; and
on ``games`` whether a table is rated and which tournament made it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_club"
down_revision = "0002_accounts"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def _account_fk() -> sa.ForeignKey:
    return sa.ForeignKey("accounts.id", ondelete="CASCADE")


def _game_fk() -> sa.ForeignKey:
    return sa.ForeignKey("games.id", ondelete="CASCADE")


def upgrade() -> None:
    op.add_column("games", sa.Column("rated", sa.Boolean(), nullable=True))
    op.add_column("games", sa.Column("tournament", sa.Integer(), nullable=True))
    op.create_index("ix_games_tournament", "games", ["tournament"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), _account_fk(), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_ratings_ordinal", "ratings", ["ordinal"])
    op.create_table(
        "rating_events",
        sa.Column("game_id", sa.String(32), _game_fk(), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("family", sa.String(8), nullable=False),
        sa.Column("at", TZ, nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("unrated", sa.String(200), nullable=True),
    )
    op.create_index("ix_rating_events_at", "rating_events", ["at"])
    _friends()
    _tournaments()


def _friends() -> None:
    op.create_table(
        "friends",
        sa.Column("account_id", sa.Integer(), _account_fk(), primary_key=True),
        sa.Column("friend_id", sa.Integer(), _account_fk(), primary_key=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_index("ix_friends_friend", "friends", ["friend_id", "state"])
    op.create_table(
        "seat_invites",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), _game_fk(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("from_id", sa.Integer(), _account_fk(), nullable=False),
        sa.Column("to_id", sa.Integer(), _account_fk(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    for name in ("game_id", "from_id", "to_id", "at"):
        op.create_index(f"ix_seat_invites_{name}", "seat_invites", [name])


def _tournaments() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("organiser_id", sa.Integer(), _account_fk(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("updated_at", TZ, nullable=False),
    )
    op.create_index("ix_tournaments_state", "tournaments", ["state"])
    op.create_table(
        "entrants",
        sa.Column(
            "tournament_id", sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True,
        ),
        sa.Column("account_id", sa.Integer(), _account_fk(), primary_key=True),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_table(
        "tournament_tables",
        sa.Column(
            "tournament_id", sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True,
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("places", sa.JSON(), nullable=True),
        sa.UniqueConstraint("game_id", name="uq_tournament_tables_game"),
    )


def downgrade() -> None:
    for table in (
        "tournament_tables", "entrants", "tournaments", "seat_invites", "friends",
        "rating_events", "ratings",
    ):
        op.drop_table(table)
    op.drop_index("ix_games_tournament", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("tournament")
        batch.drop_column("rated")
