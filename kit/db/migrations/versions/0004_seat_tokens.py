"""Seats' own links: one token hash per seat of a game (a player, or a table), never the token.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``seat_tokens``: (game, seat kind, seat name) -> the SHA-256 of that seat's token."""
    op.create_table(
        "seat_tokens",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("seat", sa.String(100), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_index("seat_tokens_hash", "seat_tokens", ["game_id", "token_hash"], unique=True)


def downgrade() -> None:
    op.drop_index("seat_tokens_hash", "seat_tokens")
    op.drop_table("seat_tokens")
